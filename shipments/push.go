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
	DryRun      bool
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

// ErrInterrupted is returned (wrapped) when the context was cancelled: the
// writes in flight were finished and recorded.
var ErrInterrupted = errors.New("shipments push interrupted")

// Report says what a push did.
type Report struct {
	DryRun bool   `json:"dry_run"`
	Input  string `json:"input"`
	// Sheet is the workbook's sheet read; "" for a CSV file.
	Sheet   string `json:"sheet,omitempty"`
	Results string `json:"results_file,omitempty"`
	Rows    Counts `json:"rows"`
	// Shipments is how many shipments were posted (or would be, in a dry
	// run).
	Shipments int `json:"shipments"`
	// Completed are the fulfillments this push shipped in full, checked to
	// have left the open list; StillOpen those the service still lists.
	Completed []api.ID `json:"completed"`
	StillOpen []api.ID `json:"still_open"`
	// Statuses is how many fulfillment statuses were set.
	Statuses int `json:"statuses"`
	api.Traffic
	Elapsed     time.Duration `json:"elapsed_ns"`
	Interrupted bool          `json:"interrupted"`
	Lines       []Line        `json:"-"`
}

// Failed is the number of rows that failed: refused, invalid or not
// posted.
func (r *Report) Failed() int {
	n := 0
	for a, c := range r.Rows {
		if a.failed() {
			n += c
		}
	}
	return n
}

// Pusher pushes one file's shipments, once or on a schedule. It holds the
// account's shipments lock until Close, so that no other push of the
// account posts meanwhile.
type Pusher struct {
	o    Options
	log  *slog.Logger
	lock *state.Lock
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
	return &Pusher{o: o, log: log}, nil
}

// Close lets go of the lock.
func (p *Pusher) Close() { p.lock.Release(); p.lock = nil }

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
// ErrInterrupted; rows that failed are in the report.
func (p *Pusher) Push(ctx context.Context) (*Report, error) {
	start, stats0 := time.Now(), p.o.Client.Stats()
	in, err := Read(ctx, p.o.Mapping, p.o.Input, p.o.Limits, p.o.Location, p.o.Progress)
	if err != nil {
		return nil, err
	}
	p.o.Progress.Say("read %s of %s", plural.Count(len(in.Lines), "row"), in.File)
	if err := p.hold(); err != nil {
		return nil, err
	}
	rep := &Report{DryRun: p.o.DryRun, Input: p.o.Input, Sheet: in.Sheet, Lines: in.Lines, Results: p.o.ResultsFile,
		Completed: []api.ID{}, StillOpen: []api.ID{}}
	fatal := p.pushRows(ctx, in.Lines, rep)
	if rep.Rows, err = writeResults(rep.Results, in); err != nil {
		return nil, err
	}
	rep.Traffic = p.o.Client.TrafficSince(stats0)
	rep.Elapsed, rep.Interrupted = time.Since(start), ctx.Err() != nil
	switch {
	case fatal != nil:
		return rep, fatal
	case rep.Interrupted:
		return rep, fmt.Errorf("%w: the shipments in flight were finished and recorded; push again to send the rest", ErrInterrupted)
	}
	return rep, nil
}

// hold takes the account's shipments lock (not in a dry run).
func (p *Pusher) hold() error {
	if p.o.DryRun || p.lock != nil {
		return nil
	}
	l, err := p.o.State.Hold(state.KeyJob("shipments push", p.o.Scope), "a shipments push to this account")
	if err != nil {
		return err
	}
	p.lock = l
	return nil
}

// pushRows resumes an interrupted run, then resolves, plans, sends and
// checks.
func (p *Pusher) pushRows(ctx context.Context, lines []Line, rep *Report) error {
	var run *state.Run
	if !p.o.DryRun {
		var resumed bool
		var err error
		run, resumed, err = p.o.State.StartRun(ctx, state.KeyJob("shipments push", p.o.Scope), "shipments push", map[string]string{"input": p.o.Input})
		if err != nil {
			return err
		}
		defer p.o.State.LeaveRun(run.ID)
		if resumed {
			if err := p.resume(ctx, run); err != nil {
				return err
			}
		}
	}
	fx, err := p.resolve(ctx, lines)
	if err != nil {
		return err
	}
	pl := planShipments(lines, fx)
	for _, w := range pl.waves {
		rep.Shipments += len(w)
	}
	if !p.o.DryRun {
		if err := p.o.State.PutIDs(ctx, shippedScope(p.o.Scope), pl.learned); err != nil {
			return err
		}
	}
	if p.o.DryRun {
		p.dryRun(lines)
		rep.Statuses, err = p.setStatuses(ctx, pl, fx, lines)
		return err
	}
	if err := p.send(ctx, run, pl, lines, rep); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return nil
	}
	if rep.Completed, rep.StillOpen, err = p.completed(ctx, pl, fx); err != nil {
		return err
	}
	rep.Statuses, err = p.setStatuses(ctx, pl, fx, lines)
	if err != nil {
		return err
	}
	return p.o.State.FinishRun(context.WithoutCancel(ctx), run.ID, "done")
}

// send posts the plan and counts the shipments posted.
func (p *Pusher) send(ctx context.Context, run *state.Run, pl *plan, lines []Line, rep *Report) error {
	s := &sender{p: p, run: run, pl: pl, ls: lines}
	err := s.sendAll(ctx)
	rep.Shipments = 0
	seen := map[string]bool{}
	for i := range lines {
		l := &lines[i]
		if k := string(l.Fulfillment) + "\x00" + l.Tracking; l.Action == Posted && !seen[k] {
			seen[k] = true
			rep.Shipments++
		}
		if l.pending() && ctx.Err() != nil {
			l.set(Failed, "not sent: the push was interrupted; push again to send it")
		}
	}
	return err
}

// dryRun settles the rows a push would post.
func (p *Pusher) dryRun(lines []Line) {
	for i := range lines {
		if l := &lines[i]; l.Valid && l.pending() {
			l.set(ToPost, "")
		}
	}
}
