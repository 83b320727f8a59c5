package importer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/importer"
	"lading/sandbox"
	"lading/source"
)

// catalogRows writes a catalog in the generic layout: products P001 ...
// of two variants each (P001-A and P001-B, sizes S and M), edited by edit
// (row by row, the header left alone; nil: none).
func (e *env) catalogRows(name string, products int, edit func(p int, sku string, row []string)) string {
	e.t.Helper()
	var b strings.Builder
	b.WriteString("product_key,product_name,product_description,product_notes,tags,sku,description,weight,cost,upc,stock," +
		"option1_name,option1_value,option2_name,option2_value,option3_name,option3_value,tier:Retail,tier:Wholesale\n")
	for p := 1; p <= products; p++ {
		for i, v := range []string{"A", "B"} {
			key, sku := fmt.Sprintf("P%03d", p), fmt.Sprintf("P%03d-%s", p, v)
			row := []string{key, "", "", "", "", sku, "", "0.5", "2.5", "", "3", "Size", "S", "", "", "", "", "10", "8"}
			if i == 0 {
				row[1], row[4] = "Product "+key, "new|tee"
			} else {
				row[12] = "M"
			}
			if edit != nil {
				edit(p, sku, row)
			}
			b.WriteString(strings.Join(row, ",") + "\n")
		}
	}
	path := filepath.Join(e.dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return path
}

// reads counts the reads between two counter readings.
func reads(before, after map[string]int64) int64 {
	return requests(before, after) - writes(before, after)
}

// readPlan reads a plan file: its products by key.
func readPlan(t *testing.T, path string) map[string]map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var plan struct {
		Products []map[string]any `json:"products"`
	}
	if err := json.Unmarshal(b, &plan); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, p := range plan.Products {
		out[p["key"].(string)] = p
	}
	return out
}

