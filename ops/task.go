package ops

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"time"

	"lading/api"
	"lading/engine"
	"lading/state"
)

// A Task is a job bound to its command's options, ready to run on its
// account again and again.
type Task struct {
	// Run runs the job once.
	Run func(ctx context.Context, t Target) (Result, error)
	// Settle is how long a dropped file must stay unchanged before a
	// folder job takes it (the command's --settle).
	Settle time.Duration
	// Writes are the files the job writes (a results file, an output
	// with its fields), which no other job may write.
	Writes []string
}

// Target is what one run of a task is given: the account (a client
// paced by the account's limiter, its state and scope) and, for a folder
// job, the file to read and where its results go.
type Target struct {
	Client *api.Client
	State  *state.DB
	Scope  string
	// Input is the dropped file a folder job's run reads, and Results its
	// results file; both "" for a job of a file of its own.
	Input, Results string
	// Logger tells what the run does in passing, named by account and job.
	Logger *slog.Logger
	// Now is when the run started (file names with {time} or {month}).
	Now time.Time
}

// Result is what a run did, for its log line and the metrics.
type Result struct {
	// Rows counts the input's rows by status (none for a pull or an
	// export).
	Rows engine.Counts
	// Traffic is what the run sent (the runner counts it).
	Traffic api.Traffic
	// Results is the results file written; Files the files a pull or an
	// export wrote.
	Results string
	Files   []string
	// Summary is the run in a few words for a person: "3 sent, 97
	// unchanged".
	Summary string
}

// Outcome is how a run ended, as logs and metrics name it.
type Outcome string

const (
	// OK: the run did its work, and no row failed.
	OK Outcome = "ok"
	// Partial: some rows failed; the results file names them.
	Partial Outcome = "partial"
	// Failed: the run stopped on an error.
	Failed Outcome = "failed"
	// Locked: another process ran the job on the account; nothing was
	// done, and the next turn tries again.
	Locked Outcome = "locked"
	// Interrupted: lading was stopped during the run; the writes in
	// flight were finished and recorded, and the next run resumes it.
	Interrupted Outcome = "interrupted"
)

// outcomeOf is how a run that returned res and err ended (ctx was its
// context). A run that returned no error finished, even when lading was
// stopped as it did: what it did is its outcome.
func outcomeOf(ctx context.Context, res Result, err error) Outcome {
	switch {
	case errors.Is(err, engine.ErrInterrupted), err != nil && ctx.Err() != nil:
		return Interrupted
	case errors.Is(err, state.ErrLocked):
		return Locked
	case errors.Is(err, engine.ErrInvalid):
		return Partial
	case err != nil:
		return Failed
	case res.Rows.Failed() > 0:
		return Partial
	}
	return OK
}

// passes reports whether a run's error may pass by itself, so that a
// dropped file is left where it is for the next look rather than moved
// to failed/: lading was stopped, another process held the job, the token
// was refused (it is mended in the account, not in the file), or the
// service could not be reached or kept failing.
func passes(o Outcome, err error) bool {
	switch {
	case o == Interrupted, o == Locked:
		return true
	case err == nil:
		return false
	case errors.Is(err, api.ErrAccessDenied), errors.Is(err, api.ErrOutcomeUnknown):
		return true
	}
	return api.Classify(err) == api.Retryable
}

// reason is err without the path a *fs.PathError repeats.
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
