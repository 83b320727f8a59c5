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
	"lading/shipments"
	"lading/state"
)

func shipmentsCommand() *cli.Command {
	return &cli.Command{
		Name:        "shipments",
		Usage:       "post shipments with tracking from a warehouse system's confirmation file",
		Subcommands: []*cli.Command{shipmentsPushCommand()},
	}
}

func shipmentsPushCommand() *cli.Command {
	return &cli.Command{
		Name:      "push",
		Usage:     "post the shipments of a CSV or XLSX file against the open fulfillments, never shipping a line twice",
		ArgsUsage: "FILE",
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
			"into place when complete; a push that waited longer than one interval warns at every interval.\n\n" +
			"Exit codes: 0 every row posted or already shipped, 3 some rows failed (see the results file),\n" +
			"1 fatal error, 2 usage or mapping error, 4 another shipments push of this account is running,\n" +
			"130 interrupted (the writes in flight were finished and recorded).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "template", Aliases: []string{"t"}, Usage: "built-in shipments mapping: shipments (see lading templates list)"},
			&cli.StringFlag{Name: "mapping", Aliases: []string{"m"}, Usage: "mapping file (YAML) with a shipments: section"},
			&cli.StringFlag{Name: "timezone", Value: "UTC", Usage: "time zone of shipped_at dates and times written without an offset, e.g. Europe/Berlin or Local"},
			&cli.BoolFlag{Name: "dry-run", Usage: "check the file against the fulfillments and show what would be posted; post nothing"},
			&cli.DurationFlag{Name: "every", Usage: "keep running and push again at this interval, e.g. 5m"},
			&cli.DurationFlag{Name: "settle", Value: 5 * time.Second, Usage: "wait until FILE has not changed for this long before reading it"},
			&cli.StringFlag{Name: "results", Usage: "results file, .csv or .xlsx (default: FILE.results.csv)"},
			&cli.IntFlag{Name: "batch-size", Value: wire.MaxWriteRecords, Usage: "shipments per write request (at most 100)"},
			&cli.StringFlag{Name: "state", Value: state.DefaultPath, Usage: "local state file (shipments posted, batches)"},
			&cli.BoolFlag{Name: "json", Usage: "print each push's summary as JSON on stdout (one object per line)"},
		}, xlsxLimitFlags()...),
		Action: runShipmentsPush,
	}
}

func runShipmentsPush(c *cli.Context) error {
	if bs := c.Int("batch-size"); bs < 1 || bs > wire.MaxWriteRecords {
		return Usagef("--batch-size %d: want 1 to %d shipments per request", bs, wire.MaxWriteRecords)
	}
	if err := notNegative(c, "settle"); err != nil {
		return err
	}
	loc, err := time.LoadLocation(c.String("timezone"))
	if err != nil {
		return Usagef("--timezone %q: %v; give a zone like Europe/Berlin, America/New_York, UTC or Local", c.String("timezone"), err)
	}
	ps, err := openPush(c, pushKind{example: "lading shipments push --template shipments shipped.csv",
		has:     func(m *mapping.Mapping) bool { return m.Shipments != nil },
		missing: "%s has no shipments: section, so it cannot post shipments; use --template shipments, or add to the mapping\n  shipments:\n    fulfillment_id: <the fulfillment column>\n    sku: <the SKU column>\n    quantity: <the units shipped>\n    tracking_number: <the tracking column>",
		results: shipments.DefaultResultsPath})
	if err != nil {
		return err
	}
	defer ps.close()
	p, err := shipments.NewPusher(shipments.Options{
		Client: ps.client, State: ps.st, Scope: ps.scope,
		Mapping: ps.m, Input: ps.input, Limits: ps.limits, Location: loc, DryRun: c.Bool("dry-run"),
		BatchSize: c.Int("batch-size"), Concurrency: c.Int("concurrency"), ResultsFile: c.String("results"), Progress: ps.prog, Logger: logger(c),
	})
	if err != nil {
		return err
	}
	defer p.Close()
	once := func() error { return shipOnce(c, p, ps.input) }
	if every := c.Duration("every"); every != 0 {
		return repeat(c, "push", every, once, lasting)
	}
	return once()
}

// shipOnce waits for the file to settle, pushes it and prints the report;
// the error says how the push ended.
func shipOnce(c *cli.Context, p *shipments.Pusher, input string) error {
	if err := settledInput(c, input, "shipments push"); err != nil {
		return err
	}
	rep, err := p.Push(c.Context)
	if rep != nil {
		if perr := printShipments(c, rep); perr != nil {
			return perr
		}
	}
	if rep == nil {
		return pushOutcome(err, 0, 0, "", shipments.ErrInterrupted, nil)
	}
	return pushOutcome(err, rep.Failed(), len(rep.Lines), rep.Results, shipments.ErrInterrupted, nil)
}

// printShipments prints a push's report: as JSON, or as text.
func printShipments(c *cli.Context, rep *shipments.Report) error {
	out := envOf(c).Stdout
	if c.Bool("json") {
		return json.NewEncoder(out).Encode(rep)
	}
	printShipmentsReport(out, rep)
	return nil
}

func printShipmentsReport(w io.Writer, rep *shipments.Report) {
	verb := "shipments push"
	if rep.DryRun {
		verb = "shipments push (dry run: nothing posted)"
	}
	fmt.Fprintf(w, "%s of %s: %d rows: %s\n", verb, rep.Input, len(rep.Lines), shipmentCounts(rep.Rows))
	posted := "posted"
	if rep.DryRun {
		posted = "to post"
	}
	fmt.Fprintf(w, "  %d shipments %s, %d fulfillments completed", rep.Shipments, posted, len(rep.Completed))
	if len(rep.Completed) > 0 {
		fmt.Fprintf(w, " (%s)", joinIDs(rep.Completed))
	}
	fmt.Fprintf(w, ", %d statuses set; %d requests (%d reads, %d writes) in %s\n", rep.Statuses, rep.Requests, rep.Reads, rep.Writes, rep.Elapsed.Round(time.Millisecond))
	if len(rep.StillOpen) > 0 {
		fmt.Fprintf(w, "  warning: every line of fulfillments %s is shipped, but the service still lists them as open; check them in the account\n", joinIDs(rep.StillOpen))
	}
	if rep.Results != "" {
		fmt.Fprintf(w, "  results: %s\n", rep.Results)
	}
}

func shipmentCounts(cs shipments.Counts) string {
	order := []shipments.Action{shipments.Posted, shipments.ToPost, shipments.AlreadyShipped, shipments.Skipped,
		shipments.Refused, shipments.Invalid, shipments.Failed}
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

// joinIDs lists ids for people.
func joinIDs[T ~string](ids []T) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = string(id)
	}
	return strings.Join(s, ", ")
}
