package source

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// xlsxSource streams one worksheet of a workbook. It reads the package's
// parts itself rather than through a spreadsheet library, so that it reads
// only the parts it needs (workbook, relationships, styles, shared strings,
// the sheet), each within Options.Limits and streamed, never whole.
type xlsxSource struct {
	name      string
	sheet     string
	sheets    []sheetInfo // the workbook's, for messages
	headerRow int         // the row the header was read from
	pkg       *xlsxPackage
	sst       *sharedStrings
	part      *xmlPart
	rows      *sheetReader
	header    []string
	row       []string
}

// workbookInfo is what the workbook part says: its sheets and where they
// and the shared parts are.
type workbookInfo struct {
	sheets   []sheetInfo
	date1904 bool
	sst      string // shared strings part, "" when there is none
	styles   string // styles part, "" when there is none
}

// sheetInfo is one sheet of a workbook: its name, its part, and whether
// it is hidden (state hidden or veryHidden: Excel does not show it).
type sheetInfo struct {
	name, part string
	hidden     bool
}

func openXLSX(path string, o Options) (*xlsxSource, error) {
	pkg, err := openPackage(path, o.Limits.withDefaults())
	if err != nil {
		return nil, err
	}
	s := &xlsxSource{name: path, pkg: pkg}
	if err := s.open(o); err != nil {
		s.Close() // the sheet, the shared strings' temporary file too
		return nil, err
	}
	return s, nil
}

func (s *xlsxSource) open(o Options) error {
	wb, err := readWorkbook(s.pkg)
	if err != nil {
		return err
	}
	s.sheets = wb.sheets
	sh, err := pickSheet(s.name, wb.sheets, o.Sheet)
	if err != nil {
		return err
	}
	s.sheet = sh.name
	set := sheetSettings{date1904: wb.date1904, dec: byte(o.Decimal)}
	if wb.sst != "" && s.pkg.part(wb.sst) != nil {
		if s.sst, err = loadSharedStrings(s.pkg, wb.sst); err != nil {
			return err
		}
		set.sst = s.sst
	}
	if set.formats, err = loadNumFormats(s.pkg, wb.styles); err != nil {
		return err
	}
	if s.part, err = s.pkg.openXML(sh.part, true); err != nil {
		return err
	}
	s.rows = newSheetReader(s.part, s.sheet, set, s.pkg.limits)
	if err := s.readHeader(o.HeaderRow); err != nil {
		return err
	}
	s.row = make([]string, len(s.header))
	return nil
}

// readHeader keeps the first non-empty row at or below headerRow as the
// header.
func (s *xlsxSource) readHeader(headerRow int) error {
	for {
		if err := s.nextRow(); err != nil {
			if _, ok := err.(*RowError); ok && s.rows.row < headerRow {
				continue // a row above the header is not read
			}
			if err == io.EOF {
				return &HeaderError{Msg: fmt.Sprintf("%s: sheet %q: no header row found at or below row %d: the sheet is empty there; "+
					"the workbook's sheets are %s: choose the sheet and the row that hold the column names", s.name, s.sheet, headerRow, sheetList(s.sheets))}
			}
			return err
		}
		if s.rows.row < headerRow {
			continue
		}
		if col := nulColumn(s.rows.cells); col > 0 {
			return &RowError{File: s.name, Sheet: s.sheet, Line: s.rows.row, Column: col, Msg: nulMsg}
		}
		if s.header = headerCells(s.rows.cells); len(s.header) > 0 {
			s.headerRow = s.rows.row
			return nil
		}
	}
}

// nextRow reads the next non-empty row; a row error in the header area is
// fatal, since the header cannot be read.
func (s *xlsxSource) nextRow() error {
	for {
		if err := s.rows.next(); err != nil {
			return err
		}
		if !allEmpty(s.rows.cells) {
			return nil
		}
	}
}

