package results

import (
	"bytes"
)

// inFlight is how many blocks of lines are made into text at once, each
// on a goroutine of its own, while the caller makes the next block's
// lines.
const inFlight = 2

// textBlocks makes the blocks of a CSV file whose lines are Cellers into
// text beside the caller, and writes the texts to the file in the order
// the blocks came: at most inFlight at a time, so the memory held is
// that of a few blocks, whatever the file's length.
type textBlocks[T any] struct {
	to    *csvSink
	queue []*textBlock[T] // oldest first
	free  []*textBlock[T]
}

// textBlock is a block of lines and the text made of them, ready once
// done is closed. Its encoder (a CSV sink into text) is its own: a
// block's goroutine shares nothing with another's.
type textBlock[T any] struct {
	lines []T
	cells Cells
	text  bytes.Buffer
	enc   *csvSink
	done  chan struct{}
}

func newTextBlocks[T any](to *csvSink) *textBlocks[T] {
	b := &textBlocks[T]{to: to}
	for range inFlight {
		tb := &textBlock[T]{lines: make([]T, 0, block)}
		tb.enc = newCSVSink(&tb.text, 4096) // into memory: a small buffer will do
		b.free = append(b.free, tb)
	}
	return b
}

// send starts making lines into text, having written the oldest block's
// when as many are in flight as may be, and gives an empty block's room
// for the caller's next lines. lines is the caller's until then.
func (b *textBlocks[T]) send(lines []T) ([]T, error) {
	if len(b.free) == 0 {
		if err := b.writeOldest(); err != nil {
			return lines, err
		}
	}
	tb := b.free[len(b.free)-1]
	b.free = b.free[:len(b.free)-1]
	tb.lines, lines = lines, tb.lines[:0]
	tb.done = make(chan struct{})
	b.queue = append(b.queue, tb)
	go tb.make()
	return lines, nil
}

// make turns the block's lines into CSV text.
func (tb *textBlock[T]) make() {
	defer close(tb.done)
	tb.text.Reset()
	for i := range tb.lines {
		l := any(&tb.lines[i]).(Celler)
		// The lines before go first, if the encoder holds some: then
		// the text is made where the block's text goes next.
		tb.enc.buf.Flush()
		if text, ok := tb.cells.textOf(l, tb.text.AvailableBuffer()); ok {
			tb.text.Write(text) // into memory: no error
			continue
		}
		tb.enc.Write(tb.cells.listOf(l))
	}
	tb.enc.buf.Flush()
	clear(tb.lines)
}

// writeOldest waits for the oldest block in flight and writes its text.
func (b *textBlocks[T]) writeOldest() error {
	tb := b.queue[0]
	<-tb.done
	b.queue = b.queue[1:]
	b.free = append(b.free, tb)
	_, err := b.to.buf.Write(tb.text.Bytes())
	return err
}

// drain writes the text of every block in flight, in order.
func (b *textBlocks[T]) drain() error {
	for len(b.queue) > 0 {
		if err := b.writeOldest(); err != nil {
			b.wait()
			return err
		}
	}
	return nil
}

// wait waits for the blocks in flight without writing them.
func (b *textBlocks[T]) wait() {
	for _, tb := range b.queue {
		<-tb.done
	}
	b.queue = nil
}