// A re-import compares the account with the file as it reads it: the
// products found equal cost no read beyond the listing (or the look-ups
// of their SKUs); those that differ are kept from the Products listing's
// pages that carry them, and cost one more read for 250 of them after
// look-ups (or a SKU found in another live product, whose page had gone
// by); and the plan still says field by field what differs. Unchanged
// rows keep their variants' ids in the results file.
func TestImportReimportReads(t *testing.T) {
	e := newEnv(t, sandbox.Options{})
	ctx := context.Background()
	// 300 products of 2 variants: a Variants listing of 3 pages, a
	// Products listing of 2 (250 products a page, each with its
	// variants), and 3 look-ups of 250 SKUs for the whole file.
	first := e.catalogRows("first.csv", 300, nil)
	if _, err := e.importFile(ctx, "generic", first, func(o *importer.Options) { o.ReadIDs = true }); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, pg := range pages(t, e.c.Variants.ListPages(ctx, nil)) {
		for _, v := range pg.Records {
			ids[string(v.SKU)] = string(v.ID)
		}
	}

	tests := []struct {
		name     string
		products int
		edit     func(p int, sku string, row []string)
		// reads is the reads the import takes: 1 for the size of the
		// Variants listing, then for the whole file 1 for the size of the
		// Products listing and its 2 pages, else the look-ups, then 1 for
		// the products that differ that were not kept from the listing,
		// if any; productReads are those of them that read the Products
		// listing.
		reads, productReads        int64
		updated, unchanged, failed int
		changes                    map[string]string // product key: what the plan says changed
	}{
		{name: "the same file", products: 300, reads: 1 + 1 + 2, productReads: 1 + 2, unchanged: 600},
		{name: "a cost, a name, a tag", products: 300, reads: 1 + 1 + 2, productReads: 1 + 2, updated: 1, unchanged: 599,
			edit: func(p int, sku string, row []string) {
				switch {
				case sku == "P005-B":
					row[8] = "2.75"
				case sku == "P007-A":
					row[1] = "Product P007 v2"
				case sku == "P009-A":
					row[4] = "new|tee|sale"
				}
			},
			changes: map[string]string{"P005-B": `cost "2.5" → "2.75"`, "P007": `name "Product P007" → "Product P007 v2"`, "P009": `tags "new|tee" → "new|sale|tee"`}},
		{name: "a SKU of another product", products: 300, reads: 1 + 1 + 2 + 1, productReads: 1 + 2 + 1, unchanged: 597, failed: 3,
			edit: func(p int, sku string, row []string) {
				if sku == "P004-B" {
					row[0], row[12] = "P003", "L"
				}
			}},
		{name: "two products of 300: look-ups", products: 2, reads: 1 + 1 + 1, productReads: 1, updated: 1, unchanged: 3,
			edit: func(p int, sku string, row []string) {
				if sku == "P002-A" {
					row[17] = "11"
				}
			},
			changes: map[string]string{"P002-A": `tier Retail "10" → "11"`}},
		{name: "two products of 300, the same", products: 2, reads: 1 + 1, unchanged: 4},
	}
	productList := wire.ListPath(wire.Products)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := e.catalogRows("again.csv", tt.products, tt.edit)
			plan := filepath.Join(e.dir, "plan.json")
			before := e.srv.Counters().Requests
			rep, err := e.importFile(ctx, "generic", in, func(o *importer.Options) {
				o.DryRun, o.PlanFile, o.ResultsFile = true, plan, filepath.Join(e.dir, "results.csv")
			})
			if err != nil {
				t.Fatal(err)
			}
			after := e.srv.Counters().Requests
			if got := reads(before, after); got != tt.reads {
				t.Errorf("%d reads, want %d", got, tt.reads)
			}
			if got := after[productList] - before[productList]; got != tt.productReads {
				t.Errorf("%d reads of the Products listing, want %d", got, tt.productReads)
			}
			v := rep.Variants
			if v[engine.Updated] != tt.updated || v[engine.Unchanged] != tt.unchanged || v[engine.Failed] != tt.failed || v[engine.Created] != 0 {
				t.Errorf("variants %v, want %d updated, %d unchanged, %d failed", v, tt.updated, tt.unchanged, tt.failed)
			}
			products := readPlan(t, plan)
			for key, want := range tt.changes {
				if !strings.Contains(planText(products, key), want) {
					t.Errorf("the plan of %s says %s, want %s", key, planText(products, key), want)
				}
			}
			for _, l := range readResults(t, rep.Results) {
				sku, action, id := l[3], l[4], l[6]
				if action == "unchanged" && id != ids[sku] {
					t.Errorf("results line of %s: variant id %q, want %q", sku, id, ids[sku])
				}
				if action == "failed" && !strings.Contains(l[7], "different products in the account") {
					t.Errorf("results line of %s: %q, want it to say its SKUs are in different products", sku, l[7])
				}
			}
		})
	}
}

// planText is what the plan says of the product key, or of the variant
// with SKU key: its changes as text.
func planText(products map[string]map[string]any, key string) string {
	var parts []string
	add := func(x map[string]any) {
		cs, _ := x["changes"].([]any)
		for _, c := range cs {
			m := c.(map[string]any)
			parts = append(parts, fmt.Sprintf("%s %q → %q", m["field"], m["from"], m["to"]))
		}
	}
	if p, ok := products[key]; ok {
		add(p)
	}
	for _, p := range products {
		vs, _ := p["variants"].([]any)
		for _, x := range vs {
			if v := x.(map[string]any); v["sku"] == key {
				add(v)
			}
		}
	}
	return strings.Join(parts, "; ")
}

