package app

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/exporter"
	"lading/importer"
	"lading/mapping"
	"lading/ops"
	"lading/samples"
	"lading/sandbox"
	"lading/state"
	"lading/stock"
	"lading/templates"
	"lading/ui"
)

// demoOptions are the options of demo.
type demoOptions struct {
	globalOptions
	Out  string
	UI   bool
	Addr string
}

func demoCommand(b *builder) *cli.Command {
	o := &demoOptions{}
	return b.leaf(&cli.Command{
		Name:  "demo",
		Usage: "try lading end to end on a built-in sandbox: import the sample catalog, re-import it, change a price, push stock levels, run a 3PL's fulfillment loop, export",
		Description: "Starts an in-memory sandbox on a free loopback port, writes the sample catalog (CSV and XLSX)\n" +
			"and its images to --out, imports it (the images uploaded as product files), imports it again\n" +
			"(nothing to write, no image uploaded again), then imports a copy with one price\n" +
			"changed (one variant updated). Then it writes a stock file of the catalog's SKUs and quantities,\n" +
			"pushes it (nothing sent: the account holds those levels from the import), and pushes a copy in which 3 quantities\n" +
			"changed (3 levels sent, the rest unchanged). Then a 3PL's day: an order for a sold-out SKU waits, a\n" +
			"stock push opens its fulfillment, a pull writes the order file, a confirmation file ships it in two\n" +
			"parcels (the second completes it) and pushed again posts nothing. Last it seeds a month of orders with packing slips and\n" +
			"shipments, and exports the catalog (the import layout) and the packing slips report (XLSX).\n" +
			"Results files, the plan, the stock files and the exports land in --out. With --ui the sandbox stays up\n" +
			"after the walk-through and lading ui serves the demo's account on --addr until Ctrl-C.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Value: "demo-out", Destination: &o.Out, Usage: "directory for the sample files, results and state"},
			&cli.BoolFlag{Name: "ui", Destination: &o.UI, Usage: "then serve lading ui on the demo's account until Ctrl-C, to see the same in a web page"},
			&cli.StringFlag{Name: "addr", Value: ui.DefaultAddr, Destination: &o.Addr, Usage: "with --ui, the address lading ui listens on"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runDemo(c.Context, b.env, o)
		},
	}, &o.globalOptions, doc{examples: []example{
		{"the walk-through, its files in demo-out", "lading demo"},
		{"the same, its files elsewhere", "lading demo --out /tmp/lading-demo"},
		{"the walk-through, then its account in lading ui's web page until Ctrl-C", "lading demo --ui"},
	}})
}

// demoRate is the requests a second the demo sends its sandbox.
const demoRate = 50

// demo is what the demo's steps share.
type demo struct {
	w      io.Writer
	client *api.Client
	st     *state.DB
	scope  string
	out    string
}

