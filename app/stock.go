package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"lading/api/wire"
	"lading/mapping"
	"lading/state"
	"lading/stock"
)

func stockCommand() *cli.Command {
	return &cli.Command{
		Name:        "stock",
		Usage:       "push stock levels from a warehouse system's file",
		Subcommands: []*cli.Command{stockPushCommand()},
	}
}

func stockPushCommand() *cli.Command {
	return &cli.Command{
		Name:      "push",
		Usage:     "set the account's stock levels from a CSV or XLSX file: only what changed since the last push",
		ArgsUsage: "FILE",
		Description: "Reads FILE (SKU, quantity, optional warehouse per row) through a stock mapping (--template stock, or\n" +
			"--mapping FILE with a stock: section), finds each SKU's variant, and sets the available units of those\n" +
			"whose quantity differs from the level last pushed and confirmed. It never creates or changes anything\n" +
			"but stock: unknown SKUs and bad quantities are reported on their rows in the results file.\n\n" +
			"With --every 15m it keeps running and pushes FILE again on that interval. A file changed in the last\n" +
			"--settle (5s) is waited for: have the warehouse system write FILE under another name and rename it\n" +
			"into place when complete; a push that waited longer than one interval warns at every interval.\n\n" +
			"Exit codes: 0 every row sent or unchanged, 3 some rows failed (see the results file), 1 fatal error,\n" +
			"2 usage or mapping error, 4 another push of this account and warehouse is running,\n" +
			"130 interrupted (the writes in flight were finished and recorded).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "template", Aliases: []string{"t"}, Usage: "built-in stock mapping: stock (sku, quantity, warehouse) or a warehouse system's export (see lading templates list)"},
			&cli.StringFlag{Name: "mapping", Aliases: []string{"m"}, Usage: "mapping file (YAML) with a stock: section"},
			&cli.StringFlag{Name: "warehouse", Usage: "id of the warehouse for rows that name none (default: the access token's warehouse)"},
			&cli.BoolFlag{Name: "full", Usage: "send every row's level, changed or not"},
			&cli.BoolFlag{Name: "verify", Usage: "compare with the live levels (reads the whole variant listing) rather than with the last push: repairs levels changed elsewhere"},
			&cli.BoolFlag{Name: "strict", Usage: "send nothing if any row is invalid or its SKU unknown"},
			&cli.BoolFlag{Name: "dry-run", Usage: "show the levels that would be sent; send nothing"},
			&cli.DurationFlag{Name: "every", Usage: "keep running and push again at this interval, e.g. 15m"},
			&cli.DurationFlag{Name: "settle", Value: 5 * time.Second, Usage: "wait until FILE has not changed for this long before reading it"},
			&cli.StringFlag{Name: "results", Usage: "results file, .csv or .xlsx (default: FILE.results.csv)"},
			&cli.IntFlag{Name: "batch-size", Value: wire.MaxWriteRecords, Usage: "levels per write request (at most 100)"},
			&cli.StringFlag{Name: "state", Value: state.DefaultPath, Usage: "local state file (SKU ids, levels pushed, batches)"},
			&cli.BoolFlag{Name: "json", Usage: "print each push's summary as JSON on stdout (one object per line)"},
		}, xlsxLimitFlags()...),
		Action: runStockPush,
	}
}

// stockFlags checks the flags of stock push.
func stockFlags(c *cli.Context) error {
	if bs := c.Int("batch-size"); bs < 1 || bs > wire.MaxWriteRecords {
		return Usagef("--batch-size %d: want 1 to %d levels per request", bs, wire.MaxWriteRecords)
	}
	if err := notNegative(c, "settle"); err != nil {
		return err
	}
	if w := c.String("warehouse"); c.IsSet("warehouse") && strings.TrimSpace(w) == "" {
		return Usagef("--warehouse is empty: give the warehouse's id, or leave the flag out for the access token's warehouse")
	}
	return nil
}

func runStockPush(c *cli.Context) error {
	if err := stockFlags(c); err != nil {
		return err
	}
	ps, err := openPush(c, pushKind{example: "lading stock push --template stock stock.csv",
		has:     func(m *mapping.Mapping) bool { return m.Stock != nil },
		missing: "%s has no stock: section, so it cannot push stock levels; use --template stock, or add to the mapping\n  stock:\n    sku: <the SKU column>\n    quantity: <the quantity column>",
		results: stock.DefaultResultsPath})
	if err != nil {
		return err
	}
	defer ps.close()
	p, err := stock.NewPusher(stock.Options{
		Client: ps.client, State: ps.st, Scope: ps.scope,
		Mapping: ps.m, Input: ps.input, Limits: ps.limits, Warehouse: strings.TrimSpace(c.String("warehouse")),
		Full: c.Bool("full"), Verify: c.Bool("verify"), Strict: c.Bool("strict"), DryRun: c.Bool("dry-run"),
		BatchSize: c.Int("batch-size"), Concurrency: c.Int("concurrency"), ResultsFile: c.String("results"),
		Progress: ps.prog, Logger: logger(c),
	})
	if err != nil {
		return err
	}
	defer p.Close()
	once := func() error { return pushOnce(c, p, ps.input) }
	if every := c.Duration("every"); every != 0 {
		return repeat(c, "push", every, once, stockLasting)
	}
	return once()
}

