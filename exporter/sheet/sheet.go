// Package sheet writes the spreadsheets of exports: XLSX workbooks of one or
// more sheets, or CSV files, from rows of text cells as the service gives
// them.
//
// A Writer is told each sheet's columns and the kind of each column
// (Text, Integer, Number, Money, Date, DateTime), then takes rows. Rows are
// written as they come, so an export of a million rows costs no more
// memory than one of a thousand. Files are written beside their final
// path under temporary names and renamed into place by Close, so that
// they are never seen half written; Discard drops them.
//
// # XLSX
//
// Each Sheet is a worksheet, streamed through excelize's StreamWriter; all
// sheets stream at once, each holding up to 16 MiB of its XML in memory
// and the rest in a temporary file beside the workbook (removed by Close
// and Discard). Row reads its cells (the errors below are its own) and
// hands them to a goroutine of the Writer's that writes them with excelize,
// so that on two cores the writing overlaps what feeds Row; Close deflates
// the parts with klauspost/compress's flate. The header row is bold and frozen, with an autofilter over the data.
// Column widths come from the header and the first 200 rows of each sheet,
// which are held until then (or until Close). Numbers are numbers:
// Integer columns show whole numbers, Money columns two decimals with
// thousands separators (#,##0.00), Number columns as Excel's General
// format shows them. Date and DateTime columns hold Excel dates shown as
// yyyy-mm-dd and yyyy-mm-dd hh:mm:ss; a date-time with an offset
// (2016-02-08T22:57:11+00:00) is shown in UTC, and a Date column given a
// date-time shows its day. A cell that does not read as its column's kind
// ("n/a" in a Money column, 2.5 in an Integer column, a number of more
// than 15 significant digits, which Excel would round, a date before March
// 1900) is written as text, as given: nothing is lost.
//
// When a column has Total set, a totals row follows the data: bold,
// "Total" in the first Text column, and a SUM formula over the data rows
// of each Total column, with its value computed, so that programs without
// a calculation engine read it too. A sheet with no data rows has no
// totals row.
//
// Every sheet prints one page wide, with its header row on every page:
// upright, or on its side when it would print upright at less than 85%;
// narrow margins at the sides; and a footer, 8 points high, with the
// title and Options.Subject on the left, the account and the time the
// file was made (in Options.Location) in the middle, and the sheet's name
// and "Page N of M" on the right. Columns with NoPrint stay in the sheet
// but off the page (the print area is the other columns), and a Check
// column shows a box to tick on each row. A sheet made with PageBreaks
// starts a page where Writer.PageBreak says; as Excel ignores page breaks
// on a sheet fitted to a width, it prints at the scale that fits its
// columns on the narrower of A4 and Letter instead, in the widest font a
// program may print it in. The paper size is
// left to the program that prints.
//
// With Options.Summary, a summary sheet comes first: a few lines, small
// tables (values, formulas with the values they compute, sums) and a
// stacked column chart of one of them, given by Writer.Summary before
// Close and written whole then, after the data sheets have streamed.
//
// The workbook's properties carry the title, the subject, the account and
// the time of Create. Excel's limits hold: a sheet has at most 1,048,576 rows, header
// and totals included, and a cell at most 32,767 characters; a row beyond
// them is an error that says to export to CSV instead. Control characters
// other than tab, line feed and carriage return, which XML cannot carry,
// become U+FFFD.
//
// # CSV
//
// A CSV file holds one sheet: the first Sheet is written to the path of
// Create, and each further one beside it, with "-" and the sheet's name
// before the extension (slips.csv, slips-Lines.csv, slips-Shipments.csv).
// Files are UTF-8, with a byte order mark when Options.BOM is set (Excel
// on Windows needs it to read UTF-8), and cells separated by
// Options.Delimiter.
//
// Cells are written as given. Text that a spreadsheet would run as a
// formula (it starts with = + - @, a tab or a carriage return) gets a
// leading single quote, as OWASP recommends (results.Inert); lading's
// import reads such a cell back as the original text. Numbers in the
// numeric columns are left intact: -3 in a Number column stays -3, while
// -x, or -3 in a Text column, is neutralised. Options.Raw turns this off,
// for files a program reads rather than a person.
//
// Files are created with mode 0666 less the umask, like os.Create, so
// that a warehouse system running as another user can read them.
//
// CSV files have no totals row, whatever the columns' Total says: a CSV
// export is for reading back into lading or another program, and a last
// row of sums would read as one more record. Excel sums a column in one
// step (AutoSum); the XLSX export has the totals row. For the same
// reason they have no summary, no check box column and no pages.
//
// A Writer is not safe for concurrent use.
package sheet

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"lading/paths"
)

