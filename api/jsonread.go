package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// jsonReader reads the JSON of a read answer from a stream, in one pass
// and a buffer of its own: the answer's top level, the records of the
// resource and of each sideload, each kept as it came (copied once, into
// the reader's pageArena, see record) for a recordDecoder to read its
// fields from. A page of 250
// variants with their sideloads is read without the whole body in memory
// and without a decoder's reflection per field.
type jsonReader struct {
	r        io.Reader
	buf      []byte
	pos, end int
	err      error // the stream's error once it ends (io.EOF at its end)
	read     int64 // bytes of the stream before buf[0], for messages
	// capture, when on, keeps the bytes from buf[capStart] as the buffer
	// moves on (in kept).
	capture  bool
	capStart int
	kept     []byte
	// arena holds the records read, for as long as any of them lives.
	arena pageArena
}

// readBuffer is how much of an answer is read at once.
const readBuffer = 64 << 10

func newJSONReader(r io.Reader) *jsonReader {
	return &jsonReader{r: r, buf: make([]byte, readBuffer)}
}

// more reads more of the stream into the buffer; false at its end.
func (d *jsonReader) more() bool {
	if d.err != nil {
		return false
	}
	if d.capture {
		d.kept = append(d.kept, d.buf[d.capStart:d.end]...)
		d.capStart = 0
	}
	d.read += int64(d.end)
	d.pos, d.end = 0, 0
	for d.end == 0 {
		n, err := d.r.Read(d.buf)
		d.end = n
		if err != nil {
			d.err = err
			return n > 0
		}
	}
	return true
}

// syntax is an error of the answer's JSON at the current place.
func (d *jsonReader) syntax(format string, a ...any) error {
	return fmt.Errorf("invalid JSON at byte %d: %s", d.read+int64(d.pos), fmt.Sprintf(format, a...))
}

// peek returns the next byte that is not white space, without taking it.
func (d *jsonReader) peek() (byte, error) {
	for {
		for d.pos < d.end {
			switch c := d.buf[d.pos]; c {
			case ' ', '\t', '\n', '\r':
				d.pos++
			default:
				return c, nil
			}
		}
		if !d.more() {
			return 0, d.ended()
		}
	}
}

// ended is the error of a stream that ended inside a value.
func (d *jsonReader) ended() error {
	if d.err == io.EOF {
		return d.syntax("the answer ends early")
	}
	return d.err
}

// expect takes the byte c, after white space.
func (d *jsonReader) expect(c byte) error {
	got, err := d.peek()
	if err != nil {
		return err
	}
	if got != c {
		return d.syntax("want %q, found %q", c, got)
	}
	d.pos++
	return nil
}

// key reads an object's next key and its colon, into buf; done is true at
// the object's end (its '}' taken). first says no member was read yet.
func (d *jsonReader) key(buf []byte, first bool) (key []byte, done bool, err error) {
	c, err := d.peek()
	if err != nil {
		return nil, false, err
	}
	if c == '}' {
		d.pos++
		return nil, true, nil
	}
	if !first {
		if c != ',' {
			return nil, false, d.syntax("want ',' or '}' in an object, found %q", c)
		}
		d.pos++
		if c, err = d.peek(); err != nil {
			return nil, false, err
		}
	}
	if c != '"' {
		return nil, false, d.syntax("want a key in an object, found %q", c)
	}
	d.startCapture()
	if err := d.skipString(); err != nil {
		return nil, false, err
	}
	raw := d.endCapture()
	key, err = unquote(buf[:0], raw)
	if err != nil {
		return nil, false, d.syntax("%v", err)
	}
	return key, false, d.expect(':')
}

// elem moves to an array's next element; done is true at its end (its
// ']' taken).
func (d *jsonReader) elem(first bool) (done bool, err error) {
	c, err := d.peek()
	if err != nil {
		return false, err
	}
	switch {
	case c == ']':
		d.pos++
		return true, nil
	case first:
		return false, nil
	case c != ',':
		return false, d.syntax("want ',' or ']' in an array, found %q", c)
	}
	d.pos++
	return false, nil
}