// runDemo starts the demo's sandbox and walks through its steps against
// it: imports, stock pushes, a 3PL's fulfillment loop and exports. With
// --ui it then serves lading ui on the demo's account; else it says what
// to try next.
func runDemo(ctx context.Context, env *Env, o *demoOptions) error {
	if o.JSON {
		return Usagef("the demo is a walk-through for people: it has no --json output")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srv, base, token, stop, err := startDemoSandbox(ctx)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Fprintf(env.Stdout, "sandbox: %s (in memory, for this demo only)\n\n", base)

	d, paths, err := newDemo(env.Stdout, o.Out, base, token)
	if err != nil {
		return err
	}
	defer d.st.Close()
	csvPath, xlsxPath := paths[0], paths[1]
	if err := d.imports(ctx, csvPath, xlsxPath); err != nil {
		return err
	}
	stockPath, later, soldOut, err := d.stockPushes(ctx, csvPath)
	if err != nil {
		return err
	}
	loop, err := d.fulfillmentLoop(ctx, srv, token, later, soldOut)
	if err != nil {
		return err
	}
	if err := d.exports(ctx, srv, token, loop); err != nil {
		return err
	}
	if o.UI {
		d.st.Close() // the page's jobs open it themselves
		return d.serveUI(ctx, env, o.Addr, base)
	}
	whatNext(env.Stdout, o.Out, csvPath, stockPath)
	return nil
}

// newDemo sets out up for the demo, a fresh state and the sample files
// (whose paths it returns), and a client of the sandbox at base. The
// caller closes the demo's state.
func newDemo(w io.Writer, out, base, token string) (*demo, []string, error) {
	// A fresh state: the sandbox is new, and so is its token.
	for _, p := range []string{"state.db", "state.db-locks"} {
		if err := os.RemoveAll(filepath.Join(out, p)); err != nil {
			return nil, nil, err
		}
	}
	paths, err := samples.WriteTo(out)
	if err != nil {
		return nil, nil, err
	}
	client, err := api.NewClient(base, token, api.WithRate(demoRate, 10))
	if err != nil {
		return nil, nil, err
	}
	st, err := state.Open(filepath.Join(out, "state.db"))
	if err != nil {
		return nil, nil, err
	}
	return &demo{w: w, client: client, st: st, scope: ops.Scope(base, token), out: out}, paths, nil
}

// whatNext tells what to try after the demo, on the files it wrote to out.
func whatNext(w io.Writer, out, csvPath, stockPath string) {
	fmt.Fprintf(w, "What next:\n"+
		"  - see it all in a web page:      go run . demo --ui   (the demo again, then lading ui on its account)\n"+
		"  - open %s/*.results.csv: one line per input row, with the ids the service gave\n"+
		"    (the first import read the variants' ids back, as --read-ids does, for the stock pushes)\n"+
		"  - run a sandbox that stays up:   go run . sandbox --token demo-token\n"+
		"    and import into it:            go run . --token demo-token import --template generic --read-ids %s\n"+
		"    then push stock levels:        go run . --token demo-token stock push --template stock %s\n"+
		"  - preview without writing:       add --dry-run (and --plan plan.json to an import)\n"+
		"  - your own layout:               go run . mapping init yourfile.csv\n"+
		"  - export with conditions:        go run . --token demo-token export packing-slips --template accounting-slips \\\n"+
		"                                     --where \"packing_slip_date >= 2026-01-15\" -o slips.xlsx\n"+
		"  - built-in templates:            go run . templates list\n", out, csvPath, stockPath)
}

// serveUI serves lading ui on the demo's account, its state and its
// sample images, until ctx ends (Ctrl-C).
func (d *demo) serveUI(ctx context.Context, env *Env, addr, base string) error {
	loc, err := env.zone("")
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "The demo's sandbox stays up for lading ui: upload %s, push stock, export, undo a run.\n",
		filepath.Join(d.out, "catalog.csv"))
	return serveUI(ctx, env, addr, ui.Config{Client: d.client, Scope: d.scope, Account: base + " (the demo's sandbox)",
		State: filepath.Join(d.out, "state.db"), Rate: demoRate, ImagesDir: d.out, Location: loc,
		ImageTransport: env.ImageTransport, Log: env.Stderr, Command: "go run ."})
}