// Kind says how the cells of a column are read and written.
type Kind uint8

// The kinds of columns. Integer, Number and Money cells are decimal text
// ("12.5", "-3"); Date cells are YYYY-MM-DD; DateTime cells are
// YYYY-MM-DD HH:MM:SS or RFC 3339 (also with an offset of the form +0000).
const (
	Text Kind = iota
	Integer
	Number
	Money
	Date
	DateTime
)

var kindNames = [...]string{"text", "integer", "number", "money", "date", "date-time"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// numeric reports whether cells of kind k are numbers.
func (k Kind) numeric() bool { return k == Integer || k == Number || k == Money }

// Column is one column of a sheet.
type Column struct {
	Header string
	Kind   Kind
	// Width is the XLSX column's width in characters; 0 measures the
	// header and the first rows, within sensible bounds.
	Width float64
	// Total asks for the column's sum in the XLSX totals row. Only
	// Integer, Number and Money columns have one.
	Total bool
	// NoPrint leaves the column off the printed pages of an XLSX sheet;
	// it stays in the sheet (and in CSV files): ids a reader of the paper
	// does not need. The printed columns are one block: the columns left
	// off come first or last.
	NoPrint bool
	// Check makes the column a check box to tick on paper: each data row
	// of an XLSX sheet shows ☐ in it, whatever its cell; a CSV file leaves
	// the column out. It holds text and has no total.
	Check bool
}

// Sheet is one sheet of a workbook, or one CSV file.
type Sheet struct {
	Name    string
	Columns []Column
	// PageBreaks says that the sheet's rows come in groups, each printed
	// from the top of a page (Writer.PageBreak). Excel ignores page breaks
	// on a sheet fitted to a page's width, so such a sheet is printed at
	// the scale that fits its width instead.
	PageBreaks bool
}

// Options are the settings of a file.
type Options struct {
	Title     string // XLSX document title
	BOM       bool   // CSV: start with a UTF-8 byte order mark, for Excel on Windows
	Delimiter rune   // CSV: the cell separator; 0 means ','
	// Raw writes CSV cells exactly as given, without the leading quote on
	// text a spreadsheet would run as a formula: for files another program
	// reads (a warehouse system's order file), where "+1 555" is a phone
	// number and must stay one.
	Raw bool
	// Location, when set, is the zone the file's dates and times are
	// written in (the file says which: see ZoneNote): XLSX date-times as
	// a clock there shows them, CSV date-times with its offset, and the
	// Date columns of both the day of a date-time there. Nil writes them
	// in UTC, and CSV cells as given.
	Location *time.Location
	// Subject says what the file holds, in words: the conditions it was
	// made with ("packing slip date 2026-10-01 to 2026-10-31"). Account
	// names the account it was read from (never with its token). XLSX:
	// both are in the workbook's properties and at the foot of every
	// printed page, with the title and the time the file was made.
	Subject string
	Account string
	// Summary, when set, names a sheet put first in an XLSX workbook and
	// written whole at Close, from what Writer.Summary gives it. A CSV
	// export has no summary.
	Summary string
}

// ZoneNote says which zone the dates and times of a file are in, for its
// properties (XLSX): "Dates and times in Europe/Berlin.", or "" for nil.
func ZoneNote(loc *time.Location) string {
	if loc == nil {
		return ""
	}
	return "Dates and times in " + loc.String() + "."
}

// Writer writes one export: an XLSX workbook or one CSV file per sheet.
type Writer struct {
	path   string
	out    output
	sheets []Sheet
	err    error
	closed bool
}

// output is a file format's side of a Writer.
type output interface {
	// row writes the cells of a row of sheet i (as many as its columns).
	row(i int, cells []string) error
	// finish completes the files and renames them into place.
	finish() error
	// discard drops the temporary files.
	discard()
	// paths are the final paths of the files.
	paths() []string
	// pageBreak starts a printed page at the next row of sheet i.
	pageBreak(i int) error
	// summary keeps the summary sheet's content, for finish.
	summary(s Summary)
}

// Create starts the export file at path: XLSX when path ends in .xlsx (in
// any case, paths.IsXLSX), else CSV. An XLSX file holds one worksheet per Sheet. A CSV
// file holds one: the first Sheet goes to path, each further one to path
// with "-" and the sheet's name before the extension. The files are
// written beside their final paths and renamed into place by Close.
func Create(path string, o Options, sheets ...Sheet) (*Writer, error) {
	if err := checkSheets(o.Summary, sheets); err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	w := &Writer{path: path, sheets: sheets}
	var err error
	if paths.IsXLSX(path) {
		w.out, err = createBook(path, o, sheets)
	} else {
		w.out, err = createCSV(path, o, sheets)
	}
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return w, nil
}

// Row writes one row of sheet i (0-based, in the order given to Create).
// cells are in column order, as the service gives them (see Kind); fewer
// cells than columns leave the last ones empty, and "" is an empty cell.
// A cell that does not read as its column's kind is written as text.
// Rows of different sheets may interleave. cells is not kept.
func (w *Writer) Row(i int, cells ...string) error {
	if err := w.usable(i); err != nil {
		return err
	}
	if n := len(w.sheets[i].Columns); len(cells) > n {
		return fmt.Errorf("writing %s: a row of sheet %q has %d cells, the sheet %d columns",
			w.path, w.sheets[i].Name, len(cells), n)
	}
	if err := w.out.row(i, cells); err != nil {
		w.err = fmt.Errorf("writing %s: %w", w.path, err)
		return w.err
	}
	return nil
}

// PageBreak prints the next row of sheet i, which was created with
// PageBreaks, at the top of a new page (XLSX; CSV files have no pages).
// Excel takes at most 1,026 page breaks a sheet: past MaxPageBreaks, the
// groups run on.
func (w *Writer) PageBreak(i int) error {
	if err := w.usable(i); err != nil {
		return err
	}
	if !w.sheets[i].PageBreaks {
		return fmt.Errorf("writing %s: sheet %q was not created with page breaks", w.path, w.sheets[i].Name)
	}
	if err := w.out.pageBreak(i); err != nil {
		w.err = fmt.Errorf("writing %s: %w", w.path, err)
		return w.err
	}
	return nil
}

// Summary gives the content of the summary sheet (Options.Summary), which
// Close writes. A CSV export has none, and drops it.
func (w *Writer) Summary(s Summary) error {
	if err := w.usable(0); err != nil {
		return err
	}
	w.out.summary(s)
	return nil
}

// usable is the error of writing to sheet i now: a failed or closed
// writer, or no such sheet.
func (w *Writer) usable(i int) error {
	switch {
	case w.err != nil:
		return w.err
	case w.closed:
		return fmt.Errorf("writing %s: the file is already closed", w.path)
	case i < 0 || i >= len(w.sheets):
		return fmt.Errorf("writing %s: no sheet %d: the file has %d", w.path, i, len(w.sheets))
	}
	return nil
}

// Close completes the files (XLSX: totals rows, widths, properties) and
// renames them into place. After a failed Row it only drops them and
// returns that error.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err != nil {
		w.out.discard()
		return w.err
	}
	if err := w.out.finish(); err != nil {
		w.out.discard()
		w.err = fmt.Errorf("writing %s: %w", w.path, err)
	}
	return w.err
}

