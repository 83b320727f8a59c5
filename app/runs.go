package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"lading/history"
	"lading/plural"
	"lading/state"
	"lading/summary"
)

// runsOptions are the options of the runs commands.
type runsOptions struct {
	globalOptions
	State string
}

func runsFlags(o *runsOptions) []cli.Flag {
	return []cli.Flag{&cli.StringFlag{Name: "state", Value: state.DefaultPath, Destination: &o.State,
		Usage: "local state file whose runs to read"}}
}

func runsCommand(b *builder) *cli.Command {
	examples := []example{
		{"the runs of every job, newest first", "lading runs list"},
		{"what run 1 wrote, record by record, with the values before and after", "lading runs show 1"},
		{"forget the runs older than 30 days, but the last 100", "lading runs prune --keep 30d"},
	}
	return b.group(&cli.Command{
		Name:  "runs",
		Usage: "the history of the runs of every job (imports, pushes, undos)",
		Subcommands: []*cli.Command{runsListCommand(b, examples[0]), runsShowCommand(b, examples[1]),
			runsPruneCommand(b, examples[2])},
	}, doc{examples: examples})
}

func runsListCommand(b *builder, e example) *cli.Command {
	o := &runsOptions{}
	limit := 0
	return b.leaf(&cli.Command{
		Name:  "list",
		Usage: "list the runs, newest first: id, job, file, start, end, status, rows by status",
		Flags: append(runsFlags(o), &cli.IntFlag{Name: "last", Destination: &limit, Usage: "list only the last N runs (0: all)"}),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runRunsList(c.Context, b.env, o, limit)
		},
	}, &o.globalOptions, doc{examples: []example{e}})
}

func runRunsList(ctx context.Context, env *Env, o *runsOptions, limit int) error {
	st, err := openState(o.State)
	if err != nil {
		return err
	}
	defer st.Close()
	runs, err := history.List(ctx, st, limit)
	if err != nil {
		return err
	}
	if o.JSON {
		for _, r := range runs {
			if err := jsonLine(env.Stdout, r); err != nil {
				return err
			}
		}
		return nil
	}
	if len(runs) == 0 {
		fmt.Fprintf(env.Stdout, "no runs in %s\n", o.State)
		return nil
	}
	w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "RUN\tJOB\tFILE\tSTARTED\tENDED\tSTATUS\tROWS")
	for _, r := range runs {
		ended := "-"
		if r.Ended != nil {
			ended = r.Ended.Local().Format(time.DateTime)
		}
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, jobName(r), r.File, r.Started.Local().Format(time.DateTime), ended, r.Status, rowsText(r.Rows))
	}
	return w.Flush()
}

// openState opens an existing state file for reading its history: a path
// with no file is a usage error, not a new empty state.
func openState(path string) (*state.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, usageHint("--state names the state file a job used (by default .lading/state.db in the folder it ran in).",
			"no state file at %s: no job has run with it", path)
	}
	return state.Open(path)
}

// jobName is a run's job as the history shows it: an undo names its run.
func jobName(r history.Entry) string {
	if r.Of != 0 {
		return fmt.Sprintf("%s of run %d", r.Job, r.Of)
	}
	return r.Job
}

// rowsText is a run's rows by status, in the order summaries count them.
func rowsText(rows map[string]int) string {
	if len(rows) == 0 {
		return "-"
	}
	return summary.Text(summary.Of(rows))
}

func runsShowCommand(b *builder, e example) *cli.Command {
	o := &runsOptions{}
	return b.leaf(&cli.Command{
		Name:      "show",
		Usage:     "show what a run wrote, record by record, with the values before and after",
		ArgsUsage: "RUN",
		Flags:     runsFlags(o),
		Action: func(c *cli.Context) error {
			id, err := runArg(c)
			if err != nil {
				return err
			}
			return runRunsShow(c.Context, b.env, o, id)
		},
	}, &o.globalOptions, doc{examples: []example{e}})
}

// runArg is the command's one argument, a run's number.
func runArg(c *cli.Context) (int64, error) {
	if c.NArg() != 1 {
		return 0, usageHint("lading runs list shows the runs and their numbers.", "%s takes one run's number", commandLine(c))
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(c.Args().First(), "#"), 10, 64)
	if err != nil || id < 1 {
		return 0, usageHint("lading runs list shows the runs and their numbers.", "%q is not a run's number", c.Args().First())
	}
	return id, nil
}

