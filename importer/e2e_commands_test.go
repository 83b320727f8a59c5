package importer_test

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lading/api/wire"
	"lading/engine"
	"lading/importer"
	"lading/sandbox"
	"lading/state"
)

// headerOf is the header whose columns are at the indexes of col.
func headerOf(col map[string]int) []string {
	header := make([]string, len(col))
	for h, i := range col {
		header[i] = h
	}
	return header
}

// withCommands writes the generic file src again with a command column,
// whose cell on each row command gives (by the row's product key and
// SKU), and the rows more appended.
func withCommands(t *testing.T, src, dst string, command func(key, sku string) string, more ...[]string) string {
	t.Helper()
	col, recs := readCSV(t, src)
	header := headerOf(col)
	header = append(header, "command")
	for i, r := range recs {
		recs[i] = append(r, command(r[col["product_key"]], r[col["sku"]]))
	}
	for _, m := range more {
		r := make([]string, len(header))
		copy(r, m)
		recs = append(recs, r)
	}
	p := filepath.Join(filepath.Dir(src), dst)
	writeCSV(t, p, header, recs)
	return p
}

// A file archiving 10 products, deleting 2 variants and updating 3
// others sends two writes: one bulk archive of the 10 products, and one
// Variants write with the 2 deletes and the 3 edits. Its results lines
// say what became of each row; an archive or a delete of what the account
// does not have is reported on its row, not written; the run's history
// holds every record written; the same file again writes nothing.
func TestImportCommands(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	gen := e.generate("gen.csv", 20, 2)
	if _, err := e.importFile(context.Background(), "generic", gen, nil); err != nil {
		t.Fatal(err)
	}
	deleted := []string{"P000011-Red-M", "P000012-Red-M"}
	updated := []string{"P000013-Red-S", "P000014-Red-S", "P000015-Red-S"}
	in := withCommands(t, gen, "commands.csv", func(key, sku string) string {
		switch {
		case key <= "P000010" && strings.HasSuffix(sku, "-S"):
			return "Archive" // on the product's first row; the second takes it
		case slices.Contains(deleted, sku):
			return "delete"
		}
		return ""
	}, []string{"NOPE", "Nowhere", "", "", "", "NOPE-1", "", "", "", "", "", "", "", "", "", "", "", "", "", "archive"},
		[]string{"P000016", "", "", "", "", "P000016-Gone", "", "", "", "", "", "", "", "", "", "", "", "", "", "delete"})
	col, recs := readCSV(t, in)
	for _, r := range recs {
		if slices.Contains(updated, r[col["sku"]]) {
			r[col["cost"]] = "99.5"
		}
	}
	header := headerOf(col)
	writeCSV(t, in, header, recs)

	dry, err := e.importFile(context.Background(), "generic", in, func(o *importer.Options) { o.DryRun = true })
	if err != nil || dry.RequestsPlanned != 2 {
		t.Fatalf("dry run: %v, %d writes planned; want 2", err, dry.RequestsPlanned)
	}
	before := e.srv.Counters().Requests
	rep, err := e.importFile(context.Background(), "generic", in, nil)
	if err != nil {
		t.Fatal(err)
	}
	after := e.srv.Counters().Requests
	if w := writes(before, after); w != 2 || after[wire.WritePath(wire.Products)]-before[wire.WritePath(wire.Products)] != 1 {
		t.Errorf("%d writes (%v); want 2: one bulk archive, one Variants write", w, after)
	}
	if rep.Products[engine.Archived] != 10 || rep.Variants[engine.Deleted] != 2 || rep.Variants[engine.Updated] != 3 {
		t.Errorf("products %v variants %v; want 10 archived, 2 variants deleted and 3 updated", rep.Products, rep.Variants)
	}
	lines := map[string][]string{}
	for _, r := range readResults(t, rep.Results) {
		lines[r[3]] = r
	}
	for sku, want := range map[string][2]string{
		"P000001-Red-S": {"archived", ""}, "P000001-Red-M": {"archived", ""},
		"P000011-Red-M": {"deleted", ""}, "P000011-Red-S": {"unchanged", ""},
		"P000013-Red-S": {"updated", `cost "10" → "99.5"`},
		"NOPE-1":        {"skipped", `product "NOPE" (SKU NOPE-1) is not in the account: there is nothing to archive`},
		"P000016-Gone":  {"skipped", "variant P000016-Gone is not in the account: there is nothing to delete"},
	} {
		if l := lines[sku]; l == nil || l[4] != want[0] || !strings.Contains(l[7], want[1]) {
			t.Errorf("%s: line %q, want %s saying %q", sku, l, want[0], want[1])
		}
	}
	e.checkCommandsDone(deleted, updated)

	changes, err := e.state.Changes(context.Background(), rep.RunID)
	if err != nil {
		t.Fatal(err)
	}
	ops := map[state.Op]int{}
	for _, c := range changes {
		if c.Written != state.WrittenYes || c.RecordID == "" {
			t.Errorf("change %+v: want written, with its record's id", c)
		}
		ops[c.Op]++
	}
	if ops[state.OpArchive] != 10 || ops[state.OpDelete] != 2 || ops[state.OpUpdate] != 3 {
		t.Errorf("the run's changes %v; want 10 archives, 2 deletes and 3 updates", ops)
	}

	again, err := e.importFile(context.Background(), "generic", in, nil)
	if err != nil || again.Writes != 0 || again.Products[engine.Unchanged] != 20 {
		t.Errorf("again: %v, %d writes, products %v; want nothing written, the archived products unchanged", err, again.Writes, again.Products)
	}
}

