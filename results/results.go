// Package results writes results files: one line per input row, telling
// what became of it. Every job that reads rows from a file (catalog
// imports, stock pushes, shipment imports) writes one.
//
// A file is CSV, or XLSX when its name ends in .xlsx. Lines go out as they
// are written, so a file of a million rows costs no more memory than one
// of ten. The file is written beside its final path under a temporary
// name and renamed into place by Close, so that it is never seen half
// written.
package results

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Writer writes one results file. Its first two columns are the input
// file and the row number within it; the job's columns follow. The file is
// valid UTF-8 whatever the cells hold (see Write).
type Writer struct {
	path string
	tmp  *os.File
	// CSV
	buf *bufio.Writer
	csv *csv.Writer
	rec []string
	// XLSX
	book  *excelize.File
	sheet *excelize.StreamWriter
	cells []any
	next  int // the sheet row the next line goes to

	lines  int
	err    error
	closed bool
}

// Sheet is the name of the XLSX results sheet.
const Sheet = "Results"

// Create starts the results file path with the columns "file", "row" and
// then columns. Close puts it in place; Discard drops it.
func Create(path string, columns ...string) (*Writer, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".results-*")
	if err != nil {
		return nil, fmt.Errorf("writing results: %w", err)
	}
	w := &Writer{path: path, tmp: tmp}
	header := append([]string{"file", "row"}, columns...)
	if strings.EqualFold(filepath.Ext(path), ".xlsx") {
		err = w.startXLSX(header)
	} else {
		w.buf = bufio.NewWriterSize(tmp, 64<<10)
		w.csv = csv.NewWriter(w.buf)
		w.rec = make([]string, len(header))
		err = w.csv.Write(header)
	}
	if err != nil {
		w.Discard()
		return nil, w.wrap(err)
	}
	return w, nil
}

func (w *Writer) startXLSX(header []string) error {
	w.book = excelize.NewFile()
	if err := w.book.SetSheetName("Sheet1", Sheet); err != nil {
		return err
	}
	sw, err := w.book.NewStreamWriter(Sheet)
	if err != nil {
		return err
	}
	w.sheet = sw
	w.cells = make([]any, len(header))
	for i, h := range header {
		w.cells[i] = h
	}
	w.next = 1
	return w.setRow()
}

func (w *Writer) setRow() error {
	err := w.sheet.SetRow("A"+strconv.Itoa(w.next), w.cells)
	w.next++
	return err
}

// Write writes the line of row (1-based, as a person counts them) of
// file, with cells for the job's columns. cells is not kept. Bytes that are
// not UTF-8 (an input read in another encoding than its own) and NUL
// characters are written as U+FFFD, the replacement character.
func (w *Writer) Write(file string, row int, cells ...string) error {
	if w.err != nil {
		return w.err
	}
	if w.csv != nil {
		w.rec = append(w.rec[:0], Inert(clean(file)), strconv.Itoa(row))
		for _, c := range cells {
			w.rec = append(w.rec, Inert(clean(c)))
		}
		w.err = w.csv.Write(w.rec)
	} else {
		w.cells = append(w.cells[:0], clean(file), row)
		for _, c := range cells {
			w.cells = append(w.cells, clean(c))
		}
		w.err = w.setRow()
	}
	if w.err != nil {
		w.err = w.wrap(w.err)
		return w.err
	}
	w.lines++
	return nil
}

// clean makes text fit a results file, which is always valid UTF-8: bytes
// that are not UTF-8 (a file read in another encoding than its own) and
// NUL characters become U+FFFD, the replacement character.
func clean(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// Inert makes text that a spreadsheet would take for a formula (it starts
// with = + - @, a tab or a carriage return) read as text, by putting a
// single quote before it, as OWASP recommends for CSV files: a results or
// export file opened in Excel must not run what a catalog cell or a
// service message carries (=HYPERLINK(...)). Other text is returned as is.
// XLSX cells need no such care: they are written as strings.
func Inert(s string) string {
	if s == "" {
		return s
	}
	if formulaStart(strings.TrimLeft(s, "'")) {
		// Quotes before such text get one more, so that Revive gives the
		// text back whole.
		return "'" + s
	}
	return s
}

// formulaStart reports whether a spreadsheet would take s for a formula.
func formulaStart(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// Revive gives back the text Inert neutralised: a single quote followed by
// = + - @, a tab or a carriage return (after any number of quotes) is
// dropped. CSV readers call it on
// every cell, so that a file lading wrote imports back as the original
// text (a name "=HYPERLINK(...)" exported as "'=HYPERLINK(...)" is the same
// name again). A cell that truly begins with such a quote loses it.
func Revive(s string) string {
	if len(s) >= 2 && s[0] == '\'' && formulaStart(strings.TrimLeft(s, "'")) {
		return s[1:]
	}
	return s
}

// Lines is the number of lines written, the header left out.
func (w *Writer) Lines() int { return w.lines }

// Close finishes the file and renames it into place. After a failed Write
// it only discards the file and returns that error.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	if w.err != nil {
		w.Discard()
		return w.err
	}
	err := w.finish()
	if cerr := w.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(w.tmp.Name(), w.path)
	}
	w.closed = true
	if err != nil {
		os.Remove(w.tmp.Name())
		w.err = w.wrap(err)
	}
	return w.err
}

func (w *Writer) finish() error {
	if w.csv != nil {
		w.csv.Flush()
		if err := w.csv.Error(); err != nil {
			return err
		}
		return w.buf.Flush()
	}
	defer w.book.Close()
	if err := w.sheet.Flush(); err != nil {
		return err
	}
	return w.book.Write(w.tmp)
}

// Discard drops the file: nothing is put in place. It does nothing after
// Close.
func (w *Writer) Discard() {
	if w.closed {
		return
	}
	w.closed = true
	if w.book != nil {
		w.book.Close()
	}
	w.tmp.Close()
	os.Remove(w.tmp.Name())
}

func (w *Writer) wrap(err error) error {
	return fmt.Errorf("writing the results file %s: %w", w.path, err)
}

// WriteLines writes a whole results file at path: after the header (file,
// row, columns), one line for each of lines, whose row number and cells
// line gives; file names the input on every line. It writes nothing when
// path is "". The file appears, whole, only when every line is written.
func WriteLines[T any](path, file string, columns []string, lines []T, line func(*T) (row int, cells []string)) error {
	if path == "" {
		return nil
	}
	w, err := Create(path, columns...)
	if err != nil {
		return err
	}
	defer w.Discard()
	for i := range lines {
		row, cells := line(&lines[i])
		if err := w.Write(file, row, cells...); err != nil {
			return err
		}
	}
	return w.Close()
}
