package undo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"strconv"
	"time"

	"lading/api"
	"lading/engine"
	"lading/history"
	"lading/importer"
	"lading/progress"
	"lading/state"
)

// Options configure an undo.
type Options struct {
	Client *api.Client
	// State holds the run to undo, and the undo's own run.
	State *state.DB
	// Scope separates what is remembered of different accounts.
	Scope string
	// Run is the run to take back.
	Run int64
	// DryRun reads the account and says what would be taken back, but
	// writes nothing.
	DryRun bool
	// Force sets back a value changed since the run (a conflict);
	// without it such a value is kept and reported.
	Force bool
	// Archive archives the products the run created instead of deleting
	// them.
	Archive     bool
	Concurrency int // writes in flight; 0 means 4
	// ResultsFile receives a line for each record the run wrote; ""
	// means DefaultResultsPath(Run), or none in a dry run.
	ResultsFile string
	Progress    *progress.Progress
	Logger      *slog.Logger
}

// DefaultResultsPath is the results file of an undo of run, in the
// folder lading runs in.
func DefaultResultsPath(run int64) string { return fmt.Sprintf("undo-%d.results.csv", run) }

// words are how an undo speaks of its work.
var words = engine.Words{Job: "undo", Record: "record", Again: "run the same undo again", Writes: "the catalog and its stock"}

// What an undo did, or would do, with a record of the run, beside
// engine.Deleted, engine.ToDelete, engine.Archived and engine.ToArchive.
const (
	Restored  engine.Status = "restored"
	ToRestore engine.Status = "to restore"
)

// NotUndoableError says why a run cannot be undone.
type NotUndoableError struct {
	Run int64
	Job string
	Why string
}

func (e *NotUndoableError) Error() string {
	return fmt.Sprintf("run %d (%s) cannot be undone: %s", e.Run, e.Job, e.Why)
}

// Report says what an undo did.
type Report struct {
	engine.Report
	// Undoes is the run taken back, and Job its job.
	Undoes int64  `json:"undoes"`
	Job    string `json:"job"`
	// Later are the runs after it that wrote its records again, newest
	// first: what they did to those records is taken back too.
	Later []int64 `json:"later_runs"`
	// RequestsPlanned is, in a dry run, how many writes the undo takes.
	RequestsPlanned int    `json:"requests_planned,omitempty"`
	Lines           []Line `json:"-"`
}

// Undo takes back what run o.Run wrote; see the package comment. The
// error is fatal, or wraps engine.ErrInterrupted; records it could not
// take back (conflicts, refusals) are in the report.
func Undo(ctx context.Context, o Options) (*Report, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	start, stats0 := time.Now(), o.Client.Stats()
	run, lines, err := load(ctx, o)
	if err != nil {
		return nil, err
	}
	rep := &Report{Undoes: run.ID, Job: run.Command, Lines: lines}
	rep.DryRun, rep.Input, rep.Results = o.DryRun, fmt.Sprintf("run %d", run.ID), o.ResultsFile
	if rep.Later, err = laterRuns(ctx, o.State, run.ID, lines); err != nil {
		return nil, err
	}
	fatal := carryOut(ctx, o, lines, rep)
	if rep.Rows, err = writeResults(rep.Results, rep.Input, lines); err != nil {
		return nil, err
	}
	rep.Ended(ctx, o.Client, stats0, start)
	return rep, rep.Err(fatal, 0, words)
}

