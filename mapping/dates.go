package mapping

import (
	"fmt"
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

// goLayout turns a format like "DD/MM/YYYY" into a Go time layout.
func goLayout(format string) (string, error) {
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

// ParseDate reads s with YYYY-MM-DD (optionally followed by a time) or one
// of layouts (Go layouts, see goLayout), and returns it as YYYY-MM-DD.
func ParseDate(s string, layouts []string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 10 {
		if t, err := time.Parse("2006-01-02", s[:10]); err == nil && (len(s) == 10 || s[10] == 'T' || s[10] == ' ') {
			if len(s) == 10 {
				return s, true
			}
			return t.Format("2006-01-02"), true
		}
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.Format("2006-01-02"), true
		}
	}
	return "", false
}

// dateFormatList names the date formats a source accepts, for messages:
// YYYY-MM-DD and its date_formats.
func dateFormatList(formats []string) string {
	return strings.Join(append([]string{"YYYY-MM-DD"}, formats...), ", ")
}
