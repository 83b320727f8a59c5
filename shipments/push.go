package shipments

import (
	"context"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/state"
)

// Options configure a push. Its State remembers the shipments posted and
// the batches sent; its Mapping has a shipments section; BatchSize counts
// shipments (0: the most a write takes).
type Options struct {
	engine.Options
	// Location is the time zone of dates without an offset; nil is UTC.
	Location *time.Location
	// Now gives shipped_at for rows without one; nil is time.Now.
	Now func() time.Time
}

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
type Pusher struct{ *engine.Pusher[Options] }

// NewPusher checks o and fills in what was left zero.
func NewPusher(o Options) (*Pusher, error) {
	p, err := engine.NewPusher(o, "shipments", wire.MaxWriteRecords)
	if err != nil {
		return nil, err
	}
	if p.Opts.Now == nil {
		p.Opts.Now = time.Now
	}
	return &Pusher{p}, nil
}

func (p *Pusher) now() time.Time { return p.Opts.Now() }

// Push pushes the file once, with a pusher that is closed after.
func Push(ctx context.Context, o Options) (*Report, error) {
	p, err := NewPusher(o)
	return engine.Once(p, err, func(p *Pusher) (*Report, error) { return p.Push(ctx) })
}

// Push reads the file, settles the rows posted before, reads the
// fulfillments of the rest, posts the shipments that pass the checks,
// checks which fulfillments completed, sets the statuses the file gives
// and writes the results file. The error is fatal, or wraps
// engine.ErrInterrupted or engine.ErrInvalid; rows that failed are in the
// report.
func (p *Pusher) Push(ctx context.Context) (*Report, error) {
	start, stats0 := time.Now(), p.Opts.Client.Stats()
	in, err := Read(ctx, p.Opts.Mapping, p.Opts.Input, p.Opts.Limits, p.Opts.Location, p.Opts.Progress)
	if err != nil {
		return nil, err
	}
	if !p.Opts.DryRun {
		if err := p.Locks.Hold(state.KeyJob("shipments push", p.Opts.Scope), "a shipments push to this account"); err != nil {
			return nil, err
		}
	}
	rep := &Report{Lines: in.Lines, Completed: []api.ID{}, StillOpen: []api.ID{}}
	rep.DryRun, rep.Input, rep.Sheet, rep.Results = p.Opts.DryRun, p.Opts.Input, in.Sheet, p.Opts.ResultsFile
	bad, fatal := p.pushRows(ctx, in.Lines, rep)
	if rep.Rows, err = writeResults(rep.Results, in); err != nil {
		return nil, err
	}
	rep.Ended(ctx, p.Opts.Client, stats0, start)
	return rep, rep.Err(fatal, bad, words)
}

// pushRows resumes an interrupted run, then resolves, plans, sends and
// checks; bad is how many rows failed their checks in a strict push that
// sent nothing for them.
func (p *Pusher) pushRows(ctx context.Context, lines []Line, rep *Report) (bad int, err error) {
	var run *state.Run
	if !p.Opts.DryRun {
		run, _, err = engine.StartRun(ctx, p.Opts.State, state.KeyJob("shipments push", p.Opts.Scope), "shipments push",
			map[string]string{"input": p.Opts.Input}, func(run *state.Run) error { return p.sender(run, nil, nil).Resume(ctx) })
		if err != nil {
			return 0, err
		}
		defer func() { err = engine.EndRun(ctx, p.Opts.State, run, engine.Count(lines), err) }()
	}
	fx, err := p.resolve(ctx, lines)
	if err != nil {
		return 0, err
	}
	pl := planShipments(lines, fx)
	if bad = engine.StrictStop(lines, p.Opts.Strict, words); bad > 0 {
		return bad, nil
	}
	for _, w := range pl.waves {
		rep.Shipments += len(w)
	}
	if p.Opts.DryRun {
		p.dryRun(lines)
		rep.Statuses, err = p.setStatuses(ctx, pl, fx, lines)
		return 0, err
	}
	if err := p.Opts.State.PutIDs(ctx, shippedScope(p.Opts.Scope), pl.learned); err != nil {
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
