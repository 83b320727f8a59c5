package cell

import (
	"math/big"
	"regexp"
	"strings"
	"testing"
	"time"
)

// canonicalRe is the shape of every number ParseNumber gives.
var canonicalRe = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$`)

// FuzzParseNumber: whatever a cell holds, a number read from it is
// canonical, reads back as itself, holds at most MaxDigits digits, and
// is the value the same text means to math/big where math/big reads it.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"1.234,50", "007", "-0.0", "1.5E+3", "12 000", "1'234'567.5", "1e9999",
		"+.5", "5.", "1,23", "1.000.000", " 42 ", "1e-4", "--1", "1,,000", "0,1", "3.0000000000000004"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, comma bool) {
		dec := byte('.')
		if comma {
			dec = ','
		}
		n, ok := ParseNumber(s, dec)
		if !ok {
			return
		}
		if !canonicalRe.MatchString(n) || n == "-0" {
			t.Fatalf("ParseNumber(%q, %q) = %q: not canonical", s, dec, n)
		}
		if digits(n) > MaxDigits {
			t.Fatalf("ParseNumber(%q) = %q: more than %d digits", s, n, MaxDigits)
		}
		if again, ok := ParseNumber(n, '.'); !ok || again != n {
			t.Fatalf("ParseNumber(%q) = %q, which reads back as %q, %v", s, n, again, ok)
		}
		if plain := strings.TrimSpace(s); dec == '.' && plainRe.MatchString(plain) {
			if r, ok := new(big.Rat).SetString(plain); ok && !sameRat(r, n) {
				t.Fatalf("ParseNumber(%q) = %q; math/big reads %s", s, n, r.FloatString(10))
			}
		}
	})
}

// FuzzShiftNumber: a number shifted is canonical and is exactly the value
// math/big gives the same text times ten to the places.
func FuzzShiftNumber(f *testing.F) {
	for _, s := range []string{"145", "226.796185", "0", "5", "1.5", "-2500", "-0.000", "007.0700", "1e-4", "12.0", "0.5"} {
		for _, places := range []int8{-3, -1, 0, 2, 7} {
			f.Add(s, places)
		}
	}
	f.Fuzz(func(t *testing.T, s string, places int8) {
		n, err := ShiftNumber(s, '.', int(places))
		if err != nil {
			return
		}
		if !canonicalRe.MatchString(n) || n == "-0" {
			t.Fatalf("ShiftNumber(%q, %d) = %q: not canonical", s, places, n)
		}
		if plain := strings.TrimSpace(s); plainRe.MatchString(plain) {
			if r, ok := new(big.Rat).SetString(plain); ok {
				scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(places, -places))), nil))
				if places < 0 {
					r.Quo(r, scale)
				} else {
					r.Mul(r, scale)
				}
				if !sameRat(r, n) {
					t.Fatalf("ShiftNumber(%q, %d) = %q; math/big gives %s", s, places, n, r.RatString())
				}
			}
		}
	})
}

// plainRe is a number without grouping, which math/big reads too.
var plainRe = regexp.MustCompile(`^[-+]?[0-9]*\.?[0-9]*([eE][-+]?[0-9]+)?$`)

func sameRat(r *big.Rat, n string) bool {
	rn, ok := new(big.Rat).SetString(n)
	return ok && r.Cmp(rn) == 0
}

// FuzzParseTimestamp: a date read from a cell is a real day written
// YYYY-MM-DD, and a timestamp read from it falls on that day in its zone
// (0001-01-01 too: a time the mappings of shipments and slips refuse,
// mapping.Program.instant).
func FuzzParseTimestamp(f *testing.F) {
	layouts := Layouts([]string{"DD/MM/YYYY", "MM/DD/YYYY HH:mm"})
	for _, s := range []string{"2026-10-01", "2026-10-01T12:30:00Z", "01/10/2026", "10/01/2026 09:15", "2026-02-30",
		"2026-10-01 00:00:00 +02:00", "2026-10-01 7:05 pm", "2026-10-01 12:00 CEST", "2026-10-01T24:00", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, _, ok := ParseDateTime(s, layouts)
		if !ok {
			if _, ok := ParseTimestamp(s, layouts, time.UTC); ok {
				t.Fatalf("ParseTimestamp(%q) read a time of what ParseDateTime refused", s)
			}
			return
		}
		day, err := time.Parse("2006-01-02", d)
		if err != nil || day.Format("2006-01-02") != d {
			t.Fatalf("ParseDateTime(%q) = %q: not a day written YYYY-MM-DD (%v)", s, d, err)
		}
		if ts, ok := ParseTimestamp(s, layouts, time.UTC); ok && ts.Format("2006-01-02") != d {
			t.Fatalf("ParseTimestamp(%q) = %v: not on %s, the day ParseDateTime read", s, ts, d)
		}
	})
}