// checkCommandsDone checks the account after TestImportCommands' file:
// 10 products archived, the deleted variants gone, the updated costs set.
func (e *env) checkCommandsDone(deleted, updated []string) {
	e.t.Helper()
	archived := 0
	for _, pg := range pages(e.t, e.c.Products.ListPages(context.Background(), nil)) {
		for _, p := range pg.Records {
			if p.Archived.Bool() {
				archived++
			}
		}
	}
	if archived != 10 {
		e.t.Errorf("%d products archived, want 10", archived)
	}
	live, err := e.c.Variants.BySKU(context.Background(), append(slices.Clone(deleted), updated...))
	if err != nil {
		e.t.Fatal(err)
	}
	for _, sku := range deleted {
		if v := live[sku]; v != nil && !v.Deleted.Bool() {
			e.t.Errorf("%s is still in the account", sku)
		}
	}
	for _, sku := range updated {
		if v := live[sku]; v == nil || normNum(string(v.Cost)) != "99.5" {
			e.t.Errorf("%s: %v, want cost 99.5", sku, v)
		}
	}
	if n := len(e.read().Variants); n != 38 {
		e.t.Errorf("%d variants in the account, want 38", n)
	}
}

// A product's command is its mode: create leaves an existing product as
// it is, update a new one out, upsert writes both whatever --mode says,
// skip leaves it alone; rows that delete every variant of a product in
// the account delete the product, in one write.
func TestImportCommandModes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	gen := e.generate("gen.csv", 4, 2)
	if _, err := e.importFile(context.Background(), "generic", gen, nil); err != nil {
		t.Fatal(err)
	}
	in := withCommands(t, gen, "modes.csv", func(key, sku string) string {
		return map[string]string{"P000001": "create", "P000002": "update", "P000003": "skip", "P000004": "delete"}[key]
	}, []string{"NEW1", "New", "", "", "", "NEW1-1", "", "", "", "", "", "", "", "", "", "", "", "", "", "update"},
		[]string{"NEW2", "New two", "", "", "", "NEW2-1", "", "", "", "", "", "", "", "", "", "", "", "", "", "upsert"})
	col, recs := readCSV(t, in)
	for _, r := range recs {
		r[col["cost"]] = "42" // every existing variant changes
	}
	header := headerOf(col)
	writeCSV(t, in, header, recs)
	before := e.srv.Counters().Requests
	rep, err := e.importFile(context.Background(), "generic", in, func(o *importer.Options) { o.Mode = importer.ModeUpdateOnly })
	if err != nil {
		t.Fatal(err)
	}
	if w := writes(before, e.srv.Counters().Requests); w != 2 {
		t.Errorf("%d writes; want 2: the product create and delete, the variant edits", w)
	}
	want := engine.Counts{engine.Skipped: 2, engine.Unchanged: 1, engine.Updated: 1, engine.Deleted: 1, engine.Created: 1}
	if !maps.Equal(rep.Products, want) {
		t.Errorf("products %v, want %v", rep.Products, want)
	}
	lines := map[string][]string{}
	for _, r := range readResults(t, rep.Results) {
		lines[r[3]] = r
	}
	for sku, msg := range map[string]string{
		"P000001-Red-S": "the command of its rows is create, which only creates what is new",
		"NEW1-1":        "is not in the account, and the command of its rows is update, which only updates what exists",
		"P000003-Red-S": "its command is skip",
		"P000004-Red-M": "its rows delete every variant it has in the account",
	} {
		if l := lines[sku]; l == nil || !strings.Contains(l[7], msg) {
			t.Errorf("%s: line %q, want one saying %q", sku, l, msg)
		}
	}
	if l := lines["P000004-Red-M"]; l[4] != "deleted" {
		t.Errorf("P000004-Red-M: %q, want deleted", l)
	}
}

// A Shopify file carrying Matrixify's Command column: DELETE on every row
// of a product deletes it, IGNORE leaves a product alone, MERGE (in any
// case) updates, and a word the template does not know is an error of
// its row naming the column and the value.
func TestImportShopifyMatrixifyCommands(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	in := e.copyTo(catalogFile(t, "shopify-apparel.csv"), nil)
	if _, err := e.importFile(context.Background(), "shopify", in, nil); err != nil {
		t.Fatal(err)
	}
	col, recs := readCSV(t, in)
	header := headerOf(col)
	commands := map[string]string{"classic-varsity-top": "DELETE", "ocean-blue-shirt": "IGNORE", "yellow-wool-jumper": "merge", "floral-white-top": "REPLACE"}
	for i, r := range recs {
		if h := r[col["Handle"]]; h == "ocean-blue-shirt" || h == "yellow-wool-jumper" {
			r[col["Variant Price"]] = "99"
		}
		recs[i] = append(r, commands[r[col["Handle"]]])
	}
	edited := filepath.Join(e.dir, "matrixify.csv")
	writeCSV(t, edited, append(header, "Command"), recs)
	rep, err := e.importFile(context.Background(), "shopify", edited, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Products[engine.Deleted] != 1 || rep.Products[engine.Skipped] != 1 || rep.Products[engine.Updated] != 1 || rep.Products[engine.Failed] != 1 {
		t.Errorf("products %v; want 1 deleted, 1 skipped, 1 updated, 1 failed", rep.Products)
	}
	live := e.liveCatalog()
	if _, ok := live["Classic Varsity Top"]; ok || len(live) != 19 {
		t.Errorf("%d products in the account, Classic Varsity Top among them: %v", len(live), live["Classic Varsity Top"])
	}
	replaced := 0
	for _, l := range readResults(t, rep.Results) {
		if l[2] == "floral-white-top" {
			replaced++
			if !strings.Contains(l[7], `column "Command", value "REPLACE": command is no command`) {
				t.Errorf("REPLACE: %q", l)
			}
		}
	}
	if replaced != 1 {
		t.Errorf("%d lines of floral-white-top, want 1", replaced)
	}
}
