package sheet

import (
	"math"
	"testing"
	"time"
)

func TestParseNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in       string
		kind     Kind
		want     float64
		decimals int
		ok       bool
	}{
		{"12.5", Number, 12.5, 1, true},
		{"-3", Number, -3, 0, true},
		{"+4", Number, 4, 0, true},
		{".5", Money, 0.5, 1, true},
		{"12.", Money, 12, 0, true},
		{"0012.50", Money, 12.5, 2, true},
		{"-0", Number, 0, 0, true},
		{"1e3", Money, 1000, 0, true},
		{"1.25E-2", Number, 0.0125, 4, true},
		{"123456789012345", Integer, 123456789012345, 0, true},
		{"1234567890123456", Integer, 0, 0, false}, // 16 digits: Excel would round
		{"100000000000000000000", Number, 1e20, 0, true},
		{"0.000000000000000000001", Number, 1e-21, 15, true},
		{"12.0", Integer, 12, 1, true},
		{"12.5", Integer, 0, 0, false},
		{"", Number, 0, 0, false},
		{".", Number, 0, 0, false},
		{"-", Number, 0, 0, false},
		{"1,5", Number, 0, 0, false},
		{"1.2.3", Number, 0, 0, false},
		{"1_000", Number, 0, 0, false},
		{"0x10", Number, 0, 0, false},
		{"Inf", Number, 0, 0, false},
		{"-Inf", Number, 0, 0, false},
		{"NaN", Number, 0, 0, false},
		{"1e", Number, 0, 0, false},
		{"1e+", Number, 0, 0, false},
		{"1e+-2", Number, 0, 0, false},
		{"1e99999", Number, 0, 0, false},
		{"1e400", Number, 0, 0, false}, // out of range
		{" 12", Number, 0, 0, false},
		{"12 ", Number, 0, 0, false},
		{"+-1", Number, 0, 0, false},
	}
	for _, tt := range tests {
		n, ok := parseNumber(tt.in, tt.kind)
		if ok != tt.ok || ok && (n.v != tt.want || n.decimals != tt.decimals) {
			t.Errorf("parseNumber(%q, %v) = %v, %d, %v; want %v, %d, %v", tt.in, tt.kind, n.v, n.decimals, ok, tt.want, tt.decimals, tt.ok)
		}
	}
}

func TestParseTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		kind Kind
		want float64
		ok   bool
	}{
		{"2026-01-05", Date, 46027, true},
		{"1900-03-01", Date, 61, true},
		{"1900-02-28", Date, 0, false}, // Excel's count is wrong before March 1900
		{"9999-12-31", Date, 2958465, true},
		{"2026-01-05 12:00:00", DateTime, 46027.5, true},
		{"2026-01-05T18:00:00Z", DateTime, 46027.75, true},
		{"2026-01-05T18:00:00+00:00", DateTime, 46027.75, true},
		{"2026-01-05T18:00:00+0000", DateTime, 46027.75, true},
		{"2026-01-05T20:00:00+02:00", DateTime, 46027.75, true}, // in UTC
		{"2026-01-05T18:00:00", DateTime, 46027.75, true},
		{"2026-01-05T06:00:00.5Z", DateTime, 46027.25 + 0.5/86400, true},
		{"2026-01-05", DateTime, 46027, true},
		{"2026-01-05T18:00:00Z", Date, 46027, true},      // a date column keeps the day
		{"2026-01-05T23:30:00-02:00", Date, 46028, true}, // of UTC
		{"2026-02-30", Date, 0, false},
		{"05/01/2026", Date, 0, false},
		{"2026-1-5", Date, 0, false},
		{"2026-01-05 25:00:00", DateTime, 0, false},
		{"", Date, 0, false},
	}
	for _, tt := range tests {
		got, ok := parseTime(tt.in, tt.kind, nil)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("parseTime(%q, %v) = %v, %v; want %v, %v", tt.in, tt.kind, got, ok, tt.want, tt.ok)
		}
	}
}

// In a zone, a date-time is what a clock there shows, and a date column
// keeps its day there: a Berlin slip of 24 November 00:30 (23:30 UTC the
// day before) is on the 24th. A date alone stays the day it is.
func TestTimesInAZone(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	for _, tt := range []struct {
		in   string
		kind Kind
		xlsx float64
		csv  string
	}{
		{"2026-11-23T23:30:00+00:00", Date, 46350, "2026-11-24"},
		{"2026-11-23T23:30:00+00:00", DateTime, 46350 + 0.5/24, "2026-11-24T00:30:00+01:00"},
		{"2026-07-01T12:00:00Z", DateTime, 46204 + 14.0/24, "2026-07-01T14:00:00+02:00"},
		{"2026-11-23 23:30:00", DateTime, 46350 + 0.5/24, "2026-11-24T00:30:00+01:00"},
		{"2026-11-24", Date, 46350, "2026-11-24"},
		{"2026-11-24", DateTime, 46350, "2026-11-24"},
		{"soon", DateTime, 0, "soon"},
	} {
		got, ok := parseTime(tt.in, tt.kind, berlin)
		if tt.xlsx != 0 && (!ok || math.Abs(got-tt.xlsx) > 1e-9) {
			t.Errorf("parseTime(%q, %v, Berlin) = %v, %v; want %v", tt.in, tt.kind, got, ok, tt.xlsx)
		}
		if got := inZone(tt.in, tt.kind, berlin); got != tt.csv {
			t.Errorf("inZone(%q, %v, Berlin) = %q, want %q", tt.in, tt.kind, got, tt.csv)
		}
	}
}

func TestWidths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    string
		kind Kind
		want int
	}{
		{"PS-1001", Text, 7},
		{"東京-TEE", Text, 8},
		{"Crème brûlée", Text, 12},
		{"short\na longer line\nx", Text, 13},
		{"", Text, 0},
		{"1234567.5", Money, len("1,234,567.50")},
		{"-1234.5", Money, len("-1,234.50")},
		{"999.99", Money, len("999.99")},
		{"0.5", Money, len("0.50")},
		{"12", Integer, 2},
		{"12.0", Integer, 2},
		{"0.125", Number, 5},
		{"0.3333333333333", Number, 11}, // General shows 11 characters at most
		{"n/a", Money, 3},
		{"2026-01-05", Date, 10},
		{"2026-01-05T18:00:00Z", DateTime, 19},
		{"soon", Date, 4},
	}
	for _, tt := range tests {
		if got := cellWidth(tt.v, tt.kind); got != tt.want {
			t.Errorf("cellWidth(%q, %v) = %d, want %d", tt.v, tt.kind, got, tt.want)
		}
	}
}

func TestRoundTo(t *testing.T) {
	t.Parallel()
	sum := 0.0
	for range 10 {
		sum += 0.1
	}
	if sum == 1 {
		t.Fatal("the float sum is exact: the test shows nothing")
	}
	if got := roundTo(sum, 2); got != 1 {
		t.Errorf("roundTo(%v, 2) = %v, want 1", sum, got)
	}
	if got := roundTo(16.725000000000001, 3); got != 16.725 {
		t.Errorf("roundTo = %v, want 16.725", got)
	}
	if got := roundTo(1e300, 15); got != 1e300 {
		t.Errorf("roundTo(1e300, 15) = %v: a sum too large to scale is kept", got)
	}
}
