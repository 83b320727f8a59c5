package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"lading/ops"
	"lading/plural"
)

var runExamples = []example{
	{"run the jobs of a jobs file until stopped, with metrics for Prometheus and JSON logs", "lading run --metrics-addr 127.0.0.1:9464 --log-format json /etc/lading/jobs.yaml"},
	{"run the jobs that are due once and exit (cron, a Kubernetes CronJob), one account only", "lading run --once --only acme /etc/lading/jobs.yaml"},
}

var jobsExamples = []example{
	{"check a jobs file and see when each job runs next", "lading jobs check /etc/lading/jobs.yaml"},
}

// runOptions are the options of run.
type runOptions struct {
	globalOptions
	File        string
	Once        bool
	Only        []string
	MetricsAddr string
	LogFormat   string
	Parallel    int
}

func runCommand(b *builder) *cli.Command {
	o := &runOptions{}
	return b.oneArg(&cli.Command{
		Name:      "run",
		Usage:     "run the jobs of a jobs file for many accounts in one process: every interval, on a schedule, on each file dropped in a folder",
		ArgsUsage: "JOBS.yaml",
		Description: "Runs each job of JOBS.yaml (see lading jobs check) for its account until stopped: a job with every:\n" +
			"at that interval, one with schedule: at its cron times in its zone:, one with folder: on each file\n" +
			"dropped there once it has settled, moving it to done/ or failed/ with its results file beside it.\n" +
			"The jobs of an account share one pacer for its token and run one of a kind at a time; an account\n" +
			"that fails (a refused token, say) does not stop the others. When each job last ran is kept in its\n" +
			"account's state: started again, lading runs what is due, resumes a run that was cut short, and\n" +
			"catches up a schedule's time it missed. SIGTERM (systemctl stop) finishes the writes in flight,\n" +
			"records them and exits 0; SIGHUP reads JOBS.yaml again (a file with mistakes is refused and the\n" +
			"jobs run on). --once runs the jobs due now once and exits: 1 if a run failed, 3 if rows failed,\n" +
			"4 if another process held a job.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "once", Destination: &o.Once, Usage: "run the jobs due now (and each folder's settled files) once, and exit"},
			&cli.GenericFlag{Name: "only", Value: &stringList{&o.Only}, Usage: "run only the jobs of this account; repeatable"},
			&cli.StringFlag{Name: "metrics-addr", Destination: &o.MetricsAddr, Usage: "serve /metrics (Prometheus) and /healthz on this address, e.g. 127.0.0.1:9464"},
			&cli.StringFlag{Name: "log-format", Value: "text", Destination: &o.LogFormat, Usage: "text (key=value) or json: one line a run, with its account and job"},
			&cli.IntFlag{Name: "parallel", Value: ops.DefaultParallel, Destination: &o.Parallel,
				Usage: "runs in flight at once, of all the accounts; a run due waits for a place"},
		},
	}, &o.globalOptions, &o.File, "one jobs file", doc{examples: runExamples, exits: []int{ExitPartial, ExitLocked}},
		func(ctx context.Context) error { return runJobs(ctx, b.env, o) })
}

