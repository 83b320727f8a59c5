package sheet

import (
	"archive/zip"
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/klauspost/compress/flate"
	"github.com/xuri/excelize/v2"

	"lading/paths"
)

// measureRows is how many rows of a sheet are held, to measure its
// columns' widths, before the sheet is streamed (excelize needs the
// widths before the first row).
const measureRows = 200

// Column widths, in characters.
const (
	minWidth    = 6
	maxWidth    = 60
	totalWidth  = 17 // a total column shows 99,999,999,999.99
	headerExtra = 3  // a bold header and the autofilter's button
	padding     = 2
)

// Number formats of the value cells.
const (
	numFmtInteger  = 1 // 0
	numFmtMoney    = 4 // #,##0.00
	formatDate     = "yyyy-mm-dd"
	formatDateTime = "yyyy-mm-dd hh:mm:ss"
)

// now is the clock of the workbook's properties.
var now = time.Now

// book writes an XLSX workbook, one StreamWriter per sheet. excelize
// (2.11.0) keeps one buffer per StreamWriter, spilled to a temporary file
// past 16 MiB, so that all sheets stream at once; memory grows with the
// number of sheets, not of rows.
type book struct {
	final          string
	tmp            *os.File
	f              *excelize.File
	title          string
	subject        string
	account        string
	loc            *time.Location // of the date-times, nil when not moved
	created        time.Time
	footer         string // of every printed page
	style          styles
	sheets         []*xsheet
	summaryName    string
	summaryContent Summary
	pipe           *pipe // to the writer of the rows, from start to finish
}

// styles are the style ids of the workbook.
type styles struct {
	header      int
	headerRight int               // over numbers and dates
	title       int               // a summary's first line
	note        int               // a note under a summary's table
	check       int               // a check box
	value       [DateTime + 1]int // a value cell of each kind
	total       [DateTime + 1]int // a totals row cell of each kind
}

// xsheet is one worksheet being written.
type xsheet struct {
	name      string
	cols      []Column
	sw        *excelize.StreamWriter
	held      [][]string // the first rows, until the widths are known
	streaming bool
	rows      int   // data rows written
	limit     int   // the most data rows the sheet takes
	cells     []any // the row being written
	sums      []sum
	breaks    bool // printed at a scale, with page breaks
	broken    int  // page breaks given
}

// sum is a column's total so far.
type sum struct {
	v        float64
	decimals int // the most decimals of a cell added
}

func (s *sum) add(n number) {
	s.v += n.v
	s.decimals = max(s.decimals, n.decimals)
}

func createBook(path string, o Options, sheets []Sheet) (*book, error) {
	dir := filepath.Dir(path)
	tmp, err := createTemp(dir, "."+filepath.Base(path)+"-")
	if err != nil {
		return nil, err
	}
	b := &book{
		final: path, tmp: tmp, title: o.Title, subject: o.Subject, account: o.Account, loc: o.Location, created: now(),
		summaryName: o.Summary,
		// The sheets' spill files go beside the file, not to a /tmp
		// that may be memory.
		f: excelize.NewFile(excelize.Options{TmpDir: dir}),
	}
	b.footer = footer(o.Title, o.Subject, o.Account, made(b.created, b.loc))
	if err := b.start(sheets); err != nil {
		b.discard()
		return nil, err
	}
	width := 0
	for _, s := range b.sheets {
		width = max(width, len(s.cols))
	}
	b.pipe = newPipe(width)
	return b, nil
}

// start makes the styles and the sheets, the summary first, each data
// sheet with its header row frozen.
func (b *book) start(sheets []Sheet) error {
	var err error
	if b.style, err = newStyles(b.f); err != nil {
		return err
	}
	names := make([]string, 0, len(sheets)+1)
	if b.summaryName != "" {
		names = append(names, b.summaryName)
	}
	for _, s := range sheets {
		names = append(names, s.Name)
	}
	for i, name := range names {
		if i == 0 {
			err = b.f.SetSheetName(b.f.GetSheetName(0), name)
		} else {
			_, err = b.f.NewSheet(name)
		}
		if err != nil {
			return err
		}
	}
	for _, s := range sheets {
		// Fitting to the page's width is a property the StreamWriter
		// writes when it is made.
		fit := !s.PageBreaks
		if err := b.f.SetSheetProps(s.Name, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
			return err
		}
		sw, err := b.f.NewStreamWriter(s.Name)
		if err != nil {
			return err
		}
		err = sw.SetPanes(&excelize.Panes{
			Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
			Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
		})
		if err != nil {
			return err
		}
		limit := excelize.TotalRows - 1 // the header
		if slices.ContainsFunc(s.Columns, func(c Column) bool { return c.Total }) {
			limit--
		}
		b.sheets = append(b.sheets, &xsheet{
			name: s.Name, cols: s.Columns, sw: sw, limit: limit, breaks: s.PageBreaks,
			cells: make([]any, len(s.Columns)), sums: make([]sum, len(s.Columns)),
		})
	}
	return nil
}

