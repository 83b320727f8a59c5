package stock

import (
	"context"
	"fmt"
	"time"

	"lading/api/wire"
	"lading/engine"
)

// Options configure a push. Its State remembers SKU ids, warehouses, the
// levels pushed and the batches sent; its Mapping has a stock section;
// Strict sends nothing if any row is invalid or its SKU unknown; BatchSize
// counts levels (0: the most a write takes).
type Options struct {
	engine.Options
	// Warehouse is the id of the warehouse rows without one go to; ""
	// means the access token's.
	Warehouse string
	// Full sends every row's level, changed or not.
	Full bool
	// Verify compares the file with the live levels (one read of the
	// whole Variants listing) rather than with the levels last pushed.
	Verify bool
}

// words are how a stock push speaks of its work.
var words = engine.Words{Job: "push", Record: "level", Again: "push again", Writes: "stock levels"}

// Report says what a push did.
type Report struct {
	engine.Report
	Full       bool     `json:"full"`
	Verify     bool     `json:"verify"`
	Warehouses []string `json:"warehouses"`
	// Levels is how many levels were sent and confirmed (or would be
	// sent, in a dry run).
	Levels int `json:"levels"`
	// Lines are the input's rows and what became of them.
	Lines []Line `json:"-"`
}

// Pusher pushes one file's levels, once or again and again (a schedule).
// It holds the lock of each warehouse it pushed to until Close, so that no
// other push of the account and warehouse runs meanwhile.
type Pusher struct{ *engine.Pusher[Options] }

// NewPusher checks o and fills in what was left zero.
func NewPusher(o Options) (*Pusher, error) {
	p, err := engine.NewPusher(o, "stock", wire.MaxWriteRecords)
	if err != nil {
		return nil, err
	}
	return &Pusher{p}, nil
}

// Push pushes the file once, with a pusher that is closed after.
func Push(ctx context.Context, o Options) (*Report, error) {
	p, err := NewPusher(o)
	return engine.Once(p, err, func(p *Pusher) (*Report, error) { return p.Push(ctx) })
}

// Push reads the file, finds its SKUs and warehouses, and sends the levels
// that differ from those last pushed (or from the live ones, or all), then
// writes the results file. The error is fatal, or wraps
// engine.ErrInterrupted or engine.ErrInvalid; rows that failed are in the
// report.
func (p *Pusher) Push(ctx context.Context) (*Report, error) {
	start, stats0 := time.Now(), p.Opts.Client.Stats()
	in, err := Read(ctx, p.Opts.Mapping, p.Opts.Input, p.Opts.Limits, p.Opts.Progress)
	if err != nil {
		return nil, err
	}
	pl, err := p.resolve(ctx, in.Lines)
	if err != nil {
		return nil, err
	}
	if err := p.holdAll(pl.warehouses()); err != nil {
		return nil, err
	}
	rep := &Report{Full: p.Opts.Full, Verify: p.Opts.Verify, Lines: in.Lines}
	rep.DryRun, rep.Input, rep.Sheet, rep.Results = p.Opts.DryRun, p.Opts.Input, in.Sheet, p.Opts.ResultsFile
	bad := engine.StrictStop(in.Lines, p.Opts.Strict, words)
	var fatal error
	if bad == 0 {
		fatal = p.pushAll(ctx, pl, rep)
	}
	settleRepeats(in.Lines)
	rep.Levels = levels(in.Lines)
	if rep.Rows, err = writeResults(rep.Results, in); err != nil {
		return nil, err
	}
	rep.Ended(ctx, p.Opts.Client, stats0, start)
	return rep, rep.Err(fatal, bad, words)
}

// pushAll pushes each warehouse's rows in turn.
func (p *Pusher) pushAll(ctx context.Context, pl *placed, rep *Report) error {
	for _, wh := range pl.warehouses() {
		rep.Warehouses = append(rep.Warehouses, string(wh))
		if err := p.pushWarehouse(ctx, pl.facts, wh, rep.Lines, pl.groups[wh]); err != nil {
			return err
		}
		if ctx.Err() != nil {
			notSent(rep.Lines)
			return nil
		}
	}
	return nil
}

// notSent settles the rows still pending after an interruption (but
// those repeating another row, which share its outcome) as not sent.
func notSent(lines []Line) {
	for i := range lines {
		if l := &lines[i]; l.Pending() && l.repeats == 0 {
			l.Set(engine.Skipped, words.Interrupted())
		}
	}
}

// levels counts the levels sent, or in a dry run to send: a row repeating
// another's SKU and quantity is not another level.
func levels(lines []Line) int {
	n := 0
	for i := range lines {
		if l := &lines[i]; l.repeats == 0 && (l.Action == Sent || l.Action == ToSend) {
			n++
		}
	}
	return n
}

// settleRepeats gives rows repeating an earlier row's SKU and quantity
// that row's outcome.
func settleRepeats(lines []Line) {
	for i := range lines {
		l := &lines[i]
		if l.repeats == 0 || !l.Pending() {
			continue
		}
		f := &lines[l.repeats-1]
		l.VariantID, l.Old, l.HasOld = f.VariantID, f.Old, f.HasOld
		msg := fmt.Sprintf("the same SKU and quantity as row %d", f.Row)
		if f.Msg != "" {
			msg += "; " + f.Msg
		}
		l.Set(f.Action, msg)
	}
}
