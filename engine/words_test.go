package engine

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"lading/api"
)

var testWords = Words{Job: "push", Record: "level", Again: "push again", Writes: "stock levels"}

func TestRefusedSaysWhatToDoForEveryStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		code int
		want string
	}{
		{http.StatusBadRequest, "correct what it names, then push again"},
		{http.StatusUnauthorized, "log in again or give a valid token"},
		{http.StatusForbidden, "may write stock levels in"},
		{http.StatusNotFound, "check that the service's address (base URL) is right"},
		{http.StatusMethodNotAllowed, "no such address"},
		{http.StatusGone, "no such address"},
		{http.StatusConflict, "push again, which reads the account first"},
		{http.StatusRequestEntityTooLarge, "push again with fewer levels per request"},
		{http.StatusUnsupportedMediaType, "a fault in lading"},
		{http.StatusUnprocessableEntity, "correct what it names"},
		{http.StatusTooManyRequests, "push again later"},
		{http.StatusBadGateway, "push again later"},
		{http.StatusMovedPermanently, "give that address as the service's address"},
		{http.StatusTeapot, "push again once what it names is fixed"},
	}
	for _, tt := range tests {
		got := testWords.Refused(&api.APIError{StatusCode: tt.code, Message: "the reason"})
		if !strings.Contains(got, tt.want) || !strings.Contains(got, "the reason") || !strings.HasPrefix(got, "not sent: ") {
			t.Errorf("%d: %q, want it to contain %q and the service's message", tt.code, got, tt.want)
		}
	}
	if got := testWords.Refused(errors.New("boom")); !strings.Contains(got, "fault in lading") {
		t.Errorf("a refusal that is not the service's: %q", got)
	}
}

func TestWordsCountInTheSingularAndPlural(t *testing.T) {
	t.Parallel()
	tests := []struct {
		got, want string
	}{
		{testWords.Records(1), "1 level"},
		{testWords.Records(2), "2 levels"},
		{testWords.Records(1500), "1,500 levels"},
		{testWords.Strict(1), "1 row of the file cannot be sent as it is and this push is strict (all or nothing); fix it and push again"},
		{testWords.Strict(3), "3 rows of the file cannot be sent as they are"},
	}
	for _, tt := range tests {
		if !strings.Contains(tt.got, tt.want) {
			t.Errorf("%q, want %q", tt.got, tt.want)
		}
	}
}

func TestStatusFailed(t *testing.T) {
	t.Parallel()
	for s, want := range map[Status]bool{Created: false, Updated: false, Unchanged: false, ToCreate: false, Skipped: false,
		Invalid: true, Unknown: true, Refused: true, Failed: true, "sent": false} {
		if s.Failed() != want {
			t.Errorf("%q.Failed() = %v", s, !want)
		}
	}
	c := Counts{Created: 2, Invalid: 1, Failed: 3, Skipped: 4}
	if c.Failed() != 4 || c.Total() != 10 {
		t.Errorf("counts %v: failed %d total %d", c, c.Failed(), c.Total())
	}
}