func newStyles(f *excelize.File) (styles, error) {
	var st styles
	date, dateTime := formatDate, formatDateTime
	formats := [DateTime + 1]excelize.Style{
		Integer:  {NumFmt: numFmtInteger},
		Money:    {NumFmt: numFmtMoney},
		Date:     {CustomNumFmt: &date},
		DateTime: {CustomNumFmt: &dateTime},
	}
	// Fonts name their family and size: a bold font without them is
	// printed in another program's default (a serif, in LibreOffice).
	bold := &excelize.Font{Bold: true, Family: fontFamily, Size: fontSize}
	right := &excelize.Alignment{Horizontal: "right"}
	var err error
	for _, s := range []struct {
		id    *int
		style excelize.Style
	}{
		{&st.header, excelize.Style{Font: bold}},
		{&st.headerRight, excelize.Style{Font: bold, Alignment: right}},
		{&st.title, excelize.Style{Font: &excelize.Font{Bold: true, Family: fontFamily, Size: 14}}},
		{&st.note, excelize.Style{Font: &excelize.Font{Italic: true, Family: fontFamily, Size: fontSize}}},
		{&st.check, excelize.Style{Font: &excelize.Font{Family: fontFamily, Size: 14}, Alignment: &excelize.Alignment{Horizontal: "center"}}},
	} {
		if *s.id, err = f.NewStyle(&s.style); err != nil {
			return st, err
		}
	}
	for k, s := range formats {
		if Kind(k) != Text && Kind(k) != Number {
			if st.value[k], err = f.NewStyle(&s); err != nil {
				return st, err
			}
		}
		s.Font = bold
		if st.total[k], err = f.NewStyle(&s); err != nil {
			return st, err
		}
	}
	return st, nil
}

// The workbook's font: excelize's default.
const (
	fontFamily = "Calibri"
	fontSize   = 11
)

// headerStyle is the style of the header of a column of kind k: bold, and
// on the right over numbers and dates, as they are.
func (st styles) headerStyle(k Kind) int {
	if k == Text {
		return st.header
	}
	return st.headerRight
}

func (b *book) row(i int, cells []string) error {
	s := b.sheets[i]
	if !s.streaming {
		if len(s.held) < measureRows {
			s.held = append(s.held, slices.Clone(cells))
			return nil
		}
		if err := b.stream(s); err != nil {
			return err
		}
	}
	return b.write(s, cells)
}