// runLogger is run's logger: one line a run, as --log-format says.
func (o *runOptions) runLogger(env *Env) (*slog.Logger, error) {
	level := slog.LevelInfo
	switch {
	case o.Debug:
		level = slog.LevelDebug
	case o.Quiet:
		level = slog.LevelWarn
	}
	opts := &slog.HandlerOptions{Level: level}
	switch o.LogFormat {
	case "text":
		return slog.New(slog.NewTextHandler(env.Stderr, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(env.Stderr, opts)), nil
	}
	return nil, Usagef("--log-format %q: want text or json", o.LogFormat)
}

// loadJobs reads and checks a jobs file; its mistakes are a usage error.
func loadJobs(env *Env, file string) (*ops.Jobs, ops.Dirs, error) {
	if err := checkInput("jobs file", file); err != nil {
		return nil, ops.Dirs{}, err
	}
	dirs, err := env.dirs()
	if err != nil {
		return nil, dirs, err
	}
	reg, err := ops.OpenRegistry(dirs)
	if err != nil {
		return nil, dirs, err
	}
	local := env.Local
	if local == nil {
		local = time.UTC
	}
	jobs, err := ops.Load(file, ops.Setup{Kinds: jobKinds(env), Registry: reg, Local: local})
	if err != nil {
		return nil, dirs, usageHint("lading jobs check "+file+" checks the file; see lading help run for its keys.", "%w", err)
	}
	return jobs, dirs, nil
}

func runJobs(ctx context.Context, env *Env, o *runOptions) error {
	log, err := o.runLogger(env)
	if err != nil {
		return err
	}
	jobs, dirs, err := loadJobs(env, o.File)
	if err != nil {
		return err
	}
	if o.Parallel < 1 {
		return Usagef("--parallel %d: want 1 or more runs at once", o.Parallel)
	}
	r := &ops.Runner{Dirs: dirs, Logger: log, ClientOptions: env.APIOptions, Only: o.Only, Parallel: o.Parallel}
	if o.Once {
		tally, err := r.Once(ctx, jobs)
		if err != nil {
			return asUsage(err)
		}
		return onceError(tally)
	}
	if o.MetricsAddr != "" {
		ln, err := net.Listen("tcp", o.MetricsAddr)
		if err != nil {
			return usageHint("Give another address, e.g. --metrics-addr 127.0.0.1:9465.", "--metrics-addr: %w", err)
		}
		r.Metrics = ops.NewMetrics()
		log.Info(fmt.Sprintf("serving metrics on http://%s/metrics and /healthz", ln.Addr()), "metrics_addr", ln.Addr().String())
		go r.Metrics.Serve(ctx, ln, r.Healthy)
	}
	var reload <-chan struct{}
	if env.Reload != nil {
		reload = env.Reload()
	}
	log.Info(fmt.Sprintf("running %s from %s", plural.Count(len(jobs.Jobs), "job"), o.File))
	err = r.Run(ctx, jobs, reload, func() (*ops.Jobs, error) {
		jobs, _, err := loadJobs(env, o.File)
		return jobs, err
	})
	return asUsage(err)
}

// onceError is how run --once ended: an error when a run failed, rows
// failed, another process held a job, or lading was stopped.
func onceError(t ops.Tally) error {
	n := 0
	for _, k := range t {
		n += k
	}
	if t[ops.Interrupted] > 0 {
		return &InterruptedError{Msg: "run --once stopped: the writes in flight were finished and recorded; the next run resumes them"}
	}
	if t[ops.Failed]+t[ops.Partial]+t[ops.Locked] == 0 {
		return nil
	}
	return &RunsError{Runs: n, Failed: t[ops.Failed], Partial: t[ops.Partial], Locked: t[ops.Locked]}
}

// jobsCheckOptions are the options of jobs check.
type jobsCheckOptions struct {
	globalOptions
	File string
}

func jobsCommand(b *builder) *cli.Command {
	o := &jobsCheckOptions{}
	check := b.oneArg(&cli.Command{
		Name:      "check",
		Usage:     "check a jobs file (accounts, tokens, commands and their options, schedules, folders) and say when each job runs next",
		ArgsUsage: "JOBS.yaml",
		Description: "A jobs file names accounts and jobs (lading run runs them):\n\n" +
			"  accounts:\n" +
			"    acme: {base_url: \"https://HOST/api2\", token_file: /etc/lading/acme.token}\n" +
			"  jobs:\n" +
			"    - {account: acme, job: stock push, file: /srv/acme/stock.csv, template: stock, every: 15m}\n" +
			"    - {account: acme, job: fulfillments pull, output: \"/srv/acme/orders/{time}.csv\", new: true, every: 5m}\n" +
			"    - {account: acme, job: shipments push, folder: /srv/acme/confirmations, template: shipments}\n" +
			"    - {account: acme, job: export, report: packing-slips, template: accounting-slips,\n" +
			"       output: \"/srv/acme/reports/{month}.xlsx\", schedule: \"0 6 1 * *\", zone: Europe/Berlin}\n\n" +
			"An account is given there (base_url, token_file, rate, burst) or by lading accounts add. A job is\n" +
			"account, job (stock push, shipments push, slips push, fulfillments pull, export), when it runs\n" +
			"(every, schedule with zone, or folder), name (for logs and metrics; the job's command unless two\n" +
			"of an account share it), and the command's own flags by their long names (template, batch-size,\n" +
			"where: [...], ...), with file (a push's file) and report (what an export exports).",
	}, &o.globalOptions, &o.File, "one jobs file", doc{examples: jobsExamples}, func(ctx context.Context) error { return runJobsCheck(ctx, b.env, o) })
	return b.group(&cli.Command{
		Name:        "jobs",
		Usage:       "check the jobs file lading run runs",
		Subcommands: []*cli.Command{check},
	}, doc{examples: append(slices.Clone(jobsExamples), runExamples...)})
}

// plannedLine is a job as jobs check --json prints it.
type plannedLine struct {
	Account string    `json:"account"`
	Job     string    `json:"job"`
	Command string    `json:"command"`
	Line    int       `json:"line"`
	When    string    `json:"when"`
	Next    time.Time `json:"next"`
	Zone    string    `json:"zone,omitempty"`
	LastRun time.Time `json:"last_run,omitzero"`
	// Unfinished: the last run was cut short (killed, stopped); the next
	// resumes it.
	Unfinished bool `json:"unfinished,omitempty"`
	Waiting    int  `json:"waiting,omitempty"`
}

func runJobsCheck(ctx context.Context, env *Env, o *jobsCheckOptions) error {
	jobs, dirs, err := loadJobs(env, o.File)
	if err != nil {
		return err
	}
	if err := ops.Check(jobs, dirs); err != nil {
		return usageHint("Mend these, then check again.", "%w", err)
	}
	now := time.Now()
	if env.Now != nil {
		now = env.Now()
	}
	plan, err := ops.Plan(ctx, jobs, dirs, now)
	if err != nil {
		return err
	}
	if o.JSON {
		for _, p := range plan {
			l := plannedLine{Account: p.Job.Account, Job: p.Job.Name, Command: p.Job.Kind, Line: p.Job.Line, When: p.Job.When(), Next: p.Next, LastRun: p.Times.Started, Unfinished: p.Times.Unfinished(), Waiting: p.Waiting}
			if p.Job.Zone != nil {
				l.Zone = p.Job.Zone.String()
			}
			if err := jsonLine(env.Stdout, l); err != nil {
				return err
			}
		}
		return nil
	}
	printPlan(env.Stdout, jobs, plan, now, env.Local)
	return nil
}

// printPlan prints the jobs of a checked file by when they run next.
func printPlan(w io.Writer, jobs *ops.Jobs, plan []ops.Planned, now time.Time, loc *time.Location) {
	fmt.Fprintf(w, "%s: %s of %s, no mistakes\n", jobs.Path, plural.Count(len(plan), "job"), plural.Count(len(jobs.Accounts), "account"))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ACCOUNT\tJOB\tRUNS\tNEXT")
	for _, p := range plan {
		name := p.Job.Name
		if name != p.Job.Kind {
			name += " (" + p.Job.Kind + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Job.Account, name, p.Job.When(), p.NextText(now, loc))
	}
	tw.Flush()
}