// readWorkbook reads the workbook part and its relationships.
func readWorkbook(p *xlsxPackage) (*workbookInfo, error) {
	pkgRels, err := p.relationships("")
	if err != nil {
		return nil, err
	}
	wbPart := relTarget(pkgRels, "", "/officeDocument", "xl/workbook.xml")
	rels, err := p.relationships(wbPart)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]string, len(rels))
	for _, r := range rels {
		byID[r.id] = resolve(wbPart, r.target)
	}
	wb := &workbookInfo{
		sst:    relTarget(rels, wbPart, "/sharedStrings", "xl/sharedStrings.xml"),
		styles: relTarget(rels, wbPart, "/styles", "xl/styles.xml"),
	}
	err = p.eachElement(wbPart, func(local string, attrs []xml.Attr) error {
		switch local {
		case "workbookPr":
			v := attr(attrs, "date1904")
			wb.date1904 = v == "1" || v == "true"
		case "sheet":
			if len(wb.sheets) == maxListed {
				return fmt.Errorf("more than %d sheets", maxListed)
			}
			st := attr(attrs, "state")
			wb.sheets = append(wb.sheets, sheetInfo{name: attr(attrs, "name"), part: byID[attr(attrs, "id")],
				hidden: st == "hidden" || st == "veryHidden"})
		}
		return nil
	})
	return wb, err
}

// pickSheet returns the sheet named want (case-insensitive), or the first
// visible one when want is "": a hidden sheet is read only when named.
func pickSheet(file string, sheets []sheetInfo, want string) (sheetInfo, error) {
	if len(sheets) == 0 {
		return sheetInfo{}, fmt.Errorf("%s: the workbook has no sheets", file)
	}
	i := -1
	for j, s := range sheets {
		if want == "" && !s.hidden || want != "" && strings.EqualFold(s.name, want) {
			i = j
			break
		}
	}
	switch {
	case i < 0 && want == "":
		return sheetInfo{}, &HeaderError{Msg: fmt.Sprintf("%s: every sheet of the workbook is hidden (%s): name the sheet to read", file, sheetList(sheets))}
	case i < 0:
		return sheetInfo{}, &HeaderError{Msg: fmt.Sprintf("%s: no sheet named %q: the workbook has %s", file, want, sheetList(sheets))}
	}
	sh := sheets[i]
	if sh.part == "" {
		return sheetInfo{}, fmt.Errorf("%s: sheet %q: the workbook does not say where the sheet's cells are: it is damaged; open it in your spreadsheet program and save it again", file, sh.name)
	}
	return sh, nil
}

// sheetList names sheets for a message: "Old prices" (hidden), "Products"
// and "Notes".
func sheetList(sheets []sheetInfo) string {
	names := make([]string, 0, min(len(sheets), maxNamed+1))
	for i, s := range sheets {
		if i == maxNamed {
			names = append(names, fmt.Sprintf("%d more", len(sheets)-maxNamed))
			break
		}
		n := fmt.Sprintf("%q", s.name)
		if s.hidden {
			n += " (hidden)"
		}
		names = append(names, n)
	}
	return joinList(names)
}

// maxNamed is how many sheets a message names.
const maxNamed = 20

func (s *xlsxSource) Name() string     { return s.name }
func (s *xlsxSource) Sheet() string    { return s.sheet }
func (s *xlsxSource) Header() []string { return s.header }

func (s *xlsxSource) Next() ([]string, int, error) {
	var rowErr error
	for {
		rowErr = s.rows.next()
		if rowErr != nil {
			if _, ok := rowErr.(*RowError); !ok {
				return nil, 0, rowErr
			}
		}
		if rowErr != nil || !allEmpty(s.rows.cells) {
			break
		}
	}
	cells, line := s.rows.cells, s.rows.row
	col, width := fitRow(s.row, cells)
	switch {
	case rowErr != nil:
		return s.row, line, rowErr
	case col > 0:
		return s.row, line, &RowError{File: s.name, Sheet: s.sheet, Line: line,
			Msg: longRowMsg(width, len(s.header), col, cells[col-1])}
	}
	if col := nulColumn(cells); col > 0 {
		return s.row, line, &RowError{File: s.name, Sheet: s.sheet, Line: line, Column: col, Msg: nulMsg}
	}
	return s.row, line, nil
}

func (s *xlsxSource) Close() error {
	if s.pkg == nil {
		return nil
	}
	if s.part != nil {
		s.part.Close()
	}
	err := s.sst.Close()
	if cerr := s.pkg.Close(); err == nil {
		err = cerr
	}
	s.pkg = nil
	return err
}

// joinList renders items as a, b and c.
func joinList(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
