package source

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"lading/results"
)

// csvBufferSize is the read buffer of CSV sources; it is also the sample
// size for delimiter detection.
const csvBufferSize = 256 << 10

// csvSource reads a CSV file as encoding/csv would, streaming (csvReader).
type csvSource struct {
	name   string
	file   *os.File
	r      *csvReader
	comma  rune
	text   *textReader
	header []string
	// headerLine is the line the header was read from.
	headerLine int
	row        []string // reused for every Next
	// guard is set when no decoder runs, so that invalid bytes are caught
	// per row instead of silently becoming U+FFFD in the request bodies.
	guard *utf8Guard

	// sample are the bytes and line breaks of the file's first block, for
	// RowsHint.
	sampleBytes, sampleLines int

	allowShort bool
	short      int   // rows with fewer cells than the header
	shortLines []int // the first maxShortLines of them
}

// maxShortLines is how many short rows' lines ShortRows keeps.
const maxShortLines = 5

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
	text, guard, err := openCSVText(name, in, o)
	if err != nil {
		return nil, err
	}
	sample, crOnly, err := csvSample(name, text, o, guard != nil)
	if err != nil {
		return nil, err
	}
	delim, err := csvDelimiter(name, sample, o)
	if err != nil {
		return nil, err
	}

	tr := &textReader{r: text, crOnly: crOnly}
	s := &csvSource{name: name, r: newCSVReader(tr, delim), comma: delim, text: tr, allowShort: o.AllowShortRows,
		sampleBytes: len(sample), sampleLines: bytes.Count(sample, []byte{'\n'})}
	s.guard = guard
	if err := s.readHeader(o.HeaderRow); err != nil {
		return nil, err
	}
	s.row = make([]string, len(s.header))
	return s, nil
}

// openCSVText is the text of in, decoded from the encoding the mapping
// gives (or its byte order mark says), without a UTF-8 byte order mark.
// The guard that checks the bytes are UTF-8 is returned when no decoder
// runs, and nil when one does. A workbook is refused here.
func openCSVText(name string, in io.Reader, o Options) (*bufio.Reader, *utf8Guard, error) {
	guard := &utf8Guard{r: in}
	br := bufio.NewReaderSize(guard, csvBufferSize)
	head, _ := br.Peek(4)
	if bytes.HasPrefix(head, zipMagic) {
		return nil, nil, zipAsCSVError(name, o.Format)
	}
	dec, err := csvDecoder(o.Encoding, head)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if dec != nil {
		return bufio.NewReaderSize(dec.NewDecoder().Reader(br), csvBufferSize), nil, nil
	}
	// UTF-8: no transform, only the byte order mark goes.
	if bytes.HasPrefix(head, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	return br, guard, nil
}

// csvSample is the first block of text, with old Mac line endings (CR
// alone: a first block with CRs and no LF) made LFs, and whether it had
// them. An empty file, and UTF-16 without a byte order mark read as UTF-8
// (raw: no decoder runs), are errors.
func csvSample(name string, text *bufio.Reader, o Options, raw bool) ([]byte, bool, error) {
	sample, err := text.Peek(csvBufferSize)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, false, fmt.Errorf("%s: read: %w", name, err)
	}
	if len(sample) == 0 {
		return nil, false, fmt.Errorf("%s: the file is empty: it has no header row and no data; check that the export finished", name)
	}
	if raw && strings.TrimSpace(o.Encoding) == "" {
		if enc := utf16WithoutBOM(sample); enc != "" {
			return nil, false, fmt.Errorf("%s: the file looks like UTF-16 text without a byte order mark (every other byte is zero): "+
				"set the source encoding to %s in the mapping, or save the file as UTF-8", name, enc)
		}
	}
	crOnly := bytes.IndexByte(sample, '\n') < 0 && bytes.IndexByte(sample, '\r') >= 0
	if crOnly {
		sample = bytes.ReplaceAll(sample, []byte{'\r'}, []byte{'\n'})
	}
	return sample, crOnly, nil
}

// csvDelimiter is the delimiter the mapping gives, or else the one
// detected in sample from the header row on.
func csvDelimiter(name string, sample []byte, o Options) (rune, error) {
	delim := o.Delimiter
	if delim == 0 {
		return DetectDelimiter(skipLines(sample, o.HeaderRow-1)), nil
	}
	if !validDelimiter(delim) {
		return 0, fmt.Errorf("%s: delimiter %q cannot separate cells: use one character other than a quote, a line break or the replacement character", name, delim)
	}
	return delim, nil
}