// stream sets the widths of s from its header and held rows, writes the
// header and the held rows: s is streamed from then on. The writer sets
// the widths and writes the header, in order, before the rows.
func (b *book) stream(s *xsheet) error {
	widths := make([]float64, len(s.cols))
	for c, col := range s.cols {
		w := col.Width
		if w <= 0 {
			w = float64(s.measure(c))
		}
		widths[c] = min(w, excelize.MaxColumnWidth)
	}
	err := b.pipe.do(func() error {
		if err := b.head(s, widths); err != nil {
			return fmt.Errorf("sheet %q: %w", s.name, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.streaming = true
	for _, r := range s.held {
		if err := b.write(s, r); err != nil {
			return err
		}
	}
	s.held = nil
	return nil
}

// head sets the widths of s and its printed pages and writes its header.
func (b *book) head(s *xsheet, widths []float64) error {
	for c, w := range widths {
		if err := s.sw.SetColWidth(c+1, c+1, w); err != nil {
			return err
		}
	}
	if err := b.sheetPrint(s, widths); err != nil {
		return err
	}
	for c, col := range s.cols {
		s.cells[c] = excelize.Cell{StyleID: b.style.headerStyle(col.Kind), Value: col.Header}
	}
	return s.sw.SetRow("A1", s.cells)
}

// measure is the width of column c: its widest of the header and the held
// cells, as they show, within bounds.
func (s *xsheet) measure(c int) int {
	col := s.cols[c]
	w := textWidth(col.Header) + headerExtra
	for _, r := range s.held {
		if c < len(r) {
			w = max(w, cellWidth(r[c], col.Kind)+padding)
		}
	}
	w = min(max(w, minWidth), maxWidth)
	if col.Total {
		w = max(w, totalWidth)
	}
	return w
}

// cellWidth is how many characters wide v shows in a column of kind k.
func cellWidth(v string, k Kind) int {
	switch {
	case k.numeric():
		if n, ok := parseNumber(v, k); ok {
			return numberWidth(n.v, k)
		}
	case k == Date || k == DateTime:
		if _, ok := parseTime(v, k, nil); ok {
			return dateWidth(k)
		}
	}
	return textWidth(v)
}

// write sends one data row of s to the writer, its cells read.
func (b *book) write(s *xsheet, cells []string) error {
	if s.rows >= s.limit {
		return fmt.Errorf("sheet %q has more than %d rows, the most an XLSX sheet holds: export to CSV, or fewer records",
			s.name, s.limit)
	}
	row := s.rows + 2 // after the header, 1-based
	st := b.pipe.slot(len(s.cols))
	for c, col := range s.cols {
		st.vals[c] = nil
		if col.Check {
			st.cells[c] = excelize.Cell{StyleID: b.style.check, Value: checkBox}
			st.vals[c] = &st.cells[c]
			continue
		}
		if c < len(cells) {
			v, err := b.cell(s, c, cells[c], &st.cells[c])
			if err != nil {
				return fmt.Errorf("sheet %q, row %d, column %q: %w", s.name, row, s.cols[c].Header, err)
			}
			st.vals[c] = v
		}
	}
	st.s, st.row = s, row
	if err := b.pipe.push(); err != nil {
		return err
	}
	s.rows++
	return nil
}

// cell is the value of v in column c of s, adding it to the column's sum:
// a styled value is put in styled, and the value is a pointer to it.
func (b *book) cell(s *xsheet, c int, v string, styled *excelize.Cell) (any, error) {
	k := s.cols[c].Kind
	switch {
	case v == "":
		return nil, nil
	case k.numeric():
		if n, ok := parseNumber(v, k); ok {
			s.sums[c].add(n)
			if b.style.value[k] == 0 { // a Number: no style, the value alone
				return n.v, nil
			}
			*styled = excelize.Cell{StyleID: b.style.value[k], Value: n.v}
			return styled, nil
		}
	case k == Date || k == DateTime:
		if d, ok := parseTime(v, k, b.loc); ok {
			*styled = excelize.Cell{StyleID: b.style.value[k], Value: d}
			return styled, nil
		}
	}
	if len(v) > excelize.TotalCellChars { // bytes: at least as many as UTF-16 units
		if n := utf16Len(v); n > excelize.TotalCellChars {
			return nil, fmt.Errorf("the text has %d characters, and an XLSX cell holds at most %d: export to CSV to keep it whole",
				n, excelize.TotalCellChars)
		}
	}
	return v, nil
}

// finish completes the sheets, each in turn (the writer ends each one),
// then the summary and the properties, and saves the workbook. A sheet's
// error names its sheet already: it may come back while another sheet is
// ended, as the writer's errors come back at the next step.
func (b *book) finish() error {
	for _, s := range b.sheets {
		if err := b.endSheet(s); err != nil {
			return err
		}
	}
	if err := b.pipe.close(); err != nil {
		return err
	}
	if b.summaryName != "" {
		if err := b.writeSummary(); err != nil {
			return fmt.Errorf("sheet %q: %w", b.summaryName, err)
		}
	}
	created := b.created.UTC().Format(time.RFC3339)
	err := b.f.SetDocProps(&excelize.DocProperties{
		Title: b.title, Subject: b.subject, Created: created, Modified: created, Creator: "lading", LastModifiedBy: "lading",
		Description: description(b.account, made(b.created, b.loc), b.loc),
	})
	if err != nil {
		return err
	}
	if err := b.save(); err != nil {
		return err
	}
	return paths.Replace(b.tmp.Name(), b.final)
}

// endSheet streams s if it was not yet and has the writer end it.
func (b *book) endSheet(s *xsheet) error {
	if !s.streaming {
		if err := b.stream(s); err != nil {
			return err
		}
	}
	return b.pipe.do(func() error {
		if err := b.end(s); err != nil {
			return fmt.Errorf("sheet %q: %w", s.name, err)
		}
		return nil
	})
}

// end completes sheet s, streamed and written: the totals row, the
// autofilter over the header and the data.
func (b *book) end(s *xsheet) error {
	if err := b.totals(s); err != nil {
		return err
	}
	last, err := excelize.CoordinatesToCellName(len(s.cols), s.rows+1)
	if err != nil {
		return err
	}
	if err := b.f.AutoFilter(s.name, "A1:"+last, nil); err != nil {
		return err
	}
	return s.sw.Flush()
}

// totals writes the totals row of s, when it has data rows and a Total
// column: "Total" in its first text column, a SUM formula with its value
// in each Total column.
func (b *book) totals(s *xsheet) error {
	if s.rows == 0 || !slices.ContainsFunc(s.cols, func(c Column) bool { return c.Total }) {
		return nil
	}
	row := s.rows + 2
	label := labelColumn(s.cols)
	for c, col := range s.cols {
		s.cells[c] = nil
		switch {
		case col.Total:
			name, err := excelize.ColumnNumberToName(c + 1)
			if err != nil {
				return err
			}
			s.cells[c] = excelize.Cell{
				StyleID: b.style.total[col.Kind],
				Formula: "SUM(" + name + "2:" + name + strconv.Itoa(row-1) + ")",
				Value:   roundTo(s.sums[c].v, s.sums[c].decimals),
			}
		case c == label:
			s.cells[c] = excelize.Cell{StyleID: b.style.header, Value: "Total"}
		}
	}
	return s.sw.SetRow("A"+strconv.Itoa(row), s.cells)
}

// labelColumn is the column of the word "Total" in a totals row: the first
// printed text column, else the first printed one without a total, else
// none (-1). A check box is no place for it.
func labelColumn(cols []Column) int {
	label := func(c Column) bool { return !c.NoPrint && !c.Check }
	if i := slices.IndexFunc(cols, func(c Column) bool { return label(c) && c.Kind == Text }); i >= 0 {
		return i
	}
	return slices.IndexFunc(cols, func(c Column) bool { return label(c) && !c.Total })
}

// checkBox is the cell of a check box column.
const checkBox = "☐"

// sheetPrint sets up the printed pages of s, whose columns are widths
// characters wide: its layout, margins and footer, its header row on
// every page, and the columns printed.
func (b *book) sheetPrint(s *xsheet, widths []float64) error {
	first, last, _ := printedColumns(s.cols)
	if err := b.printSetup(s.name, widths[first:last+1], s.breaks); err != nil {
		return err
	}
	err := b.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", RefersTo: quoteSheet(s.name) + "!$1:$1", Scope: s.name})
	if err != nil || (first == 0 && last == len(s.cols)-1) {
		return err
	}
	from, _ := excelize.ColumnNumberToName(first + 1)
	to, _ := excelize.ColumnNumberToName(last + 1)
	return b.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Area", RefersTo: quoteSheet(s.name) + "!$" + from + ":$" + to, Scope: s.name})
}

// printSetup sets the layout, margins and footer of the printed pages of
// the sheet name, whose printed columns are widths characters wide.
func (b *book) printSetup(name string, widths []float64, breaks bool) error {
	if err := b.f.SetPageLayout(name, pageLayout(widths, breaks)); err != nil {
		return err
	}
	if err := b.f.SetPageMargins(name, margins()); err != nil {
		return err
	}
	return b.f.SetHeaderFooter(name, &excelize.HeaderFooterOptions{OddFooter: b.footer})
}

func (b *book) pageBreak(i int) error {
	s := b.sheets[i]
	row := s.rows + len(s.held) + 2 // the next row: after the header and the rows so far
	if row <= 2 || s.broken >= MaxPageBreaks {
		return nil
	}
	s.broken++
	return b.pipe.do(func() error { return s.sw.InsertPageBreak("A" + strconv.Itoa(row)) })
}

func (b *book) summary(s Summary) { b.summaryContent = s }

// save writes the workbook into the temporary file. excelize's Write
// builds the whole ZIP in memory; its ZIP writer is set to the file
// instead, so that the memory does not grow with the rows, and deflates
// with klauspost/compress's flate (newDeflater).
func (b *book) save() error {
	buf := bufio.NewWriterSize(b.tmp, 256<<10)
	b.f.SetZipWriter(func(io.Writer) excelize.ZipWriter {
		zw := zip.NewWriter(buf)
		zw.RegisterCompressor(zip.Deflate, newDeflater)
		return zw
	})
	var empty countingWriter
	if err := b.f.Write(&empty); err != nil {
		return err
	}
	if empty > 0 {
		return errors.New("excelize wrote the workbook to its own buffer, not to the file")
	}
	err := buf.Flush()
	if cerr := b.tmp.Close(); err == nil {
		err = cerr
	}
	if cerr := b.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// countingWriter counts the bytes written to it and drops them.
type countingWriter int64

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}

func (b *book) discard() {
	if b.pipe != nil {
		b.pipe.close()
	}
	b.f.Close()
	b.tmp.Close()
	os.Remove(b.tmp.Name())
}

func (b *book) paths() []string { return []string{b.final} }

// deflateLevel is archive/zip's level. klauspost/compress's flate at the
// same level deflates a large sheet in half the CPU of compress/flate
// (100,000 rows × 19 cells: 1.10 s against 2.27 s), into 3% more bytes;
// the deflate at the save was as much of an export's CPU as SetRow.
const deflateLevel = 5

// newDeflater is a ZIP entry's compressor (zip.Compressor).
func newDeflater(w io.Writer) (io.WriteCloser, error) {
	return flate.NewWriter(w, deflateLevel)
}
