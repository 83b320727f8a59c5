package importer_test

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"lading/engine"
	"lading/sandbox"
	"lading/source/sourcetest"
)

// readCSV reads a whole CSV file: header and records.
func readCSV(t *testing.T, path string) (map[string]int, [][]string) {
	t.Helper()
	col, _, recs := exportRecords(t, path, ',')
	return col, recs
}

// writeCSV writes header and records to path.
func writeCSV(t *testing.T, path string, header []string, recs [][]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.Write(header)
	w.WriteAll(recs)
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// retypedBarcodes is Shopify's product template, whose barcodes a
// spreadsheet had rounded before it was published ("3.65275E+11", which an
// import refuses: TestImportRoundedBarcodes), with them entered again as
// text ("365275000000"), as a person mends such a file. It panics on a
// text that is not such a CSV.
func retypedBarcodes(text string) string {
	out, err := sourcetest.EditColumn(text, "Variant Barcode", sourcetest.Retyped)
	if err != nil {
		panic(err)
	}
	return out
}

// TestImportRoundedBarcodes imports Shopify's product template as it is:
// its barcodes were rounded by a spreadsheet ("3.65275E+11"), so every
// variant row fails, saying so and naming the column, and with them the
// row of the jeans that carries only an image; nothing is written.
func TestImportRoundedBarcodes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	in := e.copyTo(catalogFile(t, "shopify-product-template.csv"), nil)
	rep, err := e.importFile(context.Background(), "shopify", in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed() != 17 || rep.Variants[engine.Created] != 0 {
		t.Errorf("rows %v, variants %v: want the 16 variant rows and the image-only row failed, none created", rep.Rows, rep.Variants)
	}
	failed := 0
	for _, r := range readResults(t, rep.Results) {
		if r[4] != string(engine.Failed) {
			continue
		}
		failed++
		if !strings.Contains(r[7], `column "Variant Barcode", value "`) || !strings.Contains(r[7], "digits are already lost") {
			t.Errorf("row %s does not say its barcode lost its digits: %s", r[1], r[7])
		}
	}
	if failed != 17 {
		t.Errorf("%d failed lines in the results, want 17", failed)
	}
	if s := e.read(); len(s.Variants) != 0 {
		t.Errorf("the sandbox holds %d variants, want none", len(s.Variants))
	}
}

// withPrice copies src to dst with the price column of the first data row
// for which pick is true set to price.
func withPrice(t *testing.T, src, dst, column string, pick func(col map[string]int, rec []string) bool, price string) {
	t.Helper()
	col, recs := readCSV(t, src)
	f, _ := os.Open(src)
	header, err := csv.NewReader(f).Read()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if pick(col, r) {
			if r[col[column]] == price {
				t.Fatalf("%s: price is already %s", src, price)
			}
			r[col[column]] = price
			writeCSV(t, dst, header, recs)
			return
		}
	}
	t.Fatalf("%s: no row to change", src)
}

