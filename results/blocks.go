package results

import (
	"bytes"
	"sync/atomic"
)

// inFlight is how many blocks of lines are made into text or written at
// once, each made on a goroutine of its own, while the caller makes the
// next block's lines.
const inFlight = 3

// textBlocks makes the blocks of a CSV file whose lines are Cellers into
// text beside the caller, and writes the texts to the file in the order
// the blocks came, on a goroutine of its own: at most inFlight blocks at a
// time, so the memory held is that of a few blocks, whatever the file's
// length.
type textBlocks[T any] struct {
	to *csvSink
	// free holds the blocks the caller may fill; queue, those sent, in
	// order, to the writer, which gives each back on free once written.
	free, queue chan *textBlock[T]
	// written says the writer ended, with the first error it met.
	written chan error
	// failed is the writer's first error, as soon as it meets it.
	failed atomic.Pointer[error]
	// stop tells the writer to write no more (the file is discarded).
	stop   atomic.Bool
	closed bool
}

// textBlock is a block of lines and the text made of them, ready once
// done is closed. Its encoder (a CSV sink into text) is its own: a
// block's goroutine shares nothing with another's.
type textBlock[T any] struct {
	lines []T
	cells []string
	text  bytes.Buffer
	enc   *csvSink
	done  chan struct{}
}

func newTextBlocks[T any](to *csvSink) *textBlocks[T] {
	b := &textBlocks[T]{to: to, free: make(chan *textBlock[T], inFlight), queue: make(chan *textBlock[T], inFlight), written: make(chan error, 1)}
	for range inFlight {
		tb := &textBlock[T]{lines: make([]T, 0, block)}
		tb.enc = newCSVSink(&tb.text, 4096) // into memory: a small buffer will do
		b.free <- tb
	}
	go b.write()
	return b
}

// send starts making lines into text, once a block is free, and gives
// that block's room for the caller's next lines. lines is the caller's
// until then. It returns the error writing an earlier block met.
func (b *textBlocks[T]) send(lines []T) ([]T, error) {
	if err := b.failed.Load(); err != nil {
		return lines, *err
	}
	tb := <-b.free
	tb.lines, lines = lines, tb.lines[:0]
	tb.done = make(chan struct{})
	go tb.make()
	b.queue <- tb
	return lines, nil
}

// make turns the block's lines into CSV text.
func (tb *textBlock[T]) make() {
	defer close(tb.done)
	tb.text.Reset()
	for i := range tb.lines {
		tb.cells = any(&tb.lines[i]).(Celler).AppendCells(tb.cells[:0])
		tb.enc.Write(tb.cells) // into memory: no error
	}
	tb.enc.buf.Flush()
	clear(tb.lines)
}

// write writes the text of each block sent, in order, as it is made,
// and hands the block back; after an error it writes no more. It tells
// written once the last block sent is done.
func (b *textBlocks[T]) write() {
	var err error
	for tb := range b.queue {
		<-tb.done
		if err == nil && !b.stop.Load() {
			if _, err = b.to.buf.Write(tb.text.Bytes()); err != nil {
				b.failed.Store(&err)
			}
		}
		b.free <- tb
	}
	b.written <- err
}

// drain waits for every block sent to be written, and returns the first
// error writing one met.
func (b *textBlocks[T]) drain() error {
	if b.closed {
		return nil
	}
	b.closed = true
	close(b.queue)
	return <-b.written
}

// wait waits for the blocks sent, writing no more of them.
func (b *textBlocks[T]) wait() {
	b.stop.Store(true)
	b.drain()
}
