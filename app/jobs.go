package app

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"lading/engine"
	"lading/exporter"
	"lading/ops"
	"lading/paths"
	"lading/plural"
	"lading/pull"
	"lading/shipments"
	"lading/slips"
	"lading/stock"
	"lading/suggest"
	"lading/summary"
)

// jobKinds are the commands a jobs file may run. A job's options are its
// command's own flags: each kind binds them through the flags the command
// declares, into the command's options struct, so that a key of a jobs
// file and a flag cannot drift apart; then it checks them as the command
// does, and makes the task that runs the command once with the runner's
// client, state and file.
func jobKinds(env *Env) ops.Kinds {
	return ops.Kinds{
		"stock push":        {File: true, Bind: func(j *ops.Job) (ops.Task, error) { return bindStockPush(env, j) }},
		"shipments push":    {File: true, Bind: func(j *ops.Job) (ops.Task, error) { return bindShipmentsPush(env, j) }},
		"slips push":        {File: true, Bind: func(j *ops.Job) (ops.Task, error) { return bindSlipsPush(env, j) }},
		"fulfillments pull": {Bind: func(j *ops.Job) (ops.Task, error) { return bindPull(env, j) }},
		"export":            {Bind: func(j *ops.Job) (ops.Task, error) { return bindExport(env, j) }},
	}
}

// The keys of a job that are its command's argument, not a flag.
const (
	fileKey   = "file"   // the file a push reads
	reportKey = "report" // what an export exports: products, packing-slips, ...
)

