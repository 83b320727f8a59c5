package source

import (
	"bytes"
	"encoding/csv"
	"io"
	"strings"
	"unicode/utf8"
)

// csvReader reads records of CSV text exactly as encoding/csv's Reader
// does with FieldsPerRecord -1, LazyQuotes off, no comment character and no
// leading space trimmed: the same cells, the same *csv.ParseError (line,
// column, ErrQuote or ErrBareQuote) for the same text, the same lines
// skipped, and the same input offset after each record
// (FuzzCSVReaderMatchesEncodingCSV holds it to that); after a read error
// it gives the error alone, where encoding/csv gives it with what it read
// of the line the error cut. It is faster on the
// common record, a line without quotes: its cells are cut out of one string
// made of the line, with no copy cell by cell and no position kept for
// each. A record with a quote is parsed cell by cell into a buffer, as
// encoding/csv does.
type csvReader struct {
	r     io.Reader
	comma []byte // the delimiter, UTF-8 encoded

	buf      []byte // buf[pos:end] is read and not yet parsed
	pos, end int
	err      error // the read error that ended buf, io.EOF at the end

	lines   int   // the lines consumed
	offset  int64 // the bytes consumed
	recLine int   // the line the last record started on

	rec    []byte   // the cells of a quoted record, back to back
	ends   []int    // where each cell ends in rec
	record []string // reused for every record
}

// newCSVReader reads the text of r, with cells separated by comma (a
// valid delimiter: see validDelimiter).
func newCSVReader(r io.Reader, comma rune) *csvReader {
	return &csvReader{r: r, comma: utf8.AppendRune(nil, comma), buf: make([]byte, csvBufferSize)}
}

// Line is the line the last record read started on.
func (c *csvReader) Line() int { return c.recLine }

// InputOffset is the offset in the text just after the last record read.
func (c *csvReader) InputOffset() int64 { return c.offset }

// Read returns the next record, a slice reused by the next Read, or io.EOF
// after the last. Empty lines are skipped. A record that is not valid CSV
// is a *csv.ParseError; the rest of its line is skipped, and the next Read
// goes on from the following line.
func (c *csvReader) Read() ([]string, error) {
	var line []byte
	for {
		var err error
		line, err = c.readLine()
		if err != nil {
			return nil, err
		}
		if len(line) > lengthNL(line) {
			break
		}
	}
	c.recLine = c.lines
	if bytes.IndexByte(line, '"') < 0 {
		return c.plainRecord(line), nil
	}
	return c.quotedRecord(line)
}

// plainRecord splits a line without quotes at its delimiters: each cell is
// a part of one string.
func (c *csvReader) plainRecord(line []byte) []string {
	s := string(line[:len(line)-lengthNL(line)])
	rec := c.record[:0]
	if len(c.comma) == 1 {
		comma := c.comma[0]
		for {
			i := strings.IndexByte(s, comma)
			if i < 0 {
				break
			}
			rec = append(rec, s[:i])
			s = s[i+1:]
		}
	} else {
		comma := string(c.comma)
		for {
			i := strings.Index(s, comma)
			if i < 0 {
				break
			}
			rec = append(rec, s[:i])
			s = s[i+len(comma):]
		}
	}
	c.record = append(rec, s)
	return c.record
}

// quotedRecord parses a record with a quote in its first line, reading
// more lines while a quoted cell goes on past its line's end.
func (c *csvReader) quotedRecord(line []byte) ([]string, error) {
	c.rec, c.ends = c.rec[:0], c.ends[:0]
	col := 1 // of line's first byte, in its line
	q := -1  // where line's first quote is, once looked for
	for {
		if len(line) == 0 || line[0] != '"' {
			if q < 0 {
				if q = bytes.IndexByte(line, '"'); q < 0 {
					q = len(line)
				}
			}
			i := bytes.Index(line[:q], c.comma)
			switch {
			case i >= 0:
				c.endCell(line[:i])
				line, col, q = line[i+len(c.comma):], col+i+len(c.comma), q-i-len(c.comma)
				continue
			case q < len(line):
				return nil, c.parseError(c.lines, col+q, csv.ErrBareQuote)
			}
			c.endCell(line[:len(line)-lengthNL(line)])
			return c.cells(), nil
		}
		rest, restCol, done, err := c.quotedCell(line[1:], col+1)
		switch {
		case err != nil:
			return nil, err
		case done:
			return c.cells(), nil
		}
		line, col, q = rest, restCol, -1
	}
}

