package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/engine"
	"lading/mapping"
	"lading/paths"
	"lading/progress"
	"lading/source"
	"lading/state"
)

// pushOptions are what the stock, shipments and slips pushes share: a
// file read through a mapping, the job's flags, a schedule.
type pushOptions struct {
	globalOptions
	jobOptions
	scheduleOptions
	Input string
}

// pushKind is what differs between the push commands in what they check
// and open before they push.
type pushKind struct {
	job     string // "stock push", in messages
	example string // the command called right, with a file
	every   string // an interval for --every, e.g. 15m
	// has reports whether a mapping has the push's section; missing says
	// (of the mapping's file) that it has not, and sample is the section
	// to add.
	has             func(*mapping.Mapping) bool
	missing, sample string
}

// pushFlags declares the flags of a push, bound to o.
func pushFlags(o *pushOptions, k pushKind, w jobWords) []cli.Flag {
	return append(jobFlags(&o.jobOptions, w),
		everyFlag(&o.scheduleOptions, "push FILE", k.every),
		settleFlag(&o.scheduleOptions))
}

// push finishes the command of a push: it takes one argument, the input
// file, binds it into o and calls run.
func (b *builder) push(c *cli.Command, o *pushOptions, k pushKind, d doc, run func(context.Context) error) *cli.Command {
	c.ArgsUsage = "FILE"
	c.Action = func(c *cli.Context) error {
		if err := o.bind(c, k); err != nil {
			return err
		}
		return run(c.Context)
	}
	return b.leaf(c, &o.globalOptions, d)
}

// bind takes the push's one argument, the input file.
func (o *pushOptions) bind(c *cli.Context, k pushKind) error {
	if c.NArg() != 1 {
		return usageHint("For example: "+k.example, "%s takes one input file", commandLine(c))
	}
	o.Input = c.Args().First()
	return nil
}

// pushSetup is what a push command opens: its mapping, XLSX limits,
// client, account, state and progress display.
type pushSetup struct {
	m       *mapping.Mapping
	limits  source.Limits
	client  *api.Client
	account string
	st      *state.DB
	prog    *progress.Progress
	log     *slog.Logger
	stdout  io.Writer // the command's, for --json warnings
}

// options are the options every job takes, for a push of o.Input.
func (s *pushSetup) options(o *pushOptions) engine.Options {
	return engine.Options{Client: s.client, State: s.st, Scope: s.account, Mapping: s.m, Input: o.Input, Limits: s.limits,
		Strict: o.Strict, DryRun: o.DryRun, BatchSize: o.BatchSize, Concurrency: o.Concurrency, ResultsFile: o.Results,
		Progress: s.prog, Logger: s.log}
}

// close finishes the progress display and closes the state.
func (s *pushSetup) close() {
	s.prog.Finish()
	s.st.Close()
}

// openPush checks a push's input file, mapping, limits and paths, and
// opens its client and state. With --every, an input that does not exist
// yet is let be: a later run may find it.
func openPush(env *Env, o *pushOptions, k pushKind) (*pushSetup, error) {
	if err := o.scheduleOptions.check(k.every); err != nil {
		return nil, err
	}
	var err error
	if o.State, err = o.stateFile(env, o.State); err != nil {
		return nil, err
	}
	if err := checkInput("input file", o.Input); err != nil && (o.Every == 0 || !errors.Is(err, fs.ErrNotExist)) {
		return nil, err
	}
	m, limits, err := o.prepare(k)
	if err != nil {
		return nil, err
	}
	client, token, err := o.client(env)
	if err != nil {
		return nil, err
	}
	st, err := state.Open(o.State)
	if err != nil {
		return nil, err
	}
	return &pushSetup{m: m, limits: limits, client: client, account: o.account(token),
		st: st, prog: o.progress(env, client), log: o.logger(env), stdout: env.Stdout}, nil
}