// bindFlags sets flags (a command's, bound to its options struct) from
// the options of j as the command line would, each key a flag's long
// name ('_' may stand for '-'); args are the keys that are the command's
// arguments, whose values it returns by key. The account's flags (base
// URL, token, pacing) and --state are refused: they are the account's.
func bindFlags(j *ops.Job, flags []cli.Flag, args ...string) (map[string]string, error) {
	set := flag.NewFlagSet(j.Kind, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	for _, f := range flags {
		if err := f.Apply(set); err != nil {
			return nil, err
		}
	}
	given := map[string]string{}
	for _, o := range j.Options {
		key := strings.ReplaceAll(o.Key, "_", "-")
		if slices.Contains(args, key) {
			if len(o.Values) != 1 {
				return nil, &ops.OptionError{Key: o.Key, Err: errors.New("takes one value")}
			}
			given[key] = o.Values[0]
			continue
		}
		if err := setFlag(set, flags, key, o.Values); err != nil {
			return nil, &ops.OptionError{Key: o.Key, Err: err}
		}
	}
	ctx := cli.NewContext(nil, set, nil)
	for _, f := range flags {
		if af, ok := f.(cli.ActionableFlag); ok && slices.ContainsFunc(f.Names(), func(n string) bool { return isSet(set, n) }) {
			if err := af.RunAction(ctx); err != nil {
				return nil, &ops.OptionError{Key: f.Names()[0], Err: err}
			}
		}
	}
	return given, nil
}

// setFlag sets the flag key of set to values, refusing a key that is no
// flag of the command (naming the closest), or is the account's.
func setFlag(set *flag.FlagSet, flags []cli.Flag, key string, values []string) error {
	switch {
	case key == "state":
		return errors.New("each account keeps its own state (lading accounts list says where); leave state out")
	case slices.ContainsFunc(globalFlags(&globalOptions{}, false), func(f cli.Flag) bool { return f.Names()[0] == key }) && set.Lookup(key) == nil:
		return fmt.Errorf("%s is the account's: give it under accounts: (base_url, token_file, rate, burst), or to lading accounts add", key)
	}
	f := findFlag(flags, key)
	if f == nil || f.Names()[0] != key {
		var names []string
		for _, f := range flags {
			names = append(names, f.Names()[0])
		}
		msg := "not an option of this command"
		if f != nil {
			msg = "write the flag's long name, " + f.Names()[0]
		} else if dym := suggest.DidYouMean(key, names, "%s"); dym != "" {
			msg += "; " + dym
		}
		return errors.New(msg)
	}
	if _, many := f.(*cli.GenericFlag); len(values) > 1 && !many {
		return errors.New("takes one value, not a list")
	}
	for _, v := range values {
		if err := set.Set(key, v); err != nil {
			if _, ok := f.(*cli.BoolFlag); ok {
				return fmt.Errorf("%q: want true or false", v)
			}
			return errors.New(strings.TrimPrefix(badValue(f, key, v), key+" "))
		}
	}
	return nil
}

// isSet reports whether the flag name of set was set.
func isSet(set *flag.FlagSet, name string) bool {
	found := false
	set.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// jobFlagsOf are the flags a job of a command takes: the command's own,
// and --concurrency, bound to g.
func jobFlagsOf(g *globalOptions, own []cli.Flag) []cli.Flag {
	for _, f := range globalFlags(g, true) {
		if f.Names()[0] == "concurrency" {
			return append(own, f)
		}
	}
	return own
}

// pushJob is a push bound to a job: its options, mapping and limits.
type pushJob struct {
	o    *pushOptions
	k    pushKind
	prep *pushSetup // the mapping and limits; the rest comes with each run
}

// bindPush checks what a push job says beyond its flags: a file to read,
// or a folder (and then no file and no results file of its own); then
// the mapping, limits and paths, as the command does.
func bindPush(env *Env, j *ops.Job, o *pushOptions, k pushKind, file string) (*pushJob, error) {
	switch {
	case j.Folder != "" && file != "":
		return nil, &ops.OptionError{Key: fileKey, Err: errors.New("a folder job reads the files dropped in its folder: give file or folder, not both")}
	case j.Folder != "" && o.Results != "":
		return nil, &ops.OptionError{Key: "results", Err: errors.New("a folder job writes each file's results beside it in done/ or failed/: leave results out")}
	case j.Folder == "" && file == "":
		return nil, fmt.Errorf("give file: the file to push (or folder: to push each file dropped there)")
	}
	dirs, err := env.dirs()
	if err != nil {
		return nil, err
	}
	o.Input, o.State = file, dirs.StatePath(j.Account)
	if err := o.scheduleOptions.check(k.every); err != nil {
		return nil, err
	}
	if err := checkBatchSize(o.BatchSize); err != nil {
		return nil, err
	}
	m, limits, err := o.prepare(k)
	if err != nil {
		return nil, err
	}
	return &pushJob{o: o, k: k, prep: &pushSetup{m: m, limits: limits}}, nil
}

// task runs the push with each run's client, state and file: push is the
// job's own push of po.Input, with ps holding what it is given.
func (p *pushJob) task(push func(ctx context.Context, ps *pushSetup, po *pushOptions) (*engine.Report, error)) ops.Task {
	var writes []string
	if p.o.Input != "" {
		writes = append(writes, cmp.Or(p.o.Results, engine.DefaultResultsPath(p.o.Input)))
	}
	return ops.Task{Settle: p.o.Settle, Writes: writes, Run: func(ctx context.Context, t ops.Target) (ops.Result, error) {
		po := *p.o
		ps := *p.prep
		ps.client, ps.st, ps.account, ps.log = t.Client, t.State, t.Scope, t.Logger
		if t.Input != "" {
			po.Input, po.Results = t.Input, t.Results
		} else if err := ps.settle(ctx, &po, p.k); err != nil {
			return ops.Result{}, err
		}
		rep, err := push(ctx, &ps, &po)
		if rep == nil {
			return ops.Result{}, err
		}
		return ops.Result{Rows: rep.Rows, Traffic: rep.Traffic, Results: rep.Results, Summary: summary.Text(rep.Rows)}, err
	}}
}

// bindPushJob binds a push job's options through flags (the push's, bound
// to po and the options around it) and checks them (see bindPush).
func bindPushJob(env *Env, j *ops.Job, po *pushOptions, flags []cli.Flag, k pushKind) (*pushJob, error) {
	args, err := bindFlags(j, jobFlagsOf(&po.globalOptions, flags), fileKey)
	if err != nil {
		return nil, err
	}
	return bindPush(env, j, po, k, args[fileKey])
}

// bindZonedPush is bindPushJob for a push whose dates without an offset
// are in --timezone (tz), which it returns.
func bindZonedPush(env *Env, j *ops.Job, po *pushOptions, tz *string, flags []cli.Flag, k pushKind) (*pushJob, *time.Location, error) {
	p, err := bindPushJob(env, j, po, flags, k)
	if err != nil {
		return nil, nil, err
	}
	loc, err := env.zone(*tz)
	return p, loc, err
}

func bindStockPush(env *Env, j *ops.Job) (ops.Task, error) {
	o := &stockOptions{}
	p, err := bindPushJob(env, j, &o.pushOptions, stockPushFlags(o), stockKind)
	if err != nil {
		return ops.Task{}, err
	}
	return p.task(func(ctx context.Context, ps *pushSetup, po *pushOptions) (*engine.Report, error) {
		rep, err := stock.Push(ctx, o.stockOptions(ps, po))
		return reportOf(rep), err
	}), nil
}

func bindShipmentsPush(env *Env, j *ops.Job) (ops.Task, error) {
	o := &shipmentsOptions{}
	p, loc, err := bindZonedPush(env, j, &o.pushOptions, &o.Timezone, shipmentsPushFlags(o), shipmentsKind)
	if err != nil {
		return ops.Task{}, err
	}
	return p.task(func(ctx context.Context, ps *pushSetup, po *pushOptions) (*engine.Report, error) {
		rep, err := shipments.Push(ctx, shipments.Options{Options: ps.options(po), Location: loc})
		return reportOf(rep), err
	}), nil
}

func bindSlipsPush(env *Env, j *ops.Job) (ops.Task, error) {
	o := &slipsOptions{}
	p, loc, err := bindZonedPush(env, j, &o.pushOptions, &o.Timezone, slipsPushFlags(o), slipsKind)
	if err != nil {
		return ops.Task{}, err
	}
	return p.task(func(ctx context.Context, ps *pushSetup, po *pushOptions) (*engine.Report, error) {
		rep, err := slips.Push(ctx, slips.Options{Options: ps.options(po), Location: loc})
		return reportOf(rep), err
	}), nil
}

func bindPull(env *Env, j *ops.Job) (ops.Task, error) {
	o := &pullOptions{}
	if _, err := bindFlags(j, jobFlagsOf(&o.globalOptions, pullFlags(o))); err != nil {
		return ops.Task{}, err
	}
	if err := againAndAgain(j.Every, o.New); err != nil {
		return ops.Task{}, err
	}
	dirs, err := env.dirs()
	if err != nil {
		return ops.Task{}, err
	}
	o.State = dirs.StatePath(j.Account)
	po, err := o.options(env)
	if err == nil {
		err = exporter.CheckQuery(exporter.PullLines, po.Export.Query)
	}
	if err != nil {
		return ops.Task{}, err
	}
	return ops.Task{Writes: []string{o.Output}, Run: func(ctx context.Context, t ops.Target) (ops.Result, error) {
		po := po
		po.Export.Client, po.State, po.Account = t.Client, t.State, t.Scope
		p, err := pull.Open(po)
		if err != nil {
			return ops.Result{}, err
		}
		defer p.Close()
		sum, err := p.Pull(ctx, nil)
		if sum == nil {
			return ops.Result{}, err
		}
		return exportResult(sum, plural.Count(sum.Records, "fulfillment")+", "+plural.Count(sum.Rows, "line")), err
	}}, nil
}

func bindExport(env *Env, j *ops.Job) (ops.Task, error) {
	o := &exportOptions{}
	args, err := bindFlags(j, jobFlagsOf(&o.globalOptions, exportFlags(o, false)), reportKey)
	if err != nil {
		return ops.Task{}, err
	}
	o.Resource = args[reportKey]
	if !slices.Contains(exporter.ResourceNames, o.Resource) {
		err := fmt.Errorf("say what to export: %s", strings.Join(exporter.ResourceNames, ", "))
		if o.Resource != "" {
			err = fmt.Errorf("%q is not an export; exports: %s", o.Resource, strings.Join(exporter.ResourceNames, ", "))
		}
		return ops.Task{}, &ops.OptionError{Key: reportKey, Err: err}
	}
	eo, err := o.options(env, "lading export "+o.Resource+" -o "+o.Resource+".xlsx")
	if err == nil {
		err = exporter.CheckQuery(o.Resource, eo.Query)
	}
	if err != nil {
		return ops.Task{}, err
	}
	return ops.Task{Writes: []string{o.Output}, Run: func(ctx context.Context, t ops.Target) (ops.Result, error) {
		eo := eo
		eo.Client, eo.Output = t.Client, paths.Fill(o.Output, t.Now, eo.Location)
		sum, err := exporter.Export(ctx, eo)
		if sum == nil {
			return ops.Result{}, err
		}
		return exportResult(sum, plural.Count(sum.Records, "record")+", "+plural.Count(sum.Rows, "row")), err
	}}, nil
}

// exportResult is the result of a pull or an export that wrote sum.
func exportResult(sum *exporter.Summary, what string) ops.Result {
	res := ops.Result{Files: sum.Files, Summary: what}
	res.Traffic.Requests, res.Traffic.Reads, res.Traffic.Throttled = sum.Requests, sum.Requests, sum.Throttled
	if len(sum.Files) == 0 {
		res.Summary += ", no file written"
	}
	return res
}
