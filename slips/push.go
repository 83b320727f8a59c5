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

// ErrInterrupted is returned (wrapped) when the context was cancelled: the
// writes in flight were finished and recorded.
var ErrInterrupted = errors.New("slips push interrupted")

// ErrInvalid is returned (wrapped) by a strict push that sent nothing
// because some rows are invalid.
var ErrInvalid = errors.New("invalid rows")

// Report says what a push did.
type Report struct {
	DryRun bool   `json:"dry_run"`
	Input  string `json:"input"`
	// Sheet is the workbook's sheet read; "" for a CSV file.
	Sheet   string `json:"sheet,omitempty"`
	Results string `json:"results_file,omitempty"`
	Rows    Counts `json:"rows"`
	// Slips and Packages count the records by what became of them.
	Slips    Counts `json:"slips"`
	Packages Counts `json:"packages"`
	api.Traffic
	Elapsed     time.Duration `json:"elapsed_ns"`
	Interrupted bool          `json:"interrupted"`
	// Lines are the input's rows and what became of them.
	Lines []Line `json:"-"`
}

// Failed is the number of rows that failed: invalid or refused.
func (r *Report) Failed() int {
	n := 0
	for a, c := range r.Rows {
		if a.failed() {
			n += c
		}
	}
	return n
}

// Pusher pushes one file's slips.
type Pusher struct {
	o   Options
	log *slog.Logger
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
	return &Pusher{o: o, log: log}, nil
}

// Push pushes the file once.
func Push(ctx context.Context, o Options) (*Report, error) {
	p, err := NewPusher(o)
	if err != nil {
		return nil, err
	}
	return p.Push(ctx)
}

// Push reads the file, creates the slips and shipments the state knows
// nothing of and changes those whose fields differ from what was last
// sent, then writes the results file. The error is fatal, or wraps
// ErrInterrupted or ErrInvalid; rows that failed are in the report.
func (p *Pusher) Push(ctx context.Context) (*Report, error) {
	start, stats0 := time.Now(), p.o.Client.Stats()
	in, err := Read(ctx, p.o.Mapping, p.o.Input, p.o.Limits, p.o.Timezone, p.o.Progress)
	if err != nil {
		return nil, err
	}
	p.o.Progress.Say("read %s of %s", plural.Count(len(in.Lines), "row"), in.File)
	slips := group(in.Lines)
	rep := &Report{DryRun: p.o.DryRun, Input: p.o.Input, Sheet: in.Sheet, Lines: in.Lines}
	bad := p.strictStop(in.Lines)
	var fatal error
	if bad == 0 && len(slips) > 0 {
		fatal = p.pushSlips(ctx, slips, in.Lines)
	}
	settleRows(slips, in.Lines, p.o.DryRun)
	if ctx.Err() != nil {
		notSent(in.Lines)
	}
	rep.Slips, rep.Packages = entityCounts(slips)
	rep.Results = p.o.ResultsFile
	if rep.Rows, err = writeResults(rep.Results, in); err != nil {
		return nil, err
	}
	rep.Traffic = p.o.Client.TrafficSince(stats0)
	rep.Elapsed, rep.Interrupted = time.Since(start), ctx.Err() != nil
	switch {
	case fatal != nil:
		return rep, fatal
	case rep.Interrupted:
		return rep, fmt.Errorf("%w: the writes in flight were finished and recorded; push again to send the rest", ErrInterrupted)
	case bad > 0:
		return rep, fmt.Errorf("%w: %d rows are invalid and nothing was sent (strict push); see %s", ErrInvalid, bad, rep.Results)
	}
	return rep, nil
}

// strictStop, in a strict push with failed rows, settles every other row
// as not sent and returns how many failed; otherwise 0.
func (p *Pusher) strictStop(lines []Line) int {
	if !p.o.Strict {
		return 0
	}
	bad := 0
	for i := range lines {
		if lines[i].Action.failed() {
			bad++
		}
	}
	if bad == 0 {
		return 0
	}
	for i := range lines {
		if l := &lines[i]; l.pending() {
			l.set(Skipped, fmt.Sprintf("not sent: %d rows of the file are invalid and this push is strict (all or nothing); fix them and push again", bad))
		}
	}
	return bad
}

