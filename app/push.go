package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/mapping"
	"lading/progress"
	"lading/source"
	"lading/state"
)

// pushKind is what differs between the push commands (stock, shipments,
// slips) in what they check and open before they push.
type pushKind struct {
	example string // the command with a file, for usage messages
	// has reports whether a mapping has the push's section; missing is the
	// usage message (with %s for the mapping's file) when it has not.
	has     func(*mapping.Mapping) bool
	missing string
	// results is the results file written beside an input.
	results func(input string) string
}

// pushSetup is what a push command opens: its input, mapping, XLSX
// limits, client, account scope, state and progress display.
type pushSetup struct {
	input  string
	m      *mapping.Mapping
	limits source.Limits
	client *api.Client
	scope  string
	st     *state.DB
	prog   *progress.Progress
}

// close finishes the progress display and closes the state.
func (s *pushSetup) close() {
	s.prog.Finish()
	s.st.Close()
}

// openPush checks a push command's input file, mapping, limits and paths,
// and opens its client and state. With --every, an input that does not
// exist yet is let be: a later run may find it.
func openPush(c *cli.Context, k pushKind) (*pushSetup, error) {
	input, err := oneInput(c, k.example)
	if err != nil {
		return nil, err
	}
	if every := c.Duration("every"); every != 0 && every < time.Second {
		return nil, Usagef("--every %s: want an interval of 1s or more, e.g. 15m (or leave it out to push once)", every)
	}
	if _, err := os.Stat(input); err != nil && (c.Duration("every") == 0 || !errors.Is(err, os.ErrNotExist)) {
		return nil, Usagef("input file: %v", err)
	}
	m, _, err := loadMapping(c)
	if err != nil {
		return nil, err
	}
	if !k.has(m) {
		return nil, Usagef(k.missing, m.File)
	}
	limits, err := xlsxLimits(c)
	if err != nil {
		return nil, err
	}
	if err := checkPushPaths(c, input, k.results(input)); err != nil {
		return nil, err
	}
	client, token, err := newClient(c)
	if err != nil {
		return nil, err
	}
	st, err := state.Open(c.String("state"))
	if err != nil {
		return nil, err
	}
	return &pushSetup{input: input, m: m, limits: limits, client: client, scope: accountScope(c.String("base-url"), token),
		st: st, prog: newProgress(c, client)}, nil
}

// pushOutcome maps how a push ended to the command's error, and so its
// exit code: interrupted (the push's errInterrupted), strict with invalid
// rows (its errInvalid; nil for a push without --strict), a mapping that
// does not fit the file (usage), fatal, or some rows failed.
func pushOutcome(err error, failed, total int, results string, errInterrupted, errInvalid error) error {
	var (
		mErr  *mapping.Error
		mList mapping.ErrorList
	)
	switch {
	case errors.Is(err, errInterrupted):
		return &InterruptedError{Msg: err.Error()}
	case errInvalid != nil && errors.Is(err, errInvalid):
		return &PartialError{Failed: failed, Total: total, What: "rows", Note: "nothing was sent (--strict)", See: results}
	case errors.As(err, &mErr), errors.As(err, &mList):
		return &UsageError{Err: err}
	case err != nil:
		return err
	case failed > 0:
		return &PartialError{Failed: failed, Total: total, What: "rows", See: results}
	}
	return nil
}

// xlsxLimitFlags bound what reading an XLSX input may cost (read by
// xlsxLimits), for every command that reads a file through a mapping.
func xlsxLimitFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "max-xlsx-part-size", Value: "4GiB", Usage: "the most one part of an XLSX workbook (a sheet, its shared strings) may unzip to, e.g. 8GiB"},
		&cli.StringFlag{Name: "max-xlsx-cell-size", Value: "1MiB", Usage: "the most one XLSX cell may hold, e.g. 4MiB"},
	}
}

// settledInput waits for a push's input to settle (--settle) before it is
// read. With --every, once a push has waited longer than one interval the
// file was not pushed that turn: every interval from then on warns, on
// stderr and (with --json) as an object of its own on stdout, until the
// file settles. what names the push ("stock push").
func settledInput(c *cli.Context, input, what string) error {
	w := settleWait{every: c.Duration("every"), settle: c.Duration("settle"), log: logger(c)}
	if c.Bool("json") {
		w.json = envOf(c).Stdout
	}
	err := w.wait(c.Context, input)
	switch {
	case err != nil && c.Context.Err() != nil:
		return &InterruptedError{Msg: what + " interrupted before reading " + input + ": nothing was sent"}
	case err != nil:
		return fmt.Errorf("reading %s: %w", input, err)
	}
	return nil
}

// settleWait is settledInput apart from the command line.
type settleWait struct {
	every, settle time.Duration
	log           *slog.Logger
	json          io.Writer // where --json warnings go; nil without --json
}

// wait returns once input has settled, warning at every interval after the
// first that it has not.
func (w settleWait) wait(ctx context.Context, input string) error {
	start := time.Now()
	next := start.Add(w.every)
	return source.WaitSettled(ctx, input, w.settle, func(d time.Duration, why string) {
		w.log.Info("waiting for the file to settle before reading it", "file", input, "wait", d.Round(time.Millisecond), "why", why)
		if now := time.Now(); w.every > 0 && !now.Before(next) {
			w.warn(input, now.Sub(start))
			next = nextRun(next, now, w.every)
		}
	})
}

// warn says that input has kept changing for waited, and what to do.
func (w settleWait) warn(input string, waited time.Duration) {
	msg := fmt.Sprintf("%s keeps changing: it has not stayed unchanged for --settle %s in the %s this push has waited, so it was not pushed; "+
		"have the warehouse system write it under another name and rename it to %s when it is complete (write-then-rename), so that it is never read half-written",
		input, w.settle, waited.Round(time.Second), filepath.Base(input))
	w.log.Warn(msg)
	if w.json != nil {
		json.NewEncoder(w.json).Encode(struct {
			Warning string        `json:"warning"`
			File    string        `json:"file"`
			Waited  time.Duration `json:"waited_ns"`
		}{msg, input, waited})
	}
}
