package cell

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// clockPartsRe splits a time of day as parseClock accepts it: hours,
// minutes, seconds, fraction, AM/PM, offset and zone abbreviation.
var clockPartsRe = regexp.MustCompile(`^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)? *([AaPp][Mm])? *(Z|[+-]\d{2}(?::?\d{2})?)?(?: *([A-Za-z]{1,5}))?$`)

// ParseTimestamp reads s as a date (YYYY-MM-DD or one of layouts, Go
// layouts as the source's date_formats give them), optionally followed by
// a time of day and an offset (Z, +02:00, +0200, or UTC/GMT). A time
// without an offset is in loc; a date alone is midnight in loc. A zone
// abbreviation other than UTC or GMT ("CEST") is refused: it names no
// offset lading can be sure of.
func ParseTimestamp(s string, layouts []string, loc *time.Location) (time.Time, bool) {
	date, clock, ok := ParseDateTime(s, layouts)
	if !ok {
		return time.Time{}, false
	}
	d, err := time.ParseInLocation("2006-01-02", date, loc)
	if err != nil {
		return time.Time{}, false
	}
	if clock == "" {
		clock = clockTail(s) // midnight, which parseDateTime drops, may carry an offset
	}
	if clock == "" {
		return d, true
	}
	m := clockPartsRe.FindStringSubmatch(strings.TrimSpace(clock))
	if m == nil {
		return time.Time{}, false
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	sec, _ := strconv.Atoi(m[3])
	ns := 0
	if m[4] != "" {
		ns, _ = strconv.Atoi((m[4] + "000000000")[:9])
	}
	switch strings.ToLower(m[5]) {
	case "am":
		h %= 12
	case "pm":
		h = h%12 + 12
	}
	zone := loc
	switch abbr := strings.ToUpper(m[7]); {
	case m[6] != "":
		off, ok := parseOffset(m[6])
		if !ok || (abbr != "" && abbr != "UTC" && abbr != "GMT") {
			return time.Time{}, false
		}
		zone = time.FixedZone("", off)
	case abbr == "UTC" || abbr == "GMT":
		zone = time.UTC
	case abbr != "":
		return time.Time{}, false
	}
	return time.Date(d.Year(), d.Month(), d.Day(), h, mi, sec, ns, zone), true
}

// clockTail is the time of day at the end of s (after a space or a 'T'),
// or "".
func clockTail(s string) string {
	s = strings.TrimSpace(s)
	for i := len(s) - 1; i > 0 && i >= len(s)-maxClockLen; i-- {
		if (s[i] == ' ' || s[i] == 'T') && clockPartsRe.MatchString(s[i+1:]) {
			return s[i+1:]
		}
	}
	return ""
}

// parseOffset reads Z, +02, +0200 or +02:00 as seconds east of UTC.
func parseOffset(s string) (int, bool) {
	if s == "Z" {
		return 0, true
	}
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	digits := strings.ReplaceAll(s[1:], ":", "")
	h, err := strconv.Atoi(digits[:2])
	if err != nil || h > 14 {
		return 0, false
	}
	mi := 0
	if len(digits) == 4 {
		if mi, err = strconv.Atoi(digits[2:]); err != nil || mi > 59 {
			return 0, false
		}
	}
	return sign * (h*3600 + mi*60), true
}
