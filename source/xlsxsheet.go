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
// cells' raw values, shared strings looked up.
type sheetReader struct {
	x     *xmlPart
	sheet string
	sst   *sharedStrings // nil when the workbook has none
	// maxCell bounds one cell, maxRow the cells of one row together.
	maxCell, maxRow int

	row    int      // number of the row read last
	cells  []string // its cells by column, "" where there is none
	inData bool     // inside sheetData

	// styles, when kept, holds the style id of each numeric cell of the
	// row (0 for the others), for the date scan.
	keepStyles bool
	styles     []int

	buf []byte
}

func newSheetReader(x *xmlPart, sheet string, sst *sharedStrings, limits Limits) *sheetReader {
	r := &sheetReader{x: x, sheet: sheet, sst: sst, maxCell: limits.MaxCellSize, maxRow: 4 * limits.MaxCellSize}
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
		tok, err := r.x.token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "sheetData":
				r.inData = true
			case "row":
				if r.inData {
					return r.readRow(t)
				}
			}
		case xml.EndElement:
			if t.Name.Local == "sheetData" {
				return io.EOF
			}
		}
	}
}

// readRow reads the cells of the row element se.
func (r *sheetReader) readRow(se xml.StartElement) error {
	n := r.row + 1
	if v := attr(se, "r"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n <= r.row || n > maxSheetRows {
			return r.x.fail(fmt.Errorf("row number %q after row %d", v, r.row))
		}
	}
	r.row = n
	r.cells, r.styles = r.cells[:0], r.styles[:0]
	var rowErr error
	col, size := 0, 0
	for {
		tok, err := r.x.token()
		if err == io.EOF {
			return r.x.fail(io.ErrUnexpectedEOF)
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "c" {
				continue
			}
			var value string
			if col, value, err = r.readCell(t, col); err != nil {
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
		case xml.EndElement:
			if t.Name.Local == "row" {
				return rowErr
			}
		}
	}
}

// readCell reads the cell element se, the one after column prev, into
// r.cells and returns its column and value.
func (r *sheetReader) readCell(se xml.StartElement, prev int) (int, string, error) {
	col := prev + 1
	if ref := attr(se, "r"); ref != "" {
		if col = columnOf(ref); col == 0 {
			return prev, "", r.x.fail(fmt.Errorf("cell reference %q is not a cell of the sheet", clip(ref)))
		}
	} else if col > maxSheetCols {
		return prev, "", r.x.fail(fmt.Errorf("more than %d cells in a row", maxSheetCols))
	}
	typ := attr(se, "t")
	var v, is []byte
	var hasIS bool
	for done := false; !done; {
		tok, err := r.x.token()
		if err == io.EOF {
			return col, "", r.x.fail(io.ErrUnexpectedEOF)
		}
		if err != nil {
			return col, "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "v":
				v, err = r.x.text(r.buf[:0], "v", false, r.maxCell)
				r.buf = v
			case "is":
				hasIS = true
				is, err = r.x.text(nil, "is", true, r.maxCell)
			case "f":
				_, err = r.x.text(nil, "f", false, r.maxCell) // formulas are not read
			}
			if err != nil {
				return col, "", err
			}
		case xml.EndElement:
			done = t.Name.Local == "c"
		}
	}
	value, err := r.value(typ, v, is, hasIS, col)
	r.set(col, value, typ, attr(se, "s"))
	return col, value, err
}

// value is the raw value of a cell of type typ.
func (r *sheetReader) value(typ string, v, is []byte, hasIS bool, col int) (string, error) {
	switch {
	case typ == "s" && len(v) > 0:
		i, err := strconv.Atoi(strings.TrimSpace(string(v)))
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
		return "", &RowError{File: r.x.pkg.name, Sheet: r.sheet, Line: r.row, Column: col,
			Msg: fmt.Sprintf("the cell refers to shared text %q, but the workbook holds %d shared texts: "+
				"the workbook is damaged; open it in your spreadsheet program and save it again", clip(string(v)), have)}
	case typ == "inlineStr" && hasIS:
		return string(unescapeXLSX(is)), nil
	case typ == "inlineStr":
		return string(unescapeXLSX(v)), nil
	}
	return string(v), nil
}

// set puts a cell's value in r.cells, and its style in r.styles when kept.
func (r *sheetReader) set(col int, value, typ, style string) {
	for len(r.cells) < col {
		r.cells = append(r.cells, "")
	}
	r.cells[col-1] = value
	if !r.keepStyles {
		return
	}
	for len(r.styles) < col {
		r.styles = append(r.styles, 0)
	}
	r.styles[col-1] = 0
	switch typ {
	case "", "n", "d":
		if id, err := strconv.Atoi(style); err == nil && id > 0 {
			r.styles[col-1] = id
		}
	}
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
