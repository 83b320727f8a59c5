package source

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// stutter gives its reads as listed: so many bytes of its text (0: none)
// and, at the last, err.
type stutter struct {
	text  string
	sizes []int
	err   error
}

func (s *stutter) Read(p []byte) (int, error) {
	if len(s.sizes) == 0 {
		return 0, s.err
	}
	n := copy(p[:min(len(p), s.sizes[0])], s.text)
	s.text, s.sizes = s.text[n:], s.sizes[1:]
	if len(s.sizes) == 0 {
		return n, s.err
	}
	return n, nil
}

// readsOf is what reading r readSize bytes at a time gives, read by read,
// up to its error and once more.
func readsOf(r io.Reader) []string {
	var reads []string
	for range 20 {
		p := make([]byte, readSize)
		n, err := r.Read(p)
		reads = append(reads, string(p[:n])+"|"+errText(err))
		if err != nil {
			n, err = r.Read(p)
			return append(reads, string(p[:n])+"|"+errText(err))
		}
	}
	return reads
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Read ahead, a reader's reads come as it gave them: each read's bytes,
// an empty read as empty, the error with the last bytes, then the error
// again.
func TestReadAheadGivesTheReadsAsMade(t *testing.T) {
	t.Parallel()
	broken := errors.New("the archive is broken")
	text := strings.Repeat("abcdefgh", 1200)
	for _, tc := range []struct {
		name  string
		sizes []int
		err   error
	}{
		{"whole reads, then the end", []int{readSize, readSize, 1400, 0}, io.EOF},
		{"the end with the last bytes", []int{3, readSize, 5}, io.EOF},
		{"empty reads between", []int{7, 0, 0, 9}, broken},
		{"an error alone", nil, broken},
	} {
		want := readsOf(&stutter{text: text, sizes: tc.sizes, err: tc.err})
		a := newReadAhead(&stutter{text: text, sizes: tc.sizes, err: tc.err})
		got := readsOf(a)
		a.Close()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read ahead %q\nwant %q", tc.name, got, want)
		}
	}
}

// endless gives x's without end.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// Close stops a reading its reader left halfway, the goroutine ahead
// blocked on reads not taken, and waits for it.
func TestReadAheadCloseStopsIt(t *testing.T) {
	t.Parallel()
	a := newReadAhead(endless{})
	if n, err := a.Read(make([]byte, 10)); n != 10 || err != nil {
		t.Fatalf("read %d, %v; want 10 bytes", n, err)
	}
	a.Close()
	select {
	case <-a.ended:
	default:
		t.Error("Close returned before the goroutine ended")
	}
	a.Close() // again: nothing to do
}
