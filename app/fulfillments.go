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
	"lading/exporter"
	"lading/paths"
	"lading/plural"
	"lading/pull"
	"lading/state"
)

func fulfillmentsCommand(b *builder) *cli.Command {
	return b.group(&cli.Command{
		Name:        "fulfillments",
		Usage:       "pull the open fulfillments into an order file; set a fulfillment's status",
		Subcommands: []*cli.Command{pullCommand(b), statusCommand(b)},
	}, doc{examples: append(pullExamples, statusExample), exits: []int{ExitLocked, ExitInterrupted}})
}

// pullOptions are the options of fulfillments pull.
type pullOptions struct {
	exportOptions
	scheduleOptions
	Since string
	New   bool
	State string
}

var pullExamples = []example{
	{"the open fulfillments, one line per item to ship", "lading fulfillments pull -o orders.csv"},
	{"every 5 minutes, the new ones only, each pull in a file of its own", "lading fulfillments pull --new --every 5m -o inbox/orders-{time}.csv"},
	{"in ShipStream's order import layout", "lading fulfillments pull --new --template shipstream -o inbox/shipstream-{time}.csv"},
}

var statusExample = example{"put a fulfillment on hold", `lading fulfillments status 100000123 "on hold"`}

// pullFlags declares the flags of fulfillments pull, bound to o.
func pullFlags(o *pullOptions) []cli.Flag {
	return append(exportFlags(&o.exportOptions, true),
		&cli.StringFlag{Name: "since", Destination: &o.Since, Usage: "only fulfillments created on or after this date, YYYY-MM-DD"},
		&cli.BoolFlag{Name: "new", Destination: &o.New, Usage: "only the fulfillments no earlier --new pull wrote; none: no file is written"},
		everyFlag(&o.scheduleOptions, "pull the new fulfillments", "5m"),
		stateFlag(&o.State, "what was pulled"),
	)
}

func pullCommand(b *builder) *cli.Command {
	o := &pullOptions{}
	return b.leaf(&cli.Command{
		Name:  "pull",
		Usage: "write the open fulfillments, one line per line item (bundles as their components), to CSV or XLSX",
		Description: "Columns: fulfillment_id, order_id, order_number, line_item_id, sku, variant_id, quantity,\n" +
			"quantity_shipped, quantity_left, status, created_at, bundle, the ship-to address, phone and email;\n" +
			"--template shipstream writes ShipStream's order import layout instead (see lading templates list).\n\n" +
			"--new writes only the fulfillments no earlier --new pull wrote, and remembers them in the state once\n" +
			"the file is in place; a pull without --new is a look and remembers nothing. A --new pull that finds\n" +
			"none writes no file: an order file the warehouse system\n" +
			"has not read yet is left as it is. With --every 5m (and --new) lading keeps running and pulls again\n" +
			"on that interval. {time} in the file's name is the pull's time (UTC): -o orders-{time}.csv gives each\n" +
			"pull its own file, orders-20261122T180953Z.csv, so that a file not yet read is never replaced.",
		Flags: pullFlags(o),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runPull(c.Context, b.env, o)
		},
	}, &o.globalOptions, doc{examples: pullExamples, exits: []int{ExitLocked, ExitInterrupted}})
}

// runPull pulls the open fulfillments into order files, once or on a
// schedule.
func runPull(ctx context.Context, env *Env, o *pullOptions) error {
	var err error
	if o.State, err = o.stateFile(env, o.State); err != nil {
		return err
	}
	po, err := o.options(env)
	if err != nil {
		return err
	}
	client, token, err := o.client(env)
	if err != nil {
		return err
	}
	po.Export.Client = client
	st, err := state.Open(o.State)
	if err != nil {
		return err
	}
	defer st.Close()
	po.State, po.Account = st, o.account(token)
	p, err := pull.Open(po)
	if err != nil {
		return err
	}
	defer p.Close()
	once := func() error {
		sum, err := p.Pull(ctx, o.progress(env, client))
		switch {
		case errors.Is(err, pull.ErrInterrupted):
			return &InterruptedError{Msg: "fulfillments " + err.Error()}
		case sum == nil:
			return exportError(ctx, err)
		}
		if perr := o.emit(env, sum, func(w io.Writer) { printPull(w, sum, o.New) }); perr != nil {
			return perr
		}
		return err
	}
	if o.Every > 0 {
		return repeat(ctx, env, &o.globalOptions, "pull", o.Every, once, lasting)
	}
	return once()
}

