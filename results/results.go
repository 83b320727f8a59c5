// Package results writes results files: one line per input row, telling
// what became of it. Every job that reads rows from a file (catalog
// imports, stock pushes, shipment imports) writes one.
//
// A job's results line is a struct whose fields, tagged `csv:"name"`, are
// the file's columns in order (the first two, by convention, the input
// file and the row number in it): gocsv turns lines into cells. A file is
// CSV, or XLSX when its name ends in .xlsx. Lines go out a block at a
// time as they are written, so a file of a million rows costs no more
// memory than one of ten; a CSV file's blocks of Cellers are made into
// text on goroutines beside the caller, a few at a time, and written in
// order. The file is written beside its final path under a temporary name
// and renamed into place by Close, so that it is never seen half written.
// Every cell is valid UTF-8: bytes that are not (a Windows-1252 file's,
// read without its encoding) become U+FFFD.
package results

import (
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/gocarina/gocsv"

	"lading/paths"
)

// Celler is a results line that gives its own cells to c, in the order
// of its fields' columns, as gocsv would make them: a file of such lines
// skips gocsv's reflection on every line but the first (which the header
// comes with), and a CSV file's plain lines are made into text without a
// list of their cells. A job's large files spend most of their writing
// there.
type Celler interface {
	Cells(c *Cells)
}

// File writes one results file of lines T.
type File[T any] struct {
	*out
	block []T
	cells Cells // reused by the lines that are Cellers
	lines int
	// started is set once the header is written.
	started bool
	err     error
	closed  bool
	// texts, for a CSV file of Cellers, makes blocks into text beside
	// the caller.
	texts *textBlocks[T]
}

// Sheet is the name of the XLSX results sheet.
const Sheet = "Results"

// block is how many lines are turned into cells at a time.
const block = 1024

// Create starts the results file path. Close puts it in place; Discard
// drops it.
func Create[T any](path string) (*File[T], error) {
	o, err := create(path)
	if err != nil {
		return nil, err
	}
	f := &File[T]{out: o, block: make([]T, 0, block)}
	if csv, ok := o.sink.(*csvSink); ok {
		if _, celler := any(new(T)).(Celler); celler {
			f.texts = newTextBlocks[T](csv)
		}
	}
	return f, nil
}

// out is a results file being written: cells go to its sink, into a
// temporary file beside path that place renames into place.
type out struct {
	path string
	tmp  *os.File
	sink sink
}

// create starts the file path: CSV, or XLSX when its name ends in .xlsx.
func create(path string) (*out, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".results-*")
	if err != nil {
		return nil, fmt.Errorf("writing results: %w", err)
	}
	o := &out{path: path, tmp: tmp}
	if paths.IsXLSX(path) {
		o.sink, err = newXLSXSink(tmp)
	} else {
		o.sink = newCSVSink(tmp, 256<<10)
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, o.wrap(err)
	}
	return o, nil
}

// place finishes the file and renames it into place; on failure the
// temporary file is removed.
func (o *out) place() error {
	err := o.sink.finish()
	if cerr := o.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = paths.Replace(o.tmp.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.tmp.Name())
		return o.wrap(err)
	}
	return nil
}

// drop drops what was written.
func (o *out) drop() {
	o.sink.discard()
	o.tmp.Close()
	os.Remove(o.tmp.Name())
}

func (o *out) wrap(err error) error {
	return fmt.Errorf("writing the results file %s: %w", o.path, err)
}

// Write writes a line (a block at a time).
func (f *File[T]) Write(line T) error {
	if f.err != nil {
		return f.err
	}
	f.block = append(f.block, line)
	f.lines++
	if len(f.block) == cap(f.block) {
		return f.flush()
	}
	return nil
}

// flush turns the lines written since the last flush into cells, after
// the header the first time: here, or, for a CSV file of Cellers, by
// texts beside the caller.
func (f *File[T]) flush() error {
	if f.err != nil {
		return f.err
	}
	lines := f.block
	if !f.started {
		n := min(1, len(lines)) // the header, with the first line if any
		f.err = gocsv.MarshalCSV(lines[:n], f.sink)
		f.started = true
		lines = lines[n:]
	}
	switch {
	case f.err == nil && len(lines) > 0 && f.texts != nil:
		// Without the header's line, if it went: the block's room is
		// handed on whole.
		lines = append(f.block[:0], lines...)
		f.block, f.err = f.texts.send(lines)
	case f.err == nil && len(lines) > 0:
		f.err = f.marshal(lines)
		fallthrough
	default:
		clear(f.block)
		f.block = f.block[:0]
	}
	if f.err != nil {
		f.err = f.wrap(f.err)
	}
	return f.err
}

// marshal writes lines without the header: by their own cells when they
// are Cellers, else through gocsv.
func (f *File[T]) marshal(lines []T) error {
	if _, ok := any(&lines[0]).(Celler); !ok {
		return gocsv.MarshalCSVWithoutHeaders(lines, f.sink)
	}
	for i := range lines {
		if err := f.sink.Write(f.cells.listOf(any(&lines[i]).(Celler))); err != nil {
			return err
		}
	}
	f.sink.Flush()
	return f.sink.Error()
}

// Lines is the number of lines written, the header left out.
func (f *File[T]) Lines() int { return f.lines }

// Close finishes the file and renames it into place. After a failed Write
// it only discards the file and returns that error.
func (f *File[T]) Close() error {
	if f.closed {
		return f.err
	}
	if f.err == nil && (len(f.block) > 0 || !f.started) {
		f.flush()
	}
	if f.err == nil && f.texts != nil {
		if err := f.texts.drain(); err != nil {
			f.err = f.wrap(err)
		}
	}
	if f.err != nil {
		f.Discard()
		return f.err
	}
	f.closed = true
	f.err = f.place()
	return f.err
}

// Discard drops the file: nothing is put in place. It does nothing after
// Close.
func (f *File[T]) Discard() {
	if f.closed {
		return
	}
	f.closed = true
	if f.texts != nil {
		f.texts.wait()
	}
	f.drop()
}

// Write writes a whole results file at path with the lines of seq. It
// writes nothing when path is "". The file appears, whole, only when
// every line is written.
func Write[T any](path string, seq iter.Seq[T]) error {
	if path == "" {
		return nil
	}
	f, err := Create[T](path)
	if err != nil {
		return err
	}
	defer f.Discard()
	for line := range seq {
		if err := f.Write(line); err != nil {
			return err
		}
	}
	return f.Close()
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
