package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/api/wire"
	"lading/mapping"
	"lading/plural"
	"lading/source"
	"lading/stock"
	"lading/summary"
	"lading/templates"
)

func stockCommand(b *builder) *cli.Command {
	return b.group(&cli.Command{
		Name:        "stock",
		Usage:       "push stock levels from a warehouse system's file",
		Subcommands: []*cli.Command{stockPushCommand(b)},
	}, doc{examples: stockExamples, exits: exitsOfPushes})
}

var stockExamples = []example{
	{"push the levels of a file once, and see first what would be sent", "lading stock push --template stock --dry-run outbox/stock.csv"},
	{"push them every 15 minutes, from cron or a service, printing only the summary", "lading stock push --template stock --every 15m --quiet outbox/stock.csv"},
	{"repair levels changed in the account since the last push", "lading stock push --template stock --verify outbox/stock.csv"},
}

// stockOptions are the options of stock push.
type stockOptions struct {
	pushOptions
	Warehouse    string
	Full, Verify bool
}

var stockKind = pushKind{
	job: "stock push", example: "lading stock push --template stock stock.csv", every: "15m",
	has:     func(m *mapping.Mapping) bool { return m.Stock != nil },
	missing: "%s has no stock: section, so it cannot push stock levels",
	sample:  "Use --template stock, or add to the mapping:\n  stock:\n    sku: <the SKU column>\n    quantity: <the quantity column>",
}

// stockPushFlags declares the flags of stock push, bound to o.
func stockPushFlags(o *stockOptions) []cli.Flag {
	flags := pushFlags(&o.pushOptions, stockKind, jobWords{
		section: "stock", kinds: []string{templates.KindStock},
		dryRun: "show the levels that would be sent; send nothing",
		state:  "SKU ids, levels pushed, batches",
		strict: "any row is invalid or its SKU unknown",
		batch:  "levels", batchSize: wire.MaxWriteRecords,
	})
	return append(flags,
		&cli.StringFlag{Name: "warehouse", Destination: &o.Warehouse, Usage: "id of the warehouse for rows that name none (default: the access token's warehouse)",
			Action: func(_ *cli.Context, w string) error {
				if strings.TrimSpace(w) == "" {
					return usageHint("See lading stock push --help.", "--warehouse is empty: give the warehouse's id, or leave the flag out for the access token's warehouse")
				}
				return nil
			}},
		&cli.BoolFlag{Name: "full", Destination: &o.Full, Usage: "send every row's level, changed or not"},
		&cli.BoolFlag{Name: "verify", Destination: &o.Verify, Usage: "compare with the live levels (reads the whole variant listing) rather than with the last push: repairs levels changed elsewhere"},
	)
}

func stockPushCommand(b *builder) *cli.Command {
	o := &stockOptions{}
	return b.push(&cli.Command{
		Name:  "push",
		Usage: "set the account's stock levels from a CSV or XLSX file: only what changed since the last push",
		Description: "Reads FILE (SKU, quantity, optional warehouse per row) through a stock mapping (--template stock, or\n" +
			"--mapping FILE with a stock: section), finds each SKU's variant, and sets the available units of those\n" +
			"whose quantity differs from the level last pushed and confirmed. It never creates or changes anything\n" +
			"but stock: unknown SKUs and bad quantities are reported on their rows in the results file.\n\n" +
			"With --every 15m it keeps running and pushes FILE again on that interval. A file changed in the last\n" +
			"--settle (5s) is waited for: have the warehouse system write FILE under another name and rename it\n" +
			"into place when complete; a push that waited longer than one interval warns at every interval.",
		Flags: stockPushFlags(o),
	}, &o.pushOptions, stockKind, doc{examples: stockExamples, exits: exitsOfPushes}, func(ctx context.Context) error { return runStockPush(ctx, b.env, o) })
}

// runStockPush pushes the stock levels of o.Input, once or on a schedule.
func runStockPush(ctx context.Context, env *Env, o *stockOptions) error {
	if err := checkBatchSize(o.BatchSize); err != nil {
		return err
	}
	ps, err := openPush(env, &o.pushOptions, stockKind)
	if err != nil {
		return err
	}
	defer ps.close()
	p, err := stock.NewPusher(o.stockOptions(ps, &o.pushOptions))
	if err != nil {
		return err
	}
	defer p.Close()
	return o.schedule(ctx, env, func() error {
		if err := ps.settle(ctx, &o.pushOptions, stockKind); err != nil {
			return err
		}
		rep, err := p.Push(ctx)
		if rep != nil {
			if perr := o.emit(env, rep, func(w io.Writer) { printStockReport(w, rep, o.Rate, o.BatchSize) }); perr != nil {
				return perr
			}
		}
		return outcome(reportOf(rep), o.refit(err))
	}, stockLasting)
}

// stockOptions are the options of the stock package for a push of
// po.Input (o's own, or a file a folder job took).
func (o *stockOptions) stockOptions(ps *pushSetup, po *pushOptions) stock.Options {
	return stock.Options{Options: ps.options(po), Warehouse: strings.TrimSpace(o.Warehouse), Full: o.Full, Verify: o.Verify}
}

// stockLasting reports whether err would stop every later push too (see
// repeat): lasting's errors, and a warehouse not found.
func stockLasting(err error) bool {
	return lasting(err) || errors.Is(err, stock.ErrWarehouse)
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
	fmt.Fprintf(w, "%s of %s", verb, source.Label(rep.Input, rep.Sheet))
	if len(rep.Warehouses) > 0 {
		fmt.Fprintf(w, " to %s %s", plural.Of(len(rep.Warehouses), "warehouse"), strings.Join(rep.Warehouses, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  rows:     %s\n", summary.Text(rep.Rows))
	if rep.DryRun {
		printToSend(w, rep)
		reqs := summary.Requests(rep.Levels, batch)
		est := summary.Duration(reqs, rate)
		fmt.Fprintf(w, "  levels to send: %d, in %s (about %s at %.4g requests/s)\n", rep.Levels, plural.Count(reqs, "write request"), est, rate)
		fmt.Fprintf(w, "  requests: %s in %s\n", plural.Count(rep.Reads, "read"), rep.Elapsed.Round(time.Millisecond))
	} else {
		fmt.Fprintf(w, "  levels sent: %d\n", rep.Levels)
		printTraffic(w, "  requests: ", rep.Traffic, rep.Elapsed)
	}
	if rep.Results != "" {
		fmt.Fprintf(w, "  results:  %s\n", rep.Results)
	}
}

// printTraffic prints a job's requests after label: "1 request (1 write,
// 0 reads; 0 throttled) in 1.2s".
func printTraffic(w io.Writer, label string, t api.Traffic, elapsed time.Duration) {
	fmt.Fprintf(w, "%s%s\n", label, summary.Traffic(t, elapsed))
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
