package stock

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/mapping"
	"lading/plural"
	"lading/progress"
	"lading/source"
	"lading/state"
)

// Options configure a push.
type Options struct {
	Client *api.Client
	// State remembers SKU ids, warehouses, the levels pushed and the
	// batches sent; required, dry runs included (they read it).
	State *state.DB
	// Scope separates what is remembered of different accounts (base URL
	// and a hash of the token).
	Scope string

	// Mapping has a stock section.
	Mapping *mapping.Mapping
	Input   string
	Limits  source.Limits

	// Warehouse is the id of the warehouse rows without one go to; ""
	// means the access token's.
	Warehouse string
	// Full sends every row's level, changed or not.
	Full bool
	// Verify compares the file with the live levels (one read of the
	// whole Variants listing) rather than with the levels last pushed.
	Verify bool
	// Strict sends nothing if any row is invalid or unknown.
	Strict bool
	// DryRun reads and plans but sends no write.
	DryRun bool

	BatchSize   int // levels per write, 1 to wire.MaxWriteRecords; 0 means the most
	Concurrency int // writes in flight; 0 means 4
	// ResultsFile receives one line per input row (.csv or .xlsx); ""
	// means DefaultResultsPath(Input), or none in a dry run.
	ResultsFile string

	Progress *progress.Progress
	Logger   *slog.Logger
}

// DefaultResultsPath is the results file next to the input.
func DefaultResultsPath(input string) string { return input + ".results.csv" }

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
type Pusher struct {
	o     Options
	log   *slog.Logger
	locks engine.Locks
}

// NewPusher checks o and fills in what was left zero.
func NewPusher(o Options) (*Pusher, error) {
	switch {
	case o.Client == nil || o.State == nil || o.Mapping == nil:
		return nil, errors.New("stock: a push needs a client, a state and a mapping")
	case o.BatchSize == 0:
		o.BatchSize = wire.MaxWriteRecords
	case o.BatchSize < 1 || o.BatchSize > wire.MaxWriteRecords:
		return nil, fmt.Errorf("batch size %d: want 1 to %d levels per request", o.BatchSize, wire.MaxWriteRecords)
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.ResultsFile == "" && !o.DryRun {
		o.ResultsFile = DefaultResultsPath(o.Input)
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Pusher{o: o, log: log, locks: engine.Locks{State: o.State}}, nil
}

// Close lets go of the warehouses' locks.
func (p *Pusher) Close() { p.locks.Close() }

// Push pushes the levels once, with a pusher that is closed after.
func Push(ctx context.Context, o Options) (*Report, error) {
	p, err := NewPusher(o)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.Push(ctx)
}

// Push reads the file, finds its SKUs and warehouses, and sends the levels
// that differ from those last pushed (or from the live ones, or all), then
// writes the results file. The error is fatal, or wraps
// engine.ErrInterrupted or engine.ErrInvalid; rows that failed are in the
// report.
func (p *Pusher) Push(ctx context.Context) (*Report, error) {
	start, stats0 := time.Now(), p.o.Client.Stats()
	in, err := Read(ctx, p.o.Mapping, p.o.Input, p.o.Limits, p.o.Progress)
	if err != nil {
		return nil, err
	}
	p.o.Progress.Say("read %s of %s", plural.Count(len(in.Lines), "row"), in.File)
	pl, err := p.resolve(ctx, in.Lines)
	if err != nil {
		return nil, err
	}
	if err := p.holdAll(pl.warehouses()); err != nil {
		return nil, err
	}
	rep := &Report{Full: p.o.Full, Verify: p.o.Verify, Lines: in.Lines}
	rep.DryRun, rep.Input, rep.Sheet, rep.Results = p.o.DryRun, p.o.Input, in.Sheet, p.o.ResultsFile
	bad := engine.StrictStop(in.Lines, p.o.Strict, words)
	var fatal error
	if bad == 0 {
		fatal = p.pushAll(ctx, pl, rep)
	}
	settleRepeats(in.Lines)
	rep.Levels = levels(in.Lines)
	if rep.Rows, err = writeResults(rep.Results, in); err != nil {
		return nil, err
	}
	rep.Ended(ctx, p.o.Client, stats0, start)
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
		if l := &lines[i]; l.Pending() && l.first < 0 {
			l.Set(engine.Skipped, words.Interrupted())
		}
	}
}

// levels counts the levels sent, or in a dry run to send: a row repeating
// another's SKU and quantity is not another level.
func levels(lines []Line) int {
	n := 0
	for i := range lines {
		if l := &lines[i]; l.first < 0 && (l.Action == Sent || l.Action == ToSend) {
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
		if l.first < 0 || !l.Pending() {
			continue
		}
		f := &lines[l.first]
		l.VariantID, l.Old, l.HasOld = f.VariantID, f.Old, f.HasOld
		msg := fmt.Sprintf("the same SKU and quantity as row %d", f.Row)
		if f.Msg != "" {
			msg += "; " + f.Msg
		}
		l.Set(f.Action, msg)
	}
}
