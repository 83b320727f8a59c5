package source

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// sstMemory is how much shared-string text is kept in memory; a workbook
// with more has it written to a temporary file, removed by Close.
var sstMemory = 64 << 20

// maxSharedStrings bounds the shared strings of a workbook (8 bytes of
// memory each for their offsets).
const maxSharedStrings = 1 << 24

// sharedStrings is a workbook's shared string table: the text of every
// string back to back, in memory or in a temporary file, and where each
// one ends.
type sharedStrings struct {
	// ends are where the strings end, in blocks of endsBlock: a table of
	// millions grows without being copied (2,500,000 strings: 20 MB, where
	// a slice grown by append held some twice that as it grew).
	ends [][]int64
	n    int    // how many strings
	mem  []byte // the text, while it fits sstMemory
	text string // mem, once loaded: the same bytes, not a copy
	// The text, once it did not fit.
	dir  string
	file *os.File
	w    *bufio.Writer
	size int64

	recent [256]struct {
		i int
		s string
	} // the strings last read from file, by index modulo 256
	buf []byte
}

// loadSharedStrings reads the shared strings part name.
func loadSharedStrings(p *xlsxPackage, name string) (_ *sharedStrings, err error) {
	s := &sharedStrings{}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	x, err := p.openXML(name, true)
	if err != nil {
		return nil, err
	}
	defer x.Close()
	var buf []byte
	for {
		t, err := x.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if t.kind != startToken || t.name.Local != "si" {
			continue
		}
		if s.n == maxSharedStrings {
			return nil, fmt.Errorf("%s: part %s holds more than %d shared texts, more than can be read: save the sheet as .csv and import that", p.name, x.name, maxSharedStrings)
		}
		if buf, err = x.text(buf[:0], "si", true, p.limits.MaxCellSize); err != nil {
			return nil, err
		}
		if err := s.add(unescapeXLSX(buf)); err != nil {
			return nil, fmt.Errorf("%s: part %s: keeping the shared texts in a temporary file: %w", p.name, x.name, err)
		}
	}
	return s, s.finish()
}

// add appends one string.
func (s *sharedStrings) add(b []byte) error {
	if s.file == nil && len(s.mem)+len(b) > sstMemory {
		if err := s.spill(); err != nil {
			return err
		}
	}
	if s.file != nil {
		if _, err := s.w.Write(b); err != nil {
			return err
		}
	} else {
		s.mem = append(s.mem, b...)
	}
	s.size += int64(len(b))
	if s.n%endsBlock == 0 {
		s.ends = append(s.ends, make([]int64, 0, endsBlock))
	}
	last := &s.ends[len(s.ends)-1]
	*last = append(*last, s.size)
	s.n++
	return nil
}

// endsBlock is how many string ends a block of sharedStrings.ends holds.
const endsBlock = 1 << 16

// end is where string i ends.
func (s *sharedStrings) end(i int) int64 { return s.ends[i/endsBlock][i%endsBlock] }

// spill moves the text to a temporary file.
func (s *sharedStrings) spill() error {
	dir, err := os.MkdirTemp("", "lading-xlsx-")
	if err != nil {
		return err
	}
	s.dir = dir
	if s.file, err = os.Create(filepath.Join(dir, "sharedStrings")); err != nil {
		return err
	}
	s.w = bufio.NewWriterSize(s.file, 1<<20)
	_, err = s.w.Write(s.mem)
	s.mem = nil
	return err
}

// finish ends loading.
func (s *sharedStrings) finish() error {
	for i := range s.recent {
		s.recent[i].i = -1
	}
	if s.file == nil {
		// mem is written no more: its bytes are the text's, where a copy
		// held a second table of some tens of megabytes as it was made.
		s.text, s.mem = unsafe.String(unsafe.SliceData(s.mem), len(s.mem)), nil
		return nil
	}
	return s.w.Flush()
}

// get returns string i; ok is false when there is no such string.
func (s *sharedStrings) get(i int) (_ string, ok bool, err error) {
	if i < 0 || i >= s.n {
		return "", false, nil
	}
	start, end := int64(0), s.end(i)
	if i > 0 {
		start = s.end(i - 1)
	}
	if s.file == nil {
		return s.text[start:end], true, nil
	}
	r := &s.recent[i%len(s.recent)]
	if r.i == i {
		return r.s, true, nil
	}
	n := int(end - start)
	if cap(s.buf) < n {
		s.buf = make([]byte, n)
	}
	if _, err := s.file.ReadAt(s.buf[:n], start); err != nil {
		return "", false, err
	}
	r.i, r.s = i, string(s.buf[:n])
	return r.s, true, nil
}

func (s *sharedStrings) len() int { return s.n }

// Close removes the temporary file, if any.
func (s *sharedStrings) Close() error {
	if s == nil || s.dir == "" {
		return nil
	}
	if s.file != nil {
		s.file.Close()
	}
	err := os.RemoveAll(s.dir)
	s.dir, s.file = "", nil
	return err
}

// unescapeXLSX decodes the _xHHHH_ escapes Excel writes in text for
// characters XML cannot hold ("_x000D_" is a carriage return); "_x005F_"
// escapes the underscore of a literal "_xHHHH_". It works in place.
func unescapeXLSX(b []byte) []byte {
	out := b[:0]
	for i := 0; i < len(b); {
		if b[i] == '_' && i+7 <= len(b) && b[i+1] == 'x' && b[i+6] == '_' {
			if v, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 16); err == nil {
				r := rune(v)
				if r == '_' {
					out = append(out, '_')
					i += 7
					continue
				}
				if !utf16.IsSurrogate(r) {
					out = utf8.AppendRune(out, r)
					i += 7
					continue
				}
			}
		}
		out = append(out, b[i])
		i++
	}
	return out
}
