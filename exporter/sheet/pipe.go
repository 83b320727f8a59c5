package sheet

import (
	"fmt"
	"strconv"

	"github.com/xuri/excelize/v2"
)

// A workbook's rows are written in two stages that overlap. The caller's
// goroutine turns each row's text into cells (numbers parsed, dates read,
// sums kept, Excel's limits checked: the errors that name a row and a
// column come from here, at once), and one goroutine of the book's, its
// writer, hands the cells to excelize (SetRow: each cell's XML, the
// larger part of the work). On two cores the writer runs beside the
// caller and beside the reading of the pages that feeds it. While it
// runs, the writer is the only one to touch the workbook: what else a
// sheet asks of excelize before finish (its widths and header once
// measured, a page break) goes to it in order, as a step. Memory stays
// bounded: pipeBatches batches of pipeBatch steps, reused.

// The writer's batches: how many steps each holds, and how many there
// are (the caller fills one while the writer writes the others).
const (
	pipeBatch   = 256
	pipeBatches = 4
)

// pipe is the way from the caller to the writer.
type pipe struct {
	jobs   chan *batch   // batches to write, in order
	free   chan *batch   // batches written, to fill again
	done   chan struct{} // closed when the writer has stopped
	err    error         // why the writer stopped early; read once done is closed
	cur    *batch        // the batch being filled
	closed bool
}

// batch is steps for the writer, the first n of them filled.
type batch struct {
	steps []step
	n     int
}

// step is one thing the writer does: write row row of sheet s, its cells
// vals, or, when run is set, call run.
type step struct {
	s    *xsheet
	row  int
	vals []any
	// cells holds the styled cells of vals, which point at them: a
	// pointer is a value excelize takes, and costs no allocation.
	cells []excelize.Cell
	run   func() error
}

// newPipe starts a writer for rows of at most width cells.
func newPipe(width int) *pipe {
	p := &pipe{jobs: make(chan *batch, pipeBatches), free: make(chan *batch, pipeBatches), done: make(chan struct{})}
	for range pipeBatches {
		b := &batch{steps: make([]step, pipeBatch)}
		for i := range b.steps {
			b.steps[i].vals = make([]any, width)
			b.steps[i].cells = make([]excelize.Cell, width)
		}
		p.free <- b
	}
	p.cur = <-p.free
	go p.write()
	return p
}

// write is the writer: it does the steps of each batch in order, until
// the pipe is closed or a step fails.
func (p *pipe) write() {
	defer close(p.done)
	for b := range p.jobs {
		for i := range b.steps[:b.n] {
			if err := b.steps[i].do(); err != nil {
				p.err = err
				return
			}
		}
		b.n = 0
		p.free <- b
	}
}

func (st *step) do() error {
	if run := st.run; run != nil {
		st.run = nil
		return run()
	}
	if err := st.s.sw.SetRow("A"+strconv.Itoa(st.row), st.vals); err != nil {
		return fmt.Errorf("sheet %q, row %d: %w", st.s.name, st.row, err)
	}
	return nil
}

// slot is the next step, for a row of width cells: filled by the caller,
// then sent with push (or left, and filled again).
func (p *pipe) slot(width int) *step {
	st := &p.cur.steps[p.cur.n]
	st.vals = st.vals[:width]
	return st
}

// push sends the step slot gave, in a batch once the batch is full. The
// error is the writer's, from a step sent before.
func (p *pipe) push() error {
	p.cur.n++
	if p.cur.n < len(p.cur.steps) {
		return nil
	}
	return p.send()
}

// do has the writer call run after the steps before.
func (p *pipe) do(run func() error) error {
	p.slot(0).run = run
	return p.push()
}

// send hands the batch being filled to the writer and takes a free one.
// After the writer failed, it returns its error and keeps the batch,
// which the writer no longer reads.
func (p *pipe) send() error {
	if p.cur.n == 0 {
		return nil
	}
	select {
	case p.jobs <- p.cur:
	case <-p.done:
		return p.err
	}
	select {
	case p.cur = <-p.free:
	case <-p.done:
		return p.err
	}
	return nil
}

// close has the writer do the steps sent, stops it and returns the first
// error of the steps.
func (p *pipe) close() error {
	if p.closed {
		<-p.done
		return p.err
	}
	p.closed = true
	err := p.send()
	close(p.jobs)
	<-p.done
	if p.err != nil {
		return p.err
	}
	return err
}