// startDemoSandbox serves an in-memory sandbox on a free loopback port
// until stop is called (which waits for it to shut down), with a token
// registered.
func startDemoSandbox(ctx context.Context) (srv *sandbox.Server, base, token string, stop func(), err error) {
	srv, err = sandbox.New(sandbox.Options{})
	if err != nil {
		return nil, "", "", nil, err
	}
	token = randomToken()
	if _, err := srv.RegisterToken(token); err != nil {
		srv.Close()
		return nil, "", "", nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	ready := make(chan string, 1)
	served := make(chan error, 1)
	go func() {
		served <- sandbox.ListenAndServe(ctx, "127.0.0.1:0", srv, func(u string) { ready <- u })
	}()
	select {
	case base = <-ready:
	case err := <-served:
		cancel()
		srv.Close()
		return nil, "", "", nil, err
	}
	// Stop serving, and wait for it, before closing the store.
	stop = func() {
		cancel()
		<-served
		srv.Close()
	}
	return srv, base, token, stop, nil
}

// imports imports the sample catalog from CSV (reading the variants' ids
// back), again from XLSX, and a copy with one price changed.
func (d *demo) imports(ctx context.Context, csvPath, xlsxPath string) error {
	text, err := templates.Get("generic")
	if err != nil {
		return err
	}
	m, err := mapping.Parse("generic.yaml", text)
	if err != nil {
		return err
	}
	run := func(step, input, plan string, readIDs bool) error {
		fmt.Fprintf(d.w, "%s\n", step)
		rep, err := importer.Import(ctx, importer.Options{Options: engine.Options{Client: d.client, State: d.st, Scope: d.scope, Mapping: m, Input: input}, MappingText: text, PlanFile: plan, ReadIDs: readIDs})
		if rep != nil {
			printReport(d.w, rep, 50)
			fmt.Fprintln(d.w)
		}
		return err
	}
	if err := run("1. import the sample catalog (generic template, CSV), reading the variants' ids back", csvPath, "", true); err != nil {
		return err
	}
	if err := run("2. import the same catalog from XLSX: nothing to write", xlsxPath, "", false); err != nil {
		return err
	}
	changed := filepath.Join(d.out, "catalog-price-changed.csv")
	sku, err := changeFirstPrice(csvPath, changed)
	if err != nil {
		return err
	}
	return run(fmt.Sprintf("3. import a copy with the Retail price of %s changed: one variant updated", sku), changed,
		filepath.Join(d.out, "plan.json"), false)
}

// stockPushes writes a stock file of the catalog's SKUs and quantities and
// pushes it, then pushes a copy with 3 quantities changed, and shows the
// results lines of those 3. It returns the first stock file's path.
func (d *demo) stockPushes(ctx context.Context, catalog string) (path string, later []stockLevel, soldOut stockLevel, err error) {
	m, err := templateMapping("stock")
	if err != nil {
		return "", nil, soldOut, err
	}
	levels, err := sampleLevels(catalog)
	if err != nil {
		return "", nil, soldOut, err
	}
	first, second := filepath.Join(d.out, "stock.csv"), filepath.Join(d.out, "stock-changed.csv")
	if err := writeLevels(first, levels); err != nil {
		return "", nil, soldOut, err
	}
	later, changed := changeLevels(levels)
	if err := writeLevels(second, later); err != nil {
		return "", nil, soldOut, err
	}
	push := func(step, input string) (*stock.Report, error) {
		fmt.Fprintf(d.w, "%s\n", step)
		rep, err := stock.Push(ctx, stock.Options{Options: engine.Options{Client: d.client, State: d.st, Scope: d.scope, Mapping: m, Input: input}})
		if rep != nil {
			printStockReport(d.w, rep, 50, wire.MaxWriteRecords)
		}
		return rep, err
	}
	if _, err := push("4. push the catalog's stock levels (stock template): nothing sent, the account holds them from the import's opening stock", first); err != nil {
		return "", nil, soldOut, err
	}
	fmt.Fprintln(d.w)
	rep, err := push(fmt.Sprintf("5. push a copy where %s changed: only those 3 levels sent", describeChanges(changed)), second)
	if err != nil {
		return "", nil, soldOut, err
	}
	fmt.Fprintf(d.w, "  the results lines of the 3 changed SKUs:\n")
	if err := printResultLines(d.w, rep.Results, changed); err != nil {
		return "", nil, soldOut, err
	}
	fmt.Fprintln(d.w)
	return first, later, changed[1], nil
}

// stockLevel is one row of a stock file.
type stockLevel struct {
	sku   string
	units int64
	// was is, on a changed level, the units before the change.
	was int64
}

// sampleLevels reads the SKUs and opening stock of the generic-layout
// catalog CSV.
func sampleLevels(catalog string) ([]stockLevel, error) {
	recs, err := readCSV(catalog)
	if err != nil {
		return nil, err
	}
	skuCol, stockCol := slices.Index(recs[0], "sku"), slices.Index(recs[0], "stock")
	if skuCol < 0 || stockCol < 0 {
		return nil, fmt.Errorf("%s: no sku or stock column", catalog)
	}
	var out []stockLevel
	for i, r := range recs[1:] {
		n, err := strconv.ParseInt(r[stockCol], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s, row %d: stock %q: %w", catalog, i+2, r[stockCol], err)
		}
		out = append(out, stockLevel{sku: r[skuCol], units: n, was: n})
	}
	return out, nil
}

// changeLevels returns a copy of levels in which the first 3 with stock
// changed, as a day in a warehouse would: a delivery came in, one sold
// out, one unit sold; and those 3.
func changeLevels(levels []stockLevel) (later, changed []stockLevel) {
	later = slices.Clone(levels)
	moves := []func(int64) int64{
		func(n int64) int64 { return n + 24 },
		func(int64) int64 { return 0 },
		func(n int64) int64 { return n - 1 },
	}
	for i := range later {
		if len(changed) == len(moves) {
			break
		}
		if l := &later[i]; l.units > 0 {
			l.units = moves[len(changed)](l.units)
			changed = append(changed, *l)
		}
	}
	return later, changed
}

// describeChanges says what changed: "TEE-BLA-S 12 -> 36, ...".
func describeChanges(changed []stockLevel) string {
	parts := make([]string, len(changed))
	for i, l := range changed {
		parts[i] = fmt.Sprintf("%s %d -> %d", l.sku, l.was, l.units)
	}
	return strings.Join(parts, ", ")
}

// writeLevels writes a stock file in the stock template's layout.
func writeLevels(path string, levels []stockLevel) error {
	recs := [][]string{{"sku", "quantity"}}
	for _, l := range levels {
		recs = append(recs, []string{l.sku, strconv.FormatInt(l.units, 10)})
	}
	return writeCSV(path, recs)
}

// printResultLines prints the header of the results file and its lines of
// the SKUs of changed, indented.
func printResultLines(w io.Writer, path string, changed []stockLevel) error {
	recs, err := readCSV(path)
	if err != nil {
		return err
	}
	skuCol := slices.Index(recs[0], "sku")
	keep := [][]string{recs[0]}
	for _, r := range recs[1:] {
		if slices.ContainsFunc(changed, func(l stockLevel) bool { return l.sku == r[skuCol] }) {
			keep = append(keep, r)
		}
	}
	var b strings.Builder
	cw := csv.NewWriter(&b)
	if err := cw.WriteAll(keep); err != nil {
		return err
	}
	for line := range strings.Lines(b.String()) {
		fmt.Fprintf(w, "    %s", line)
	}
	return nil
}

// changeFirstPrice copies the generic-layout CSV src to dst with the first
// data row's Retail price raised by one, and returns that row's SKU.
func changeFirstPrice(src, dst string) (string, error) {
	recs, err := readCSV(src)
	if err != nil {
		return "", err
	}
	col, skuCol := slices.Index(recs[0], "tier:Retail"), slices.Index(recs[0], "sku")
	if col < 0 || skuCol < 0 || len(recs) < 2 {
		return "", fmt.Errorf("%s: no tier:Retail or sku column", src)
	}
	recs[1][col] += "9" // 24 → 249: a visible change
	return recs[1][skuCol], writeCSV(dst, recs)
}

// readCSV reads a whole CSV file, which has a header.
func readCSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s is empty", path)
	}
	return recs, nil
}

