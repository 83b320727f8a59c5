package app

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"lading/api/wire"
	"lading/mapping"
	"lading/plural"
	"lading/shipments"
	"lading/source"
	"lading/summary"
	"lading/templates"
)

func shipmentsCommand(b *builder) *cli.Command {
	return b.group(&cli.Command{
		Name:        "shipments",
		Usage:       "post shipments with tracking from a warehouse system's confirmation file",
		Subcommands: []*cli.Command{shipmentsPushCommand(b)},
	}, doc{examples: shipmentsExamples, exits: exitsOfPushes})
}

var shipmentsExamples = []example{
	{"check a confirmation file against the open fulfillments, posting nothing", "lading shipments push --template shipments --dry-run outbox/shipped.csv"},
	{"post what shipped every 5 minutes, as the warehouse system appends to the file", "lading shipments push --template shipments --every 5m --quiet outbox/shipped.csv"},
}

// shipmentsOptions are the options of shipments push.
type shipmentsOptions struct {
	pushOptions
	Timezone string
}

var shipmentsKind = pushKind{
	job: "shipments push", example: "lading shipments push --template shipments shipped.csv", every: "5m",
	has:     func(m *mapping.Mapping) bool { return m.Shipments != nil },
	missing: "%s has no shipments: section, so it cannot post shipments",
	sample: "Use --template shipments, or add to the mapping:\n  shipments:\n    fulfillment_id: <the fulfillment column>\n" +
		"    sku: <the SKU column>\n    quantity: <the units shipped>\n    tracking_number: <the tracking column>",
}

// shipmentsPushFlags declares the flags of shipments push, bound to o.
func shipmentsPushFlags(o *shipmentsOptions) []cli.Flag {
	flags := pushFlags(&o.pushOptions, shipmentsKind, jobWords{
		section: "shipments", kinds: []string{templates.KindShipments},
		dryRun: "check the file against the fulfillments and show what would be posted; post nothing",
		state:  "shipments posted, batches",
		strict: "any row is invalid or does not fit its fulfillment in the account",
		batch:  "shipments", batchSize: wire.MaxWriteRecords,
	})
	return append(flags, timezoneFlag(&o.Timezone, "time zone of shipped_at dates and times written without an offset"))
}

func shipmentsPushCommand(b *builder) *cli.Command {
	o := &shipmentsOptions{}
	return b.push(&cli.Command{
		Name:  "push",
		Usage: "post the shipments of a CSV or XLSX file against the open fulfillments, never shipping a line twice",
		Description: "Reads FILE through a shipments mapping (--template shipments: fulfillment_id or order_number,\n" +
			"line_item_id or sku, quantity, tracking_number, carrier, tracking_link, cost, shipped_at, status).\n" +
			"Rows of one fulfillment and tracking number are one shipment. Rows whose tracking number already\n" +
			"shipped their line (as the state remembers, or as the fulfillment's shipments in the account show:\n" +
			"another --state posts nothing twice) are reported as already shipped, with another quantity as\n" +
			"failed; a quantity over what is left to ship, or a tracking number the order holds as a slip's\n" +
			"shipment, refuses its row, and nothing of its shipment is sent. A fulfillment whose every line is\n" +
			"shipped completes and leaves the open list.\n\n" +
			"With --every 5m it keeps running and pushes FILE again on that interval (rows already posted are\n" +
			"not sent again, so the warehouse system may keep appending to FILE). A file changed in the last\n" +
			"--settle (5s) is waited for: have the warehouse system write FILE under another name and rename it\n" +
			"into place when complete; a push that waited longer than one interval warns at every interval.",
		Flags: shipmentsPushFlags(o),
	}, &o.pushOptions, shipmentsKind, doc{examples: shipmentsExamples, exits: exitsOfPushes}, func(ctx context.Context) error { return runShipmentsPush(ctx, b.env, o) })
}

// runShipmentsPush posts the shipments of o.Input, once or on a schedule.
func runShipmentsPush(ctx context.Context, env *Env, o *shipmentsOptions) error {
	if err := checkBatchSize(o.BatchSize); err != nil {
		return err
	}
	loc, err := env.zone(o.Timezone)
	if err != nil {
		return err
	}
	ps, err := openPush(env, &o.pushOptions, shipmentsKind)
	if err != nil {
		return err
	}
	defer ps.close()
	p, err := shipments.NewPusher(shipments.Options{Options: ps.options(&o.pushOptions), Location: loc})
	if err != nil {
		return err
	}
	defer p.Close()
	return o.schedule(ctx, env, func() error {
		if err := ps.settle(ctx, &o.pushOptions, shipmentsKind); err != nil {
			return err
		}
		rep, err := p.Push(ctx)
		if rep == nil {
			return outcome(nil, o.refit(err))
		}
		if perr := o.emit(env, rep, func(w io.Writer) { printShipmentsReport(w, rep) }); perr != nil {
			return perr
		}
		return outcome(reportOf(rep), o.refit(err))
	}, lasting)
}

func printShipmentsReport(w io.Writer, rep *shipments.Report) {
	verb, posted := "shipments push", "posted"
	if rep.DryRun {
		verb, posted = "shipments push (dry run: nothing posted)", "to post"
	}
	fmt.Fprintf(w, "%s of %s: %s: %s\n", verb, source.Label(rep.Input, rep.Sheet), plural.Count(len(rep.Lines), "row"), summary.Text(rep.Rows))
	fmt.Fprintf(w, "  %s %s, %s completed", plural.Count(rep.Shipments, "shipment"), posted, plural.Count(len(rep.Completed), "fulfillment"))
	if len(rep.Completed) > 0 {
		fmt.Fprintf(w, " (%s)", joinIDs(rep.Completed))
	}
	fmt.Fprintf(w, ", %s set\n", plural.Count(rep.Statuses, "status"))
	printTraffic(w, "  requests: ", rep.Traffic, rep.Elapsed)
	if len(rep.StillOpen) > 0 {
		fmt.Fprintf(w, "  warning: every line of fulfillments %s is shipped, but the service still lists them as open; check them in the account\n", joinIDs(rep.StillOpen))
	}
	if rep.Results != "" {
		fmt.Fprintf(w, "  results: %s\n", rep.Results)
	}
}

// joinIDs lists ids for people.
func joinIDs[T ~string](ids []T) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = string(id)
	}
	return strings.Join(s, ", ")
}
