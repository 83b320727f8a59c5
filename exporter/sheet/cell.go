package sheet

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// maxDigits is the most significant digits Excel keeps of a number: a
// number with more is written as text, so that none of its digits is lost.
const maxDigits = 15

// number is a numeric cell read.
type number struct {
	v        float64
	decimals int // digits after the decimal point, the exponent applied
}

// isNumber reports whether s is a decimal number: an optional sign,
// digits with an optional fraction (12, 12.5, .5, 12.), an optional
// exponent (1e-3). Inf, NaN, hexadecimal and digit separators are not.
func isNumber(s string) bool {
	_, _, _, ok := scanNumber(s)
	return ok
}

// scanNumber checks the syntax of isNumber and returns the count of
// significant digits (from the first to the last non-zero one), of
// digits after the point and the exponent.
func scanNumber(s string) (sig, frac, exp int, ok bool) {
	mant := s
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		digits := s[i+1:]
		if digits != "" && (digits[0] == '+' || digits[0] == '-') {
			digits = digits[1:]
		}
		if digits == "" || len(digits) > 4 || !allDigits(digits) {
			return 0, 0, 0, false
		}
		exp, _ = strconv.Atoi(s[i+1:])
	}
	if mant != "" && (mant[0] == '+' || mant[0] == '-') {
		mant = mant[1:]
	}
	whole, fraction, _ := strings.Cut(mant, ".")
	if whole == "" && fraction == "" || !allDigits(whole) || !allDigits(fraction) {
		return 0, 0, 0, false
	}
	return significant(whole, fraction), len(fraction), exp, true
}

// significant counts the digits of whole.fraction from the first non-zero
// one to the last.
func significant(whole, fraction string) int {
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		fraction = strings.TrimLeft(fraction, "0")
	}
	fraction = strings.TrimRight(fraction, "0")
	if fraction == "" {
		whole = strings.TrimRight(whole, "0")
	}
	return len(whole) + len(fraction)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseNumber reads a cell of a numeric column for XLSX: ok is false when
// s is not a number, has more significant digits than Excel keeps, or
// (Integer) has a fraction.
func parseNumber(s string, k Kind) (number, bool) {
	sig, frac, exp, ok := scanNumber(s)
	if !ok || sig > maxDigits {
		return number{}, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return number{}, false
	}
	if v == 0 {
		v = 0 // no -0
	}
	if k == Integer && v != math.Trunc(v) {
		return number{}, false
	}
	return number{v: v, decimals: min(max(frac-exp, 0), maxDigits)}, true
}

// excelEpoch is day 0 of Excel's 1900 date system (as Excel counts from
// March 1900 on, past its phantom 29 February 1900).
var excelEpoch = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC).Unix()

// firstExcelDay is the first day Excel counts right: 1 March 1900.
var firstExcelDay = time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC)

// dateTimeLayouts are the date-times a DateTime (or Date) cell may hold,
// by the character between the date and the time. A fraction of a second
// is read after the seconds of any of them.
var dateTimeLayouts = map[byte][]string{
	' ': {time.DateTime},
	'T': {time.RFC3339, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05"},
}

// parseTime reads a cell of a Date or DateTime column as an Excel date
// (days since Excel's epoch, the time of day as a fraction). A date-time
// is taken in loc (nil: UTC), as a clock there shows it; a date alone is
// that day. A Date column keeps the day of a date-time in loc. ok is false
// when s is neither, or is before March 1900.
func parseTime(s string, k Kind, loc *time.Location) (float64, bool) {
	t, ok := zoned(s, k, loc)
	if !ok {
		return 0, false
	}
	wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	if wall.Before(firstExcelDay) {
		return 0, false
	}
	secs := wall.Unix() - excelEpoch
	return float64(secs)/86400 + float64(wall.Nanosecond())/86400e9, true
}

// zoned reads s, a cell of a column of kind k (Date or DateTime), in loc
// (nil: UTC): a date-time moved to loc, which in a Date column keeps only
// its day there; a date alone as that day, whatever loc.
func zoned(s string, k Kind, loc *time.Location) (time.Time, bool) {
	t, ok := readTime(s)
	if !ok {
		return t, false
	}
	if loc == nil {
		loc = time.UTC
	}
	if len(s) > len(time.DateOnly) {
		t = t.In(loc)
	}
	if k == Date {
		t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
	}
	return t, true
}

// offsetLayout is how a CSV file writes a date-time moved to a zone: with
// its offset, as the service writes its own.
const offsetLayout = "2006-01-02T15:04:05-07:00"

// inZone is the text of s, a cell of a column of kind k, in loc: a
// date-time with the offset of loc, the day of a date-time in a Date
// column, and anything else (a date alone, text) as given.
func inZone(s string, k Kind, loc *time.Location) string {
	if len(s) <= len(time.DateOnly) {
		return s
	}
	t, ok := zoned(s, k, loc)
	switch {
	case !ok:
		return s
	case k == Date:
		return t.Format(time.DateOnly)
	}
	return t.Format(offsetLayout)
}

// readTime reads a date or one of dateTimeLayouts.
func readTime(s string) (time.Time, bool) {
	if len(s) == len(time.DateOnly) {
		t, err := time.Parse(time.DateOnly, s)
		return t, err == nil
	}
	if len(s) > len(time.DateOnly) {
		for _, layout := range dateTimeLayouts[s[len(time.DateOnly)]] {
			if t, err := time.Parse(layout, s); err == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// textWidth is how many characters wide s shows: its longest line, East
// Asian wide characters counting two.
func textWidth(s string) int {
	most := 0
	for line := range strings.SplitSeq(s, "\n") {
		n := 0
		if isASCII(line) {
			n = len(line)
		} else {
			for _, r := range line {
				n++
				if k := width.LookupRune(r).Kind(); k == width.EastAsianWide || k == width.EastAsianFullwidth {
					n++
				}
			}
		}
		most = max(most, n)
	}
	return most
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// numberWidth is how many characters wide v shows in a column of kind k.
func numberWidth(v float64, k Kind) int {
	switch k {
	case Integer:
		return len(strconv.FormatFloat(v, 'f', 0, 64))
	case Money:
		s := strconv.FormatFloat(math.Abs(v), 'f', 2, 64)
		n := len(s) + (len(s)-4)/3 // the thousands separators
		if v < 0 {
			n++
		}
		return n
	}
	return min(len(strconv.FormatFloat(v, 'f', -1, 64)), 11) // General shows up to 11
}

// dateWidth is how many characters wide a date of kind k shows.
func dateWidth(k Kind) int {
	if k == Date {
		return len("2006-01-02")
	}
	return len("2006-01-02 15:04:05")
}

// roundTo rounds v to decimals digits after the point: a sum of amounts
// of two decimals has two decimals, not the binary residue of adding
// them.
func roundTo(v float64, decimals int) float64 {
	p := math.Pow10(decimals)
	r := math.Round(v*p) / p
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return v
	}
	return r
}

// NumberOf reads s as a numeric column of kind k writes it in an XLSX
// sheet; ok is false when the sheet writes it as text (and a formula over
// the column leaves it out).
func NumberOf(s string, k Kind) (float64, bool) {
	n, ok := parseNumber(s, k)
	return n.v, ok
}

// Day is the day a Date column of an XLSX sheet written in loc shows for
// s, a date or a date-time; ok is false when the sheet writes s as text.
func Day(s string, loc *time.Location) (time.Time, bool) {
	if _, ok := parseTime(s, Date, loc); !ok {
		return time.Time{}, false
	}
	return zoned(s, Date, loc)
}
