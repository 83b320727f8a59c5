package cell

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// dateTokens maps the date-format tokens of a mapping file to Go layout
// elements, longest first.
var dateTokens = []struct{ tok, layout string }{
	{"YYYY", "2006"}, {"YY", "06"},
	{"MMMM", "January"}, {"MMM", "Jan"}, {"MM", "01"}, {"M", "1"},
	{"DD", "02"}, {"D", "2"},
	{"HH", "15"}, {"hh", "03"}, {"mm", "04"}, {"ss", "05"},
}

// Layout turns a format like "DD/MM/YYYY" into a Go time layout.
func Layout(format string) (string, error) {
	var b strings.Builder
	hasY, hasM, hasD := false, false, false
	for i := 0; i < len(format); {
		matched := false
		for _, t := range dateTokens {
			if strings.HasPrefix(format[i:], t.tok) {
				b.WriteString(t.layout)
				i += len(t.tok)
				matched = true
				switch t.tok[0] {
				case 'Y':
					hasY = true
				case 'M':
					hasM = true
				case 'D':
					hasD = true
				}
				break
			}
		}
		if matched {
			continue
		}
		c := format[i]
		if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') && c != 'T' {
			return "", fmt.Errorf("date format %q: unknown letter %q; use YYYY, YY, MMMM, MMM, MM, M, DD, D, HH, hh, mm, ss", format, string(c))
		}
		b.WriteByte(c)
		i++
	}
	if !hasY || !hasM || !hasD {
		return "", fmt.Errorf("date format %q needs a year (YYYY), a month (MM) and a day (DD)", format)
	}
	return b.String(), nil
}

// ParseDate reads s with YYYY-MM-DD or one of layouts (Go layouts, see
// goLayout), either optionally followed by a time of day, and returns the
// date as YYYY-MM-DD: the time of day, if any, is dropped. It is what the
// date() helper does; a value of type date refuses a time of day instead
// (see parseDateTime).
func ParseDate(s string, layouts []string) (string, bool) {
	d, _, ok := ParseDateTime(s, layouts)
	return d, ok
}

// ParseDateTime reads s like ParseDate and also returns its time of day
// as written, or "" when it has none or the time is midnight (a date
// exported as a date-time: nothing is lost by dropping it).
func ParseDateTime(s string, layouts []string) (date, clock string, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 10 {
		if t, err := time.Parse("2006-01-02", s[:10]); err == nil {
			switch {
			case len(s) == 10:
				return s, "", true
			case s[10] == 'T' || s[10] == ' ':
				if clock, ok := parseClock(s[11:]); ok {
					return t.Format("2006-01-02"), clock, true
				}
			}
		}
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.Format("2006-01-02"), clockOf(t), true
		}
	}
	// A date in one of layouts followed by a time: the time is at the end,
	// after a space or a 'T'.
	for i := len(s) - 1; i > 0 && i >= len(s)-maxClockLen; i-- {
		if s[i] != ' ' && s[i] != 'T' {
			continue
		}
		clock, ok := parseClock(s[i+1:])
		if !ok {
			continue
		}
		for _, l := range layouts {
			if t, err := time.Parse(l, strings.TrimSpace(s[:i])); err == nil {
				if c := clockOf(t); c != "" {
					return "", "", false // a time given twice
				}
				return t.Format("2006-01-02"), clock, true
			}
		}
	}
	return "", "", false
}

// maxClockLen is the longest time of day parseClock reads, like
// "12:30:45.123456789 +02:00 CEST".
const maxClockLen = 40

// clockRe is a time of day: hours and minutes, optionally seconds with a
// fraction, AM or PM, a zone offset and a zone abbreviation.
var clockRe = regexp.MustCompile(`^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)? *([AaPp][Mm])? *(?:Z|[+-]\d{2}(?::?\d{2})?)?(?: *[A-Za-z]{1,5})?$`)

// parseClock reads a time of day; it returns "" for midnight, else the
// time as written.
func parseClock(s string) (string, bool) {
	s = strings.TrimSpace(s)
	m := clockRe.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	sec, _ := strconv.Atoi(m[3]) // "" reads 0
	ampm := strings.ToLower(m[5])
	switch {
	case mi > 59 || sec > 60:
		return "", false
	case ampm == "" && h > 23, ampm != "" && (h < 1 || h > 12):
		return "", false
	}
	if ampm == "am" && h == 12 {
		h = 0
	}
	if ampm == "pm" || h != 0 || mi != 0 || sec != 0 || strings.Trim(m[4], "0") != "" {
		return s, true
	}
	return "", true
}

// clockOf is t's time of day, or "" at midnight.
func clockOf(t time.Time) string {
	switch {
	case t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0:
		return ""
	case t.Second() == 0:
		return t.Format("15:04")
	}
	return t.Format("15:04:05")
}

// FormatList names the date formats a source accepts, for messages:
// YYYY-MM-DD and its date_formats.
func FormatList(formats []string) string {
	return strings.Join(append([]string{"YYYY-MM-DD"}, formats...), ", ")
}

// Layouts are the Go layouts of the date formats a mapping writes, like
// "DD/MM/YYYY"; a format that is none is left out (a mapping's parser
// reports it).
func Layouts(formats []string) []string {
	var out []string
	for _, f := range formats {
		if l, err := Layout(f); err == nil {
			out = append(out, l)
		}
	}
	return out
}
