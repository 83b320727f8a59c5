package api

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// hinted is a reader that tells a size, true or not.
type hinted struct {
	io.Reader
	size int64
}

func (h hinted) sizeHint() int64 { return h.size }

// TestReadBody: an answer is read whole, whatever its size, the size its
// header tells (right, wrong or none) and how its reads come; an error
// that cuts it short is returned.
func TestReadBody(t *testing.T) {
	t.Parallel()
	long := bytes.Repeat([]byte("0123456789abcdef"), 3*readChunk/16+5) // three chunks and a bit
	broken := errors.New("connection reset")
	for _, tc := range []struct {
		name string
		r    func(b []byte) io.Reader
		err  error
	}{
		{"unsized", func(b []byte) io.Reader { return bytes.NewReader(b) }, nil},
		{"unsized, a byte a read", func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) }, nil},
		{"unsized, half reads", func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) }, nil},
		{"sized", func(b []byte) io.Reader { return hinted{bytes.NewReader(b), int64(len(b))} }, nil},
		{"sized too short", func(b []byte) io.Reader { return hinted{iotest.HalfReader(bytes.NewReader(b)), int64(len(b) / 3)} }, nil},
		{"sized too long", func(b []byte) io.Reader { return hinted{bytes.NewReader(b), int64(len(b) + 100)} }, nil},
		{"sized far too long", func(b []byte) io.Reader { return hinted{bytes.NewReader(b), 4 * maxSized} }, nil},
		{"size unknown", func(b []byte) io.Reader { return hinted{bytes.NewReader(b), -1} }, nil},
		{"cut short", func(b []byte) io.Reader { return io.MultiReader(bytes.NewReader(b), iotest.ErrReader(broken)) }, broken},
		{"sized, cut short", func(b []byte) io.Reader {
			return hinted{io.MultiReader(bytes.NewReader(b), iotest.ErrReader(broken)), int64(len(b) + 1)}
		}, broken},
	} {
		for _, body := range [][]byte{nil, []byte("{}"), long[:readChunk], long} {
			got, err := readBody(tc.r(body), nil)
			switch {
			case !errors.Is(err, tc.err):
				t.Errorf("%s, %d bytes: err = %v, want %v", tc.name, len(body), err, tc.err)
			case err == nil && !bytes.Equal(got, body):
				t.Errorf("%s, %d bytes: read %d bytes, not the body", tc.name, len(body), len(got))
			}
		}
	}
}
