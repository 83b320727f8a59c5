package results

import (
	"bufio"
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// sink takes the cells gocsv makes of lines (it is a gocsv.CSVWriter)
// and writes them to a file.
type sink interface {
	Write(cells []string) error
	Flush()
	Error() error
	// finish writes what is left; discard drops what is held.
	finish() error
	discard()
}

// text is cell text as every file lading writes holds it: valid UTF-8
// without NUL characters. Bytes that are not UTF-8 (a file read in
// another encoding than its own; one U+FFFD for a run of them) and NULs
// become U+FFFD, the replacement character.
func text(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// csvSink writes CSV through encoding/csv: every cell valid UTF-8 and
// inert (see Inert). Most lines are plain (every cell ASCII text that
// neither needs quotes nor looks like a formula): those are copied as
// they are, as the csv.Writer would write them, into the buffer it
// writes to.
type csvSink struct {
	buf *bufio.Writer
	*csv.Writer
	rec   []string
	plain plainColumns
}

// newCSVSink writes to w through a buffer of size bytes (4,096 or more:
// the csv.Writer writes into that buffer too).
func newCSVSink(w io.Writer, size int) *csvSink {
	buf := bufio.NewWriterSize(w, max(size, 4096))
	return &csvSink{buf: buf, Writer: csv.NewWriter(buf)} // the Writer writes into buf itself
}

func (s *csvSink) Write(cells []string) error {
	if !s.plainLine(cells) {
		s.rec = s.rec[:0]
		for _, c := range cells {
			s.rec = append(s.rec, Inert(text(c)))
		}
		return s.Writer.Write(s.rec)
	}
	for i, c := range cells {
		if i > 0 {
			s.buf.WriteByte(',')
		}
		s.buf.WriteString(c)
	}
	return s.buf.WriteByte('\n') // bufio's errors stay: finish returns any
}

// plainLine reports whether every cell is plain, noting them by column.
func (s *csvSink) plainLine(cells []string) bool {
	for i, c := range cells {
		if !s.plain.plain(i, c) {
			return false
		}
	}
	return true
}

// plainColumns is, by column, the last cell found plain: a column
// repeating it (the input file, a status) is not looked at again.
type plainColumns []string

// plain reports whether s, the cell of column i, is plain (plainCell),
// noting it if so.
func (p *plainColumns) plain(i int, s string) bool {
	if i < len(*p) && (*p)[i] == s {
		return true
	}
	if !plainCell(s) {
		return false
	}
	for len(*p) <= i {
		*p = append(*p, "")
	}
	(*p)[i] = s
	return true
}

// plainCell reports whether c is written as it is: ASCII without NUL,
// comma, quote or line break, that starts with none of a formula's
// characters, a single quote or a space.
func plainCell(c string) bool {
	if c == "" {
		return true
	}
	switch c[0] {
	case '=', '+', '-', '@', '\'', ' ', '\t', '\n', '\v', '\f', '\r':
		return false
	}
	for i := 0; i < len(c); i++ {
		if notPlain[c[i]] {
			return false
		}
	}
	return c != `\.`
}

// notPlain says which bytes keep a cell from being plain: NUL, comma,
// quote, line breaks, and every byte of a character past ASCII.
var notPlain = func() (t [256]bool) {
	for _, b := range []byte{0, ',', '"', '\r', '\n'} {
		t[b] = true
	}
	for b := utf8.RuneSelf; b < 256; b++ {
		t[b] = true
	}
	return t
}()

// Flush does nothing: the lines go out as the buffer fills, and the rest
// at finish.
func (s *csvSink) Flush() {}

func (s *csvSink) finish() error {
	s.Writer.Flush() // flushes buf, which it writes into
	return s.Writer.Error()
}

func (s *csvSink) discard() {}

// xlsxSink writes the Results sheet of a workbook: cells as text, but the
// row numbers (the column headed "row"), which are numbers.
type xlsxSink struct {
	out   io.Writer
	book  *excelize.File
	sheet *excelize.StreamWriter
	cells []any
	next  int // the sheet row the next line goes to
	rowAt int // the column of row numbers; -1 before the header
	err   error
}

func newXLSXSink(w io.Writer) (*xlsxSink, error) {
	book := excelize.NewFile()
	if err := book.SetSheetName("Sheet1", Sheet); err != nil {
		return nil, err
	}
	sw, err := book.NewStreamWriter(Sheet)
	if err != nil {
		return nil, err
	}
	return &xlsxSink{out: w, book: book, sheet: sw, next: 1, rowAt: -1}, nil
}

func (s *xlsxSink) Write(cells []string) error {
	if s.err != nil {
		return s.err
	}
	s.cells = s.cells[:0]
	for i, c := range cells {
		if s.next == 1 && c == "row" {
			s.rowAt = i
		}
		if i == s.rowAt && s.next > 1 {
			if n, err := strconv.Atoi(c); err == nil {
				s.cells = append(s.cells, n)
				continue
			}
		}
		s.cells = append(s.cells, text(c))
	}
	s.err = s.sheet.SetRow("A"+strconv.Itoa(s.next), s.cells)
	s.next++
	return s.err
}

func (s *xlsxSink) Flush()       {}
func (s *xlsxSink) Error() error { return s.err }

func (s *xlsxSink) finish() error {
	defer s.book.Close()
	if err := s.sheet.Flush(); err != nil {
		return err
	}
	return s.book.Write(s.out)
}

func (s *xlsxSink) discard() { s.book.Close() }
