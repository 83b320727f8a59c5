package source

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Excel's bounds on a sheet.
const (
	maxSheetRows = 1 << 20 // 1,048,576
	maxSheetCols = 1 << 14 // 16,384, column XFD
)

// sheetReader streams the rows of a worksheet part: each <row> with its
// cells' values as Excel shows them (see cellText), shared strings looked
// up.
type sheetReader struct {
	x     *xmlPart
	sheet string
	sst   *sharedStrings // nil when the workbook has none
	// formats are the number formats by cell style; nil when the
	// workbook has no styles.
	formats  []numFormat
	date1904 bool
	dec      byte // the decimal separator numbers are written with
	// maxCell bounds one cell, maxRow the cells of one row together.
	maxCell, maxRow int

	row    int      // number of the row read last
	cells  []string // its cells by column, "" where there is none
	inData bool     // inside sheetData

	buf, formula, scratch []byte
}

// sheetSettings are how a sheet's cells are read: the workbook's shared
// strings (nil for none), number formats and date system, and the decimal
// separator numbers are written with.
type sheetSettings struct {
	sst      *sharedStrings
	formats  []numFormat
	date1904 bool
	dec      byte
}

func newSheetReader(x *xmlPart, sheet string, set sheetSettings, limits Limits) *sheetReader {
	r := &sheetReader{x: x, sheet: sheet, sst: set.sst, formats: set.formats, date1904: set.date1904, dec: set.dec,
		maxCell: limits.MaxCellSize, maxRow: 4 * limits.MaxCellSize}
	if r.dec == 0 {
		r.dec = '.'
	}
	x.at = func() string {
		if r.row == 0 {
			return fmt.Sprintf("sheet %q", r.sheet)
		}
		return fmt.Sprintf("sheet %q, row %d", r.sheet, r.row)
	}
	return r
}

// next reads the next row into r.row and r.cells. It returns io.EOF at the
// end of the sheet's data, a *RowError for a problem confined to the row
// (its cells still read), and any other error when reading cannot go on.
func (r *sheetReader) next() error {
	for {
		t, err := r.x.next()
		if err != nil {
			return err
		}
		switch t.kind {
		case startToken:
			switch t.name.Local {
			case "sheetData":
				r.inData = true
			case "row":
				if r.inData {
					return r.readRow(t.attrs)
				}
			}
		case endToken:
			if t.name.Local == "sheetData" {
				return io.EOF
			}
		}
	}
}

// readRow reads the cells of the row element whose attributes are attrs.
func (r *sheetReader) readRow(attrs []xml.Attr) error {
	n := r.row + 1
	if v := attr(attrs, "r"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n <= r.row || n > maxSheetRows {
			return r.x.fail(fmt.Errorf("row number %q after row %d", v, r.row))
		}
	}
	r.row = n
	r.cells = r.cells[:0]
	var rowErr error
	col, size := 0, 0
	for {
		t, err := r.x.next()
		if err == io.EOF {
			return r.x.fail(io.ErrUnexpectedEOF)
		}
		if err != nil {
			return err
		}
		switch t.kind {
		case startToken:
			if t.name.Local != "c" {
				continue
			}
			var value string
			if col, value, err = r.readCell(t.attrs, col); err != nil {
				if _, ok := err.(*RowError); !ok {
					return err
				}
				if rowErr == nil {
					rowErr = err
				}
			}
			if size += len(value); size > r.maxRow {
				return r.x.fail(&tooLongError{what: "a row's cells together are", max: r.maxRow})
			}
		case endToken:
			if t.name.Local == "row" {
				return rowErr
			}
		}
	}
}

// cell is what a cell element holds.
type cell struct {
	col   int
	typ   string // the t attribute: s, inlineStr, str, b, e, d, n or ""
	style string // the s attribute
	v, is []byte // the v and is elements' text
	hasV  bool
	hasF  bool // it has a formula, whose text is in sheetReader.formula
	hasIS bool
}

// readCell reads the cell element whose attributes are attrs, the one
// after column prev, into r.cells and returns its column and value.
func (r *sheetReader) readCell(attrs []xml.Attr, prev int) (int, string, error) {
	c := cell{col: prev + 1}
	ref := ""
	for _, a := range attrs {
		switch a.Name.Local {
		case "r":
			ref = a.Value
		case "t":
			c.typ = a.Value
		case "s":
			c.style = a.Value
		}
	}
	if ref != "" {
		if c.col = columnOf(ref); c.col == 0 {
			return prev, "", r.x.fail(fmt.Errorf("cell reference %q is not a cell of the sheet", clip(ref)))
		}
	} else if c.col > maxSheetCols {
		return prev, "", r.x.fail(fmt.Errorf("more than %d cells in a row", maxSheetCols))
	}
	r.formula = r.formula[:0]
	for done := false; !done; {
		t, err := r.x.next()
		if err == io.EOF {
			return c.col, "", r.x.fail(io.ErrUnexpectedEOF)
		}
		if err != nil {
			return c.col, "", err
		}
		switch t.kind {
		case startToken:
			switch t.name.Local {
			case "v":
				c.hasV = true
				c.v, err = r.x.text(r.buf[:0], "v", false, r.maxCell)
				r.buf = c.v
			case "is":
				c.hasIS = true
				c.is, err = r.x.text(nil, "is", true, r.maxCell)
			case "f":
				c.hasF = true
				r.formula, err = r.x.text(r.formula[:0], "f", false, r.maxCell)
			}
			if err != nil {
				return c.col, "", err
			}
		case endToken:
			done = t.name.Local == "c"
		}
	}
	value, err := r.cellText(&c)
	r.set(c.col, value)
	return c.col, value, err
}

