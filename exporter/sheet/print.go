package sheet

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// Margins of a printed page, in inches: narrow at the sides, for the
// width of a report, and room at the foot for the footer's two lines.
const (
	marginSide   = 0.5
	marginTop    = 0.6
	marginBottom = 0.8
	marginHeader = 0.3
	marginFooter = 0.3
)

// The printable widths of a page, in points: those of the narrower paper
// of A4 and Letter in each orientation (A4 upright, Letter on its side),
// less the side margins, so that what fits one fits the other.
const (
	portraitPoints  = (8.27 - 2*marginSide) * 72
	landscapePoints = (11 - 2*marginSide) * 72
)

// minPortraitScale is the smallest scale a sheet is printed upright at: a
// wider sheet is printed on its side.
const minPortraitScale = 0.85

// scaleSlack is what a scale computed from the widths keeps in hand.
const scaleSlack = 0.95

// MaxPageBreaks is the most page breaks a sheet is given (Excel takes
// 1,026).
const MaxPageBreaks = 1000

// madeLayout is how the footer and the properties write the time a file
// was made.
const madeLayout = "2006-01-02 15:04 MST"

// columnPoints is the printed width of a column w characters wide: the
// digits of Excel's default font (Calibri, 11 points) are 7 pixels wide, a
// column has 5 pixels of padding, and a pixel is 3/4 of a point.
func columnPoints(w float64) float64 { return (w*7 + 5) * 0.75 }

// widePoints is the printed width of a column w characters wide in the
// widest font that stands in for Calibri: LibreOffice, without Calibri or
// its metric twin Carlito, measures columns in DejaVu Sans, at about 7
// points a character (a column 10 characters wide is 70 points, where
// Excel makes it 56).
func widePoints(w float64) float64 { return w*7 + 4 }

// pageLayout is how a sheet whose printed columns are widths characters
// wide prints: upright when it fits at minPortraitScale or more, else on
// its side; fitted to the page's width, or, for a sheet with page breaks
// (which Excel ignores on a fitted sheet), at the scale that fits it in
// the widest font a program may print it in.
func pageLayout(widths []float64, breaks bool) *excelize.PageLayoutOptions {
	points := columnPoints
	if breaks {
		points = widePoints
	}
	total := 0.0
	for _, w := range widths {
		total += points(w)
	}
	orientation, page := "portrait", portraitPoints
	if total > portraitPoints/minPortraitScale {
		orientation, page = "landscape", landscapePoints
	}
	l := &excelize.PageLayoutOptions{Orientation: &orientation}
	if breaks {
		scale := uint(min(100, max(10, int(page/total*100*scaleSlack))))
		l.AdjustTo = &scale
		return l
	}
	one, auto := 1, 0
	l.FitToWidth, l.FitToHeight = &one, &auto
	return l
}

// margins are the margins of every printed page.
func margins() *excelize.PageLayoutMarginsOptions {
	side, top, bottom, header, footer := marginSide, marginTop, marginBottom, marginHeader, marginFooter
	return &excelize.PageLayoutMarginsOptions{Left: &side, Right: &side, Top: &top, Bottom: &bottom, Header: &header, Footer: &footer}
}

// footer is the foot of every printed page, in Excel's codes, 8 points
// high: on the left the title and the subject, in the middle the account
// and when the file was made, on the right the sheet's name and "Page N of
// M". Excel takes 255 characters: the subject, then the title, is cut to
// fit, ending in "…".
func footer(title, subject, account, made string) string {
	const size = "&8"
	center := "Made " + made
	if account != "" {
		center = "Account " + oneLine(account) + "\n" + center
	}
	fixed := "&C" + size + escape(center) + "&R" + size + "&A\nPage &P of &N"
	title, subject = escape(oneLine(title)), escape(oneLine(subject))
	room := excelize.MaxFieldLength - utf16Len(fixed) - len("&L"+size+" \n")
	subject = cut(subject, max(room-utf16Len(title), room/2))
	title = cut(title, room-utf16Len(subject))
	left := title
	if subject != "" {
		left += "\n" + subject
	}
	if left != "" && left[0] >= '0' && left[0] <= '9' {
		left = " " + left // else the digits would read as the font's size
	}
	return "&L" + size + left + fixed
}

// escape doubles the ampersands of text, which Excel's header and footer
// codes begin with.
func escape(text string) string { return strings.ReplaceAll(text, "&", "&&") }

// oneLine puts text on one line.
func oneLine(text string) string {
	return strings.Join(strings.Fields(text), " ")
}

// cut shortens escaped text to at most n UTF-16 units, ending in "…",
// without splitting an escaped "&&".
func cut(text string, n int) string {
	if utf16Len(text) <= n {
		return text
	}
	if n <= 1 {
		return ""
	}
	used, end := 1, 0 // the "…"
	for i, r := range text {
		if i < end {
			continue
		}
		size, w := utf16Len(string(r)), utf8.RuneLen(r)
		if r == '&' {
			size, w = 2, 2
		}
		if used+size > n {
			break
		}
		used, end = used+size, i+w
	}
	return text[:end] + "…"
}

// made is the time a file was made, as a clock in loc (nil: UTC) shows it.
func made(t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).Format(madeLayout)
}

// description is the workbook's description: the account it was read
// from, when it was made, and the zone of its dates and times.
func description(account, made string, loc *time.Location) string {
	s := "Made " + made
	if account != "" {
		s += " from the account " + account
	}
	s += "."
	if note := ZoneNote(loc); note != "" {
		s += " " + note
	}
	return s
}