// oneInput is the command's one argument, the input file; example shows
// how the command is called.
func oneInput(c *cli.Context, example string) (string, error) {
	if c.NArg() == 1 {
		return c.Args().First(), nil
	}
	for _, a := range c.Args().Slice()[min(1, c.NArg()):] {
		if strings.HasPrefix(a, "-") {
			return "", Usagef("flag %s comes after the input file: put flags before it, e.g. %s", a, example)
		}
	}
	return "", Usagef("%s takes one input file: %s", commandLine(c), example)
}

// checkPushPaths refuses a results file that is one of a push's inputs;
// results is the results file written when --results is not given.
func checkPushPaths(c *cli.Context, input, results string) error {
	stateFile := namedPath{"the state file", c.String("state")}
	inputs := []namedPath{{"the input file", input}, stateFile}
	if f := c.String("mapping"); f != "" {
		inputs = append(inputs, namedPath{"the --mapping file", f})
	}
	var outputs []namedPath
	switch r := c.String("results"); {
	case r != "":
		outputs = append(outputs, namedPath{"--results", r})
	case !c.Bool("dry-run"):
		outputs = append(outputs, namedPath{"the results file", results})
	}
	if err := checkOutputs(inputs, outputs); err != nil {
		return err
	}
	return checkStatePath(namedPath{"--state", stateFile.path})
}

// pushOnce waits for the file to settle, pushes it and prints the report;
// the error says how the push ended (see stockOutcome).
func pushOnce(c *cli.Context, p *stock.Pusher, input string) error {
	if err := settledInput(c, input, "stock push"); err != nil {
		return err
	}
	rep, err := p.Push(c.Context)
	if rep != nil {
		if perr := printStock(c, rep); perr != nil {
			return perr
		}
	}
	return stockOutcome(rep, err)
}

// stockOutcome maps how a push ended to the command's error (and so its
// exit code).
func stockOutcome(rep *stock.Report, err error) error {
	if rep == nil {
		return pushOutcome(err, 0, 0, "", stock.ErrInterrupted, stock.ErrInvalid)
	}
	return pushOutcome(err, rep.Failed(), len(rep.Lines), rep.Results, stock.ErrInterrupted, stock.ErrInvalid)
}

// stockLasting reports whether err would stop every later push too (see
// repeat): lasting's errors, and a warehouse not found.
func stockLasting(err error) bool {
	return lasting(err) || errors.Is(err, stock.ErrWarehouse)
}

// printStock prints a push's report: as JSON, or as text.
func printStock(c *cli.Context, rep *stock.Report) error {
	out := envOf(c).Stdout
	if c.Bool("json") {
		return json.NewEncoder(out).Encode(rep)
	}
	printStockReport(out, rep, c.Float64("rate"), c.Int("batch-size"))
	return nil
}

func printStockReport(w io.Writer, rep *stock.Report, rate float64, batch int) {
	verb := "stock push"
	switch {
	case rep.DryRun:
		verb = "stock push, dry run (nothing sent)"
	case rep.Verify:
		verb = "stock push, verified against the live levels"
	case rep.Full:
		verb = "stock push, every level"
	}
	fmt.Fprintf(w, "%s of %s", verb, rep.Input)
	if len(rep.Warehouses) > 0 {
		fmt.Fprintf(w, " to warehouse %s", strings.Join(rep.Warehouses, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  rows:     %s\n", stockCounts(rep.Rows))
	if rep.DryRun {
		printToSend(w, rep)
		reqs := (rep.Levels + batch - 1) / batch
		est := time.Duration(float64(reqs) / rate * float64(time.Second)).Round(time.Second)
		fmt.Fprintf(w, "  levels to send: %d, in %d write requests (about %s at %.4g requests/s)\n", rep.Levels, reqs, est, rate)
		fmt.Fprintf(w, "  requests: %d reads in %s\n", rep.Reads, rep.Elapsed.Round(time.Millisecond))
	} else {
		fmt.Fprintf(w, "  levels sent: %d\n", rep.Levels)
		fmt.Fprintf(w, "  requests: %d (%d writes, %d reads; %d throttled) in %s\n", rep.Requests, rep.Writes, rep.Reads, rep.Throttled, rep.Elapsed.Round(time.Millisecond))
	}
	if rep.Results != "" {
		fmt.Fprintf(w, "  results:  %s\n", rep.Results)
	}
}

// printToSend lists the levels a dry run would send.
func printToSend(w io.Writer, rep *stock.Report) {
	for _, l := range rep.Lines {
		if l.Action != stock.ToSend {
			continue
		}
		old := "none known"
		if l.HasOld {
			old = fmt.Sprint(l.Old)
		}
		fmt.Fprintf(w, "    row %d: %s (variant %s, warehouse %s): %s -> %d\n", l.Row, l.SKU, l.VariantID, l.WarehouseID, old, l.Units)
	}
}

func stockCounts(cs stock.Counts) string {
	order := []stock.Action{stock.Sent, stock.ToSend, stock.Unchanged, stock.Skipped, stock.Unknown, stock.Invalid, stock.Failed}
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
