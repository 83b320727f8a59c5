package app

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"lading/api/wire"
	"lading/mapping"
	"lading/slips"
	"lading/state"
)

func slipsCommand() *cli.Command {
	return &cli.Command{
		Name:        "slips",
		Usage:       "create and update packing slips and their shipments from a warehouse system's file",
		Subcommands: []*cli.Command{slipsPushCommand()},
	}
}

func slipsPushCommand() *cli.Command {
	return &cli.Command{
		Name:      "push",
		Usage:     "create or update packing slips and their shipments from a CSV or XLSX file, by the file's own slip reference",
		ArgsUsage: "FILE",
		Description: "Reads FILE through a slips mapping (--template slips: slip_key, order_id, packing_slip_date, notes,\n" +
			"line_item_id and quantity, package, ship_date, tracking_number, tracking_link, cost, carrier, delivered).\n" +
			"Rows with one slip_key are one packing slip, with the lines they name and their shipments (one per\n" +
			"package). A slip_key pushed before is found in the state (or, without it, among its order's slips in\n" +
			"the account, by its key) and its slip changed, only in the fields that differ; the same file pushed\n" +
			"again sends nothing. A slip is checked against its order first: an order the account does not have, a\n" +
			"line of another order, more units than the order has left to pack, or a tracking number the order\n" +
			"already holds refuses it. A slip with an invalid row is not sent; the others go ahead.\n\n" +
			"Exit codes: 0 every row done, 3 some rows failed (see the results file), 1 fatal error,\n" +
			"2 usage or mapping error, 4 another slips push of this account is running,\n" +
			"130 interrupted (the writes in flight were finished and recorded).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "template", Aliases: []string{"t"}, Usage: "built-in slips mapping: slips (see lading templates list)"},
			&cli.StringFlag{Name: "mapping", Aliases: []string{"m"}, Usage: "mapping file (YAML) with a slips: section"},
			&cli.StringFlag{Name: "timezone", Value: "UTC", Usage: "time zone of dates and times written without an offset, e.g. Europe/Berlin or Local"},
			&cli.BoolFlag{Name: "strict", Usage: "send nothing if any row is invalid or any slip does not fit its order in the account"},
			&cli.BoolFlag{Name: "dry-run", Usage: "show the slips and shipments that would be created or changed; send nothing"},
			&cli.StringFlag{Name: "results", Usage: "results file, .csv or .xlsx (default: FILE.results.csv)"},
			&cli.IntFlag{Name: "batch-size", Value: wire.MaxWriteRecords, Usage: "slips or shipments per write request (at most 100)"},
			&cli.StringFlag{Name: "state", Value: state.DefaultPath, Usage: "local state file (the slips and shipments pushed, batches)"},
			&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON on stdout"},
		}, xlsxLimitFlags()...),
		Action: runSlipsPush,
	}
}

func runSlipsPush(c *cli.Context) error {
	if bs := c.Int("batch-size"); bs < 1 || bs > wire.MaxWriteRecords {
		return Usagef("--batch-size %d: want 1 to %d records per request", bs, wire.MaxWriteRecords)
	}
	loc, err := time.LoadLocation(c.String("timezone"))
	if err != nil {
		return Usagef("--timezone %q: %v; give a zone like Europe/Berlin, America/New_York, UTC or Local", c.String("timezone"), err)
	}
	ps, err := openPush(c, pushKind{example: "lading slips push --template slips shipped.csv",
		has:     func(m *mapping.Mapping) bool { return m.Slips != nil },
		missing: "%s has no slips: section, so it cannot push packing slips; use --template slips, or add to the mapping\n  slips:\n    key: <the column of the slip's own reference>\n    order: <the sales order id column>",
		results: slips.DefaultResultsPath})
	if err != nil {
		return err
	}
	defer ps.close()
	rep, err := slips.Push(c.Context, slips.Options{
		Client: ps.client, State: ps.st, Scope: ps.scope,
		Mapping: ps.m, Input: ps.input, Limits: ps.limits, Timezone: loc, Strict: c.Bool("strict"), DryRun: c.Bool("dry-run"),
		BatchSize: c.Int("batch-size"), Concurrency: c.Int("concurrency"), ResultsFile: c.String("results"),
		Progress: ps.prog, Logger: logger(c),
	})
	if rep != nil {
		if perr := printSlips(c, rep); perr != nil {
			return perr
		}
	}
	return slipsOutcome(rep, err)
}

// slipsOutcome maps how a push ended to the command's error (and so its
// exit code).
func slipsOutcome(rep *slips.Report, err error) error {
	if rep == nil {
		return pushOutcome(err, 0, 0, "", slips.ErrInterrupted, slips.ErrInvalid)
	}
	return pushOutcome(err, rep.Failed(), len(rep.Lines), rep.Results, slips.ErrInterrupted, slips.ErrInvalid)
}

// printSlips prints a push's report: as JSON, or as text.
func printSlips(c *cli.Context, rep *slips.Report) error {
	out := envOf(c).Stdout
	if c.Bool("json") {
		return json.NewEncoder(out).Encode(rep)
	}
	printSlipsReport(out, rep)
	return nil
}

func printSlipsReport(w io.Writer, rep *slips.Report) {
	verb := "slips push"
	if rep.DryRun {
		verb = "slips push, dry run (nothing sent)"
	}
	fmt.Fprintf(w, "%s of %s\n", verb, rep.Input)
	order := []slips.Action{slips.Created, slips.ToCreate, slips.Updated, slips.ToUpdate, slips.Unchanged, slips.Skipped, slips.Invalid, slips.Failed}
	fmt.Fprintf(w, "  rows:      %s\n", slipsCounts(rep.Rows, order))
	fmt.Fprintf(w, "  slips:     %s\n", slipsCounts(rep.Slips, order))
	fmt.Fprintf(w, "  shipments: %s\n", slipsCounts(rep.Packages, order))
	if rep.DryRun {
		printToChange(w, rep)
		fmt.Fprintf(w, "  requests:  %d reads in %s\n", rep.Reads, rep.Elapsed.Round(time.Millisecond))
	} else {
		fmt.Fprintf(w, "  requests:  %d (%d writes, %d reads; %d throttled) in %s\n", rep.Requests, rep.Writes, rep.Reads, rep.Throttled, rep.Elapsed.Round(time.Millisecond))
	}
	if rep.Results != "" {
		fmt.Fprintf(w, "  results:   %s\n", rep.Results)
	}
}

// printToChange lists the rows a dry run would create or change.
func printToChange(w io.Writer, rep *slips.Report) {
	for _, l := range rep.Lines {
		if l.Action == slips.ToCreate || l.Action == slips.ToUpdate {
			fmt.Fprintf(w, "    row %d: %s: %s\n", l.Row, l.Values.Key, l.Msg)
		}
	}
}

func slipsCounts(cs slips.Counts, order []slips.Action) string {
	var parts []string
	for _, a := range order {
		if n := cs[a]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, a))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
