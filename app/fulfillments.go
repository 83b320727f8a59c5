package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

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
					"quantity_shipped, quantity_left, status, created_at, bundle, the ship-to address, phone and email;\n" +
					"--template shipstream writes ShipStream's order import layout instead (see lading templates list).\n\n" +
					"--new writes only the fulfillments no earlier --new pull wrote, and remembers them in the state once\n" +
					"the file is in place; a pull without --new is a look and remembers nothing. A --new pull that finds none writes no file: an order file the warehouse system\n" +
					"has not read yet is left as it is. With --every 5m (and --new) lading keeps running and pulls again\n" +
					"on that interval. {time} in the file's name is the pull's time (UTC): -o orders-{time}.csv gives each\n" +
					"pull its own file, orders-20261122T180953Z.csv, so that a file not yet read is never replaced.\n\n" +
					"Exit codes: 0 done, 1 fatal error, 2 usage error, 4 another --new pull of this account is running,\n" +
					"130 interrupted during a pull (no file written, nothing remembered).",
				Flags:  pullFlags(),
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

// pullFlags are an export's flags, said for a pull, and the pull's own.
func pullFlags() []cli.Flag {
	flags := exportFlags()
	for _, f := range flags {
		if sf, ok := f.(*cli.StringFlag); ok {
			switch sf.Name {
			case "template":
				sf.Usage = "an order-file layout: shipstream, ShipStream's order import (see lading templates list)"
			case "output":
				sf.Usage = "the file to write: .xlsx, or .csv; {time} in its name is the pull's time, e.g. orders-{time}.csv"
			}
		}
	}
	return append(flags,
		&cli.StringFlag{Name: "since", Usage: "only fulfillments created on or after this date, YYYY-MM-DD"},
		&cli.BoolFlag{Name: "new", Usage: "only the fulfillments no earlier --new pull wrote; none: no file is written"},
		&cli.DurationFlag{Name: "every", Usage: "with --new: keep running and pull again at this interval, e.g. 5m"},
		&cli.StringFlag{Name: "state", Value: state.DefaultPath, Usage: "local state file (what was pulled)"},
	)
}

// pulledScope is where the state remembers the fulfillments pulled.
func pulledScope(account string) string { return account + "|pulled" }

// timeField in an output name is replaced by the pull's time.
const timeField = "{time}"

// outputName is the file a pull at t writes: pattern with {time} as
// 20261122T180953Z.
func outputName(pattern string, t time.Time) string {
	return strings.ReplaceAll(pattern, timeField, t.UTC().Format("20060102T150405Z"))
}

// freshName is the file a pull at t writes. A {time} name that an earlier
// pull of the same second took gets -2, -3, … after the time: each pull
// keeps its own file.
func freshName(pattern string, t time.Time) string {
	out := outputName(pattern, t)
	for i := 2; strings.Contains(pattern, timeField) && i < 1000; i++ {
		if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
			break
		}
		out = outputName(strings.ReplaceAll(pattern, timeField, timeField+"-"+strconv.Itoa(i)), t)
	}
	return out
}

// puller pulls the open fulfillments into order files, once or on a
// schedule; a --new puller holds the account's pull lock until close.
type puller struct {
	c      *cli.Context
	client *api.Client
	st     *state.DB
	lock   *state.Lock
	opts   exporter.Options // Output and Keep are set for each pull
	out    string           // -o, {time} not yet replaced
	scope  string
	isNew  bool
}

func runPull(c *cli.Context) error {
	p, err := newPuller(c)
	if err != nil {
		return err
	}
	defer p.close()
	if every := c.Duration("every"); every > 0 {
		return repeat(c, "pull", every, p.pull, lasting)
	}
	return p.pull()
}

// pullSettings checks a pull's flags and gives its export's options.
func pullSettings(c *cli.Context) (exporter.Options, error) {
	if err := noArgs(c); err != nil {
		return exporter.Options{}, err
	}
	switch every := c.Duration("every"); {
	case every != 0 && !c.Bool("new"):
		return exporter.Options{}, Usagef("--every pulls again and again, so it goes with --new: each pull then writes only the fulfillments no earlier pull wrote (without --new every pull would write the same open fulfillments again)")
	case every != 0 && every < time.Second:
		return exporter.Options{}, Usagef("--every %s: want an interval of 1s or more, e.g. 5m (or leave it out to pull once)", every)
	}
	out := c.String("output")
	if strings.Contains(filepath.Dir(out), timeField) {
		return exporter.Options{}, Usagef("--output %s: %s goes in the file's name, not in its folder", out, timeField)
	}
	if err := checkOutputs([]namedPath{{"the state file", c.String("state")}}, []namedPath{{"--output", outputName(out, time.Now())}}); err != nil {
		return exporter.Options{}, err
	}
	delim, err := delimiterFlag(c)
	if err != nil {
		return exporter.Options{}, err
	}
	report, err := reportTemplate(c)
	if err != nil {
		return exporter.Options{}, err
	}
	where := c.StringSlice("where")
	if since := c.String("since"); since != "" {
		if c.Bool("any") {
			return exporter.Options{}, Usagef("--since and --any do not go together: --since must hold for every fulfillment")
		}
		where = append(where, "created_at >= "+since)
	}
	return exporter.Options{
		Resource: exporter.PullLines, Report: report,
		Query:   exporter.Query{Where: where, Any: c.Bool("any"), Sort: split(c.String("sort"))},
		Columns: split(c.String("columns")), BOM: c.Bool("bom"), Delimiter: delim, Concurrency: c.Int("concurrency"),
	}, nil
}