func runRunsShow(ctx context.Context, env *Env, o *runsOptions, id int64) error {
	st, err := openState(o.State)
	if err != nil {
		return err
	}
	defer st.Close()
	run, recs, err := history.Show(ctx, st, id)
	if err != nil {
		return usageHint("lading runs list shows the runs and their numbers.", "run %d is not in %s", id, o.State)
	}
	if o.JSON {
		if err := jsonLine(env.Stdout, run); err != nil {
			return err
		}
		for _, r := range recs {
			if err := jsonLine(env.Stdout, r); err != nil {
				return err
			}
		}
		return nil
	}
	printRun(env.Stdout, run, recs)
	return nil
}

// printRun prints a run and what it wrote, for people.
func printRun(w io.Writer, run history.Entry, recs []history.Record) {
	fmt.Fprintf(w, "run %d: %s of %s, %s, started %s", run.ID, jobName(run), run.File, run.Status, run.Started.Local().Format(time.DateTime))
	if run.Ended != nil {
		fmt.Fprintf(w, ", ended %s", run.Ended.Local().Format(time.DateTime))
	}
	fmt.Fprintf(w, "\n  rows: %s\n  %s written\n", rowsText(run.Rows), plural.Count(len(recs), "record"))
	for _, r := range recs {
		fmt.Fprintf(w, "  %s\n", recordText(r))
	}
}

// recordText is one record a run wrote, on a line: "update level SKU-1
// (variant 12, warehouse 3): available 4 -> 7".
func recordText(r history.Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s", r.Op, r.Resource, r.Key)
	if r.ID != "" {
		fmt.Fprintf(&b, " (id %s", r.ID)
		if r.Parent != "" {
			fmt.Fprintf(&b, ", of %s", r.Parent)
		}
		b.WriteString(")")
	}
	for i, f := range r.Fields {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		before := f.Before
		if !f.Known {
			before = "?"
		}
		if r.Op == state.OpCreate {
			fmt.Fprintf(&b, "%s%s %s", sep, f.Name, f.After)
		} else {
			fmt.Fprintf(&b, "%s%s %s -> %s", sep, f.Name, before, f.After)
		}
	}
	if r.Written != state.WrittenYes {
		fmt.Fprintf(&b, " [written: %s]", r.Written)
	}
	return b.String()
}

func runsPruneCommand(b *builder, e example) *cli.Command {
	o := &runsOptions{}
	var keep string
	keepRuns := state.KeepRuns
	return b.leaf(&cli.Command{
		Name:  "prune",
		Usage: "forget old runs: those older than --keep that are not among the last --keep-runs (unfinished runs are kept)",
		Flags: append(runsFlags(o),
			&cli.StringFlag{Name: "keep", Value: "90d", Destination: &keep, Usage: "keep the runs of this long, e.g. 90d or 720h"},
			&cli.IntFlag{Name: "keep-runs", Value: state.KeepRuns, Destination: &keepRuns, Usage: "keep this many of the last runs, whatever their age"}),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			d, err := days(keep)
			if err != nil {
				return Usagef("--keep %s: want a length of time such as 90d or 720h", keep)
			}
			return runRunsPrune(c.Context, b.env, o, d, keepRuns)
		},
	}, &o.globalOptions, doc{examples: []example{e}})
}

// days reads a length of time in days (90d) or as Go writes durations.
func days(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		d, err := strconv.Atoi(n)
		if err != nil || d < 0 {
			return 0, fmt.Errorf("not a number of days: %q", s)
		}
		return time.Duration(d) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}

func runRunsPrune(ctx context.Context, env *Env, o *runsOptions, keep time.Duration, keepRuns int) error {
	st, err := openState(o.State)
	if err != nil {
		return err
	}
	defer st.Close()
	n, err := st.PruneRuns(ctx, time.Now().Add(-keep), keepRuns)
	if err != nil {
		return err
	}
	return o.emit(env, map[string]int{"pruned": n}, func(w io.Writer) {
		fmt.Fprintf(w, "forgot %s\n", plural.Count(n, "run"))
	})
}
