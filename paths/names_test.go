package paths

import (
	"errors"
	"testing"
	"time"
)

// The fields of a file name are the run's time in UTC, and its day and
// month in the job's zone: 23:30 UTC on the last day of a month is the
// next month in Berlin.
func TestFill(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	at := time.Date(2026, 10, 31, 23, 30, 5, 0, time.UTC)
	for _, tc := range []struct {
		pattern string
		loc     *time.Location
		want    string
	}{
		{"orders-{time}.csv", berlin, "orders-20261031T233005Z.csv"},
		{"reports/slips-{month}.xlsx", berlin, "reports/slips-2026-11.xlsx"},
		{"reports/slips-{month}.xlsx", nil, "reports/slips-2026-10.xlsx"},
		{"daily/{date}-{time}.csv", berlin, "daily/2026-11-01-20261031T233005Z.csv"},
		{"plain.csv", berlin, "plain.csv"},
	} {
		if got := Fill(tc.pattern, at, tc.loc); got != tc.want {
			t.Errorf("Fill(%q, %v) = %q, want %q", tc.pattern, tc.loc, got, tc.want)
		}
		if HasFields(tc.pattern) != (tc.pattern != "plain.csv") {
			t.Errorf("HasFields(%q) = %v", tc.pattern, HasFields(tc.pattern))
		}
	}
}

func TestCheckFields(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern string
		bad     bool
	}{
		{"reports/{month}.xlsx", false},
		{"reports-{month}/slips.xlsx", true},
		{"{date}/orders-{time}.csv", true},
	} {
		if err := CheckFields(tc.pattern); errors.Is(err, ErrFieldInFolder) != tc.bad {
			t.Errorf("CheckFields(%q) = %v", tc.pattern, err)
		}
	}
}