func writeCSV(path string, recs [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(f)
	if err := cw.WriteAll(recs); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// exports seeds the account with a month of orders, packing slips and
// shipments (the sandbox's admin seed), then exports the catalog in the
// import layout and the accountants' report of the slips.
func (d *demo) exports(ctx context.Context, srv *sandbox.Server, token string, l *loop) error {
	seeded, err := srv.Seed(ctx, sandbox.SeedSpec{Token: token, Orders: 12, Seed: 1})
	if err != nil {
		return err
	}
	fmt.Fprintf(d.w, "7. export: the catalog in the import layout, and the packing slips report (the sandbox seeded %d orders, %d slips, %d shipments)\n",
		len(seeded.Orders), len(seeded.Slips), len(seeded.Packages))
	slips, err := templates.Get("accounting-slips")
	if err != nil {
		return err
	}
	report, err := exporter.ParseReport("accounting-slips", slips)
	if err != nil {
		return err
	}
	for _, o := range []exporter.Options{
		{Resource: exporter.Products, Output: filepath.Join(d.out, "catalog-export.csv")},
		{Resource: exporter.PackingSlips, Report: report, Output: filepath.Join(d.out, "slips-report.xlsx")},
	} {
		o.Client = d.client
		sum, err := exporter.Export(ctx, o)
		if err != nil {
			return err
		}
		printExport(d.w, sum)
	}
	parcels, err := l.reported(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.w, "  the slips report has order %s's shipments from step 6: %s\n\n", l.order, parcels)
	return nil
}