func (d *jsonReader) startCapture() {
	d.capture, d.capStart, d.kept = true, d.pos, d.kept[:0]
}

// endCapture returns what was read since startCapture, valid until the
// next read.
func (d *jsonReader) endCapture() []byte {
	d.capture = false
	if len(d.kept) == 0 {
		return d.buf[d.capStart:d.pos]
	}
	d.kept = append(d.kept, d.buf[d.capStart:d.pos]...)
	return d.kept
}

// value returns a copy of the next value, as it came.
func (d *jsonReader) value() ([]byte, error) {
	v, err := d.next()
	if err != nil {
		return nil, err
	}
	return bytes.Clone(v), nil
}

// record returns the next value, as it came, kept in the reader's arena.
func (d *jsonReader) record() ([]byte, error) {
	v, err := d.next()
	if err != nil {
		return nil, err
	}
	return d.arena.keep(v), nil
}

// next returns the next value, as it came, valid until the next read.
func (d *jsonReader) next() ([]byte, error) {
	if _, err := d.peek(); err != nil {
		return nil, err
	}
	d.startCapture()
	if err := d.skip(); err != nil {
		d.capture = false
		return nil, err
	}
	return d.endCapture(), nil
}

// skip reads past the next value, checking that its brackets and strings
// are closed as they were opened.
func (d *jsonReader) skip() error {
	var awaited [16]byte
	open := awaited[:0] // the closing brackets awaited
	for {
		c, err := d.peek()
		if err != nil {
			return err
		}
		switch c {
		case '"':
			if err := d.skipString(); err != nil {
				return err
			}
		case '{', '[':
			d.pos++
			open = append(open, c+2) // '}' and ']' follow '{' and '[' by 2
			continue
		case '}', ']':
			if len(open) == 0 || open[len(open)-1] != c {
				return d.syntax("unexpected %q", c)
			}
			d.pos++
			open = open[:len(open)-1]
		case ',', ':':
			if len(open) == 0 {
				return d.syntax("unexpected %q", c)
			}
			d.pos++
			continue
		default:
			if err := d.skipScalar(); err != nil {
				return err
			}
		}
		if len(open) == 0 {
			return nil
		}
	}
}

// skipString reads past a string, its opening quote next.
func (d *jsonReader) skipString() error {
	d.pos++
	for {
		// A loop, not bytes.IndexAny: the strings of an answer are short.
		i, buf := 0, d.buf[d.pos:d.end]
		for i < len(buf) && buf[i] != '"' && buf[i] != '\\' {
			i++
		}
		if i == len(buf) {
			d.pos = d.end
			if !d.more() {
				return d.ended()
			}
			continue
		}
		d.pos += i
		if d.buf[d.pos] == '"' {
			d.pos++
			return nil
		}
		d.pos++ // the backslash; the escaped byte follows
		if d.pos == d.end && !d.more() {
			return d.ended()
		}
		d.pos++
	}
}

// skipScalar reads past a number, true, false or null.
func (d *jsonReader) skipScalar() error {
	start := d.pos
	for {
		for d.pos < d.end {
			switch d.buf[d.pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r', ':':
				if d.pos == start {
					return d.syntax("unexpected %q", d.buf[d.pos])
				}
				return nil
			case '"', '{', '[':
				return d.syntax("unexpected %q", d.buf[d.pos])
			}
			d.pos++
		}
		if !d.more() {
			if d.err == io.EOF && d.pos > start {
				return nil
			}
			return d.ended()
		}
		start = -1 // something was read before the buffer moved
	}
}

// finish checks that nothing but white space follows the answer's value.
func (d *jsonReader) finish() error {
	_, err := d.peek()
	switch {
	case err == nil:
		return d.syntax("more after the answer's end")
	case errors.Is(err, io.EOF) || d.err == io.EOF:
		return nil
	}
	return err
}

// unquote appends the text of the JSON string q (quotes included) to buf.
func unquote(buf, q []byte) ([]byte, error) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return buf, errors.New("a string is not closed")
	}
	return unescape(buf, q[1:len(q)-1])
}
