package source

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// csvBufferSize is the read buffer of CSV sources; it is also the sample
// size for delimiter detection.
const csvBufferSize = 256 << 10

// csvSource reads a CSV file with encoding/csv, streaming.
type csvSource struct {
	name   string
	file   *os.File
	r      *csv.Reader
	header []string
	row    []string // reused for every Next
	// guard is set when no decoder runs, so that invalid bytes are caught
	// per row instead of silently becoming U+FFFD in the request bodies.
	guard *utf8Guard
}

func openCSV(path string, o Options) (*csvSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s, err := newCSVSource(path, f, o)
	if err != nil {
		f.Close()
		return nil, err
	}
	s.file = f
	return s, nil
}

// newCSVSource sets up decoding, detects the delimiter and reads the header.
func newCSVSource(name string, in io.Reader, o Options) (*csvSource, error) {
	guard := &utf8Guard{r: in}
	br := bufio.NewReaderSize(guard, csvBufferSize)
	head, _ := br.Peek(4)
	if bytes.HasPrefix(head, zipMagic) {
		return nil, fmt.Errorf("%s: this is an XLSX workbook, not a CSV file: rename it to .xlsx or set format: xlsx", name)
	}
	dec, err := csvDecoder(o.Encoding, head)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var text *bufio.Reader
	if dec == nil {
		// UTF-8: no transform, only the byte order mark goes.
		if bytes.HasPrefix(head, utf8BOM) {
			br.Discard(len(utf8BOM))
		}
		text = br
	} else {
		text = bufio.NewReaderSize(dec.NewDecoder().Reader(br), csvBufferSize)
	}

	delim := o.Delimiter
	if delim == 0 {
		sample, err := text.Peek(csvBufferSize)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			return nil, fmt.Errorf("%s: read: %w", name, err)
		}
		delim = DetectDelimiter(skipLines(sample, o.HeaderRow-1))
	} else if !validDelimiter(delim) {
		return nil, fmt.Errorf("%s: delimiter %q cannot separate cells: use one character other than a quote, a line break or the replacement character", name, delim)
	}

	r := csv.NewReader(text)
	r.Comma = delim
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	r.LazyQuotes = false
	s := &csvSource{name: name, r: r}
	if dec == nil {
		s.guard = guard
	}
	if err := s.readHeader(o.HeaderRow); err != nil {
		return nil, err
	}
	s.row = make([]string, len(s.header))
	return s, nil
}

// skipLines drops the first n lines of sample (titles above the header row),
// unless that would leave nothing.
func skipLines(sample []byte, n int) []byte {
	rest := sample
	for ; n > 0; n-- {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			return sample
		}
		rest = rest[i+1:]
	}
	return rest
}

// validDelimiter mirrors encoding/csv's own rule so the error can say why.
func validDelimiter(r rune) bool {
	return r != 0 && r != '"' && r != '\r' && r != '\n' && utf8.ValidRune(r) && r != utf8.RuneError
}

// readHeader skips records that start above headerRow and empty records,
// and keeps the first remaining one as the header.
func (s *csvSource) readHeader(headerRow int) error {
	for {
		rec, err := s.r.Read()
		if err == io.EOF {
			return fmt.Errorf("%s: no header row found at or below line %d: the file is empty there; check the header row setting", s.name, headerRow)
		}
		if err != nil {
			return s.fatalOrRowError(err)
		}
		line, _ := s.r.FieldPos(0)
		if line < headerRow || allEmpty(rec) {
			continue
		}
		if s.guard != nil && s.guard.invalid {
			if col := invalidUTF8(rec); col > 0 {
				return &RowError{File: s.name, Line: line, Column: col, Msg: notUTF8Msg}
			}
		}
		s.header = headerCells(rec)
		if len(s.header) == 0 {
			continue
		}
		return nil
	}
}

func (s *csvSource) Name() string     { return s.name }
func (s *csvSource) Header() []string { return s.header }

func (s *csvSource) Next() ([]string, int, error) {
	for {
		rec, err := s.r.Read()
		if err != nil {
			if err == io.EOF {
				return nil, 0, io.EOF
			}
			return nil, errLine(err), s.fatalOrRowError(err)
		}
		if allEmpty(rec) {
			continue
		}
		line, _ := s.r.FieldPos(0)
		if col, width := fitRow(s.row, rec); col > 0 {
			return s.row, line, &RowError{File: s.name, Line: line,
				Msg: longRowMsg(width, len(s.header), col, rec[col-1])}
		}
		if s.guard != nil && s.guard.invalid {
			if col := invalidUTF8(rec); col > 0 {
				return s.row, line, &RowError{File: s.name, Line: line, Column: col, Msg: notUTF8Msg}
			}
		}
		return s.row, line, nil
	}
}

func (s *csvSource) Close() error {
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	s.file = nil
	return err
}

// fatalOrRowError turns an encoding/csv parse error into a *RowError that
// says what to do; other errors are read failures.
func (s *csvSource) fatalOrRowError(err error) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: read: %w", s.name, err)
	}
	var msg string
	switch {
	case errors.Is(pe.Err, csv.ErrBareQuote):
		msg = `bare " in a cell that does not start with a quote: put the whole cell in double quotes and double each quote inside it ("")`
	case errors.Is(pe.Err, csv.ErrQuote) && pe.StartLine != pe.Line:
		msg = fmt.Sprintf(`the quoted cell opened on line %d is not closed properly (a " inside it must be doubled as "", and the closing " must be followed by the delimiter or the end of the line)`, pe.StartLine)
	case errors.Is(pe.Err, csv.ErrQuote):
		msg = `extraneous or missing " in a quoted cell: a " inside a quoted cell must be doubled as "", and the closing " must be followed by the delimiter or the end of the line`
	default:
		msg = pe.Err.Error()
	}
	if pe.Line != pe.StartLine {
		msg = fmt.Sprintf("line %d, character %d: %s", pe.Line, pe.Column, msg)
	} else {
		msg = fmt.Sprintf("character %d: %s", pe.Column, msg)
	}
	return &RowError{File: s.name, Line: pe.StartLine, Msg: msg}
}

// errLine is the line a parse error starts on, 0 for other errors.
func errLine(err error) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.StartLine
	}
	return 0
}

const notUTF8Msg = "the cell is not valid UTF-8: save the file as UTF-8, or set the source encoding (for example windows-1252) in the mapping"

// invalidUTF8 returns the 1-based column of the first cell that is not valid
// UTF-8, or 0.
func invalidUTF8(rec []string) int {
	for i, c := range rec {
		if !utf8.ValidString(c) {
			return i + 1
		}
	}
	return 0
}
