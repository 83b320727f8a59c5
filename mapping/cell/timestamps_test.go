package cell

import (
	"testing"
	"time"
)

func TestParseTimestamp(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	layouts := []string{"02/01/2006"}
	for _, c := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2026-01-15", time.Date(2026, 1, 15, 0, 0, 0, 0, berlin), true},
		{"2026-01-15T00:00:00+02:00", time.Date(2026, 1, 14, 22, 0, 0, 0, time.UTC), true},
		{"2026-01-15 00:00 Z", time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC), true},
		{"2026-01-15T13:45:10.5-0500", time.Date(2026, 1, 15, 18, 45, 10, 5e8, time.UTC), true},
		{"15/01/2026 12:00 AM", time.Date(2026, 1, 15, 0, 0, 0, 0, berlin), true},
		{"15/01/2026 12:30 PM UTC", time.Date(2026, 1, 15, 12, 30, 0, 0, time.UTC), true},
		{"2026-01-15 09:00 GMT", time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC), true},
		{"2026-01-15 09:00 CEST", time.Time{}, false},
		{"2026-01-15 25:00", time.Time{}, false},
		{"next tuesday", time.Time{}, false},
	} {
		got, ok := ParseTimestamp(c.in, layouts, berlin)
		if ok != c.ok || (ok && !got.Equal(c.want)) {
			t.Errorf("ParseTimestamp(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
