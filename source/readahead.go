package source

import (
	"io"
	"sync"
)

// readAhead reads r on a goroutine of its own, a few reads ahead of its
// own reader: r sees the reads its reader makes, of readSize bytes each,
// in the same order, only earlier, and each read's bytes and error reach
// the reader together, as r gave them. A worksheet's reading unzips its
// part and guards the lengths of its runs on that goroutine, a fifth of
// the work, beside the tokens cut on the other. Its reader reads
// readSize bytes at a time; Close stops the goroutine and waits for it.
type readAhead struct {
	ahead chan aheadRead // the reads made, in order
	free  chan []byte    // buffers read, for the next reads
	done  chan struct{}  // closed by Close
	ended chan struct{}  // closed when the goroutine ends
	once  sync.Once

	cur    aheadRead // the read being taken, from off on
	off    int
	taking bool
	err    error // the error given, given again after
}

// aheadRead is one read of r: its bytes (the start of buf) and its error.
type aheadRead struct {
	buf []byte
	n   int
	err error
}

// readsAhead is how many reads the goroutine makes before they are taken.
const readsAhead = 4

func newReadAhead(r io.Reader) *readAhead {
	a := &readAhead{ahead: make(chan aheadRead, readsAhead), free: make(chan []byte, readsAhead+1),
		done: make(chan struct{}), ended: make(chan struct{})}
	go a.run(r)
	return a
}

// run reads r until its error or Close.
func (a *readAhead) run(r io.Reader) {
	defer close(a.ended)
	for {
		var buf []byte
		select {
		case buf = <-a.free:
		default:
			buf = make([]byte, readSize)
		}
		n, err := r.Read(buf)
		select {
		case a.ahead <- aheadRead{buf, n, err}:
		case <-a.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read gives the next read's bytes, and its error with its last bytes;
// after the error, the error again.
func (a *readAhead) Read(p []byte) (int, error) {
	if a.err != nil {
		return 0, a.err
	}
	if !a.taking {
		a.cur, a.off, a.taking = <-a.ahead, 0, true
	}
	n := copy(p, a.cur.buf[a.off:a.cur.n])
	if a.off += n; a.off < a.cur.n {
		return n, nil
	}
	err := a.cur.err
	a.err, a.taking = err, false
	select {
	case a.free <- a.cur.buf:
	default:
	}
	return n, err
}

// Close stops the reading and waits for the goroutine to end (its read
// under way, if any, to return).
func (a *readAhead) Close() {
	a.once.Do(func() { close(a.done) })
	<-a.ended
}