// zipAsCSVError explains that the file name, to be read as CSV (format
// says why: given, or "" for the extension), is a workbook.
func zipAsCSVError(name, format string) error {
	switch ext := strings.ToLower(filepath.Ext(name)); {
	case ext == ".xlsx" || ext == ".xlsm":
		return fmt.Errorf("%s: this is an XLSX workbook, but the mapping reads it as CSV (format: %s): remove the format line from the mapping's source section, or set it to xlsx", name, format)
	case strings.TrimSpace(format) != "":
		return fmt.Errorf("%s: this is an XLSX workbook, not a CSV file: rename it to .xlsx and remove format: %s from the mapping's source section", name, format)
	}
	return fmt.Errorf("%s: this is an XLSX workbook, not a CSV file: rename it to .xlsx or set format: xlsx in the mapping", name)
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
			return &HeaderError{Msg: fmt.Sprintf("%s: no header row found at or below line %d: the file is empty there; give the line that holds the column names", s.name, headerRow)}
		}
		if err != nil {
			return s.fatalOrRowError(err)
		}
		line := s.r.Line()
		if line < headerRow || allEmpty(rec) {
			continue
		}
		if err := s.badCell(rec, line); err != nil {
			return err
		}
		for i, c := range rec {
			rec[i] = results.Revive(c)
		}
		s.header = headerCells(rec)
		if len(s.header) == 0 {
			continue
		}
		s.headerLine = line
		return nil
	}
}

// rowsHint estimates the data rows from the file's size and the lines of
// its first block: exact for a file that fits in it, a guess past it.
func (s *csvSource) rowsHint() int {
	if s.file == nil || s.sampleBytes == 0 {
		return 0
	}
	fi, err := s.file.Stat()
	if err != nil || fi.Size() <= int64(s.sampleBytes) {
		return s.sampleLines + 1
	}
	est := float64(fi.Size()) / float64(s.sampleBytes) * float64(s.sampleLines)
	return int(min(est*1.0625, maxRowsHint))
}

// maxRowsHint bounds RowsHint: past it a slice grows as it goes.
const maxRowsHint = 1 << 24

func (s *csvSource) Name() string     { return s.name }
func (s *csvSource) Sheet() string    { return "" }
func (s *csvSource) Header() []string { return s.header }

func (s *csvSource) Next() ([]string, int, error) {
	for {
		start := s.r.InputOffset()
		s.text.forget(start)
		rec, err := s.r.Read()
		if err != nil {
			if err == io.EOF {
				return nil, 0, io.EOF
			}
			rerr := s.fatalOrRowError(err)
			var re *RowError
			var pe *csv.ParseError
			if errors.As(rerr, &re) && errors.As(err, &pe) {
				// The cells as well as they can be read, so that the row
				// is still known by its product and SKU.
				if cells := s.lenient(start, pe, re); cells != nil {
					return cells, pe.StartLine, re
				}
			}
			return nil, errLine(err), rerr
		}
		if allEmpty(rec) {
			continue
		}
		line := s.r.Line()
		err = s.check(rec, line)
		for i, c := range s.row {
			s.row[i] = results.Revive(c)
		}
		return s.row, line, err
	}
}

// check fits the record rec, read from line, into s.row and returns the
// *RowError it deserves, if any.
func (s *csvSource) check(rec []string, line int) error {
	col, width := fitRow(s.row, rec)
	if len(rec) < len(s.header) {
		if s.atEnd() {
			return &RowError{File: s.name, Line: line, Msg: fmt.Sprintf("the file seems cut off at this line: it is the last line, "+
				"it has no line ending and %s where the header has %d; export the file again", cellCount(len(rec)), len(s.header))}
		}
		s.short++
		if len(s.shortLines) < maxShortLines {
			s.shortLines = append(s.shortLines, line)
		}
		if !s.allowShort {
			return &RowError{File: s.name, Line: line, Msg: fmt.Sprintf("the row has %s but the header has %d: "+
				"a cell was lost or a line was split (check the delimiters and quotes on this line); if rows may leave out their last cells, allow short rows in the mapping",
				cellCount(len(rec)), len(s.header))}
		}
	}
	if col > 0 {
		return &RowError{File: s.name, Line: line, Msg: longRowMsg(width, len(s.header), col, rec[col-1])}
	}
	return s.badCell(rec, line)
}

// badCell is the *RowError of the first cell of rec, read from line, that
// holds bytes that are not UTF-8 or a NUL character; nil when none does.
// It looks only once the text has shown such bytes.
func (s *csvSource) badCell(rec []string, line int) error {
	if s.guard != nil && s.guard.invalid {
		if col := invalidUTF8(rec); col > 0 {
			return &RowError{File: s.name, Line: line, Column: col, Msg: notUTF8Msg}
		}
	}
	if s.text.nul {
		if col := nulColumn(rec); col > 0 {
			return &RowError{File: s.name, Line: line, Column: col, Msg: nulMsg}
		}
	}
	return nil
}

// cellCount says "1 cell" or "n cells".
func cellCount(n int) string {
	if n == 1 {
		return "1 cell"
	}
	return fmt.Sprintf("%d cells", n)
}

// atEnd reports whether the record just read is the last of the text and
// has no line ending.
func (s *csvSource) atEnd() bool {
	return s.text.eof && s.r.InputOffset() == s.text.n && s.text.last != '\n'
}

