package source

import (
	"fmt"
	"io"
	"strings"

	"github.com/xuri/excelize/v2"
)

// xlsxOptions open workbooks for streaming: worksheets and shared strings
// over 1 MiB are unzipped to temporary files instead of memory, and cells
// are read raw (numbers as stored, not as formatted for display).
//
// Cells longer than 32,767 characters cannot exist in a valid workbook
// (Excel's limit, which excelize also enforces by truncating on write);
// reading does not truncate.
var xlsxOptions = excelize.Options{UnzipXMLSizeLimit: 1 << 20, RawCellValue: true}

// xlsxSource streams one worksheet with excelize's Rows iterator.
type xlsxSource struct {
	name     string
	sheet    string
	f        *excelize.File
	rows     *excelize.Rows
	rowNum   int // number of the row rows is on
	header   []string
	row      []string
	dates    []dateKind // per column, nil when there are no date columns
	date1904 bool
}

func openXLSX(path string, o Options) (*xlsxSource, error) {
	f, err := excelize.OpenFile(path, xlsxOptions)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot open as an XLSX workbook: %w", path, err)
	}
	s := &xlsxSource{name: path, f: f}
	if err := s.open(o); err != nil {
		s.Close() // the sheet's rows too, when reading them had started
		return nil, err
	}
	return s, nil
}

func (s *xlsxSource) open(o Options) error {
	sheets := s.f.GetSheetList()
	if len(sheets) == 0 {
		return fmt.Errorf("%s: the workbook has no sheets", s.name)
	}
	s.sheet = sheets[0]
	if o.Sheet != "" {
		s.sheet = ""
		for _, name := range sheets {
			if strings.EqualFold(name, o.Sheet) {
				s.sheet = name
				break
			}
		}
		if s.sheet == "" {
			return fmt.Errorf("%s: no sheet named %q: the workbook has %s", s.name, o.Sheet, quoteList(sheets))
		}
	}
	props, err := s.f.GetWorkbookProps()
	if err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	s.date1904 = props.Date1904 != nil && *props.Date1904

	if s.rows, err = s.f.Rows(s.sheet); err != nil {
		return fmt.Errorf("%s: sheet %q: %w", s.name, s.sheet, err)
	}
	for {
		cells, err := s.nextRow(o.HeaderRow)
		if err == io.EOF {
			return fmt.Errorf("%s: sheet %q: no header row found at or below row %d: the sheet is empty there; check the sheet and header row settings", s.name, s.sheet, o.HeaderRow)
		}
		if err != nil {
			return err
		}
		if s.header = headerCells(cells); len(s.header) > 0 {
			break
		}
	}
	s.row = make([]string, len(s.header))
	if s.dates, err = scanDateColumns(s.name, s.f, s.sheet, s.rowNum); err != nil {
		return fmt.Errorf("%s: sheet %q: reading cell formats: %w", s.name, s.sheet, err)
	}
	return nil
}

// nextRow advances to the next non-empty row numbered from or above, and
// returns its raw cells.
func (s *xlsxSource) nextRow(from int) ([]string, error) {
	for s.rows.Next() {
		s.rowNum++
		if s.rowNum < from {
			continue
		}
		cells, err := s.rows.Columns(xlsxOptions)
		if err != nil {
			return nil, fmt.Errorf("%s: sheet %q: row %d: %w", s.name, s.sheet, s.rowNum, err)
		}
		if !allEmpty(cells) {
			return cells, nil
		}
	}
	if err := s.rows.Error(); err != nil {
		return nil, fmt.Errorf("%s: sheet %q: after row %d: %w", s.name, s.sheet, s.rowNum, err)
	}
	return nil, io.EOF
}

func (s *xlsxSource) Name() string     { return s.name }
func (s *xlsxSource) Header() []string { return s.header }

func (s *xlsxSource) Next() ([]string, int, error) {
	cells, err := s.nextRow(0)
	if err != nil {
		return nil, 0, err
	}
	for i, k := range s.dates {
		if k != notDate && i < len(cells) {
			cells[i] = formatSerial(cells[i], k, s.date1904)
		}
	}
	if col, width := fitRow(s.row, cells); col > 0 {
		return s.row, s.rowNum, &RowError{File: s.name, Sheet: s.sheet, Line: s.rowNum,
			Msg: longRowMsg(width, len(s.header), col, cells[col-1])}
	}
	return s.row, s.rowNum, nil
}

func (s *xlsxSource) Close() error {
	if s.f == nil {
		return nil
	}
	var err error
	if s.rows != nil {
		err = s.rows.Close()
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	s.f = nil
	return err
}

// quoteList renders names as "a", "b" and "c".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
