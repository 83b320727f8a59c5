package app

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/importer"
	"lading/mapping"
	"lading/samples"
	"lading/sandbox"
	"lading/state"
	"lading/templates"
)

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "try lading end to end on a built-in sandbox: import the sample catalog, re-import it, change a price",
		Description: "Starts an in-memory sandbox on a free loopback port, writes the sample catalog (CSV and XLSX)\n" +
			"to --out, imports it, imports it again (nothing to write), then imports a copy with one price\n" +
			"changed (one variant updated). Results files and the plan land in --out.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Value: "demo-out", Usage: "directory for the sample files, results and state"},
		},
		Action: runDemo,
	}
}

func runDemo(c *cli.Context) error {
	env := envOf(c)
	if err := noArgs(c); err != nil {
		return err
	}
	out := c.String("out")
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		return err
	}
	defer srv.Close()
	token := randomToken()
	if _, err := srv.RegisterToken(token); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(c.Context)
	defer cancel()
	ready := make(chan string, 1)
	served := make(chan error, 1)
	go func() {
		served <- sandbox.ListenAndServe(ctx, "127.0.0.1:0", srv, func(u string) { ready <- u })
	}()
	var base string
	select {
	case base = <-ready:
	case err := <-served:
		return err
	}
	// Stop serving, and wait for it, before the deferred srv.Close.
	defer func() {
		cancel()
		<-served
	}()
	fmt.Fprintf(env.Stdout, "sandbox: %s (in memory, for this demo only)\n\n", base)

	if err := os.RemoveAll(filepath.Join(out, "state.db")); err != nil {
		return err
	}
	paths, err := samples.WriteTo(out)
	if err != nil {
		return err
	}
	client, err := api.NewClient(base, token, api.WithRate(50, 10))
	if err != nil {
		return err
	}
	st, err := state.Open(filepath.Join(out, "state.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	text, err := templates.Get("generic")
	if err != nil {
		return err
	}
	m, err := mapping.Parse("generic.yaml", text)
	if err != nil {
		return err
	}
	run := func(step, input, plan string) error {
		fmt.Fprintf(env.Stdout, "%s\n", step)
		rep, err := importer.Import(c.Context, importer.Options{
			Client: client, State: st, Scope: accountScope(base, token), Mapping: m, MappingText: text,
			Input: input, PlanFile: plan,
		})
		if rep != nil {
			printReport(env.Stdout, rep, 50)
			fmt.Fprintln(env.Stdout)
		}
		return err
	}
	csvPath, xlsxPath := paths[0], paths[1]
	if err := run("1. import the sample catalog (generic template, CSV)", csvPath, ""); err != nil {
		return err
	}
	if err := run("2. import the same catalog from XLSX: nothing to write", xlsxPath, ""); err != nil {
		return err
	}
	changed := filepath.Join(out, "catalog-price-changed.csv")
	sku, err := changeFirstPrice(csvPath, changed)
	if err != nil {
		return err
	}
	if err := run(fmt.Sprintf("3. import a copy with the Retail price of %s changed: one variant updated", sku), changed,
		filepath.Join(out, "plan.json")); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "What next:\n"+
		"  - open %s/*.results.csv: one line per input row, with the product ids the service gave\n"+
		"    (add --read-ids to an import for the variants' ids too, one read per 250 products)\n"+
		"  - run a sandbox that stays up:   go run . sandbox --token demo-token\n"+
		"    and import into it:            go run . --token demo-token import --template generic %s\n"+
		"  - preview without writing:       add --dry-run --plan plan.json\n"+
		"  - your own layout:               go run . mapping init yourfile.csv\n"+
		"  - built-in templates:            go run . templates list\n", out, csvPath)
	return nil
}

// changeFirstPrice copies the generic-layout CSV src to dst with the first
// data row's Retail price raised by one, and returns that row's SKU.
func changeFirstPrice(src, dst string) (string, error) {
	f, err := os.Open(src)
	if err != nil {
		return "", err
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		return "", err
	}
	col, skuCol := -1, -1
	for i, h := range recs[0] {
		switch h {
		case "tier:Retail":
			col = i
		case "sku":
			skuCol = i
		}
	}
	if col < 0 || skuCol < 0 || len(recs) < 2 {
		return "", fmt.Errorf("%s: no tier:Retail or sku column", src)
	}
	recs[1][col] += "9" // 24 → 249: a visible change
	w, err := os.Create(dst)
	if err != nil {
		return "", err
	}
	cw := csv.NewWriter(w)
	cw.WriteAll(recs)
	if err := cw.Error(); err != nil {
		w.Close()
		return "", err
	}
	return recs[1][skuCol], w.Close()
}
