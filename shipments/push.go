package shipments

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
	// State remembers the shipments posted and the batches sent;
	// required, dry runs included (they read it).
	State *state.DB
	// Scope separates what is remembered of different accounts.
	Scope string

	// Mapping has a shipments section.
	Mapping *mapping.Mapping
	Input   string
	Limits  source.Limits
	// Location is the time zone of dates without an offset; nil is UTC.
	Location *time.Location
	// DryRun reads, checks and plans but posts nothing.
	DryRun bool
	// Strict sends nothing if any row fails its checks.
	Strict      bool
	BatchSize   int // shipments per write, 1 to wire.MaxWriteRecords; 0 means the most
	Concurrency int // writes in flight; 0 means 4
	// ResultsFile receives one line per input row (.csv or .xlsx); ""
	// means DefaultResultsPath(Input), or none in a dry run.
	ResultsFile string
	// Now gives shipped_at for rows without one; nil is time.Now.
	Now func() time.Time

	Progress *progress.Progress
	Logger   *slog.Logger
}

// DefaultResultsPath is the results file next to the input.
func DefaultResultsPath(input string) string { return input + ".results.csv" }

// words are how a shipments push speaks of its work.
var words = engine.Words{Job: "push", Record: "shipment", Again: "push again", Writes: "shipments"}

// Report says what a push did.
type Report struct {
	engine.Report
	// Shipments is how many shipments were posted (or would be, in a dry
	// run).
	Shipments int `json:"shipments"`
	// Completed are the fulfillments this push shipped in full, checked to
	// have left the open list; StillOpen those the service still lists.
	Completed []api.ID `json:"completed"`
	StillOpen []api.ID `json:"still_open"`
	// Statuses is how many fulfillment statuses were set.
	Statuses int    `json:"statuses"`
	Lines    []Line `json:"-"`
}

// Pusher pushes one file's shipments, once or on a schedule. It holds the
// account's shipments lock until Close, so that no other push of the
// account posts meanwhile.
type Pusher struct {
	o     Options
	log   *slog.Logger
	locks engine.Locks
}

// NewPusher checks o and fills in what was left zero.
func NewPusher(o Options) (*Pusher, error) {
	switch {
	case o.Client == nil || o.State == nil || o.Mapping == nil:
		return nil, errors.New("shipments: a push needs a client, a state and a mapping")
	case o.BatchSize == 0:
		o.BatchSize = wire.MaxWriteRecords
	case o.BatchSize < 1 || o.BatchSize > wire.MaxWriteRecords:
		return nil, fmt.Errorf("batch size %d: want 1 to %d shipments per request", o.BatchSize, wire.MaxWriteRecords)
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.ResultsFile == "" && !o.DryRun {
		o.ResultsFile = DefaultResultsPath(o.Input)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Pusher{o: o, log: log, locks: engine.Locks{State: o.State}}, nil
}

// Close lets go of the lock.
func (p *Pusher) Close() { p.locks.Close() }

func (p *Pusher) now() time.Time { return p.o.Now() }

// Push pushes the file once, with a pusher that is closed after.
func Push(ctx context.Context, o Options) (*Report, error) {
	p, err := NewPusher(o)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.Push(ctx)
}

// Push reads the file, settles the rows posted before, reads the
// fulfillments of the rest, posts the shipments that pass the checks,
// checks which fulfillments completed, sets the statuses the file gives
// and writes the results file. The error is fatal, or wraps
// engine.ErrInterrupted or engine.ErrInvalid; rows that failed are in the
// report.
func (p *Pusher) Push(ctx context.Context) (*Report, error) {
	start, stats0 := time.Now(), p.o.Client.Stats()
	in, err := Read(ctx, p.o.Mapping, p.o.Input, p.o.Limits, p.o.Location, p.o.Progress)
	if err != nil {
		return nil, err
	}
	p.o.Progress.Say("read %s of %s", plural.Count(len(in.Lines), "row"), in.File)
	if !p.o.DryRun {
		if err := p.locks.Hold(state.KeyJob("shipments push", p.o.Scope), "a shipments push to this account"); err != nil {
			return nil, err
		}
	}
	rep := &Report{Lines: in.Lines, Completed: []api.ID{}, StillOpen: []api.ID{}}
	rep.DryRun, rep.Input, rep.Sheet, rep.Results = p.o.DryRun, p.o.Input, in.Sheet, p.o.ResultsFile
	bad, fatal := p.pushRows(ctx, in.Lines, rep)
	if rep.Rows, err = writeResults(rep.Results, in); err != nil {
		return nil, err
	}
	rep.Ended(ctx, p.o.Client, stats0, start)
	return rep, rep.Err(fatal, bad, words)
}

// pushRows resumes an interrupted run, then resolves, plans, sends and
// checks; bad is how many rows failed their checks in a strict push that
// sent nothing for them.
func (p *Pusher) pushRows(ctx context.Context, lines []Line, rep *Report) (bad int, err error) {
	var run *state.Run
	if !p.o.DryRun {
		run, _, err = engine.StartRun(ctx, p.o.State, state.KeyJob("shipments push", p.o.Scope), "shipments push",
			map[string]string{"input": p.o.Input}, func(run *state.Run) error { return p.sender(run, nil, nil).Resume(ctx) })
		if err != nil {
			return 0, err
		}
		defer func() { err = engine.EndRun(ctx, p.o.State, run, engine.Count(lines), err) }()
	}
	fx, err := p.resolve(ctx, lines)
	if err != nil {
		return 0, err
	}
	pl := planShipments(lines, fx)
	if bad = engine.StrictStop(lines, p.o.Strict, words); bad > 0 {
		return bad, nil
	}
	for _, w := range pl.waves {
		rep.Shipments += len(w)
	}
	if p.o.DryRun {
		p.dryRun(lines)
		rep.Statuses, err = p.setStatuses(ctx, pl, fx, lines)
		return 0, err
	}
	if err := p.o.State.PutIDs(ctx, shippedScope(p.o.Scope), pl.learned); err != nil {
		return 0, err
	}
	if err := p.send(ctx, run, pl, lines, rep); err != nil || ctx.Err() != nil {
		return 0, err
	}
	if rep.Completed, rep.StillOpen, err = p.completed(ctx, pl, fx); err != nil {
		return 0, err
	}
	rep.Statuses, err = p.setStatuses(ctx, pl, fx, lines)
	return 0, err
}

// send posts the plan, wave after wave, and counts the shipments posted.
func (p *Pusher) send(ctx context.Context, run *state.Run, pl *plan, lines []Line, rep *Report) error {
	s := p.sender(run, pl, lines)
	var err error
	for _, wave := range pl.waves {
		if err = s.Send(ctx, wave); err != nil || ctx.Err() != nil {
			break
		}
	}
	if ctx.Err() != nil {
		engine.SettlePending(lines, engine.Skipped, words.Interrupted())
	} else if err != nil {
		engine.SettlePending(lines, engine.Skipped, words.Stopped())
	}
	rep.Shipments = 0
	seen := map[string]bool{}
	for i := range lines {
		l := &lines[i]
		if k := string(l.Fulfillment) + "\x00" + l.Tracking; l.Action == Posted && !seen[k] {
			seen[k] = true
			rep.Shipments++
		}
	}
	return err
}

// dryRun settles the rows a push would post.
func (p *Pusher) dryRun(lines []Line) {
	for i := range lines {
		if l := &lines[i]; l.Valid && l.Pending() {
			l.Set(ToPost, "")
		}
	}
}
