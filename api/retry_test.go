package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"lading/api/wire"
)

// TestDecide goes through the retry decision case by case.
func TestDecide(t *testing.T) {
	t.Parallel()
	refused := &url.Error{Op: "Post", URL: "http://127.0.0.1:1/v2/Variants", Err: &net.OpError{Op: "dial", Err: errors.New("connection refused")}}
	reset := &url.Error{Op: "Post", URL: "http://127.0.0.1:1/v1/Variants/detail", Err: io.ErrUnexpectedEOF}
	timeout := &url.Error{Op: "Post", URL: "http://127.0.0.1:1/v1/Variants/detail", Err: context.DeadlineExceeded}
	cancelled := &url.Error{Op: "Post", URL: "http://127.0.0.1:1/v1/Variants/detail", Err: context.Canceled}
	throttleBody := []byte(`{"message":"` + wire.ThrottleText + `"}`)

	tests := []struct {
		name string
		r    reply
		want verdict
	}{
		// Answers in 2xx.
		{"read 200", reply{sent: true, status: 200}, done},
		{"write 200", reply{write: true, sent: true, status: 200}, done},
		{"write 201", reply{write: true, sent: true, status: 201}, done},
		{"write 200 after the context ended", reply{write: true, sent: true, status: 200, cancelled: true}, done},

		// Throttling: nothing applied, read or write.
		{"read 429", reply{sent: true, status: 429}, throttle},
		{"write 429", reply{write: true, sent: true, status: 429}, throttle},
		{"write 429 with a body", reply{write: true, sent: true, status: 429, body: []byte(`{"message":"slow down"}`)}, throttle},
		{"write 403 throttle body", reply{write: true, sent: true, status: 403, body: throttleBody}, throttle},
		{"read 403 throttle body", reply{sent: true, status: 403, body: throttleBody}, throttle},

		// Permanent: 4xx other than throttling, and 3xx. Never sent again.
		{"write 403 permission", reply{write: true, sent: true, status: 403, body: []byte(`{"message":"third-party stock control is off"}`)}, report},
		{"read 403 empty", reply{sent: true, status: 403}, report},
		{"write 401", reply{write: true, sent: true, status: 401}, report},
		{"write 400 without records", reply{write: true, sent: true, status: 400, body: []byte(`{"message":"malformed envelope"}`)}, report},
		{"write 400 with records", reply{write: true, sent: true, status: 400, body: []byte(`{"message":"x","errors":[{"index":0,"message":"bad"}]}`)}, report},
		{"write 404", reply{write: true, sent: true, status: 404}, report},
		{"read 404", reply{sent: true, status: 404}, report},
		{"write 405", reply{write: true, sent: true, status: 405}, report},
		{"write 408", reply{write: true, sent: true, status: 408}, report},
		{"write 409", reply{write: true, sent: true, status: 409}, report},
		{"write 413", reply{write: true, sent: true, status: 413}, report},
		{"write 422", reply{write: true, sent: true, status: 422}, report},
		{"read 301", reply{sent: true, status: 301}, report},
		{"write 307", reply{write: true, sent: true, status: 307}, report},
		{"write 404 after the context ended", reply{write: true, sent: true, status: 404, cancelled: true}, report},

		// 5xx: a read is tried again; a write may have been applied.
		{"read 500", reply{sent: true, status: 500}, retry},
		{"read 502", reply{sent: true, status: 502}, retry},
		{"read 503", reply{sent: true, status: 503}, retry},
		{"write 500", reply{write: true, sent: true, status: 500}, unknown},
		{"write 502", reply{write: true, sent: true, status: 502}, unknown},
		{"write 503", reply{write: true, sent: true, status: 503}, unknown},
		{"write 504", reply{write: true, sent: true, status: 504}, unknown},

		// Connection failures.
		{"read refused", reply{err: refused}, retry},
		{"write refused before sending", reply{write: true, err: refused}, retry},
		{"read lost after sending", reply{sent: true, err: reset}, retry},
		{"write lost after sending", reply{write: true, sent: true, err: reset}, unknown},
		{"write unreadable answer", reply{write: true, sent: true, status: 200, err: io.ErrUnexpectedEOF}, unknown},
		{"read unreadable answer", reply{sent: true, status: 200, err: io.ErrUnexpectedEOF}, retry},
		{"write timed out after sending", reply{write: true, sent: true, err: timeout}, unknown},
		{"read timed out (client timeout)", reply{sent: true, err: timeout}, retry},

		// The caller's context ended.
		{"write cancelled before sending", reply{write: true, err: cancelled, cancelled: true}, stop},
		{"write cancelled after sending", reply{write: true, sent: true, err: cancelled, cancelled: true}, unknown},
		{"read cancelled", reply{sent: true, err: cancelled, cancelled: true}, stop},
		{"read cancelled before sending", reply{err: cancelled, cancelled: true}, stop},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := decide(tt.r); got != tt.want {
				t.Errorf("decide(%+v) = %v, want %v", tt.r, got, tt.want)
			}
		})
	}
}

// TestRetryAfterDoesNotChangeTheDecision: Retry-After sets how long to wait
// before a retry the decision allows; it never makes a write retried or a
// permanent answer tried again.
func TestRetryAfterDoesNotChangeTheDecision(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status   int
		write    bool
		requests int
		want     Outcome
	}{
		{http.StatusServiceUnavailable, false, 2, Retryable},
		{http.StatusServiceUnavailable, true, 1, Unknown},
		{http.StatusTooManyRequests, true, 2, Retryable},
		{http.StatusBadRequest, true, 1, Rejected},
		{http.StatusNotFound, false, 1, Rejected},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status, " write=", tt.write), func(t *testing.T) {
			srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
				w.Header().Set("Retry-After", "0.05")
				w.WriteHeader(tt.status)
			})
			c := newTestClient(t, srv.URL, WithRetries(1), WithBackoff(time.Minute, time.Minute))
			var err error
			start := time.Now()
			if tt.write {
				_, err = c.Variants.Write(context.Background(), []VariantWrite{{ID: "1"}})
			} else {
				_, err = c.Variants.Get(context.Background(), "1")
			}
			if got := Classify(err); got != tt.want {
				t.Errorf("Classify = %v, want %v (err: %v)", got, tt.want, err)
			}
			if n := len(srv.requests()); n != tt.requests {
				t.Errorf("requests = %d, want %d", n, tt.requests)
			}
			// The minute of backoff is not waited: Retry-After says 50ms.
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v: the backoff was used instead of Retry-After", d)
			}
		})
	}
}
