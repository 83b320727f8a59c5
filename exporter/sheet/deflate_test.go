package sheet

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"math/rand/v2"
	"strconv"
	"testing"
)

// The deflater's stream inflates to what it was given, whatever the
// number of segments and where the writes fall; a part of one segment is
// compressed byte for byte as archive/zip compresses it; and segments
// cost next to nothing in size.
func TestDeflater(t *testing.T) {
	t.Parallel()
	const size = 64 << 10 // a segment: two windows
	xml := func(n int) []byte {
		var b bytes.Buffer
		for i := 0; b.Len() < n; i++ {
			b.WriteString(`<row r="` + strconv.Itoa(i) + `"><c r="A` + strconv.Itoa(i) + `" t="inlineStr"><is><t>SKU-` + strconv.Itoa(i*7919%100000) + `</t></is></c></row>`)
		}
		return b.Bytes()[:n]
	}
	noise := make([]byte, 3*size)
	for i := range noise {
		noise[i] = byte(rand.N(256))
	}
	tests := []struct {
		name  string
		data  []byte
		write int // bytes a Write
	}{
		{"empty", nil, 1},
		{"one byte", []byte("x"), 1},
		{"under a segment", xml(size - 1), 4096},
		{"a segment", xml(size), size},
		{"a segment and a byte", xml(size + 1), 1000},
		{"segments, written whole", xml(7*size + 123), 1 << 20},
		{"segments, written in pieces", xml(5*size - 7), 32 << 10},
		{"segments of noise", noise, 5000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			d := &deflater{w: &out, size: size, workers: 2}
			for p := tt.data; len(p) > 0; {
				n := min(tt.write, len(p))
				if k, err := d.Write(p[:n]); k != n || err != nil {
					t.Fatalf("Write = %d, %v", k, err)
				}
				p = p[n:]
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(flate.NewReader(bytes.NewReader(out.Bytes())))
			if err != nil || !bytes.Equal(got, tt.data) {
				t.Fatalf("inflated %d bytes (%v), want the %d given", len(got), err, len(tt.data))
			}
			var one bytes.Buffer
			fw, _ := flate.NewWriter(&one, deflateLevel)
			fw.Write(tt.data)
			fw.Close()
			switch {
			case len(tt.data) <= size && !bytes.Equal(out.Bytes(), one.Bytes()):
				t.Errorf("one segment: %d bytes, not archive/zip's %d", out.Len(), one.Len())
			case float64(out.Len()) > 1.01*float64(one.Len())+64:
				t.Errorf("%d bytes, archive/zip's %d: more than 1%% larger", out.Len(), one.Len())
			}
		})
	}
}

// A write error ends the stream: it is returned, by Write or Close.
func TestDeflaterWriteError(t *testing.T) {
	t.Parallel()
	fail := errors.New("disk full")
	d := &deflater{w: failingWriter{fail}, size: 1024, workers: 2}
	data := bytes.Repeat([]byte("<row/>"), 2000)
	_, werr := d.Write(data)
	if cerr := d.Close(); !errors.Is(werr, fail) && !errors.Is(cerr, fail) {
		t.Fatalf("Write: %v, Close: %v; want %v", werr, cerr, fail)
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }
