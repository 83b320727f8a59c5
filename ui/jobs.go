package ui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lading/api/wire"
	"lading/engine"
	"lading/images"
	"lading/importer"
	"lading/plural"
	"lading/progress"
	"lading/results"
	"lading/shipments"
	"lading/slips"
	"lading/state"
	"lading/stock"
	"lading/summary"
)

// outcome is how a dry run or a run of a work went: its counts, the
// writes it needs or made, its results file read back, and for an
// import's dry run the plan with every product's diff.
type outcome struct {
	DryRun  bool
	Resumed bool
	Counts  []countsLine
	// Requests and Takes are the writes a dry run says are needed and
	// about how long they take at the account's rate.
	Requests int
	Takes    time.Duration
	Notes    []string
	Traffic  string
	Results  string // the results file
	table    *results.Table
	plan     *importer.PlanFile
	// Stopped says the run was interrupted; Err how it failed.
	Stopped bool
	Err     string
	Command string // the command that does the same in a terminal
}

// countsLine is a line of counts: "products: 3 to create, 1 to update".
type countsLine struct {
	What   string
	Counts engine.Counts
}

// job runs a work's job, a dry run or not, as its command would.
func (s *Server) job(ctx context.Context, w *work, dry bool, prog *progress.Progress) (*outcome, error) {
	var st *state.DB
	if !dry || w.kind != importKind { // an import's dry run reads no state, as on the command line
		var err error
		if st, err = state.Open(s.cfg.State); err != nil {
			return nil, err
		}
		defer st.Close()
	}
	resultsFile := engine.DefaultResultsPath(w.input)
	if dry {
		resultsFile = filepath.Join(w.dir, "dry-run.results.csv")
	}
	eo := engine.Options{Client: s.cfg.Client, State: st, Scope: s.cfg.Scope, Mapping: w.m, Input: w.input, DryRun: dry,
		Concurrency: s.cfg.Concurrency, ResultsFile: resultsFile, Progress: prog, Logger: s.cfg.Logger}
	var (
		o   *outcome
		err error
	)
	switch w.kind {
	case importKind:
		o, err = s.importJob(ctx, w, eo)
	case stockKind:
		o, err = s.stockJob(ctx, eo)
	case shipmentsKind:
		o, err = s.shipmentsJob(ctx, eo)
	case slipsKind:
		o, err = s.slipsJob(ctx, eo)
	}
	if o == nil {
		return nil, err
	}
	o.DryRun, o.Results, o.Command = dry, resultsFile, s.command(w, dry)
	o.ended(err)
	if t, rerr := results.ReadTable(resultsFile); rerr == nil {
		failedFirst(t)
		o.table = t
	}
	o.rename(w.uploaded)
	return o, nil
}

// rename gives the files the outcome names (its results' file column and
// messages, its plan's rows) the names they were uploaded with.
func (o *outcome) rename(name func(string) string) {
	o.Err = name(o.Err)
	for i := range o.Notes {
		o.Notes[i] = name(o.Notes[i])
	}
	if o.table != nil {
		for _, l := range o.table.Lines {
			for i := range l {
				l[i] = name(l[i])
			}
		}
	}
	if o.plan == nil {
		return
	}
	for i := range o.plan.Products {
		pp := &o.plan.Products[i]
		pp.Reason = name(pp.Reason)
		for j := range pp.Variants {
			v := &pp.Variants[j]
			v.Row, v.Reason = name(v.Row), name(v.Reason)
		}
		for j := range pp.Images {
			im := &pp.Images[j]
			im.Row, im.Reason = name(im.Row), name(im.Reason)
		}
	}
}

// ended says how the job ended: stopped (as Ctrl-C would), failed, or
// with the rows telling the rest.
func (o *outcome) ended(err error) {
	switch {
	case errors.Is(err, engine.ErrInterrupted):
		o.Stopped = true
	case err != nil && !errors.Is(err, engine.ErrInvalid):
		o.Err = err.Error()
	case err != nil:
		o.Notes = append(o.Notes, err.Error())
	}
}

// base fills in what every job's report says.
func (o *outcome) base(rep *engine.Report) {
	o.Resumed = rep.Resumed
	o.Counts = append([]countsLine{{"rows", rep.Rows}}, o.Counts...)
	o.Traffic = trafficOf(rep)
}

// trafficOf is a run's requests for people; "" for a dry run, which
// writes nothing.
func trafficOf(rep *engine.Report) string {
	if rep.DryRun {
		return ""
	}
	return summary.Traffic(rep.Traffic, rep.Elapsed)
}

