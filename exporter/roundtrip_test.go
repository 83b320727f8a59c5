package exporter_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/api"
	"lading/engine"
	"lading/exporter"
	"lading/importer"
	"lading/mapping"
	"lading/sandbox"
	"lading/source/sourcetest"
	"lading/state"
	"lading/templates"
)

// account is a sandbox account, a client of it and a state file.
type account struct {
	t     *testing.T
	c     *api.Client
	state *state.DB
	dir   string
}

func newAccount(t *testing.T) *account {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if _, err := srv.RegisterToken("tok"); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	c, err := api.NewClient(hs.URL+"/api2", "tok", api.WithRate(1000, 100))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st, err := state.Open(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &account{t: t, c: c, state: st, dir: dir}
}

// load imports path through the template and returns the report. One
// write at a time: the account's records are created in the file's order.
func (a *account) load(template, path string) *importer.Report {
	a.t.Helper()
	text, err := templates.Get(template)
	if err != nil {
		a.t.Fatal(err)
	}
	m, err := mapping.Parse(template+".yaml", text)
	if err != nil {
		a.t.Fatal(err)
	}
	rep, err := importer.Import(context.Background(), importer.Options{Options: engine.Options{Client: a.c, State: a.state, Scope: "test", Mapping: m, Input: path, Concurrency: 1, ResultsFile: filepath.Join(a.dir, "results.csv")}, MappingText: text, NoImages: true})
	if err != nil {
		a.t.Fatalf("importing %s: %v", path, err)
	}
	if rep.Failed() > 0 {
		a.t.Fatalf("importing %s: %d rows failed", path, rep.Failed())
	}
	return rep
}

// catalog is the path of the catalog file of testdata/catalogs to load:
// the file itself, or for Shopify's product template a copy in the
// account's directory whose barcodes, which a spreadsheet had rounded
// before it was published ("3.65275E+11") and an import refuses, are
// entered again as text.
func (a *account) catalog(file string) string {
	a.t.Helper()
	path := filepath.Join("..", "testdata", "catalogs", file)
	if file != "shopify-product-template.csv" {
		return path
	}
	b, err := os.ReadFile(path)
	if err != nil {
		a.t.Fatal(err)
	}
	text, err := sourcetest.EditColumn(string(b), "Variant Barcode", sourcetest.Retyped)
	if err != nil {
		a.t.Fatal(err)
	}
	path = filepath.Join(a.dir, file)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		a.t.Fatal(err)
	}
	return path
}

// export writes the account's products to a file named name.
func (a *account) export(name string) string {
	a.t.Helper()
	out := filepath.Join(a.dir, name)
	if _, err := exporter.Export(context.Background(), exporter.Options{Client: a.c, Resource: exporter.Products, Output: out}); err != nil {
		a.t.Fatalf("exporting to %s: %v", name, err)
	}
	return out
}

// The catalog export of each real catalog imports back into the same
// account writing nothing, and into an empty account recreates a catalog
// whose export is the same file.
func TestCatalogRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ file, template string }{
		{"shopify-apparel.csv", "shopify"},
		{"shopify-product-template.csv", "shopify"},
		{"woocommerce-sample-products.csv", "woocommerce"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			a := newAccount(t)
			a.load(tt.template, a.catalog(tt.file))
			csvA := a.export("a.csv")
			for _, f := range []string{csvA, a.export("a.xlsx")} {
				if rep := a.load("generic", f); rep.Writes != 0 {
					t.Errorf("re-importing %s wrote %d requests, want none: %v", filepath.Base(f), rep.Writes, rep.Rows)
				}
			}
			b := newAccount(t)
			b.load("generic", csvA)
			csvB := b.export("b.csv")
			want, _ := os.ReadFile(csvA)
			got, _ := os.ReadFile(csvB)
			if !bytes.Equal(got, want) {
				t.Errorf("the export of the catalog imported from the export differs:\n--- first\n%s\n--- second\n%s", head(want), head(got))
			}
		})
	}
}

func head(b []byte) string {
	lines := bytes.SplitN(b, []byte("\n"), 8)
	return string(bytes.Join(lines[:min(len(lines), 7)], []byte("\n")))
}

// A product name a spreadsheet would run as a formula is neutralised in the
// CSV export and imports back as the same name.
func TestFormulaNameRoundTrip(t *testing.T) {
	t.Parallel()
	a := newAccount(t)
	const name = `=HYPERLINK("http://x","y")`
	in := filepath.Join(a.dir, "in.csv")
	os.WriteFile(in, []byte("product_key,product_name,product_description,product_notes,tags,sku,description,weight,cost,upc,stock,"+
		"option1_name,option1_value,option2_name,option2_value,option3_name,option3_value\n"+
		"k,\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",,,@risk,F-1,,,,,,,,,,,\n"), 0o644)
	a.load("generic", in)
	out := a.export("out.csv")
	b, _ := os.ReadFile(out)
	if !bytes.Contains(b, []byte(`"'=HYPERLINK(""http://x"",""y"")"`)) || !bytes.Contains(b, []byte(",'@risk,")) {
		t.Fatalf("the export does not neutralise the formula:\n%s", b)
	}
	if rep := a.load("generic", out); rep.Writes != 0 {
		t.Errorf("re-importing the export wrote %d requests: the name or tag did not come back the same", rep.Writes)
	}
	fresh := newAccount(t)
	fresh.load("generic", out)
	for p, err := range fresh.c.Products.List(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if string(p.Name) != name {
			t.Errorf("the product imported from the export is named %q, want %q", p.Name, name)
		}
	}
}

// The catalog export lists each product's files (its images) in
// file_ids, on every row of the product, and nothing for a product
// without one; a report choosing product_key and file_ids shows which
// still lack an image.
func TestCatalogFileIDs(t *testing.T) {
	a := newAccount(t)
	in := filepath.Join(a.dir, "in.csv")
	os.WriteFile(in, []byte("product_key,product_name,sku,option1_name,option1_value\n"+
		"tee,Tee,TEE-S,Size,S\ntee,Tee,TEE-M,Size,M\nmug,Mug,MUG-1,,\n"), 0o644)
	a.load("generic", in)
	var tee api.ID
	for p, err := range a.c.Products.List(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if p.Name == "Tee" {
			tee = p.ID
		}
	}
	var files []string
	for _, name := range []string{"front.png", "back.png"} {
		res, err := a.c.ProductFiles.Upload(context.Background(), tee, name, bytes.NewReader([]byte("\x89PNG\r\n\x1a\n0000")))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, string(res.IDs[0]))
	}
	out := filepath.Join(a.dir, "lack.csv")
	if _, err := exporter.Export(context.Background(), exporter.Options{Client: a.c, Resource: exporter.Products, Output: out,
		Columns: []string{"product_key", "sku", "file_ids"}}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	ids := strings.Join(files, "|")
	want := "product_key,sku,file_ids\nTEE-S,TEE-S," + ids + "\nTEE-S,TEE-M," + ids + "\nMUG-1,MUG-1,\n"
	if string(b) != want {
		t.Errorf("export:\n%s\nwant:\n%s", b, want)
	}
}