// options checks the flags of a pull and gives the puller's options but
// for the client, state and account.
func (o *pullOptions) options(env *Env) (pull.Options, error) {
	if err := againAndAgain(o.Every, o.New); err != nil {
		return pull.Options{}, err
	}
	if o.Every != 0 && o.Every < time.Second {
		return pull.Options{}, Usagef("--every %s: want an interval of 1s or more, e.g. 5m (or leave it out to pull once)", o.Every)
	}
	if o.Since != "" {
		if o.Any {
			return pull.Options{}, Usagef("--since and --any do not go together: --since must hold for every fulfillment")
		}
		o.Where = append(o.Where, "created_at >= "+o.Since)
	}
	eo, err := o.exportOptions.options(env, "lading fulfillments pull -o orders.csv")
	if err != nil {
		return pull.Options{}, err
	}
	if err := checkOutputs([]paths.Named{{What: "the state file", Path: o.State}}, []paths.Named{{What: "--output", Path: pull.Name(o.Output, time.Now(), eo.Location), Sheet: true}}); err != nil {
		return pull.Options{}, err
	}
	return pull.Options{Export: eo, Output: o.Output, New: o.New}, nil
}

// againAndAgain refuses a pull run every interval without --new: each
// would write the same open fulfillments again.
func againAndAgain(every time.Duration, isNew bool) error {
	if every == 0 || isNew {
		return nil
	}
	return usageHint("Add --new: each pull then writes only the fulfillments no earlier pull wrote (without it, every pull would write the same open fulfillments again).",
		"--every pulls again and again, so it goes with --new")
}

func printPull(w io.Writer, s *exporter.Summary, isNew bool) {
	which := "open fulfillment"
	if isNew {
		which = "new fulfillment"
	}
	fmt.Fprintf(w, "fulfillments pull: %s, %s\n", plural.Count(s.Records, which), plural.Count(s.Rows, "line"))
	printReads(w, s)
	for _, f := range s.Files {
		fmt.Fprintf(w, "  file:     %s\n", f)
	}
	if len(s.Files) == 0 {
		fmt.Fprintln(w, "  file:     none written (nothing new)")
	}
}

// statusOptions are the options of fulfillments status.
type statusOptions struct {
	globalOptions
	ID, Status string
}

func statusCommand(b *builder) *cli.Command {
	o := &statusOptions{}
	return b.leaf(&cli.Command{
		Name:      "status",
		Usage:     "set the status of a fulfillment (any text; the account shows it), e.g. picking, on hold",
		ArgsUsage: "ID STATUS",
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return usageHint("For example: "+statusExample.line, "fulfillments status takes a fulfillment id and a status")
			}
			o.ID, o.Status = c.Args().Get(0), c.Args().Get(1)
			return runFulfillmentStatus(c.Context, b.env, o)
		},
	}, &o.globalOptions, doc{examples: []example{statusExample}})
}

// runFulfillmentStatus sets the status of a fulfillment.
func runFulfillmentStatus(ctx context.Context, env *Env, o *statusOptions) error {
	if strings.TrimSpace(o.Status) == "" {
		return usageHint("For example: "+statusExample.line, "the status is empty")
	}
	client, _, err := o.client(env)
	if err != nil {
		return err
	}
	res, err := client.Fulfillments.SetStatus(ctx, api.ID(o.ID), o.Status)
	if err != nil {
		return err
	}
	if len(res.Failed) > 0 {
		return fmt.Errorf("the service refused the status of fulfillment %s: %s", o.ID, res.Failed[0].Message)
	}
	return o.emit(env, map[string]string{"fulfillment": o.ID, "status": o.Status}, func(w io.Writer) {
		fmt.Fprintf(w, "fulfillment %s: status set to %q\n", o.ID, o.Status)
	})
}
