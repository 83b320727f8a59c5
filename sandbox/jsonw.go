package sandbox

import (
	"database/sql"
	"slices"
	"strconv"
	"sync"

	"lading/internal/jsonstr"
)

// rawJSON is a record already written as JSON, answered as it is.
type rawJSON []byte

// MarshalJSON lets a rawJSON stand where encoding/json meets it.
func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

// jw writes the JSON of the records that pages carry many of (variants,
// products and what they sideload) straight into a buffer, without maps
// and reflection: a page of 250 variants is written in a fraction of the
// time encoding/json takes. Members are given in the order encoding/json
// writes a map's, by key, so the answers read as before.
type jw struct {
	b     []byte
	first bool // no member yet in the object open
	left  int  // records still to be written, when expect was told
	// held, when not nil, keeps the buffers w writes into, taken from
	// recordBufs, to be given back once the answer is written; else w
	// allocates its own.
	held *heldBufs
	cur  *recordBuf // the buffer of held that b is in
}

// expect tells w that n records are to be written: once the first is
// done, room is made for the rest at its size, so that the buffer of a
// page grows about once rather than a dozen times.
func (w *jw) expect(n int) {
	w.left = n
	if w.held != nil && w.b == nil {
		w.use(w.held.take(0))
	}
}

func (w *jw) open() { w.b, w.first = append(w.b, '{'), true }

func (w *jw) close() { w.b, w.first = append(w.b, '}'), false }

// key starts the member k.
func (w *jw) key(k string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
}

func (w *jw) str(k, v string) {
	w.key(k)
	w.b = jsonstr.Append(w.b, v)
}

// null writes v, or null when it is not valid.
func (w *jw) null(k string, v sql.NullString) {
	if !v.Valid {
		w.nul(k)
		return
	}
	w.str(k, v.String)
}

// nul writes each of keys as null.
func (w *jw) nul(keys ...string) {
	for _, k := range keys {
		w.key(k)
		w.b = append(w.b, "null"...)
	}
}

// int writes n as the service writes numbers: a string.
func (w *jw) int(k string, n int64) {
	w.key(k)
	w.b = append(w.b, '"')
	w.b = strconv.AppendInt(w.b, n, 10)
	w.b = append(w.b, '"')
}

func (w *jw) flag(k string, b bool) { w.str(k, boolStr(b)) }

// links writes the member k: an array of {"id": ...} of ids.
func (w *jw) links(k string, ids []int64) {
	w.key(k)
	w.b = append(w.b, '[')
	for i, id := range ids {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = append(w.b, `{"id":"`...)
		w.b = strconv.AppendInt(w.b, id, 10)
		w.b = append(w.b, `"}`...)
	}
	w.b = append(w.b, ']')
}

// done returns what was written since from, as a record of its own.
// The records already done keep their own array when the buffer grows.
func (w *jw) done(from int) rawJSON {
	r := rawJSON(w.b[from:len(w.b):len(w.b)])
	if w.held != nil && (w.cur == nil || cap(w.b) != cap(w.cur.b)) {
		// The record outgrew the buffer: append moved it to one of its own.
		w.use(w.held.keep(w.b))
	}
	if w.left > 1 {
		w.room(len(r) * (w.left - 1) * 9 / 8)
	}
	w.left = 0
	return r
}

// room makes room for n more bytes: in a buffer of held, when w has
// held, the records done staying where they are; else by growing b.
func (w *jw) room(n int) {
	if cap(w.b)-len(w.b) >= n {
		return
	}
	if w.held == nil {
		w.b = slices.Grow(w.b, n)
		return
	}
	w.use(w.held.take(n))
}

// writer is a jw whose buffers t holds, when it does (a read's).
func (t *txn) writer() jw { return jw{held: t.held} }

func (w *jw) use(rb *recordBuf) { w.cur, w.b = rb, rb.b[:0] }

// recordBuf is a buffer records are written into.
type recordBuf struct{ b []byte }

// recordBufs keeps the buffers of the records of answers written, for
// the next answers: a page of 250 variants writes about half a megabyte
// of records before its answer is put together.
var recordBufs sync.Pool

// heldBufs are the buffers of recordBufs that the records of one answer
// are in, until it is written.
type heldBufs struct{ bufs []*recordBuf }

// take takes a buffer of at least n bytes.
func (h *heldBufs) take(n int) *recordBuf {
	rb, _ := recordBufs.Get().(*recordBuf)
	if rb == nil || cap(rb.b) < n {
		// One too small is left to the collector: those kept grow to the
		// sizes pages need.
		rb = &recordBuf{b: make([]byte, 0, max(n, minRecordBuf))}
	}
	h.bufs = append(h.bufs, rb)
	return rb
}

// keep holds b, a buffer append made.
func (h *heldBufs) keep(b []byte) *recordBuf {
	rb := &recordBuf{b: b[:0]}
	h.bufs = append(h.bufs, rb)
	return rb
}

// release gives the buffers back once nothing written in them is used.
func (h *heldBufs) release() {
	for _, rb := range h.bufs {
		if cap(rb.b) <= maxPooled {
			recordBufs.Put(rb)
		}
	}
	h.bufs = h.bufs[:0]
}

// minRecordBuf is the least size of a buffer of records.
const minRecordBuf = 16 << 10