// seedProducts imports n products of two variants (catalogRows) and
// gives their ids.
func (e *env) seedProducts(n int) []api.ID {
	e.t.Helper()
	ctx := context.Background()
	if _, err := e.importFile(ctx, "generic", e.catalogRows("seed.csv", n, nil), nil); err != nil {
		e.t.Fatal(err)
	}
	var ids []api.ID
	for _, pg := range pages(e.t, e.c.Products.ListPages(ctx, nil)) {
		for _, p := range pg.Records {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// FetchProducts counts the products it is asked for once each, however
// often they are named (an undo names a product once a variant): reading
// two products is one lookup, not the whole catalog.
func TestFetchProductsReads(t *testing.T) {
	e := newEnv(t, sandbox.Options{})
	ctx := context.Background()
	// 300 products of 2 variants: 3 pages of the Variants listing, 2 of
	// the Products listing.
	all := e.seedProducts(300)
	var twoOften []api.ID
	for range 300 {
		twoOften = append(twoOften, all[0], all[1])
	}
	for _, tt := range []struct {
		name     string
		ids      []api.ID
		reads    int // 1 for the size of the Variants listing, then the rest
		variants int
	}{
		{"two products named 300 times each: a lookup", twoOften, 1 + 1, 4},
		{"every product: two lookups (the Variants listing takes 3 pages)", all, 1 + 2, 600},
	} {
		l, err := importer.FetchProducts(ctx, e.c, tt.ids)
		if err != nil {
			t.Fatal(err)
		}
		if l.Requests != tt.reads || len(l.BySKU) != tt.variants {
			t.Errorf("%s: %d reads, %d variants; want %d and %d", tt.name, l.Requests, len(l.BySKU), tt.reads, tt.variants)
		}
	}
}

// editProducts serves srv, with its answers to the Products listing
// edited by edit.
func editProducts(edit func(answer map[string]json.RawMessage)) func(srv *sandbox.Server) http.Handler {
	return func(srv *sandbox.Server) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasSuffix(r.URL.Path, wire.ListPath(wire.Products)) {
				srv.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, r)
			var answer map[string]json.RawMessage
			if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			edit(answer)
			w.WriteHeader(rec.Code)
			json.NewEncoder(w).Encode(answer)
		})
	}
}

// A service whose product listing left out variants would have a
// re-import find none of them: it reads the whole catalog again as the
// variant listing rather than create them again; whether a page leaves
// out the variants its products link, or the listing leaves out products
// (as one leaving out archived products would).
func TestVariantsLeftOut(t *testing.T) {
	for _, tt := range []struct {
		name  string
		edit  func(answer map[string]json.RawMessage)
		reads int64 // 1 for the size of each listing, the Products listing, then the 3 pages of the Variants listing
	}{
		{"a page without the variants of its products", func(a map[string]json.RawMessage) { delete(a, wire.Variants) }, 1 + 1 + 1 + 3},
		{"pages without their first product", func(a map[string]json.RawMessage) {
			var recs []json.RawMessage
			if json.Unmarshal(a[wire.Products], &recs) == nil && len(recs) > 1 {
				a[wire.Products], _ = json.Marshal(recs[1:])
			}
		}, 1 + 1 + 2 + 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newServedEnv(t, sandbox.Options{}, editProducts(tt.edit))
			ctx := context.Background()
			file := e.catalogRows("catalog.csv", 300, nil)
			if _, err := e.importFile(ctx, "generic", file, nil); err != nil {
				t.Fatal(err)
			}
			before := e.srv.Counters().Requests
			rep, err := e.importFile(ctx, "generic", file, func(o *importer.Options) { o.DryRun = true })
			if err != nil {
				t.Fatal(err)
			}
			v := rep.Variants
			if got := reads(before, e.srv.Counters().Requests); v[engine.Unchanged] != 600 || v[engine.Created] != 0 || got != tt.reads {
				t.Errorf("variants %v, %d reads; want 600 unchanged, none created, in %d reads", v, got, tt.reads)
			}
		})
	}
}

