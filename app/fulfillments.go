package app

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/exporter"
	"lading/state"
)

func fulfillmentsCommand() *cli.Command {
	return &cli.Command{
		Name:  "fulfillments",
		Usage: "pull the open fulfillments into an order file; set a fulfillment's status",
		Subcommands: []*cli.Command{
			{
				Name:  "pull",
				Usage: "write the open fulfillments, one line per line item (bundles as their components), to CSV or XLSX",
				Description: "Columns: fulfillment_id, order_id, order_number, line_item_id, sku, variant_id, quantity,\n" +
					"quantity_shipped, quantity_left, status, created_at, bundle and the ship-to address. --new writes only\n" +
					"the fulfillments no earlier pull wrote (remembered in the state once the file is written).",
				Flags: append(exportFlags(),
					&cli.StringFlag{Name: "since", Usage: "only fulfillments created on or after this date, YYYY-MM-DD"},
					&cli.BoolFlag{Name: "new", Usage: "only the fulfillments no earlier pull wrote"},
					&cli.StringFlag{Name: "state", Value: state.DefaultPath, Usage: "local state file (what was pulled)"},
				),
				Action: runPull,
			},
			{
				Name:      "status",
				Usage:     "set the status of a fulfillment (any text; the account shows it), e.g. picking, on hold",
				ArgsUsage: "ID STATUS",
				Action:    runFulfillmentStatus,
			},
		},
	}
}

// pulledScope is where the state remembers the fulfillments pulled.
func pulledScope(account string) string { return account + "|pulled" }

func runPull(c *cli.Context) error {
	if err := noArgs(c); err != nil {
		return err
	}
	delim, err := delimiterFlag(c)
	if err != nil {
		return err
	}
	out := c.String("output")
	if err := checkOutputs([]namedPath{{"the state file", c.String("state")}}, []namedPath{{"--output", out}}); err != nil {
		return err
	}
	report, err := reportTemplate(c)
	if err != nil {
		return err
	}
	where := c.StringSlice("where")
	if since := c.String("since"); since != "" {
		if c.Bool("any") {
			return Usagef("--since and --any do not go together: --since must hold for every fulfillment")
		}
		where = append(where, "created_at >= "+since)
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
	scope := pulledScope(accountScope(c.String("base-url"), token))
	var keep func(api.ID) bool
	if c.Bool("new") {
		pulled, err := st.AllIDs(c.Context, scope)
		if err != nil {
			return err
		}
		keep = func(id api.ID) bool { _, done := pulled[string(id)]; return !done }
	}
	prog := newProgress(c, client)
	defer prog.Finish()
	sum, err := exporter.Export(c.Context, exporter.Options{
		Client: client, Resource: exporter.PullLines, Report: report, Keep: keep,
		Query:   exporter.Query{Where: where, Any: c.Bool("any"), Sort: split(c.String("sort"))},
		Columns: split(c.String("columns")), Output: out, BOM: c.Bool("bom"), Delimiter: delim,
		Concurrency: c.Int("concurrency"), Progress: prog,
	})
	prog.Finish()
	if err := exportError(err); err != nil {
		return err
	}
	pulled := make(map[string]string, len(sum.IDs))
	for _, id := range sum.IDs {
		pulled[id] = "1"
	}
	if err := st.PutIDs(c.Context, scope, pulled); err != nil {
		return fmt.Errorf("the order file is written, but what was pulled could not be remembered (a --new pull would write these fulfillments again): %w", err)
	}
	return printSummary(c, sum)
}

func runFulfillmentStatus(c *cli.Context) error {
	if c.NArg() != 2 || strings.TrimSpace(c.Args().Get(1)) == "" {
		return Usagef("fulfillments status takes a fulfillment id and a status: lading fulfillments status 100000123 \"on hold\"")
	}
	id := c.Args().Get(0)
	client, _, err := newClient(c)
	if err != nil {
		return err
	}
	res, err := client.Fulfillments.SetStatus(c.Context, api.ID(id), c.Args().Get(1))
	if err != nil {
		return err
	}
	if len(res.Failed) > 0 {
		return fmt.Errorf("the service refused the status of fulfillment %s: %s", id, res.Failed[0].Message)
	}
	fmt.Fprintf(envOf(c).Stdout, "fulfillment %s: status set to %q\n", id, c.Args().Get(1))
	return nil
}
