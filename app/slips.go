package app

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"lading/api/wire"
	"lading/engine"
	"lading/mapping"
	"lading/plural"
	"lading/slips"
	"lading/source"
	"lading/summary"
	"lading/templates"
)

func slipsCommand(b *builder) *cli.Command {
	return b.group(&cli.Command{
		Name:        "slips",
		Usage:       "create and update packing slips and their shipments from a warehouse system's file",
		Subcommands: []*cli.Command{slipsPushCommand(b)},
	}, doc{examples: slipsExamples, exits: exitsOfPushes})
}

var slipsExamples = []example{
	{"show the slips and shipments a file would create or change", "lading slips push --template slips --dry-run outbox/slips.csv"},
	{"push them, all or nothing", "lading slips push --template slips --strict outbox/slips.csv"},
}

// slipsOptions are the options of slips push.
type slipsOptions struct {
	pushOptions
	Timezone string
}

var slipsKind = pushKind{
	job: "slips push", example: "lading slips push --template slips shipped.csv", every: "15m",
	has:     func(m *mapping.Mapping) bool { return m.Slips != nil },
	missing: "%s has no slips: section, so it cannot push packing slips",
	sample: "Use --template slips, or add to the mapping:\n  slips:\n    key: <the column of the slip's own reference>\n" +
		"    order: <the sales order id column>",
}

// slipsPushFlags declares the flags of slips push, bound to o.
func slipsPushFlags(o *slipsOptions) []cli.Flag {
	flags := pushFlags(&o.pushOptions, slipsKind, jobWords{
		section: "slips", kinds: []string{templates.KindSlips},
		dryRun: "show the slips and shipments that would be created or changed; send nothing",
		state:  "the slips and shipments pushed, batches",
		strict: "any row is invalid or any slip does not fit its order in the account",
		batch:  "slips or shipments", batchSize: wire.MaxWriteRecords,
	})
	return append(flags, timezoneFlag(&o.Timezone, "time zone of dates and times written without an offset"))
}

func slipsPushCommand(b *builder) *cli.Command {
	o := &slipsOptions{}
	return b.push(&cli.Command{
		Name:  "push",
		Usage: "create or update packing slips and their shipments from a CSV or XLSX file, by the file's own slip reference",
		Description: "Reads FILE through a slips mapping (--template slips: slip_key, order_id, packing_slip_date, notes,\n" +
			"line_item_id and quantity, package, ship_date, tracking_number, tracking_link, cost, carrier, delivered).\n" +
			"Rows with one slip_key are one packing slip, with the lines they name and their shipments (one per\n" +
			"package). A slip_key pushed before is found in the state (or, without it, among its order's slips in\n" +
			"the account, by its key) and its slip changed, only in the fields that differ; the same file pushed\n" +
			"again sends nothing. A slip is checked against its order first: an order the account does not have, a\n" +
			"line of another order, more units than the order has left to pack, or a tracking number the order\n" +
			"already holds refuses it. A slip with an invalid row is not sent; the others go ahead.",
		Flags: slipsPushFlags(o),
	}, &o.pushOptions, slipsKind, doc{examples: slipsExamples, exits: exitsOfPushes}, func(ctx context.Context) error { return runSlipsPush(ctx, b.env, o) })
}

// runSlipsPush pushes the packing slips of o.Input, once or on a
// schedule.
func runSlipsPush(ctx context.Context, env *Env, o *slipsOptions) error {
	if err := checkBatchSize(o.BatchSize); err != nil {
		return err
	}
	loc, err := env.zone(o.Timezone)
	if err != nil {
		return err
	}
	ps, err := openPush(env, &o.pushOptions, slipsKind)
	if err != nil {
		return err
	}
	defer ps.close()
	opts := slips.Options{Options: ps.options(&o.pushOptions), Location: loc}
	return o.schedule(ctx, env, func() error {
		if err := ps.settle(ctx, &o.pushOptions, slipsKind); err != nil {
			return err
		}
		rep, err := slips.Push(ctx, opts)
		if rep != nil {
			if perr := o.emit(env, rep, func(w io.Writer) { printSlipsReport(w, rep) }); perr != nil {
				return perr
			}
		}
		return outcome(reportOf(rep), o.refit(err))
	}, lasting)
}

func printSlipsReport(w io.Writer, rep *slips.Report) {
	verb := "slips push"
	if rep.DryRun {
		verb = "slips push, dry run (nothing sent)"
	}
	fmt.Fprintf(w, "%s of %s\n", verb, source.Label(rep.Input, rep.Sheet))
	fmt.Fprintf(w, "  rows:      %s\n", summary.Text(rep.Rows))
	fmt.Fprintf(w, "  slips:     %s\n", summary.Text(rep.Slips))
	fmt.Fprintf(w, "  shipments: %s\n", summary.Text(rep.Packages))
	if rep.DryRun {
		printToChange(w, rep)
		fmt.Fprintf(w, "  requests:  %s in %s\n", plural.Count(rep.Reads, "read"), rep.Elapsed.Round(time.Millisecond))
	} else {
		printTraffic(w, "  requests:  ", rep.Traffic, rep.Elapsed)
	}
	if rep.Results != "" {
		fmt.Fprintf(w, "  results:   %s\n", rep.Results)
	}
}

// printToChange lists the rows a dry run would create or change.
func printToChange(w io.Writer, rep *slips.Report) {
	for _, l := range rep.Lines {
		if l.Action == engine.ToCreate || l.Action == engine.ToUpdate {
			fmt.Fprintf(w, "    row %d: %s: %s\n", l.Row, l.Values.Key, l.Msg)
		}
	}
}