// cellText is the value of cell c as Excel shows it: text as written,
// booleans TRUE or FALSE, numbers as numberText writes them. An error
// value (#N/A, #REF!: the cell's text), a formula without the value it
// computed (""), and a shared string the workbook does not have ("") are
// *RowErrors.
func (r *sheetReader) cellText(c *cell) (string, error) {
	switch {
	case c.typ == "e":
		return string(c.v), r.rowError(c.col, r.errorValueMsg(string(c.v)))
	case c.hasF && !c.hasV && !c.hasIS:
		return "", r.rowError(c.col, r.noValueMsg())
	}
	switch c.typ {
	case "s":
		if len(c.v) == 0 {
			return "", nil
		}
		return r.sharedString(c)
	case "inlineStr":
		if c.hasIS {
			return string(unescapeXLSX(c.is)), nil
		}
		return string(unescapeXLSX(c.v)), nil
	case "str":
		return string(c.v), nil
	case "b":
		switch strings.TrimSpace(string(c.v)) {
		case "1", "true":
			return "TRUE", nil
		case "0", "false":
			return "FALSE", nil
		}
		return string(c.v), nil
	case "d":
		if kind := r.format(c.style).date; kind != notDate {
			return isoDateText(string(c.v), kind), nil
		}
		return isoDateText(string(c.v), dateTime), nil
	}
	if len(c.v) == 0 {
		return "", nil
	}
	var s string
	s, r.scratch = numberText(c.v, r.format(c.style), r.date1904, r.dec, r.scratch)
	return s, nil
}

// format is the number format of the cell style id (the s attribute).
func (r *sheetReader) format(id string) numFormat {
	if id == "" || len(r.formats) == 0 {
		return numFormat{}
	}
	i, err := strconv.Atoi(id)
	if err != nil || i < 0 || i >= len(r.formats) {
		return numFormat{}
	}
	return r.formats[i]
}

// sharedString is the shared string cell c refers to.
func (r *sheetReader) sharedString(c *cell) (string, error) {
	i, err := strconv.Atoi(strings.TrimSpace(string(c.v)))
	if err == nil && r.sst != nil {
		s, ok, err := r.sst.get(i)
		if err != nil {
			return "", fmt.Errorf("%s: reading the shared texts back from their temporary file: %w", r.x.pkg.name, err)
		}
		if ok {
			return s, nil
		}
	}
	have := 0
	if r.sst != nil {
		have = r.sst.len()
	}
	return "", r.rowError(c.col, fmt.Sprintf("the cell refers to shared text %q, but the workbook holds %d shared texts: "+
		"the workbook is damaged; open it in your spreadsheet program and save it again", clip(string(c.v)), have))
}

func (r *sheetReader) rowError(col int, msg string) *RowError {
	return &RowError{File: r.x.pkg.name, Sheet: r.sheet, Line: r.row, Column: col, Msg: msg}
}

// errorValueMsg explains an error value (#N/A, #REF!, ...), and the
// formula that gave it, if the cell has one.
func (r *sheetReader) errorValueMsg(value string) string {
	value = clip(strings.TrimSpace(value))
	if len(r.formula) == 0 {
		return fmt.Sprintf("the cell holds the spreadsheet's error value %s, not a value to import: "+
			"correct it in your spreadsheet program, or clear the cell", value)
	}
	return fmt.Sprintf("the cell holds the spreadsheet's error value %s, from its formula =%s: it is not a value to import; "+
		"correct the formula, or the cells it reads, in your spreadsheet program, or clear the cell", value, clip(string(r.formula)))
}

// noValueMsg explains a formula saved without the value it computes.
func (r *sheetReader) noValueMsg() string {
	what := "a formula (one shared with the cells around it)"
	if len(r.formula) > 0 {
		what = "the formula =" + clip(string(r.formula))
	}
	return "the cell holds " + what + " but not the value it computes: the workbook was saved by a program that does not calculate formulas; " +
		"open it in your spreadsheet program and save it again, or save it with values only"
}

// set puts a cell's value in r.cells.
func (r *sheetReader) set(col int, value string) {
	for len(r.cells) < col {
		r.cells = append(r.cells, "")
	}
	r.cells[col-1] = value
}

// columnOf returns the 1-based column of a cell reference like "B12", or 0
// when ref is not one within Excel's 16,384 columns.
func columnOf(ref string) int {
	col, i := 0, 0
	for ; i < len(ref); i++ {
		c := ref[i] | 0x20 // lower case
		if c < 'a' || c > 'z' {
			break
		}
		if col = col*26 + int(c-'a') + 1; col > maxSheetCols {
			return 0
		}
	}
	if i == 0 || i == len(ref) {
		return 0
	}
	for _, c := range ref[i:] {
		if c < '0' || c > '9' {
			return 0
		}
	}
	return col
}
