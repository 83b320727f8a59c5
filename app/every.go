package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"lading/api"
	"lading/state"
)

// repeat runs once now and again every interval, counted from the first
// run (a run that overruns skips the turns it missed), until the command
// is stopped (Ctrl-C, SIGTERM). what names a run in what it prints:
// "push" gives "next push at 15:04:05" on stderr after each run (unless
// --quiet) and "this push did not complete, and the next one goes ahead".
//
// How a run ended decides what follows:
//   - nil, or a *PartialError (the run's own report says which records
//     failed): the next run goes ahead.
//   - an error for which lasting reports true (it would stop every later
//     run too: see lasting, which callers extend), or a run cut short by
//     the stop (*InterruptedError, or any error once stopped): repeat
//     returns it.
//   - any other error (the service unreachable, say): it is logged as a
//     warning and the next run goes ahead.
//
// Stopped between runs, repeat returns nil. Locks are the caller's: take
// them before repeat and hold them until it returns, so that no other
// process runs between two runs.
func repeat(ctx context.Context, env *Env, g *globalOptions, what string, every time.Duration, once func() error, lasting func(error) bool) error {
	s := schedule{what: what, every: every, log: g.logger(env)}
	if !g.Quiet {
		s.say = env.Stderr
	}
	return s.run(ctx, once, lasting)
}

// schedule is repeat's loop, apart from the command line.
type schedule struct {
	what  string
	every time.Duration
	say   io.Writer // where "next push at" goes; nil for none
	log   *slog.Logger
}

func (s schedule) run(ctx context.Context, once func() error, lasting func(error) bool) error {
	next := time.Now()
	for {
		if err := once(); s.stops(err, ctx.Err() != nil, lasting) {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
		next = nextRun(next, time.Now(), s.every)
		if s.say != nil {
			fmt.Fprintf(s.say, "next %s at %s\n", s.what, next.Format("15:04:05"))
		}
		t := time.NewTimer(time.Until(next))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// stops reports whether a run's error ends the schedule (stopped says
// the command was stopped during the run), and logs those that do not.
func (s schedule) stops(err error, stopped bool, lasting func(error) bool) bool {
	var (
		ie *InterruptedError
		pe *PartialError
	)
	switch {
	case err == nil:
		return false
	case stopped, errors.As(err, &ie), lasting(err):
		return true
	case errors.As(err, &pe):
		// The run's report and results file say which records failed.
	default:
		s.log.Warn("this "+s.what+" did not complete, and the next one goes ahead", "err", err)
	}
	return false
}

// nextRun is the first turn after now, the turns being every apart from
// last.
func nextRun(last, now time.Time, every time.Duration) time.Time {
	for !last.After(now) {
		last = last.Add(every)
	}
	return last
}

// lasting reports whether err would stop every later run of a command
// too: a usage or mapping error, another process holding the lock, a
// refused token. Commands add their own to it.
func lasting(err error) bool {
	var u *UsageError
	return errors.As(err, &u) || errors.Is(err, state.ErrLocked) || errors.Is(err, api.ErrAccessDenied)
}
