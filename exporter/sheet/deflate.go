package sheet

import (
	"bytes"
	"compress/flate"
	"io"
	"runtime"
)

// A workbook's parts are deflated when it is saved, after its rows: for a
// large sheet, the longest single step of an export. The deflater below
// spreads it over the cores: a part's data is cut into segments, each
// compressed on a goroutine of its own at archive/zip's level, primed
// with the window of data before it (so that it compresses as well, to a
// fraction of a percent) and ended with a sync flush, byte-aligned, the
// last one closed: the segments, in order, are one deflate stream. A part
// of one segment (every part but the sheets of large exports) is
// compressed on the caller's goroutine, exactly as archive/zip would.

const (
	// deflateLevel is archive/zip's.
	deflateLevel = 5
	// deflateWindow is how far back deflate looks: a segment is primed
	// with that much of the data before it.
	deflateWindow = 32 << 10
	// deflateSegment is the size of the segments.
	deflateSegment = 4 << 20
)

// deflater is a ZIP entry's compressor (zip.Compressor).
type deflater struct {
	w       io.Writer
	size    int             // of a segment
	workers int             // segments compressed at once
	seg     []byte          // the segment being gathered
	window  []byte          // the end of the segment before it
	pending []segment       // being compressed, in order
	free    [][]byte        // segment buffers to reuse
	outs    []*bytes.Buffer // compressed buffers to reuse
	err     error
}

// segment is a segment being compressed: its data, and its compressed
// bytes in out once done is closed.
type segment struct {
	data []byte
	out  *bytes.Buffer
	done chan struct{}
}

func newDeflater(w io.Writer) (io.WriteCloser, error) {
	return &deflater{w: w, size: deflateSegment, workers: runtime.GOMAXPROCS(0)}, nil
}

func (d *deflater) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && d.err == nil {
		if len(d.seg) == d.size {
			d.dispatch(false)
		}
		if d.seg == nil {
			d.seg = d.buffer()
		}
		k := min(d.size-len(d.seg), len(p))
		d.seg, p = append(d.seg, p[:k]...), p[k:]
	}
	if d.err != nil {
		return 0, d.err
	}
	return n, nil
}

// Close compresses the last segment, closing the stream, and writes
// what is left in order.
func (d *deflater) Close() error {
	if d.err != nil {
		return d.err
	}
	if len(d.pending) == 0 { // one segment, or none: as archive/zip does
		fw, err := flate.NewWriter(d.w, deflateLevel)
		if err == nil {
			_, err = fw.Write(d.seg)
		}
		if err == nil {
			err = fw.Close()
		}
		return err
	}
	d.dispatch(true)
	for len(d.pending) > 0 && d.err == nil {
		d.drain()
	}
	return d.err
}

// buffer is a segment buffer, reused, or new and growing as it fills (a
// small part takes no more).
func (d *deflater) buffer() []byte {
	if n := len(d.free); n > 0 {
		b := d.free[n-1]
		d.free = d.free[:n-1]
		return b[:0]
	}
	return nil
}

// dispatch starts compressing the gathered segment on a goroutine, after
// writing out the oldest segment when workers are under way.
func (d *deflater) dispatch(last bool) {
	for len(d.pending) >= d.workers && d.err == nil {
		d.drain()
	}
	s, window := segment{data: d.seg, out: new(bytes.Buffer), done: make(chan struct{})}, d.window
	if n := len(d.outs); n > 0 {
		s.out, d.outs = d.outs[n-1], d.outs[:n-1]
	}
	d.pending = append(d.pending, s)
	go func() {
		defer close(s.done)
		compressSegment(s.out, s.data, window, last)
	}()
	// The next segment is primed with this one's end, copied: this
	// buffer is reused once its segment is written.
	d.window = append(d.window[:0:0], s.data[max(0, len(s.data)-deflateWindow):]...)
	d.seg = nil
}

// drain writes out the oldest segment, waiting for it, and frees its
// buffers for another.
func (d *deflater) drain() {
	s := d.pending[0]
	d.pending = d.pending[1:]
	<-s.done
	if _, err := d.w.Write(s.out.Bytes()); err != nil {
		d.err = err
	}
	s.out.Reset()
	d.free, d.outs = append(d.free, s.data), append(d.outs, s.out)
}

// compressSegment deflates seg primed with window into out: flushed to a
// byte boundary, or, when last, closed.
func compressSegment(out *bytes.Buffer, seg, window []byte, last bool) {
	fw, _ := flate.NewWriterDict(out, deflateLevel, window) // the level is valid: no error
	fw.Write(seg)                                           // into a bytes.Buffer: no error
	if last {
		fw.Close()
	} else {
		fw.Flush()
	}
}