// prices returns the sorted "product name|price" of every variant in the
// snapshot for tier.
func (s snapshot) prices(tier string) []string {
	var out []string
	for _, v := range s.Variants {
		for _, p := range strings.Split(v.Prices, ",") {
			if name, val, ok := strings.Cut(p, ":"); ok && name == tier {
				out = append(out, v.Product+"|"+val)
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestImportRealCatalogs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file, template   string
		products, varnts int
		rows, skipped    int
		check            func(t *testing.T, in string, s snapshot)
		// edit, when set, changes the file's text before the import.
		edit func(string) string
		// priceColumn and pick choose the row whose price is changed in
		// a copy; tier is the pricing tier it lands in.
		priceColumn, tier string
		pick              func(col map[string]int, rec []string) bool
	}{
		{
			file: "shopify-apparel.csv", template: "shopify", products: 20, varnts: 22, rows: 22,
			check: func(t *testing.T, in string, s snapshot) {
				top := s.ofProduct("Classic Varsity Top")
				var opts []string
				for _, v := range top {
					opts = append(opts, v.Options)
				}
				sort.Strings(opts)
				if want := []string{"Size=Large", "Size=Medium", "Size=Small"}; !slices.Equal(opts, want) {
					t.Errorf("Classic Varsity Top options = %v, want %v", opts, want)
				}
				attrless := 0
				for _, v := range s.Variants {
					if v.Options == "" && v.Product != "Classic Varsity Top" {
						attrless++
					}
				}
				if attrless != 19 {
					t.Errorf("%d attributeless variants outside the varsity top, want 19", attrless)
				}
				// Every variant's Price tier holds its row's Variant Price.
				col, recs := readCSV(t, in)
				names := map[string]string{}
				var want []string
				for _, r := range recs {
					h := r[col["Handle"]]
					if n := r[col["Title"]]; n != "" {
						names[h] = n
					}
					if r[col["Variant Price"]] != "" {
						want = append(want, names[h]+"|"+normNum(r[col["Variant Price"]]))
					}
				}
				sort.Strings(want)
				if got := s.prices("Price"); !slices.Equal(got, want) {
					t.Errorf("Price tiers:\n got %v\nwant %v", got, want)
				}
			},
			priceColumn: "Variant Price", tier: "Price",
			pick: func(col map[string]int, r []string) bool {
				return r[col["Handle"]] == "classic-varsity-top" && r[col["Option1 Value"]] == "Medium"
			},
		},
		{
			file: "shopify-product-template.csv", template: "shopify", products: 3, varnts: 16,
			edit: retypedBarcodes,
			check: func(t *testing.T, in string, s snapshot) {
				shirt := s.ofProduct("Example T-Shirt")
				if len(shirt) != 12 {
					t.Errorf("Example T-Shirt has %d variants, want 12", len(shirt))
				}
				for _, v := range shirt {
					if !strings.HasPrefix(v.SKU, "SRT_COT_") || !strings.Contains(v.Options, "Color=") || !strings.Contains(v.Options, "Size=") {
						t.Errorf("shirt variant %s: want SKU SRT_COT_… with Color and Size", v)
					}
				}
				if v, ok := s.bySKU(t)["SRT_COT_111"]; !ok || v.Options != "Color=Green,Size=S" {
					t.Errorf("SRT_COT_111 = %+v, want Color=Green,Size=S", v)
				}
				var stock []string
				for _, v := range s.ofProduct("Example Jeans") {
					stock = append(stock, v.Stock)
				}
				sort.Strings(stock)
				if want := []string{"10", "15", "20"}; !slices.Equal(stock, want) {
					t.Errorf("Example Jeans (example-pants) stock = %v, want %v", stock, want)
				}
				hat := s.ofProduct("Example Beanie")
				if len(hat) != 1 || hat[0].Options != "" {
					t.Errorf("Example Beanie (example-hat) = %v, want one variant without attribute", hat)
				}
			},
			priceColumn: "Variant Price", tier: "Price",
			pick: func(col map[string]int, r []string) bool { return r[col["Variant SKU"]] == "SRT_COT_122" },
		},
		{
			file: "woocommerce-sample-products.csv", template: "woocommerce", products: 16, varnts: 21, skipped: 2,
			check: func(t *testing.T, in string, s snapshot) {
				var sizes []int
				for name := range s.Products {
					if n := len(s.ofProduct(name)); n > 1 {
						sizes = append(sizes, n)
					}
				}
				sort.Ints(sizes)
				if !slices.Equal(sizes, []int{3, 4}) {
					t.Errorf("variable products have %v variants, want [3 4]", sizes)
				}
				res := readResults(t, engine.DefaultResultsPath(in))
				var reasons []string
				for _, r := range res {
					if r[4] == string(engine.Skipped) {
						reasons = append(reasons, r[7])
					}
				}
				sort.Strings(reasons)
				if len(reasons) != 2 || !strings.HasPrefix(reasons[0], "external product") || !strings.HasPrefix(reasons[1], "grouped product") {
					t.Errorf("skipped reasons = %q, want the external and the grouped product", reasons)
				}
			},
			priceColumn: "Regular price", tier: "Regular price",
			pick: func(col map[string]int, r []string) bool {
				return r[col["Type"]] == "simple" && r[col["Regular price"]] != ""
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			e := newEnv(t, sandbox.Options{})
			in := e.copyTo(catalogFile(t, tc.file), tc.edit)
			ctx := context.Background()
			rep, err := e.importFile(ctx, tc.template, in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Products[engine.Created] != tc.products || rep.Variants[engine.Created] != tc.varnts {
				t.Errorf("report: products %v, variants %v; want %d and %d created", rep.Products, rep.Variants, tc.products, tc.varnts)
			}
			if rep.Rows[engine.Skipped] != tc.skipped || rep.Failed() != 0 {
				t.Errorf("rows %v: want %d skipped, none failed", rep.Rows, tc.skipped)
			}
			s := e.read()
			if len(s.Products) != tc.products || len(s.Variants) != tc.varnts || len(s.duplicates()) > 0 {
				t.Fatalf("sandbox holds %d products (duplicates %v), %d variants; want %d and %d",
					len(s.Products), s.duplicates(), len(s.Variants), tc.products, tc.varnts)
			}
			s.bySKU(t)
			tc.check(t, in, s)
			total := 0
			for _, n := range rep.Rows {
				total += n
			}
			res := readResults(t, rep.Results)
			if len(res) != total || total < tc.varnts+tc.skipped {
				t.Errorf("%d result lines for %d rows counted", len(res), total)
			}
			for _, r := range res {
				if r[4] == string(engine.Skipped) && r[7] == "" {
					t.Errorf("skipped row %s:%s has no reason", r[0], r[1])
				}
			}

			// Again: every row unchanged (skipped rows stay skipped), and
			// not one write request.
			before := e.srv.Counters().Requests
			rep2, err := e.importFile(ctx, tc.template, in, nil)
			if err != nil {
				t.Fatal(err)
			}
			after := e.srv.Counters().Requests
			if w := writes(before, after); w != 0 || rep2.RequestsPlanned != 0 {
				t.Errorf("second run sent %d writes (%d planned), want 0", w, rep2.RequestsPlanned)
			}
			if rep2.Rows[engine.Unchanged] != total-tc.skipped || rep2.Rows[engine.Skipped] != tc.skipped {
				t.Errorf("second run rows %v, want %d unchanged and %d skipped", rep2.Rows, total-tc.skipped, tc.skipped)
			}
			if got := e.read(); !slices.Equal(got.Variants, s.Variants) {
				t.Errorf("second run changed the catalog")
			}

			// One price changed in a copy: exactly one variant updated.
			changed := filepath.Join(e.dir, "changed-"+tc.file)
			withPrice(t, in, changed, tc.priceColumn, tc.pick, "987.65")
			before = e.srv.Counters().Requests
			rep3, err := e.importFile(ctx, tc.template, changed, nil)
			if err != nil {
				t.Fatal(err)
			}
			after = e.srv.Counters().Requests
			if rep3.Variants[engine.Updated] != 1 || rep3.Rows[engine.Updated] != 1 || rep3.Products[engine.Created] != 0 {
				t.Errorf("changed copy: variants %v rows %v; want exactly one updated", rep3.Variants, rep3.Rows)
			}
			if w := writes(before, after); w != 1 {
				t.Errorf("changed copy sent %d writes, want 1", w)
			}
			s3 := e.read()
			old := map[liveVariant]int{}
			for _, v := range s.Variants {
				old[v]++
			}
			var diff []liveVariant
			for _, v := range s3.Variants {
				if old[v] > 0 {
					old[v]--
				} else {
					diff = append(diff, v)
				}
			}
			if len(s3.Variants) != len(s.Variants) || len(diff) != 1 || !strings.Contains(diff[0].Prices, tc.tier+":987.65") {
				t.Errorf("after the changed copy the variants that differ are %v; want one with %s 987.65", diff, tc.tier)
			}
		})
	}
}