func (s *Server) importJob(ctx context.Context, w *work, eo engine.Options) (*outcome, error) {
	opts := importer.Options{Options: eo, MappingText: w.Text, Mode: w.Mode, NoImages: w.NoImages,
		Images: images.Options{Dir: w.ImagesDir, MaxSize: images.DefaultMaxSize, Transport: s.cfg.ImageTransport}}
	if eo.DryRun {
		opts.PlanFile = filepath.Join(w.dir, "plan.json")
	}
	rep, err := importer.Import(ctx, opts)
	if rep == nil {
		return nil, err
	}
	o := &outcome{Counts: []countsLine{{"products", rep.Products}, {"variants", rep.Variants}}}
	if rep.Images != nil {
		o.Counts = append(o.Counts, countsLine{"images", rep.Images})
	}
	o.base(&rep.Report)
	if rep.DryRun {
		o.Requests, o.Takes = rep.RequestsPlanned, summary.Duration(rep.RequestsPlanned, s.cfg.Rate)
		if o.plan, err = importer.ReadPlan(opts.PlanFile); err != nil {
			return nil, err
		}
	}
	return o, err
}

func (s *Server) stockJob(ctx context.Context, eo engine.Options) (*outcome, error) {
	rep, err := stock.Push(ctx, stock.Options{Options: eo})
	if rep == nil {
		return nil, err
	}
	o := &outcome{}
	o.base(&rep.Report)
	if rep.DryRun {
		o.Requests = summary.Requests(rep.Levels, wire.MaxWriteRecords)
		o.Takes = summary.Duration(o.Requests, s.cfg.Rate)
		o.Notes = append(o.Notes, fmt.Sprintf("%s to send", plural.Count(rep.Levels, "level")))
	} else {
		o.Notes = append(o.Notes, fmt.Sprintf("%s sent", plural.Count(rep.Levels, "level")))
	}
	if len(rep.Warehouses) > 0 {
		o.Notes = append(o.Notes, "to "+plural.Count(len(rep.Warehouses), "warehouse")+" "+strings.Join(rep.Warehouses, ", "))
	}
	return o, err
}

func (s *Server) shipmentsJob(ctx context.Context, eo engine.Options) (*outcome, error) {
	rep, err := shipments.Push(ctx, shipments.Options{Options: eo, Location: s.cfg.Location})
	if rep == nil {
		return nil, err
	}
	o := &outcome{}
	o.base(&rep.Report)
	posted := "posted"
	if rep.DryRun {
		posted = "to post"
	}
	o.Notes = append(o.Notes, fmt.Sprintf("%s %s, %s completed, %s set", plural.Count(rep.Shipments, "shipment"), posted,
		plural.Count(len(rep.Completed), "fulfillment"), plural.Count(rep.Statuses, "status")))
	if len(rep.StillOpen) > 0 {
		o.Notes = append(o.Notes, fmt.Sprintf("every line of %s is shipped, but the service still lists them as open: check them in the account", plural.Count(len(rep.StillOpen), "fulfillment")))
	}
	return o, err
}

func (s *Server) slipsJob(ctx context.Context, eo engine.Options) (*outcome, error) {
	rep, err := slips.Push(ctx, slips.Options{Options: eo, Location: s.cfg.Location})
	if rep == nil {
		return nil, err
	}
	o := &outcome{Counts: []countsLine{{"slips", rep.Slips}, {"shipments", rep.Packages}}}
	o.base(&rep.Report)
	return o, err
}

// failedFirst puts the lines that failed first, the rest in file order.
func failedFirst(t *results.Table) {
	col := t.Column("action")
	if col < 0 {
		return
	}
	rank := func(l []string) int {
		if col < len(l) && engine.Status(l[col]).Failed() {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(t.Lines, func(a, b []string) int { return cmp.Compare(rank(a), rank(b)) })
}

// command is the command that does what the page does with w, to run in
// a terminal in the folder lading ui was started in (its state is the
// page's): the same run continues there.
func (s *Server) command(w *work, dry bool) string {
	args := []string{s.cfg.Command, w.kind.Command}
	if w.Template != "" {
		args = append(args, "--template", w.Template)
	} else {
		args = append(args, "--mapping", w.mappingFile())
	}
	if w.kind == importKind {
		if w.Mode != "" && w.Mode != importer.ModeUpsert {
			args = append(args, "--mode", string(w.Mode))
		}
		if w.NoImages {
			args = append(args, "--no-images")
		}
	}
	args = append(args, s.cfg.terminalFlags()...)
	if dry {
		args = append(args, "--dry-run")
	}
	args = append(args, quote(w.Name))
	if w.Second != "" {
		args = append(args, quote(w.Second))
	}
	return strings.Join(args, " ")
}

// quote quotes a word for a shell when it needs it.
func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/:=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
