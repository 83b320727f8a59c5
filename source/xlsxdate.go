package source

import (
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

// Excel stores dates as numbers (days since 1900 or 1904) and marks them as
// dates only through the cell's number format. A numeric cell whose format
// shows a date or a time reads as "YYYY-MM-DD" (with " HH:MM:SS" when it
// carries a time of day and the format shows one), or "HH:MM:SS" for time
// formats. A cell of type d holds ISO 8601 text, read the same way.

// dateKind says how a date cell is shown.
type dateKind uint8

const (
	notDate dateKind = iota
	timeOnly
	dateOnly
	dateTime
)

// serialText is the text of the Excel serial number x shown as kind; ok is
// false when x is not a day Excel can show (before 1900, after 9999).
func serialText(x float64, kind dateKind, date1904 bool) (string, bool) {
	if x < 0 || x > 2958465 { // 9999-12-31
		return "", false
	}
	t, err := excelize.ExcelDateToTime(x, date1904)
	if err != nil {
		return "", false
	}
	return formatDate(t, kind), true
}

// isoDateText is the text of a cell of type d, ISO 8601 text, shown as
// kind; text that is not such a date is returned as it is.
func isoDateText(v string, kind dateKind) string {
	for _, layout := range []string{"2006-01-02T15:04:05Z", "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return formatDate(t, kind)
		}
	}
	return v
}

func formatDate(t time.Time, kind dateKind) string {
	switch kind {
	case timeOnly:
		return t.Format("15:04:05")
	case dateTime:
		if t.Hour() != 0 || t.Minute() != 0 || t.Second() != 0 {
			return t.Format("2006-01-02 15:04:05")
		}
	}
	return t.Format("2006-01-02")
}

// builtinDateKind classifies Excel's built-in number formats.
func builtinDateKind(id int) dateKind {
	switch {
	case 14 <= id && id <= 17, 27 <= id && id <= 36, 50 <= id && id <= 58:
		return dateOnly
	case 18 <= id && id <= 21, id == 45, id == 47:
		return timeOnly
	case id == 22:
		return dateTime
	}
	return notDate
}

// customDateKind classifies a custom number format code by the date and
// time tokens in its first section, ignoring quoted text, escaped
// characters and bracketed colours or conditions. Elapsed-time formats
// ([h]:mm) are durations, not dates.
func customDateKind(code string) dateKind {
	if i := strings.IndexByte(code, ';'); i >= 0 {
		code = code[:i]
	}
	var date, clock, month bool
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '"':
			if j := strings.IndexByte(code[i+1:], '"'); j >= 0 {
				i += j + 1
			} else {
				i = len(code)
			}
		case '\\', '_', '*':
			i++
		case '[':
			j := strings.IndexByte(code[i:], ']')
			if j < 0 {
				return notDate
			}
			inner := strings.ToLower(code[i+1 : i+j])
			if inner != "" && strings.Trim(inner, "hms") == "" {
				return notDate // elapsed time
			}
			i += j
		case 'y', 'Y', 'd', 'D':
			date = true
		case 'h', 'H', 's', 'S':
			clock = true
		case 'm', 'M':
			month = true
		}
	}
	switch {
	case date && clock:
		return dateTime
	case date:
		return dateOnly
	case clock:
		return timeOnly
	case month:
		return dateOnly // "mmm" alone is a month name
	}
	return notDate
}
