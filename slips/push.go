package slips

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"lading/api/wire"
	"lading/engine"
	"lading/plural"
	"lading/state"
)

// Options configure a push. Its State remembers the ids of the slips and
// shipments pushed, what was sent for each key, carriers, and the batches
// sent; its Mapping has a slips section; BatchSize counts records (0: the
// most a write takes).
type Options struct {
	engine.Options
	// Location is where date-times that name no offset are; nil means
	// UTC.
	Location *time.Location
}

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
type Pusher struct{ *engine.Pusher[Options] }

// NewPusher checks o and fills in what was left zero.
func NewPusher(o Options) (*Pusher, error) {
	p, err := engine.NewPusher(o, "slips", wire.MaxWriteRecords)
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

// Push reads the file, creates the slips and shipments the account does
// not hold and changes those whose fields differ from what was last
// sent, then writes the results file. The error is fatal, or wraps
// engine.ErrInterrupted or engine.ErrInvalid; rows that failed are in the
// report.
func (p *Pusher) Push(ctx context.Context) (*Report, error) {
	start, stats0 := time.Now(), p.Opts.Client.Stats()
	in, err := Read(ctx, p.Opts.Mapping, p.Opts.Input, p.Opts.Limits, p.Opts.Location, p.Opts.Progress)
	if err != nil {
		return nil, err
	}
	slips := group(in.Lines)
	rep := &Report{Lines: in.Lines}
	rep.DryRun, rep.Input, rep.Sheet, rep.Results = p.Opts.DryRun, p.Opts.Input, in.Sheet, p.Opts.ResultsFile
	bad := engine.StrictStop(in.Lines, p.Opts.Strict, words)
	var (
		fatal   error
		refused bool
	)
	if bad == 0 && len(slips) > 0 {
		refused, fatal = p.pushSlips(ctx, slips, in.Lines)
	}
	settleRows(slips, in.Lines, p.Opts.DryRun)
	if ctx.Err() != nil {
		engine.SettlePending(in.Lines, engine.Skipped, words.Interrupted())
	}
	rep.Slips, rep.Packages = entityCounts(slips)
	if rep.Rows, err = writeResults(rep.Results, in); err != nil {
		return nil, err
	}
	rep.Ended(ctx, p.Opts.Client, stats0, start)
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
	if !p.Opts.Strict || n == 0 {
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
	if !p.Opts.DryRun {
		if err := p.Locks.Hold(state.KeyJob("slips push", p.Opts.Scope), "a packing slips push to this account"); err != nil {
			return false, err
		}
		run, _, err = engine.StartRun(ctx, p.Opts.State, runFingerprint(p.Opts.Scope), "slips push",
			map[string]string{"input": p.Opts.Input}, func(run *state.Run) error { return p.resume(ctx, run) })
		if err != nil {
			return false, err
		}
		defer func() { err = engine.EndRun(ctx, p.Opts.State, run, engine.Count(lines), err) }()
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
	if refused = p.strictRefused(slips); refused || p.Opts.DryRun {
		return refused, nil
	}
	if err := p.sendSlips(ctx, run, slips); err != nil || ctx.Err() != nil {
		return false, err
	}
	return false, p.sendPackages(ctx, run, slips)
}