// strictRefused, in a strict push some slips of which the account
// refused, settles the others as not sent and says so.
func (p *Pusher) strictRefused(slips []*slip) error {
	n := 0
	for _, s := range slips {
		if s.action == Refused {
			n++
		}
	}
	if !p.o.Strict || n == 0 {
		return nil
	}
	msg := fmt.Sprintf("not sent: %d slips do not fit their orders in the account and this push is strict (all or nothing); fix them and push again", n)
	for _, s := range slips {
		if !s.action.failed() {
			s.action, s.msg = Skipped, msg
		}
		for _, k := range s.packages {
			if !k.action.failed() {
				k.action, k.msg = Skipped, msg
			}
		}
	}
	return fmt.Errorf("%w: %d slips do not fit their orders and nothing was sent (strict push)", ErrInvalid, n)
}

// runFingerprint names the runs of slip pushes to an account: one at a
// time, under the account's lock, and the next push resumes one that was
// killed, to look for what its writes without an answer made.
func runFingerprint(scope string) string {
	sum := sha256.Sum256([]byte(state.KeyJob("slips push", scope)))
	return hex.EncodeToString(sum[:])
}

// pushSlips resolves, plans and sends the slips, then their shipments.
func (p *Pusher) pushSlips(ctx context.Context, slips []*slip, lines []Line) (err error) {
	var run *state.Run
	if !p.o.DryRun {
		lock, err := p.o.State.Hold(state.KeyJob("slips push", p.o.Scope), "a packing slips push to this account")
		if err != nil {
			return err
		}
		defer lock.Release()
		if run, err = p.startRun(ctx); err != nil {
			return err
		}
		defer func() { err = p.endRun(ctx, run, slips, err) }()
	}
	if err := p.remembered(ctx, slips); err != nil {
		return err
	}
	for _, s := range slips {
		plan(&s.entity, s.want())
	}
	cr := &carriers{p: p}
	if err := cr.resolve(ctx, slips); err != nil {
		return err
	}
	for _, s := range slips {
		for _, k := range s.packages {
			plan(&k.entity, k.want(k.carrierID))
		}
	}
	if err := p.inAccount(ctx, slips, lines); err != nil {
		return err
	}
	if err := p.strictRefused(slips); err != nil || p.o.DryRun {
		return err
	}
	s := &sender{p: p, run: run, lines: lines}
	if err := s.sendSlips(ctx, slips); err != nil || ctx.Err() != nil {
		return err
	}
	return s.sendPackages(ctx, slips)
}

// startRun starts the run of this push, or resumes the one a killed push
// left, first looking for what its writes without an answer made.
func (p *Pusher) startRun(ctx context.Context) (*state.Run, error) {
	run, resumed, err := p.o.State.StartRun(ctx, runFingerprint(p.o.Scope), "slips push", map[string]string{"input": p.o.Input})
	if err != nil {
		return nil, err
	}
	if resumed {
		p.log.Info("an earlier slips push stopped before it finished; looking in the account for what it sent without an answer", "run", run.ID)
		if err := p.settleEarlier(ctx, run); err != nil {
			p.o.State.LeaveRun(run.ID)
			return nil, err
		}
	}
	return run, nil
}

// endRun finishes the run, unless the push was interrupted (the next one
// resumes it) or failed.
func (p *Pusher) endRun(ctx context.Context, run *state.Run, slips []*slip, err error) error {
	if err != nil || ctx.Err() != nil {
		p.o.State.LeaveRun(run.ID)
		return err
	}
	status := state.StatusDone
	for _, s := range slips {
		if s.action == Failed {
			status = "partial"
		}
	}
	return p.o.State.FinishRun(context.WithoutCancel(ctx), run.ID, status)
}