// quotedCell reads the quoted cell whose text starts at line (after its
// opening quote), col being line's column. It returns what follows the
// cell's delimiter and its column, or done when the cell ended the record.
func (c *csvReader) quotedCell(line []byte, col int) (rest []byte, restCol int, done bool, err error) {
	lineNo := c.lines // the line of line: not counting an empty one at the end
	for {
		q := bytes.IndexByte(line, '"')
		switch {
		case q >= 0:
			c.rec = append(c.rec, line[:q]...)
			line, col = line[q+1:], col+q+1
			switch {
			case len(line) > 0 && line[0] == '"':
				c.rec = append(c.rec, '"')
				line, col = line[1:], col+1
			case bytes.HasPrefix(line, c.comma):
				c.ends = append(c.ends, len(c.rec))
				return line[len(c.comma):], col + len(c.comma), false, nil
			case lengthNL(line) == len(line):
				c.ends = append(c.ends, len(c.rec))
				return nil, 0, true, nil
			default:
				return nil, 0, true, c.parseError(lineNo, col-1, csv.ErrQuote)
			}
		case len(line) > 0:
			// The cell goes on to the next line.
			c.rec = append(c.rec, line...)
			col += len(line)
			next, err := c.readLine()
			if err != nil && err != io.EOF {
				return nil, 0, true, err
			}
			if len(next) > 0 {
				line, col, lineNo = next, 1, c.lines
			} else {
				line = nil
			}
		default:
			// The text ended inside the cell.
			return nil, 0, true, c.parseError(lineNo, col, csv.ErrQuote)
		}
	}
}

// endCell adds an unquoted cell to the record being parsed.
func (c *csvReader) endCell(cell []byte) {
	c.rec = append(c.rec, cell...)
	c.ends = append(c.ends, len(c.rec))
}

// cells cuts the record parsed out of one string.
func (c *csvReader) cells() []string {
	s := string(c.rec)
	rec, from := c.record[:0], 0
	for _, end := range c.ends {
		rec = append(rec, s[from:end])
		from = end
	}
	c.record = rec
	return rec
}

// parseError is encoding/csv's error for the record being read.
func (c *csvReader) parseError(line, col int, err error) error {
	return &csv.ParseError{StartLine: c.recLine, Line: line, Column: col, Err: err}
}

// readLine returns the next line of the text with its line ending, a CRLF
// made LF, or the last without one (and without a CR that ends it). The
// line stays valid until the next readLine. At the end of the text it
// returns no line and io.EOF; a read error is returned once the lines read
// whole before it are consumed.
func (c *csvReader) readLine() ([]byte, error) {
	from := c.pos
	searched := 0
	for {
		if i := bytes.IndexByte(c.buf[from+searched:c.end], '\n'); i >= 0 {
			return c.consume(from, from+searched+i+1, false), nil
		}
		searched = c.end - from
		if c.err != nil {
			break
		}
		from = c.fill(from)
	}
	if from == c.end || c.err != io.EOF {
		// A line a read error cut is no line.
		c.lines++ // as encoding/csv counts it
		return nil, c.err
	}
	return c.consume(from, c.end, true), nil
}

// consume takes buf[from:to] as the next line; last says it is the text's
// last, without a line ending.
func (c *csvReader) consume(from, to int, last bool) []byte {
	line := c.buf[from:to]
	c.pos = to
	c.lines++
	c.offset += int64(len(line))
	n := len(line)
	switch {
	case last && line[n-1] == '\r':
		line = line[:n-1]
	case n >= 2 && line[n-2] == '\r' && line[n-1] == '\n':
		line[n-2] = '\n'
		line = line[:n-1]
	}
	return line
}

// fill reads more text after buf[from:end], moving it to buf's start first
// (and growing buf when it is full of it), and returns where it now starts.
// The error that came with the text is kept for when the text is consumed.
func (c *csvReader) fill(from int) int {
	if from > 0 {
		c.end = copy(c.buf, c.buf[from:c.end])
		c.pos, from = 0, 0
	}
	if c.end == len(c.buf) {
		c.buf = append(c.buf, make([]byte, len(c.buf))...)
	}
	for range 100 { // as bufio: a reader that gives nothing a hundred times makes no progress
		n, err := c.r.Read(c.buf[c.end:])
		c.end += n
		if n > 0 || err != nil {
			c.err = err
			return from
		}
	}
	c.err = io.ErrNoProgress
	return from
}

// lengthNL is 1 when b ends with a line feed, 0 otherwise.
func lengthNL(b []byte) int {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return 1
	}
	return 0
}