// Discard drops the temporary files: nothing is put in place. It does
// nothing after Close.
func (w *Writer) Discard() {
	if w.closed {
		return
	}
	w.closed = true
	w.out.discard()
}

// Paths are the files Close puts in place: the workbook, or one CSV file
// per sheet in the order of the sheets.
func (w *Writer) Paths() []string { return w.out.paths() }

// maxSheetName is the most characters (UTF-16 units) a sheet name has.
const maxSheetName = 31

// checkSheets checks what Create is given: at least one sheet, each with
// a name Excel takes and at least one column, names distinct (Excel
// compares them in any case) and from the summary's, if any, known kinds,
// totals only on numbers, check boxes of text, printed columns side by
// side.
func checkSheets(summary string, sheets []Sheet) error {
	if len(sheets) == 0 {
		return errors.New("no sheet to write")
	}
	seen := map[string]bool{}
	names := make([]string, 0, len(sheets)+1)
	if summary != "" {
		names = append(names, summary)
	}
	for _, s := range sheets {
		names = append(names, s.Name)
	}
	for _, name := range names {
		if err := checkSheetName(name); err != nil {
			return err
		}
		key := strings.ToLower(name)
		if seen[key] {
			return fmt.Errorf("two sheets are named %q: each sheet needs its own name", name)
		}
		seen[key] = true
	}
	for _, s := range sheets {
		if err := checkColumns(s); err != nil {
			return err
		}
	}
	return nil
}