// newPuller checks the flags, opens the state and, for --new, takes the
// account's pull lock: two pulls must not both write the same new
// fulfillments.
func newPuller(c *cli.Context) (*puller, error) {
	opts, err := pullSettings(c)
	if err != nil {
		return nil, err
	}
	client, token, err := newClient(c)
	if err != nil {
		return nil, err
	}
	opts.Client = client
	st, err := state.Open(c.String("state"))
	if err != nil {
		return nil, err
	}
	account := accountScope(c.String("base-url"), token)
	p := &puller{c: c, client: client, st: st, opts: opts, out: c.String("output"), scope: pulledScope(account), isNew: c.Bool("new")}
	if p.isNew {
		if p.lock, err = st.Hold("fulfillments pull\x00"+account, "a fulfillments pull (--new) of this account"); err != nil {
			st.Close()
			return nil, err
		}
	}
	return p, nil
}

func (p *puller) close() {
	p.lock.Release()
	p.st.Close()
}

// pull writes one order file and remembers what it wrote. The file is
// written in a folder of its own beside its place (which a warehouse
// system watching the place does not read), and moved into place once
// whole; a --new pull that finds nothing new moves nothing.
func (p *puller) pull() error {
	ctx := p.c.Context
	o := p.opts
	if p.isNew {
		pulled, err := p.st.AllIDs(ctx, p.scope)
		if err != nil {
			return err
		}
		o.Keep = func(id api.ID) bool { _, done := pulled[string(id)]; return !done }
	}
	out := freshName(p.out, time.Now())
	stage, err := os.MkdirTemp(filepath.Dir(out), ".lading-pull-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	defer os.RemoveAll(stage)
	o.Output = filepath.Join(stage, filepath.Base(out))
	o.Progress = newProgress(p.c, p.client)
	sum, err := exporter.Export(ctx, o)
	o.Progress.Finish()
	switch {
	case err != nil && ctx.Err() != nil:
		return &InterruptedError{Msg: "fulfillments pull interrupted: no file was written and nothing remembered; the next pull writes these fulfillments"}
	case err != nil:
		return exportError(err)
	case p.isNew && sum.Records == 0:
		sum.Files = nil
	default:
		if sum.Files, err = moveInto(filepath.Dir(out), sum.Files); err != nil {
			return err
		}
	}
	return p.remember(sum)
}

// moveInto moves files into dir, keeping their names, and returns their
// new paths.
func moveInto(dir string, files []string) ([]string, error) {
	var moved []string
	for _, f := range files {
		to := filepath.Join(dir, filepath.Base(f))
		if err := os.Rename(f, to); err != nil {
			return moved, fmt.Errorf("putting the order file in place: %w", err)
		}
		moved = append(moved, to)
	}
	return moved, nil
}

// remember records the fulfillments a --new pull wrote, now that its file
// is in place (even if the command is being stopped: they are in the
// file), and prints the pull's summary. A pull without --new is a look: it
// remembers nothing, so that the next --new pull still hands its
// fulfillments to the warehouse.
func (p *puller) remember(sum *exporter.Summary) error {
	if p.isNew {
		pulled := make(map[string]string, len(sum.IDs))
		for _, id := range sum.IDs {
			pulled[id] = "1"
		}
		if err := p.st.PutIDs(context.WithoutCancel(p.c.Context), p.scope, pulled); err != nil {
			return fmt.Errorf("the order file is written, but what was pulled could not be remembered (a --new pull would write these fulfillments again): %w", err)
		}
	}
	if p.c.Bool("json") {
		return json.NewEncoder(envOf(p.c).Stdout).Encode(sum)
	}
	printPull(envOf(p.c).Stdout, sum, p.isNew)
	return nil
}

func printPull(w io.Writer, s *exporter.Summary, isNew bool) {
	which := "open"
	if isNew {
		which = "new"
	}
	fmt.Fprintf(w, "fulfillments pull: %d %s fulfillments, %d lines\n", s.Records, which, s.Rows)
	fmt.Fprintf(w, "  requests: %d reads (%d pages; %d throttled) in %s\n", s.Requests, s.Pages, s.Throttled, s.Elapsed.Round(time.Millisecond))
	for _, f := range s.Files {
		fmt.Fprintf(w, "  file:     %s\n", f)
	}
	if len(s.Files) == 0 {
		fmt.Fprintln(w, "  file:     none written (nothing new)")
	}
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
