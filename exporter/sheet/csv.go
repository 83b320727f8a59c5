package sheet

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"lading/paths"
	"lading/results"
)

// csvFiles writes one CSV file per sheet.
type csvFiles struct {
	files []*csvFile
}

// csvFile is the CSV file of one sheet.
type csvFile struct {
	final string
	tmp   *os.File
	buf   *bufio.Writer
	csv   *csv.Writer
	kinds []Kind
	cols  []int // the sheet's columns written: all but check boxes
	rec   []string
	raw   bool           // cells as given (Options.Raw)
	loc   *time.Location // of the date-times (Options.Location), nil for as given
}

// inert neutralises text a spreadsheet would run as a formula, unless the
// file is raw.
func (f *csvFile) inert(s string) string {
	if f.raw {
		return s
	}
	return results.Inert(s)
}

// bom is the UTF-8 byte order mark.
const bom = "\uFEFF"

// CSVPath is the path of the CSV file of a sheet named name when the
// export goes to path and that sheet is not the first: path with "-" and
// name before the extension.
func CSVPath(path, name string) string {
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "-" + name + ext
}

func createCSV(path string, o Options, sheets []Sheet) (*csvFiles, error) {
	comma := o.Delimiter
	if comma == 0 {
		comma = ','
	}
	if !validDelimiter(comma) {
		return nil, fmt.Errorf("%q cannot separate the cells of a CSV file: choose a comma, a semicolon, a tab or |", comma)
	}
	out := &csvFiles{}
	for i, s := range sheets {
		final := path
		if i > 0 {
			final = CSVPath(path, s.Name)
		}
		f, err := newCSVFile(final, comma, o, s.Columns)
		if err != nil {
			out.discard()
			return nil, err
		}
		out.files = append(out.files, f)
	}
	return out, nil
}

// validDelimiter is encoding/csv's rule (not a quote, a line break or an
// invalid character), and not the byte order mark.
func validDelimiter(r rune) bool {
	return r != '"' && r != '\r' && r != '\n' && r != utf8.RuneError && utf8.ValidRune(r) && r != 0xFEFF
}

func newCSVFile(final string, comma rune, o Options, cols []Column) (*csvFile, error) {
	tmp, err := createTemp(filepath.Dir(final), "."+filepath.Base(final)+"-")
	if err != nil {
		return nil, err
	}
	f := &csvFile{final: final, tmp: tmp, buf: bufio.NewWriterSize(tmp, 64<<10), raw: o.Raw, loc: o.Location}
	f.csv = csv.NewWriter(f.buf)
	f.csv.Comma = comma
	for i, c := range cols {
		if c.Check {
			continue // a box to tick on paper
		}
		f.cols = append(f.cols, i)
		f.kinds = append(f.kinds, c.Kind)
		f.rec = append(f.rec, f.inert(c.Header))
	}
	if o.BOM {
		f.buf.WriteString(bom)
	}
	if err := f.csv.Write(f.rec); err != nil {
		f.discard()
		return nil, err
	}
	return f, nil
}

func (c *csvFiles) row(i int, cells []string) error { return c.files[i].row(cells) }

// row writes cells, numbers in numeric columns as given and the rest
// neutralised.
func (f *csvFile) row(cells []string) error {
	for i, k := range f.kinds {
		c := f.cols[i]
		switch {
		case c >= len(cells):
			f.rec[i] = ""
		case k.numeric() && isNumber(cells[c]):
			f.rec[i] = cells[c]
		case (k == Date || k == DateTime) && f.loc != nil:
			f.rec[i] = f.inert(inZone(cells[c], k, f.loc))
		default:
			f.rec[i] = f.inert(cells[c])
		}
	}
	if err := f.csv.Write(f.rec); err != nil {
		return fmt.Errorf("%s: %w", f.final, err)
	}
	return nil
}

func (c *csvFiles) finish() error {
	for _, f := range c.files {
		if err := f.close(); err != nil {
			return err
		}
	}
	for _, f := range c.files {
		if err := paths.Replace(f.tmp.Name(), f.final); err != nil {
			return err
		}
	}
	return nil
}

func (f *csvFile) close() error {
	f.csv.Flush()
	err := f.csv.Error()
	if err == nil {
		err = f.buf.Flush()
	}
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", f.final, err)
	}
	return nil
}

// pageBreak does nothing: a CSV file has no pages.
func (c *csvFiles) pageBreak(int) error { return nil }

// summary drops s: a CSV export has no summary.
func (c *csvFiles) summary(Summary) {}

func (c *csvFiles) discard() {
	for _, f := range c.files {
		f.discard()
	}
}

func (f *csvFile) discard() {
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

func (c *csvFiles) paths() []string {
	p := make([]string, len(c.files))
	for i, f := range c.files {
		p[i] = f.final
	}
	return p
}
