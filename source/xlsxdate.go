package source

import (
	"archive/zip"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

// Excel stores dates as numbers (days since 1900 or 1904) and marks them as
// dates only through the cell's number format. excelize's streaming Rows
// does not expose a cell's style, and GetCellStyle loads the whole sheet
// into memory. So the reader looks at the style of each cell in the header
// row and the first dateScanRows rows below it, with a small scanner of its
// own over the sheet's XML, and treats a column as a date column when any
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

// styleKinds classifies excelize style ids, caching the answers.
type styleKinds struct {
	f     *excelize.File
	cache map[int]dateKind
}

func (s *styleKinds) kind(id int) dateKind {
	if k, ok := s.cache[id]; ok {
		return k
	}
	k := notDate
	if st, err := s.f.GetStyle(id); err == nil && st != nil {
		if st.CustomNumFmt != nil {
			k = customDateKind(*st.CustomNumFmt)
		} else {
			k = builtinDateKind(st.NumFmt)
		}
	}
	s.cache[id] = k
	return k
}

// scanDateColumns reads the styles of the cells in rows firstRow to
// firstRow+dateScanRows of sheet and returns, per 0-based column, how to
// show its numbers; nil when no column holds dates.
func scanDateColumns(path string, f *excelize.File, sheet string, firstRow int) ([]dateKind, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	sheetPath, err := worksheetPath(&zr.Reader, sheet)
	if err != nil {
		return nil, err
	}
	part, err := zr.Open(sheetPath)
	if err != nil {
		return nil, fmt.Errorf("worksheet %s: %w", sheetPath, err)
	}
	defer part.Close()

	kinds := styleKinds{f: f, cache: map[int]dateKind{}}
	var cols []dateKind
	d := xml.NewDecoder(part)
	row, col := 0, 0
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("worksheet %s: %w", sheetPath, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			if ee, ok := tok.(xml.EndElement); ok && ee.Name.Local == "sheetData" {
				break
			}
			continue
		}
		switch se.Name.Local {
		case "row":
			row++
			if r, err := strconv.Atoi(attr(se, "r")); err == nil {
				row = r
			}
			col = 0
			if row > firstRow+dateScanRows {
				return trimKinds(cols), nil
			}
		case "c":
			col++
			if ref := attr(se, "r"); ref != "" {
				if c, _, err := excelize.CellNameToCoordinates(ref); err == nil {
					col = c
				}
			}
			if row < firstRow {
				continue
			}
			switch attr(se, "t") {
			case "", "n", "d":
			default:
				continue
			}
			id, err := strconv.Atoi(attr(se, "s"))
			if err != nil || id == 0 {
				continue
			}
			if k := kinds.kind(id); k != notDate {
				for len(cols) < col {
					cols = append(cols, notDate)
				}
				cols[col-1] = cols[col-1].merge(k)
			}
		}
	}
	return trimKinds(cols), nil
}

func trimKinds(cols []dateKind) []dateKind {
	for _, k := range cols {
		if k != notDate {
			return cols
		}
	}
	return nil
}

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// worksheetPath finds the ZIP part holding sheet, following the package
// relationships the way Excel does: _rels/.rels names the workbook, the
// workbook's relationships name each sheet's part.
func worksheetPath(zr *zip.Reader, sheet string) (string, error) {
	var pkgRels relationships
	if err := readXMLPart(zr, "_rels/.rels", &pkgRels); err != nil {
		return "", err
	}
	wbPath := "xl/workbook.xml"
	for _, r := range pkgRels.Rels {
		if strings.HasSuffix(r.Type, "/officeDocument") {
			wbPath = strings.TrimPrefix(r.Target, "/")
		}
	}
	var wb struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			RID  string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := readXMLPart(zr, wbPath, &wb); err != nil {
		return "", err
	}
	dir := path.Dir(wbPath)
	var wbRels relationships
	if err := readXMLPart(zr, path.Join(dir, "_rels", path.Base(wbPath)+".rels"), &wbRels); err != nil {
		return "", err
	}
	for _, s := range wb.Sheets {
		if s.Name != sheet {
			continue
		}
		for _, r := range wbRels.Rels {
			if r.ID == s.RID {
				if strings.HasPrefix(r.Target, "/") {
					return strings.TrimPrefix(path.Clean(r.Target), "/"), nil
				}
				return path.Join(dir, r.Target), nil
			}
		}
	}
	return "", fmt.Errorf("sheet %q: no worksheet part found in the workbook", sheet)
}

type relationships struct {
	Rels []struct {
		ID     string `xml:"Id,attr"`
		Type   string `xml:"Type,attr"`
		Target string `xml:"Target,attr"`
	} `xml:"Relationship"`
}

// readXMLPart decodes a small XML part of the package.
func readXMLPart(zr *zip.Reader, name string, v any) error {
	f, err := zr.Open(name)
	if err != nil {
		return fmt.Errorf("part %s: %w", name, err)
	}
	defer f.Close()
	if err := xml.NewDecoder(io.LimitReader(f, 16<<20)).Decode(v); err != nil {
		return fmt.Errorf("part %s: %w", name, err)
	}
	return nil
}
