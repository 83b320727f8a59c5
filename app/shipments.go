package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"lading/mapping"
	"lading/shipments"
	"lading/source"
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
			"Rows of one fulfillment and tracking number are one shipment. Rows posted by an earlier push are\n" +
			"reported as already shipped; a quantity over what is left to ship refuses its row, and nothing of its\n" +
			"shipment is sent. A fulfillment whose every line is shipped completes and leaves the open list.\n\n" +
			"With --every 5m it keeps running and pushes FILE again on that interval (rows already posted are\n" +
			"not sent again, so the warehouse system may keep appending to FILE).\n\n" +
			"Exit codes: 0 every row posted or already shipped, 3 some rows failed (see the results file),\n" +
			"1 fatal error, 2 usage or mapping error, 4 another shipments push of this account is running,\n" +
			"130 interrupted (the writes in flight were finished and recorded).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "template", Aliases: []string{"t"}, Usage: "built-in shipments mapping: shipments (see lading templates list)"},
			&cli.StringFlag{Name: "mapping", Aliases: []string{"m"}, Usage: "mapping file (YAML) with a shipments: section"},
			&cli.StringFlag{Name: "timezone", Value: "UTC", Usage: "time zone of shipped_at dates and times written without an offset, e.g. Europe/Berlin or Local"},
			&cli.BoolFlag{Name: "dry-run", Usage: "check the file against the fulfillments and show what would be posted; post nothing"},
			&cli.DurationFlag{Name: "every", Usage: "keep running and push again at this interval, e.g. 5m"},
			&cli.DurationFlag{Name: "settle", Value: 5 * time.Second, Usage: "wait until FILE has not changed for this long before reading it"},
			&cli.StringFlag{Name: "results", Usage: "results file, .csv or .xlsx (default: FILE.results.csv)"},
			&cli.StringFlag{Name: "max-xlsx-part-size", Value: "4GiB", Usage: "the most one part of an XLSX workbook may unzip to"},
			&cli.StringFlag{Name: "max-xlsx-cell-size", Value: "1MiB", Usage: "the most one XLSX cell may hold"},
			&cli.StringFlag{Name: "state", Value: state.DefaultPath, Usage: "local state file (shipments posted, batches)"},
			&cli.BoolFlag{Name: "json", Usage: "print each push's summary as JSON on stdout (one object per line)"},
		},
		Action: runShipmentsPush,
	}
}

func runShipmentsPush(c *cli.Context) error {
	input, err := oneInput(c, "lading shipments push --template shipments shipped.csv")
	if err != nil {
		return err
	}
	every := c.Duration("every")
	if every != 0 && every < time.Second {
		return Usagef("--every %s: want an interval of 1s or more, e.g. 5m (or leave it out to push once)", every)
	}
	if _, err := os.Stat(input); err != nil && (every == 0 || !errors.Is(err, os.ErrNotExist)) {
		return Usagef("input file: %v", err)
	}
	loc, err := time.LoadLocation(c.String("timezone"))
	if err != nil {
		return Usagef("--timezone %q: %v; give a zone like Europe/Berlin, America/New_York, UTC or Local", c.String("timezone"), err)
	}
	m, _, err := loadMapping(c)
	if err != nil {
		return err
	}
	if m.Shipments == nil {
		return Usagef("%s has no shipments: section, so it cannot post shipments; use --template shipments, or add to the mapping\n  shipments:\n    fulfillment_id: <the fulfillment column>\n    sku: <the SKU column>\n    quantity: <the units shipped>\n    tracking_number: <the tracking column>", m.File)
	}
	limits, err := xlsxLimits(c)
	if err != nil {
		return err
	}
	if err := checkPushPaths(c, input, shipments.DefaultResultsPath(input)); err != nil {
		return err
	}
	client, token, err := newClient(c)
	if err != nil {
		return err
	}
	st, err := state.Open(c.String("state"))
	if err != nil {
		return err
	}
	defer st.Close()
	prog := newProgress(c, client)
	defer prog.Finish()
	p, err := shipments.NewPusher(shipments.Options{
		Client: client, State: st, Scope: accountScope(c.String("base-url"), token),
		Mapping: m, Input: input, Limits: limits, Location: loc, DryRun: c.Bool("dry-run"),
		Concurrency: c.Int("concurrency"), ResultsFile: c.String("results"), Progress: prog, Logger: logger(c),
	})
	if err != nil {
		return err
	}
	defer p.Close()
	once := func() error { return shipOnce(c, p, input) }
	if every == 0 {
		return once()
	}
	return repeat(c, "push", every, once, lasting)
}

// shipOnce waits for the file to settle, pushes it and prints the report;
// the error says how the push ended.
func shipOnce(c *cli.Context, p *shipments.Pusher, input string) error {
	log := logger(c)
	err := source.WaitSettled(c.Context, input, c.Duration("settle"), func(d time.Duration, why string) {
		log.Info("waiting for the file to settle before reading it", "file", input, "wait", d.Round(time.Millisecond), "why", why)
	})
	if err != nil {
		if c.Context.Err() != nil {
			return &InterruptedError{Msg: "shipments push interrupted before reading " + input + ": nothing was sent"}
		}
		return fmt.Errorf("reading %s: %w", input, err)
	}
	rep, err := p.Push(c.Context)
	if rep != nil {
		if perr := printShipments(c, rep); perr != nil {
			return perr
		}
	}
	var (
		mErr  *mapping.Error
		mList mapping.ErrorList
	)
	switch {
	case errors.Is(err, shipments.ErrInterrupted):
		return &InterruptedError{Msg: err.Error()}
	case errors.As(err, &mErr), errors.As(err, &mList):
		return &UsageError{Err: err}
	case err != nil:
		return err
	case rep.Failed() > 0:
		return &PartialError{Failed: rep.Failed(), Total: len(rep.Lines), What: "rows", See: rep.Results}
	}
	return nil
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
