package app

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"lading/engine"
	"lading/paths"
	"lading/plural"
	"lading/state"
	"lading/summary"
	"lading/undo"
)

// undoOptions are the options of lading undo.
type undoOptions struct {
	runsOptions
	Results string
	DryRun  bool
	Force   bool
	Archive bool
}

func undoCommand(b *builder) *cli.Command {
	o := &undoOptions{}
	examples := []example{
		{"what undoing run 1 would take back, with the requests it costs; nothing is written", "lading undo --dry-run 1"},
		{"take back what run 1 (an import or a stock push) wrote", "lading undo 1"},
		{"also set back values changed since the run, and archive the products it created", "lading undo --force --archive 1"},
	}
	return b.leaf(&cli.Command{
		Name:      "undo",
		Usage:     "take back what an import or a stock push wrote (lading runs list shows the runs)",
		ArgsUsage: "RUN",
		Description: "Reads what RUN recorded before it sent each batch, reads the account, and takes back what still holds\n" +
			"RUN's values: products, variants and product files it created are deleted (--archive archives\n" +
			"products instead), fields, prices and stock levels it changed are set back to what they were\n" +
			"before, tags it added are taken off and those it took off put back. A value changed since by\n" +
			"someone else is a conflict: kept as it is and reported with its three values (--force sets it\n" +
			"back). What RUN archived or deleted stays so: the service cannot unarchive a product or bring\n" +
			"back a deleted record. An undo is a run of its own: interrupted, it continues when run again,\n" +
			"and undoing it does RUN's changes of fields again. Shipments and packing slips are not undone.",
		Flags: append(runsFlags(&o.runsOptions),
			&cli.BoolFlag{Name: "dry-run", Destination: &o.DryRun, Usage: "read the account and show what would be taken back; write nothing"},
			&cli.BoolFlag{Name: "force", Destination: &o.Force, Usage: "set back values changed since the run too"},
			&cli.BoolFlag{Name: "archive", Destination: &o.Archive, Usage: "archive the products the run created instead of deleting them"},
			&cli.StringFlag{Name: "results", Destination: &o.Results, Usage: "results file, .csv or .xlsx (default: undo-RUN.results.csv)"},
		),
		Action: func(c *cli.Context) error {
			id, err := runArg(c)
			if err != nil {
				return err
			}
			return runUndo(c.Context, b.env, o, id)
		},
	}, &o.globalOptions, doc{examples: examples, exits: exitsOfJobs})
}

func runUndo(ctx context.Context, env *Env, o *undoOptions, id int64) error {
	if o.Results != "" {
		if err := checkOutputs([]paths.Named{{What: "the state file", Path: o.State}}, []paths.Named{{What: "--results", Path: o.Results, Sheet: true}}); err != nil {
			return err
		}
	}
	st, err := openState(o.State)
	if err != nil {
		return err
	}
	defer st.Close()
	client, token, err := o.client(env)
	if err != nil {
		return err
	}
	prog := o.progress(env, client)
	defer prog.Finish()
	rep, err := undo.Undo(ctx, undo.Options{Client: client, State: st, Scope: o.account(token), Run: id, DryRun: o.DryRun,
		Force: o.Force, Archive: o.Archive, Concurrency: o.Concurrency, ResultsFile: o.Results, Progress: prog, Logger: o.logger(env)})
	prog.Finish()
	if rep != nil {
		if perr := o.emit(env, rep, func(w io.Writer) { printUndoReport(w, rep) }); perr != nil {
			return perr
		}
	}
	return outcome(reportOf(rep), usageOf(err))
}

// usageOf makes a run that cannot be undone a usage error, saying why.
func usageOf(err error) error {
	if _, ok := err.(*undo.NotUndoableError); ok {
		return usageHint("lading runs list shows the runs, and which are imports and stock pushes.", "%w", err)
	}
	return err
}

func printUndoReport(w io.Writer, rep *undo.Report) {
	verb := "undo"
	if rep.DryRun {
		verb = "undo, dry run (nothing written)"
	}
	fmt.Fprintf(w, "%s of run %d (%s): %s\n", verb, rep.Undoes, rep.Job, plural.Count(len(rep.Lines), "record"))
	fmt.Fprintf(w, "  records:  %s\n", summary.Text(rep.Rows))
	if len(rep.Later) > 0 {
		ids := make([]string, len(rep.Later))
		for i, id := range rep.Later {
			ids[i] = fmt.Sprint(id)
		}
		fmt.Fprintf(w, "  warning: %s since wrote some of these records again (%s): a value %s changed is a conflict, kept unless --force; one %s left as this run set it is taken back\n",
			plural.Count(len(rep.Later), "later run"), strings.Join(ids, ", "), plural.Word(len(rep.Later), "it", "they"), plural.Word(len(rep.Later), "it", "they"))
	}
	if n := notUndone(rep.Lines); n > 0 {
		fmt.Fprintf(w, "  not taken back: %s the run archived or deleted (the service cannot unarchive a product or bring back a deleted record)\n",
			plural.Count(n, "record"))
	}
	printUndoLines(w, rep.Lines)
	if rep.DryRun {
		fmt.Fprintf(w, "  writes needed: %s\n", plural.Count(rep.RequestsPlanned, "request"))
	}
	printTraffic(w, "  requests: ", rep.Traffic, rep.Elapsed)
	if rep.Results != "" {
		fmt.Fprintf(w, "  results:  %s\n", rep.Results)
	}
}

// shownLines is how many of the records an undo would write, or keeps
// as conflicts, its report lists; the results file lists them all.
const shownLines = 20

// printUndoLines lists what the undo would write, and the conflicts.
func printUndoLines(w io.Writer, lines []undo.Line) {
	n := 0
	for _, l := range lines {
		switch l.Action {
		case undo.ToRestore, engine.ToDelete, engine.ToArchive, engine.Conflict:
		default:
			continue
		}
		if n++; n <= shownLines {
			fmt.Fprintf(w, "    %s %s %s: %s\n", l.Action, l.Resource, l.Key, l.Msg)
		}
	}
	if n > shownLines {
		fmt.Fprintf(w, "    ... and %d more (the results file lists every record)\n", n-shownLines)
	}
}

// notUndone counts the records the run archived or deleted, which an undo
// cannot take back.
func notUndone(lines []undo.Line) int {
	n := 0
	for _, l := range lines {
		if l.Action == engine.Skipped && (l.Op == state.OpArchive || l.Op == state.OpDelete) {
			n++
		}
	}
	return n
}
