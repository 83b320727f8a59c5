package api

import (
	"errors"
	"io"
	"sync"
)

// An answer is read whole into one buffer of its size, then decoded in one
// pass over it (see recordDecoder): each record's fields, and its JSON
// kept as its RawRecord, are parts of that buffer, not copies. A page of
// 250 variants with their sideloads costs its body once, and no scan to
// find where each record ends before reading it.

// readChunk is how much of an answer of unknown size is read at once.
const readChunk = 64 << 10

// chunks are the buffers an answer of unknown size is read into before it
// is copied, once, into a buffer of its size.
var chunks = sync.Pool{New: func() any { return new([readChunk]byte) }}

// sizeHinter is a reader that knows how long its stream is (an answer with
// a Content-Length), or -1.
type sizeHinter interface {
	sizeHint() int64
}

// readBody reads r to its end into buf's room if it is large enough, else
// a buffer of its own, of the stream's size: in one read when r tells the
// size, else in pooled chunks copied once into it.
func readBody(r io.Reader, buf []byte) ([]byte, error) {
	if h, ok := r.(sizeHinter); ok {
		if n := h.sizeHint(); n >= 0 && n < maxAnswerBytes {
			return readSized(r, int(n), buf)
		}
	}
	var got []*[readChunk]byte
	defer func() {
		for _, c := range got {
			chunks.Put(c)
		}
	}()
	total, last := 0, 0 // bytes read, and of them in the last chunk
	for {
		if len(got) == 0 || last == readChunk {
			got, last = append(got, chunks.Get().(*[readChunk]byte)), 0
		}
		n, err := r.Read(got[len(got)-1][last:])
		last, total = last+n, total+n
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	body := buf[:0]
	if cap(body) < total {
		body = make([]byte, total)
	}
	body = body[:total]
	at := 0
	for _, c := range got {
		at += copy(body[at:], c[:])
	}
	return body, nil
}

// maxSized is the most a buffer is made for an answer before its bytes
// come: a header may say more than the answer holds.
const maxSized = 16 << 20

// readSized reads r, said to hold n bytes, to its end: into buf's room or
// a buffer of n (and one byte more, to see its end; at most maxSized
// before the bytes come), grown if the stream is longer.
func readSized(r io.Reader, n int, buf []byte) ([]byte, error) {
	body := buf[:0]
	if cap(body) < min(n, maxSized)+1 {
		body = make([]byte, 0, min(n, maxSized)+1)
	}
	for {
		if len(body) == cap(body) {
			body = append(body, 0)[:len(body)]
		}
		m, err := r.Read(body[len(body):cap(body)])
		body = body[:len(body)+m]
		if errors.Is(err, io.EOF) {
			return body, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