// check checks o and fills in what was left zero.
func (o *Options) check() error {
	if o.Client == nil || o.State == nil || o.Run < 1 {
		return errors.New("undo: an undo needs a client, a state and a run")
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.ResultsFile == "" && !o.DryRun {
		o.ResultsFile = DefaultResultsPath(o.Run)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return nil
}

// load reads the run and what it wrote: a line for each record the
// account took, or may have (its batch got no answer).
func load(ctx context.Context, o Options) (*state.Run, []Line, error) {
	run, err := o.State.GetRun(ctx, o.Run)
	if err != nil {
		return nil, nil, &NotUndoableError{Run: o.Run, Why: "the state holds no such run"}
	}
	if err := undoable(run); err != nil {
		return nil, nil, err
	}
	changes, err := o.State.Changes(ctx, run.ID)
	if err != nil {
		return nil, nil, err
	}
	var lines []Line
	for _, c := range changes {
		if c.Written == state.WrittenNo {
			continue
		}
		for _, part := range split(c) {
			lines = append(lines, Line{Fate: engine.Fate{Row: len(lines) + 1}, Change: part})
		}
	}
	return run, lines, nil
}

// split makes a product's update its fields' line and its tags' line:
// tags are taken back on their own (planTags), in their own requests.
func split(c state.Change) []state.Change {
	tags, ok := c.After[importer.FieldTags]
	if !ok || c.Op != state.OpUpdate || len(c.After) == 1 {
		return []state.Change{c}
	}
	t := c
	t.Before, t.After = map[string]string{}, map[string]string{importer.FieldTags: tags}
	if b, ok := c.Before[importer.FieldTags]; ok {
		t.Before[importer.FieldTags] = b
	}
	c.Before, c.After = maps.Clone(c.Before), maps.Clone(c.After)
	delete(c.Before, importer.FieldTags)
	delete(c.After, importer.FieldTags)
	return []state.Change{c, t}
}

// undoable says why a run cannot be undone, or nil.
func undoable(run *state.Run) error {
	nu := &NotUndoableError{Run: run.ID, Job: run.Command}
	switch run.Command {
	case "shipments push", "slips push":
		nu.Why = "shipments and packing slips are not undone: a parcel handed to a carrier is not taken back by a file; change or delete them in the account"
	default:
		if run.Finished() {
			return nil
		}
		nu.Why = "it has not finished (it was interrupted or stopped): run it again to finish it, then undo it"
	}
	return nu
}

// laterRuns are the runs after run that wrote the records of lines again.
func laterRuns(ctx context.Context, st *state.DB, run int64, lines []Line) ([]int64, error) {
	var refs []state.RecordRef
	for _, l := range lines {
		if l.RecordID != "" {
			refs = append(refs, state.RecordRef{Resource: l.Resource, ID: l.RecordID})
		}
	}
	runs, err := st.LaterRuns(ctx, run, refs)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	return ids, nil
}

// carryOut reads the account, plans and (unless a dry run) sends the
// undo, within its own run.
func carryOut(ctx context.Context, o Options, lines []Line, rep *Report) (err error) {
	var run *state.Run
	earlier := map[state.RecordRef]state.Op{}
	if !o.DryRun {
		fp := state.KeyJob("undo", o.Scope, strconv.FormatInt(o.Run, 10))
		meta := map[string]string{"input": fmt.Sprintf("run %d", o.Run), history.MetaUndoes: strconv.FormatInt(o.Run, 10)}
		run, _, err = engine.StartRun(ctx, o.State, fp, "undo", meta, func(run *state.Run) error { return resume(ctx, o, run) })
		if err != nil {
			return err
		}
		defer func() { err = engine.EndRun(ctx, o.State, run, engine.Count(lines), err) }()
		if earlier, err = earlierTaken(ctx, o.State, run.ID); err != nil {
			return err
		}
	}
	if err := readLevels(ctx, o.Client, lines); err != nil {
		return err
	}
	cat, err := readCatalog(ctx, o.Client, lines)
	if err != nil {
		return err
	}
	plan(lines, o)
	byEarlier(lines, earlier)
	if o.DryRun {
		rep.RequestsPlanned = catalogRequests(lines) + levelRequests(lines)
		return nil
	}
	if err = sendCatalog(ctx, o, run, cat, lines); err == nil {
		err = sendLevels(ctx, o, run, lines)
	}
	if ctx.Err() != nil {
		engine.SettlePending(lines, engine.Skipped, words.Interrupted())
	}
	return err
}

// earlierTaken is what an earlier attempt of the undo's run deleted or
// archived.
func earlierTaken(ctx context.Context, st *state.DB, run int64) (map[state.RecordRef]state.Op, error) {
	changes, err := st.Changes(ctx, run)
	if err != nil {
		return nil, err
	}
	out := map[state.RecordRef]state.Op{}
	for _, c := range changes {
		if c.Written == state.WrittenYes && (c.Op == state.OpDelete || c.Op == state.OpArchive) {
			out[state.RecordRef{Resource: c.Resource, ID: c.RecordID}] = c.Op
		}
	}
	return out, nil
}

// byEarlier says of the records an earlier attempt of the undo deleted or
// archived that it did: planned again, they are gone, or archived
// already.
func byEarlier(lines []Line, earlier map[state.RecordRef]state.Op) {
	for i := range lines {
		l := &lines[i]
		op, ok := earlier[state.RecordRef{Resource: l.Resource, ID: l.RecordID}]
		switch {
		case !ok || l.Op != state.OpCreate:
		case op == state.OpDelete && l.Gone:
			l.Set(engine.Deleted, "the run created it; deleted by an earlier attempt of this undo")
		case op == state.OpArchive && l.Action == engine.Unchanged:
			l.Set(engine.Archived, "the run created it; archived by an earlier attempt of this undo")
		}
	}
}