// ShortRows returns how many rows had fewer cells than the header, and the
// lines of the first few. With Options.AllowShortRows they were padded;
// without, each was a RowError.
func (s *csvSource) ShortRows() (count int, lines []int) {
	return s.short, s.shortLines
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
	case errors.Is(pe.Err, csv.ErrQuote) && s.text.eof && s.r.InputOffset() == s.text.n:
		msg = fmt.Sprintf(`the quoted cell opened on line %d is not closed before the end of the file: the file seems cut off, or a closing " is missing`, pe.StartLine)
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

// lenient reads the record encoding/csv refused with pe again, from the
// text kept since offset start, accepting stray quotes, and fits it into
// s.row. It sets re.Column to the cell where the error is. It returns nil
// when the text is no longer kept or cannot be read even so.
func (s *csvSource) lenient(start int64, pe *csv.ParseError, re *RowError) []string {
	raw := s.text.text(start, s.r.InputOffset())
	if raw == nil {
		return nil
	}
	lr := csv.NewReader(bytes.NewReader(raw))
	lr.Comma, lr.LazyQuotes, lr.FieldsPerRecord = s.comma, true, -1
	rec, err := lr.Read()
	if err != nil || len(rec) == 0 {
		return nil
	}
	// The last cell starting at or before the error's place holds it.
	errLine := pe.Line - pe.StartLine + 1
	for i := range rec {
		line, col := lr.FieldPos(i)
		if line < errLine || line == errLine && col <= pe.Column {
			re.Column = i + 1
		}
	}
	fitRow(s.row, rec)
	return s.row
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

// textReader passes the CSV text to the parser. In a file with old Mac
// line endings it turns every CR into LF (one byte for one, so offsets
// stay true). It notes whether a NUL byte went through, and where the text
// ended and with which byte, so that a last line without a line ending can
// be told.
type textReader struct {
	r      io.Reader
	crOnly bool
	nul    bool
	n      int64 // bytes passed
	last   byte  // the last of them
	eof    bool  // r is at its end
	// buf[from:] holds the text passed since offset keptFrom, so that a
	// record encoding/csv refuses can be read again leniently (see
	// lenient). The text forgotten stays before from until buf is full:
	// then what is kept moves to the front, in the room buf has.
	buf      []byte
	from     int
	keptFrom int64
}

// maxKept bounds the text kept for one record: a longer refused record
// (an unclosed quote running to the end of the file) gets no cells.
const maxKept = 1 << 20

// forget drops the kept text before offset off.
func (t *textReader) forget(off int64) {
	drop := int(min(max(off-t.keptFrom, 0), int64(len(t.buf)-t.from)))
	t.from += drop
	t.keptFrom += int64(drop)
}

// keep adds p to the kept text: in buf's room, once what is kept moved to
// its front, so that buf grows only for a record longer than it holds.
func (t *textReader) keep(p []byte) {
	if len(t.buf)+len(p) > cap(t.buf) && t.from > 0 {
		t.buf = t.buf[:copy(t.buf, t.buf[t.from:])]
		t.from = 0
	}
	t.buf = append(t.buf, p...)
}

// text returns the kept text from offset from to offset to, or nil when
// it is no longer (or not wholly) kept.
func (t *textReader) text(from, to int64) []byte {
	kept := t.buf[t.from:]
	if from < t.keptFrom || to > t.keptFrom+int64(len(kept)) || from > to {
		return nil
	}
	return kept[from-t.keptFrom : to-t.keptFrom]
}

func (t *textReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	b := p[:n]
	if t.crOnly {
		for i := bytes.IndexByte(b, '\r'); i >= 0; i = bytes.IndexByte(b, '\r') {
			b[i] = '\n'
			b = b[i+1:]
		}
	}
	if n > 0 {
		if len(t.buf)-t.from < maxKept+csvBufferSize {
			t.keep(p[:n])
		} else {
			// A record longer than maxKept: stop keeping it.
			t.buf, t.from, t.keptFrom = t.buf[:0], 0, t.n+int64(n)
		}
		t.n += int64(n)
		t.last = p[n-1]
		if !t.nul && bytes.IndexByte(p[:n], 0) >= 0 {
			t.nul = true
		}
	}
	if err == io.EOF {
		t.eof = true
	}
	return n, err
}

// utf16WithoutBOM returns "utf-16le" or "utf-16be" when the start of
// sample looks like UTF-16 text (most characters ASCII, so every other
// byte zero), "" otherwise.
func utf16WithoutBOM(sample []byte) string {
	sample = sample[:min(len(sample), 1024)&^1]
	if len(sample) < 4 {
		return ""
	}
	var even, odd int
	for i := 0; i < len(sample); i += 2 {
		if sample[i] == 0 {
			even++
		}
		if sample[i+1] == 0 {
			odd++
		}
	}
	pairs := len(sample) / 2
	switch {
	case odd*10 >= pairs*6 && even*10 < pairs:
		return "utf-16le"
	case even*10 >= pairs*6 && odd*10 < pairs:
		return "utf-16be"
	}
	return ""
}
