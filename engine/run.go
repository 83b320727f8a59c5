package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"lading/plural"

	"lading/api"
	"lading/state"
)

// ErrInterrupted is returned (wrapped) when the run's context was
// cancelled: the writes in flight were finished and recorded, and the
// next run continues.
var ErrInterrupted = errors.New("interrupted")

// ErrInvalid is returned (wrapped) by a strict run that sent nothing
// because some rows failed their checks.
var ErrInvalid = errors.New("invalid rows")

// Report is what every run reports; jobs embed it in their own.
type Report struct {
	RunID   int64  `json:"run_id,omitempty"`
	Resumed bool   `json:"resumed,omitempty"`
	DryRun  bool   `json:"dry_run"`
	Input   string `json:"input"`
	// Sheet is the workbook's sheet read; "" for a CSV file.
	Sheet   string `json:"sheet,omitempty"`
	Results string `json:"results_file,omitempty"`
	Rows    Counts `json:"rows"`
	api.Traffic
	Elapsed     time.Duration `json:"elapsed_ns"`
	Interrupted bool          `json:"interrupted"`
}

// Failed is how many rows failed.
func (r *Report) Failed() int { return r.Rows.Failed() }

// Base is the engine's part of a job's report (which embeds it).
func (r *Report) Base() *Report { return r }

// Ended fills in how the run ended: its traffic since stats0, its time
// since start, and whether ctx was cancelled.
func (r *Report) Ended(ctx context.Context, c *api.Client, stats0 api.Stats, start time.Time) {
	r.Traffic = c.TrafficSince(stats0)
	r.Elapsed, r.Interrupted = time.Since(start), ctx.Err() != nil
}

// Err is how the run ended, as an error: fatal when it is not nil, else
// an interruption (ErrInterrupted), a strict run that sent nothing for
// its strict invalid rows (ErrInvalid), or nil (the rows tell the rest).
func (r *Report) Err(fatal error, strict int, w Words) error {
	switch {
	case fatal != nil:
		return fatal
	case r.Interrupted:
		return fmt.Errorf("%w: the writes in flight were finished and recorded; %s to send the rest", ErrInterrupted, w.Again)
	case strict > 0:
		return fmt.Errorf("%w: %s cannot be sent as %s, so nothing was sent (strict %s); see %s",
			ErrInvalid, plural.Count(strict, "row"), plural.Word(strict, "it is", "they are"), w.Job, r.Results)
	}
	return nil
}

// StrictStop, in a strict run whose lines include failed ones, settles
// every pending line as not sent and returns how many failed; otherwise
// it returns 0.
func StrictStop[L any, PL interface {
	*L
	Rower
}](lines []L, strict bool, w Words) int {
	if !strict {
		return 0
	}
	bad := 0
	for i := range lines {
		if PL(&lines[i]).fate().Action.Failed() {
			bad++
		}
	}
	if bad > 0 {
		SettlePending[L, PL](lines, Skipped, w.Strict(bad))
	}
	return bad
}

// Locks are the locks a job holds on an account (one job of a kind, on
// one account or warehouse, at a time), until Close. A job that runs
// again and again (a schedule) keeps them between runs.
type Locks struct {
	State *state.DB
	held  map[string]*state.Lock
}

// Hold takes the lock name, unless it is held already; what says who
// holds it, in the message another process gets.
func (l *Locks) Hold(name, what string) error {
	if l.held[name] != nil {
		return nil
	}
	lk, err := l.State.Hold(name, what)
	if err != nil {
		return err
	}
	if l.held == nil {
		l.held = map[string]*state.Lock{}
	}
	l.held[name] = lk
	return nil
}

// Close lets go of every lock held.
func (l *Locks) Close() {
	for name, lk := range l.held {
		lk.Release()
		delete(l.held, name)
	}
}

// StartRun starts the run with fingerprint, or resumes the unfinished one
// an earlier attempt left; resume, when it is resumed, checks what that
// attempt sent without an answer. The run is released (left to resume)
// if resume fails.
func StartRun(ctx context.Context, st *state.DB, fingerprint, command string, meta map[string]string,
	resume func(*state.Run) error) (*state.Run, bool, error) {
	run, resumed, err := st.StartRun(ctx, fingerprint, command, meta)
	if err != nil || !resumed || resume == nil {
		return run, resumed, err
	}
	if err := resume(run); err != nil {
		st.LeaveRun(run.ID)
		return nil, false, err
	}
	return run, true, nil
}

// EndRun finishes run with the status its rows give (done, or partial
// when some failed); a run that stopped on err or was interrupted is left
// unfinished, for the next attempt to resume. It returns err.
func EndRun(ctx context.Context, st *state.DB, run *state.Run, rows Counts, err error) error {
	if run == nil {
		return err
	}
	if err != nil || ctx.Err() != nil {
		st.LeaveRun(run.ID)
		return err
	}
	ctx = context.WithoutCancel(ctx)
	if err := st.FinishRun(ctx, run.ID, RunStatus(rows), Summary{Rows: rows}); err != nil {
		return err
	}
	_, err = st.PruneRuns(ctx, time.Now().Add(-state.KeepFor), state.KeepRuns)
	return err
}

// Summary is what the state keeps of a finished run for its history.
type Summary struct {
	Rows Counts `json:"rows"`
}

// RunStatus is the status a finished run records: done, or partial when
// some of its rows failed.
func RunStatus(rows Counts) string {
	if rows.Failed() > 0 {
		return state.StatusPartial
	}
	return state.StatusDone
}

// Once runs a job once and lets go of what it holds: made is the job as
// its constructor returned it (with err), run what it does.
func Once[J interface{ Close() }, R any](made J, err error, run func(J) (R, error)) (R, error) {
	if err != nil {
		var none R
		return none, err
	}
	defer made.Close()
	return run(made)
}