// prepare reads the mapping of a push (which must have the push's
// section) and its XLSX limits, and checks its paths.
func (o *pushOptions) prepare(k pushKind) (*mapping.Mapping, source.Limits, error) {
	m, _, err := o.load()
	if err != nil {
		return nil, source.Limits{}, err
	}
	if !k.has(m) {
		return nil, source.Limits{}, usageHint(k.sample, k.missing, m.File)
	}
	limits, err := o.reading(m)
	if err != nil {
		return nil, source.Limits{}, err
	}
	if o.Input != "" {
		err = o.checkPaths(engine.DefaultResultsPath(o.Input))
	}
	return m, limits, err
}

// checkPaths refuses a results file that is one of a push's inputs;
// results is the results file written when --results is not given.
func (o *pushOptions) checkPaths(results string) error {
	stateFile := paths.Named{What: "the state file", Path: o.State}
	inputs := []paths.Named{{What: "the input file", Path: o.Input}, stateFile}
	if o.Mapping != "" {
		inputs = append(inputs, paths.Named{What: "the --mapping file", Path: o.Mapping})
	}
	var outputs []paths.Named
	switch {
	case o.Results != "":
		outputs = append(outputs, paths.Named{What: "--results", Path: o.Results, Sheet: true})
	case !o.DryRun:
		outputs = append(outputs, paths.Named{What: "the results file", Path: results})
	}
	if err := checkOutputs(inputs, outputs); err != nil {
		return err
	}
	return checkStatePath(paths.Named{What: "--state", Path: stateFile.Path})
}

// settle waits until the input has not changed for --settle, saying so.
// With --every, once a push has waited longer than one interval the file
// was not pushed that turn: every interval from then on warns, on stderr
// and (with --json) as an object of its own on stdout, until it settles.
func (s *pushSetup) settle(ctx context.Context, o *pushOptions, k pushKind) error {
	w := settleWait{every: o.Every, settle: o.Settle, log: s.log}
	if o.JSON {
		w.json = s.stdout
	}
	err := w.wait(ctx, o.Input)
	switch {
	case err != nil && ctx.Err() != nil:
		return &InterruptedError{Msg: k.job + " interrupted before reading " + o.Input + ": nothing was sent"}
	case err != nil:
		return fmt.Errorf("reading %s: %w", o.Input, err)
	}
	return nil
}

// settleWait is a push's wait for its file to settle.
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
		w.log.Info(fmt.Sprintf("waiting %s for %s to settle before reading it (%s)", d.Round(time.Millisecond), input, why))
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
		jsonLine(w.json, struct {
			Warning string        `json:"warning"`
			File    string        `json:"file"`
			Waited  time.Duration `json:"waited_ns"`
		}{msg, input, waited})
	}
}

// schedule runs once, or with --every again and again (see repeat).
func (o *pushOptions) schedule(ctx context.Context, env *Env, once func() error, lasting func(error) bool) error {
	if o.Every == 0 {
		return once()
	}
	return repeat(ctx, env, &o.globalOptions, "push", o.Every, once, lasting)
}

// outcome maps how a run of a job (an import, a push) ended to the
// command's error, and so its exit code: interrupted, strict with rows
// that cannot be sent, a mapping that does not fit the file (usage),
// fatal, or some rows failed. rep is nil when the run ended before it
// read its file.
func outcome(rep *engine.Report, err error) error {
	var (
		mErr  *mapping.Error
		mList mapping.ErrorList
	)
	switch {
	case errors.Is(err, engine.ErrInterrupted):
		return &InterruptedError{Msg: err.Error()}
	case errors.Is(err, engine.ErrInvalid) && rep != nil:
		return &PartialError{Failed: rep.Failed(), Total: rep.Rows.Total(), Note: "nothing was sent (--strict)", See: rep.Results}
	case errors.As(err, &mErr), errors.As(err, &mList):
		return asUsage(err)
	case err != nil:
		return err
	case rep != nil && rep.Failed() > 0:
		return &PartialError{Failed: rep.Failed(), Total: rep.Rows.Total(), See: rep.Results}
	}
	return nil
}

// reportOf is the engine's part of a job's report, nil when the job
// returned none.
func reportOf[R interface {
	comparable
	Base() *engine.Report
}](rep R) *engine.Report {
	var none R
	if rep == none {
		return nil
	}
	return rep.Base()
}