// checkColumns checks the columns of s.
func checkColumns(s Sheet) error {
	if len(s.Columns) == 0 {
		return fmt.Errorf("sheet %q has no columns", s.Name)
	}
	for _, c := range s.Columns {
		switch {
		case c.Kind > DateTime:
			return fmt.Errorf("column %q of sheet %q has an unknown kind %d", c.Header, s.Name, c.Kind)
		case c.Total && !c.Kind.numeric():
			return fmt.Errorf("column %q of sheet %q holds %s: only integer, number and money columns have a total",
				c.Header, s.Name, c.Kind)
		case c.Check && (c.Kind != Text || c.Total):
			return fmt.Errorf("column %q of sheet %q is a check box: it holds text and has no total", c.Header, s.Name)
		}
	}
	first, last, ok := printedColumns(s.Columns)
	if !ok {
		return fmt.Errorf("sheet %q prints none of its columns: print at least one", s.Name)
	}
	for i := first; i <= last; i++ {
		if s.Columns[i].NoPrint {
			return fmt.Errorf("column %q of sheet %q is left off the printed pages between printed columns: "+
				"a page prints one block of columns, so put the columns left off print first or last", s.Columns[i].Header, s.Name)
		}
	}
	return nil
}

// printedColumns are the first and last printed columns of cols; ok is
// false when none is printed.
func printedColumns(cols []Column) (first, last int, ok bool) {
	first = slices.IndexFunc(cols, func(c Column) bool { return !c.NoPrint })
	if first < 0 {
		return 0, 0, false
	}
	for last = len(cols) - 1; cols[last].NoPrint; last-- {
	}
	return first, last, true
}

// checkSheetName applies Excel's rules, which also keep CSV file names
// safe: 1 to 31 characters, none of : \ / ? * [ ] and no single quote.
func checkSheetName(name string) error {
	const rule = "a sheet name has 1 to 31 characters, none of : \\ / ? * [ ] or '"
	switch {
	case name == "":
		return fmt.Errorf("a sheet has no name: %s", rule)
	case utf16Len(name) > maxSheetName, strings.ContainsAny(name, ":\\/?*[]'"), !utf8.ValidString(name):
		return fmt.Errorf("sheet name %q cannot be used: %s", name, rule)
	}
	return nil
}

// utf16Len is the length of s in UTF-16 units, as Excel counts characters.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// createTemp creates a new file in dir named prefix and a random suffix,
// for writing an export before it is moved into place. Unlike
// os.CreateTemp (0600), it asks for mode 0666 as os.Create does, so the
// umask decides who may read the export, as for any file the user makes.
func createTemp(dir, prefix string) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("creating a temporary file for %s in %s: every name tried exists", prefix, dir)
}
