package slips

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	// State remembers the ids of the slips and shipments pushed, what was
	// sent for each key, carriers, and the batches sent; required, dry
	// runs included (they read it).
	State *state.DB
	// Scope separates what is remembered of different accounts (base URL
	// and a hash of the token).
	Scope string

	// Mapping has a slips section.
	Mapping *mapping.Mapping
	Input   string
	Limits  source.Limits
	// Timezone is where date-times that name no offset are; nil means UTC.
	Timezone *time.Location

	// Strict sends nothing if any row is invalid.
	Strict bool
	// DryRun reads and plans but sends no write.
	DryRun bool

	BatchSize   int // records per write, 1 to wire.MaxWriteRecords; 0 means the most
	Concurrency int // writes in flight; 0 means 4
	// ResultsFile receives one line per input row (.csv or .xlsx); ""
	// means DefaultResultsPath(Input), or none in a dry run.
	ResultsFile string

	Progress *progress.Progress
	Logger   *slog.Logger
}

// DefaultResultsPath is the results file next to the input.
func DefaultResultsPath(input string) string { return input + ".results.csv" }

// words are how a slips push speaks of its work.
var words = engine.Words{Job: "push", Record: "record", Again: "push again", Writes: "packing slips"}

// Report says what a push did.
type Report struct {
	engine.Report
	// Slips and Packages count the records by what became of them.
	Slips    engine.Counts `json:"slips"`
	Packages engine.Counts `json:"packages"`
	// Lines are the input's rows and what became of them.
	Lines []Line `json:"-"`
}

// Pusher pushes one file's slips, once or on a schedule. It holds the
// account's slips lock until Close, so that no other push of the account
// sends slips meanwhile.
type Pusher struct {
	o     Options
	log   *slog.Logger
	locks engine.Locks
}

// NewPusher checks o and fills in what was left zero.
func NewPusher(o Options) (*Pusher, error) {
	switch {
	case o.Client == nil || o.State == nil || o.Mapping == nil:
		return nil, errors.New("slips: a push needs a client, a state and a mapping")
	case o.BatchSize == 0:
		o.BatchSize = wire.MaxWriteRecords
	case o.BatchSize < 1 || o.BatchSize > wire.MaxWriteRecords:
		return nil, fmt.Errorf("batch size %d: want 1 to %d records per request", o.BatchSize, wire.MaxWriteRecords)
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

// Close lets go of the lock.
func (p *Pusher) Close() { p.locks.Close() }

// Push pushes the file once, with a pusher that is closed after.
func Push(ctx context.Context, o Options) (*Report, error) {
	p, err := NewPusher(o)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.Push(ctx)
}

// Push reads the file, creates the slips and shipments the account does
// not hold and changes those whose fields differ from what was last
// sent, then writes the results file. The error is fatal, or wraps
// engine.ErrInterrupted or engine.ErrInvalid; rows that failed are in the
// report.
func (p *Pusher) Push(ctx context.Context) (*Report, error) {
	start, stats0 := time.Now(), p.o.Client.Stats()
	in, err := Read(ctx, p.o.Mapping, p.o.Input, p.o.Limits, p.o.Timezone, p.o.Progress)
	if err != nil {
		return nil, err
	}
	p.o.Progress.Say("read %s of %s", plural.Count(len(in.Lines), "row"), in.File)
	slips := group(in.Lines)
	rep := &Report{Lines: in.Lines}
	rep.DryRun, rep.Input, rep.Sheet, rep.Results = p.o.DryRun, p.o.Input, in.Sheet, p.o.ResultsFile
	bad := engine.StrictStop(in.Lines, p.o.Strict, words)
	var (
		fatal   error
		refused bool
	)
	if bad == 0 && len(slips) > 0 {
		refused, fatal = p.pushSlips(ctx, slips, in.Lines)
	}
	settleRows(slips, in.Lines, p.o.DryRun)
	if ctx.Err() != nil {
		engine.SettlePending(in.Lines, engine.Skipped, words.Interrupted())
	}
	rep.Slips, rep.Packages = entityCounts(slips)
	if rep.Rows, err = writeResults(rep.Results, in); err != nil {
		return nil, err
	}
	rep.Ended(ctx, p.o.Client, stats0, start)
	if refused {
		bad = rep.Failed()
	}
	return rep, rep.Err(fatal, bad, words)
}

// strictRefused, in a strict push some slips of which the account
// refused, settles the others as not sent and reports true.
func (p *Pusher) strictRefused(slips []*slip) bool {
	n := 0
	for _, s := range slips {
		if s.action == engine.Refused {
			n++
		}
	}
	if !p.o.Strict || n == 0 {
		return false
	}
	msg := fmt.Sprintf("not sent: %s %s not fit %s orders in the account and this push is strict (all or nothing); fix %s and push again",
		plural.Count(n, "slip"), plural.Word(n, "does", "do"), plural.Word(n, "its", "their"), plural.Word(n, "it", "them"))
	for _, s := range slips {
		if !s.action.Failed() {
			s.action, s.msg = engine.Skipped, msg
		}
		for _, k := range s.packages {
			if !k.action.Failed() {
				k.action, k.msg = engine.Skipped, msg
			}
		}
	}
	return true
}

// runFingerprint names the runs of slip pushes to an account: one at a
// time, under the account's lock, and the next push resumes one that was
// killed, to look for what its writes without an answer made.
func runFingerprint(scope string) string {
	sum := sha256.Sum256([]byte(state.KeyJob("slips push", scope)))
	return hex.EncodeToString(sum[:])
}

// pushSlips resolves, plans and sends the slips, then their shipments;
// refused reports a strict push that sent nothing because the account
// refused some slips.
func (p *Pusher) pushSlips(ctx context.Context, slips []*slip, lines []Line) (refused bool, err error) {
	var run *state.Run
	if !p.o.DryRun {
		if err := p.locks.Hold(state.KeyJob("slips push", p.o.Scope), "a packing slips push to this account"); err != nil {
			return false, err
		}
		run, _, err = engine.StartRun(ctx, p.o.State, runFingerprint(p.o.Scope), "slips push",
			map[string]string{"input": p.o.Input}, func(run *state.Run) error { return p.resume(ctx, run) })
		if err != nil {
			return false, err
		}
		defer func() { err = engine.EndRun(ctx, p.o.State, run, engine.Count(lines), err) }()
	}
	if err := p.remembered(ctx, slips); err != nil {
		return false, err
	}
	for _, s := range slips {
		plan(&s.entity, s.want())
	}
	cr := &carriers{p: p}
	if err := cr.resolve(ctx, slips); err != nil {
		return false, err
	}
	for _, s := range slips {
		for _, k := range s.packages {
			plan(&k.entity, k.want(k.carrierID))
		}
	}
	if err := p.inAccount(ctx, slips, lines); err != nil {
		return false, err
	}
	if refused = p.strictRefused(slips); refused || p.o.DryRun {
		return refused, nil
	}
	if err := p.sendSlips(ctx, run, slips); err != nil || ctx.Err() != nil {
		return false, err
	}
	return false, p.sendPackages(ctx, run, slips)
}