// A read of products by id (an undo's) whose answer leaves out their
// variants fails, saying so, rather than take the variants for gone.
func TestFetchProductsVariantsLeftOut(t *testing.T) {
	t.Parallel()
	e := newServedEnv(t, sandbox.Options{}, editProducts(func(a map[string]json.RawMessage) { delete(a, wire.Variants) }))
	ids := e.seedProducts(300)
	if _, err := importer.FetchProducts(context.Background(), e.c, ids[:2]); !strings.Contains(fmt.Sprint(err), "left out variants of its products") {
		t.Errorf("FetchProducts of products without their variants: %v, want an error saying so", err)
	}
}

// A product of the file without SKUs is found by its name in an account
// that holds it without variants, and gets its variants; it is not made a
// second time: in an account without variants, and in one read whole as
// the Variants listing (products of one variant), which does not show it.
func TestNameFoundWithoutVariants(t *testing.T) {
	for _, others := range []int{0, 300} {
		t.Run(fmt.Sprintf("%d other products", others), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, sandbox.Options{})
			ctx := context.Background()
			var csv strings.Builder
			csv.WriteString("product_key,product_name,sku,option1_name,option1_value,tier:Retail\n")
			for p := range others {
				fmt.Fprintf(&csv, "P%03d,Product %03d,P%03d-A,Size,S,10\n", p, p, p)
			}
			in := filepath.Join(e.dir, "in.csv")
			if err := os.WriteFile(in, []byte(csv.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			if others > 0 {
				if _, err := e.importFile(ctx, "generic", in, nil); err != nil {
					t.Fatal(err)
				}
			}
			res, err := e.c.Products.Write(ctx, []api.ProductWrite{{Name: api.String("Linen Apron")}})
			if err != nil || len(res.Failed) > 0 {
				t.Fatalf("seeding the product: %v %v", res, err)
			}
			csv.WriteString("apron,Linen Apron,,Size,S,20\napron,,,Size,M,20\n")
			if err := os.WriteFile(in, []byte(csv.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			rep, err := e.importFile(ctx, "generic", in, nil)
			if err != nil {
				t.Fatal(err)
			}
			var aprons []string
			for _, pg := range pages(t, e.c.Products.ListPages(ctx, nil)) {
				for _, p := range pg.Records {
					if p.Name == "Linen Apron" {
						aprons = append(aprons, fmt.Sprintf("%d variants", len(p.Links.IDs(wire.Variants))))
					}
				}
			}
			if fmt.Sprint(aprons) != "[2 variants]" || rep.Products[engine.Updated] != 1 || rep.Products[engine.Created] != 0 {
				t.Errorf("aprons %v, products %v; want the one apron, updated with its 2 variants", aprons, rep.Products)
			}
		})
	}
}

// A snapshot read for an import lets go of the variant data of the
// products it finds equal to the account's (which their plans, unchanged,
// would let go of), and keeps the others'; read for anyone else, it keeps
// all.
func TestEqualProductsLetGoOfTheirData(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	ctx := context.Background()
	if _, err := e.importFile(ctx, "generic", e.catalogRows("first.csv", 3, nil), nil); err != nil {
		t.Fatal(err)
	}
	again := e.catalogRows("again.csv", 3, func(p int, sku string, row []string) {
		if p == 2 {
			row[17] = "12" // P002's Retail price
		}
	})
	m := genericMapping(t)
	for _, release := range []bool{false, true} {
		in, err := importer.Read(ctx, m, again, source.Limits{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := importer.FetchLive(ctx, e.c, importer.Want{Products: in.Products, ReleaseEqual: release}); err != nil {
			t.Fatal(err)
		}
		for _, p := range in.Products {
			for i := range p.Variants {
				v := &p.Variants[i]
				kept := len(v.Tiers()) == 2 && len(v.Options()) == 1
				if want := !release || p.Key == "P002"; kept != want {
					t.Errorf("ReleaseEqual %v: %s's variant %s keeps its prices and options: %v, want %v (%v, %v)",
						release, p.Key, v.SKU(), kept, want, v.Tiers(), v.Options())
				}
			}
		}
	}
}
