package source

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

// Excel stores dates as numbers (days since 1900 or 1904) and marks them as
// dates only through the cell's number format. The reader looks at the
// style of each cell in the header row and the first dateScanRows rows
// below it, in a first pass over the sheet's XML, and treats a column as a
// date column when any
// numeric cell scanned there has a date or time format. In a date column,
// numbers become "YYYY-MM-DD" (with " HH:MM:SS" when they carry a time of
// day, or only "HH:MM:SS" for time formats); text cells stay as they are.
// A date first appearing below the scanned rows stays a serial number.

// dateScanRows is how many rows below the header the date scan covers.
const dateScanRows = 200

// dateKind says how the cells of a column are shown.
type dateKind uint8

const (
	notDate dateKind = iota
	timeOnly
	dateOnly
	dateTime
)

// merge widens k to cover o: date and time together make date-time.
func (k dateKind) merge(o dateKind) dateKind {
	switch {
	case k == notDate || k == o:
		return o
	case o == notDate:
		return k
	}
	return dateTime
}

// formatSerial turns an Excel serial number into text for kind, or returns
// v unchanged when it is not a number Excel could show as a date.
func formatSerial(v string, kind dateKind, date1904 bool) string {
	if v == "" {
		return v
	}
	serial, err := strconv.ParseFloat(v, 64)
	if err != nil {
		// t="d" cells hold ISO 8601 text.
		if t, err := time.Parse("2006-01-02T15:04:05Z", v); err == nil {
			return formatDate(t, kind)
		}
		if t, err := time.Parse("2006-01-02T15:04:05", v); err == nil {
			return formatDate(t, kind)
		}
		return v
	}
	if serial < 0 || serial > 2958465 { // 9999-12-31
		return v
	}
	t, err := excelize.ExcelDateToTime(serial, date1904)
	if err != nil {
		return v
	}
	return formatDate(t, kind)
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

// styleKinds maps a workbook's cell formats (the s attribute of a cell)
// to the kind of date they show, from the styles part: each cellXfs/xf's
// numFmtId, custom codes taken from numFmts.
type styleKinds []dateKind

// maxStyles bounds the cell formats read; Excel allows 64,000.
const maxStyles = 1 << 16

// loadStyleKinds reads the styles part name; a workbook without one has no
// formats.
func loadStyleKinds(p *xlsxPackage, name string) (styleKinds, error) {
	if p.part(name) == nil {
		return nil, nil
	}
	custom := map[int]string{}
	var ids []int
	inCellXfs := false
	err := p.eachElement(name, func(se xml.StartElement) error {
		switch se.Name.Local {
		case "numFmt":
			if len(custom) == maxStyles {
				return fmt.Errorf("more than %d number formats", maxStyles)
			}
			if id, err := strconv.Atoi(attr(se, "numFmtId")); err == nil {
				custom[id] = attr(se, "formatCode")
			}
		case "cellXfs":
			inCellXfs = true
		case "cellStyleXfs", "cellStyles", "dxfs", "tableStyles", "colors", "extLst":
			inCellXfs = false
		case "xf":
			if !inCellXfs {
				return nil
			}
			if len(ids) == maxStyles {
				return fmt.Errorf("more than %d cell formats, more than Excel allows", maxStyles)
			}
			id, _ := strconv.Atoi(attr(se, "numFmtId"))
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	kinds := make(styleKinds, len(ids))
	for i, id := range ids {
		if code, ok := custom[id]; ok {
			kinds[i] = customDateKind(code)
		} else {
			kinds[i] = builtinDateKind(id)
		}
	}
	return kinds, nil
}

func (k styleKinds) kind(id int) dateKind {
	if id < 0 || id >= len(k) {
		return notDate
	}
	return k[id]
}

// scanDateColumns reads the styles of the cells in rows firstRow to
// firstRow+dateScanRows of the worksheet part and returns, per 0-based
// column, how to show its numbers; nil when no column holds dates.
func scanDateColumns(p *xlsxPackage, part, sheet string, kinds styleKinds, firstRow int) ([]dateKind, error) {
	if len(kinds) == 0 {
		return nil, nil
	}
	x, err := p.openXML(part, true)
	if err != nil {
		return nil, err
	}
	defer x.Close()
	r := newSheetReader(x, sheet, nil, p.limits)
	r.keepStyles = true
	var cols []dateKind
	for {
		err := r.next()
		if err == io.EOF || err == nil && r.row > firstRow+dateScanRows {
			return trimKinds(cols), nil
		}
		if _, ok := err.(*RowError); err != nil && !ok {
			return nil, err
		}
		if r.row < firstRow {
			continue
		}
		for i, id := range r.styles {
			if k := kinds.kind(id); k != notDate {
				for len(cols) <= i {
					cols = append(cols, notDate)
				}
				cols[i] = cols[i].merge(k)
			}
		}
	}
}

func trimKinds(cols []dateKind) []dateKind {
	for _, k := range cols {
		if k != notDate {
			return cols
		}
	}
	return nil
}
