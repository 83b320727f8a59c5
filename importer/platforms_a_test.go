package importer_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"lading/engine"
	"lading/mapping"
	"lading/sandbox"
)

// exportCaseA is a real export of a platform merchants leave (see
// testdata/README.md), imported with its template.
type exportCaseA struct {
	file, template     string
	products, variants int
	// skipped are the reasons of the rows skipped, sorted.
	skipped []string
	check   func(t *testing.T, s snapshot)
	// edit, when set, changes the file's text before the import.
	edit func(string) string
	// records, when set, checks the fields a snapshot leaves out.
	records func(t *testing.T, r variantRecords)
}

// exportCasesA are the Shopify column sets, BigCommerce (its Default and
// Bulk Edit export templates) and Squarespace.
var exportCasesA = []exportCaseA{
	{
		// Shopify's partner demo catalog: an older export, no Cost per item.
		file: "shopify-apparel.csv", template: "shopify", products: 20, variants: 22,
		check: func(t *testing.T, s snapshot) {
			wantVariantsA(t, s, "Classic Varsity Top", []string{
				"|Size=Large|Price:60|1|0",
				"|Size=Medium|Price:60|1|0",
				"|Size=Small|Price:60|1|0",
			})
		},
	},
	{
		// Shopify's template of 2023: Product Category, Cost per item, Status.
		// Its image-only row gives the jeans an image, and no variant.
		file: "shopify-product-template.csv", template: "shopify", products: 3, variants: 16,
		edit: retypedBarcodes,
		check: func(t *testing.T, s snapshot) {
			wantVariantsA(t, s, "Example Jeans", []string{
				// Variant Grams 226.796185 is 0.226796185 kg, exactly
				"PNT_DEN_285|Size=28|Compare At Price:64.95,Price:95|20|0.226796185",
				"PNT_DEN_305|Size=30|Compare At Price:64.95,Price:95|15|0.2834952313",
				"PNT_DEN_405|Size=40|Compare At Price:64.95,Price:95|10|0.3968933238",
			})
			if n := len(s.ofProduct("Example T-Shirt")); n != 12 {
				t.Errorf("Example T-Shirt has %d variants, want 12", n)
			}
		},
	},
	{
		// A store's export of 2026: Option Linked To, unit prices, metafields.
		file: "shopify-posters-linked-options.csv", template: "shopify", products: 1, variants: 12,
		check: func(t *testing.T, s snapshot) {
			var want []string
			for _, border := range []string{"Full Bleed", "White Border"} {
				slug := map[string]string{"Full Bleed": "full", "White Border": "ramka"}[border]
				for i, size := range []string{"13x18", "21x30", "30x40", "40x50", "50x70", "70x100"} {
					label := []string{"13 × 18 cm (Small)", "21 × 30 cm (A4)", "30 × 40 cm (Medium)", "40 × 50 cm (Large)",
						"50 × 70 cm (Large)", "70 × 100 cm (Extra Large)"}[i]
					price := []string{"15", "25", "32", "54", "65", "90"}[i]
					want = append(want, fmt.Sprintf("golden-hour-cat-%s-%s|Print Style=%s,Size=%s|Price:%s|0|0", slug, size, border, label, price))
				}
			}
			wantVariantsA(t, s, "Golden Hour Cat", want)
		},
	},
	{
		// Shopify's 2024 template: every column renamed.
		file: "shopify-2024-template.csv", template: "shopify-2024", products: 2, variants: 15,
		check: func(t *testing.T, s snapshot) {
			wantVariantsA(t, s, "Digital Product The History of Rock Music", []string{
				// no inventory quantity, no weight: none set
				"HRM-EBK-AUD|Format=Audio|Price:21.99|0|",
				"HRM-EBK-KND|Format=Kindle|Compare At Price:14.99,Price:9.99|0|",
				"HRM-EBK-PDF|Format=PDF|Price:14.99|0|",
			})
			shirt := s.ofProduct("Physical Product “The Band” T-Shirt")
			if len(shirt) != 12 {
				t.Fatalf("the T-shirt has %d variants, want 12", len(shirt))
			}
			v := s.bySKU(t)["TheBandTShirt-MR"]
			if v.Options != "Color=red,Size=Medium" || v.Prices != "Compare At Price:24.99,Price:19.99" || v.Stock != "56" || v.Weight != "0.177" {
				t.Errorf("TheBandTShirt-MR = %s, want Color=red,Size=Medium, 19.99 and 24.99, stock 56, 0.177 kg", v)
			}
		},
	},
	{
		// A BigCommerce store's Default export: no SKUs, stock not tracked.
		file: "bigcommerce-machdemo.csv", template: "bigcommerce", products: 36, variants: 36,
		check: func(t *testing.T, s snapshot) {
			wantVariantsA(t, s, "Free ticket", []string{"||Price:0|0|0"})
			wantVariantsA(t, s, "Pass + Workshop", []string{"||Price:99.99|0|0"})
			wantVariantsA(t, s, "Señor Developer Hoodie", []string{"||Price:40|0|0.453592"})
			wantVariantsA(t, s, "UniformConf 2021 AirPods", []string{"||Price:250|0|0.453592"})
		},
	},
	{
		// Another store's Default export, its columns in another order.
		file: "bigcommerce-chatto.csv", template: "bigcommerce", products: 3, variants: 3,
		check: func(t *testing.T, s snapshot) {
			wantVariantsA(t, s, "100% Pure Shea Body Butter", []string{"1063||Price:25|0|0.907185"})
			wantVariantsA(t, s, "Pure Organic Shea Body Butter", []string{"1062||Price:46|0|1.814369"})
			wantVariantsA(t, s, "Aroma Shea Butter", []string{"1088||Price:49|0|2.721554"})
		},
	},
	{
		// BigCommerce's Bulk Edit layout, made by hand from its documented
		// columns (no public export with SKU rows was found): SKU rows
		// under their Product row, without its Product ID.
		file: "bigcommerce-bulk-edit-skus.csv", template: "bigcommerce-bulk-edit", products: 5, variants: 8,
		skipped: []string{
			"a rule changing the price of [RB]Color=Red,[S]Size=Large ([ADD]2.00)",
			"a rule changing the price of [RT]Engraving=Yes ([ADD]5.00)",
			"a rule for [CS]Colour=White:#ffffff that changes neither price nor weight: its image and whether it can be bought are not imported",
		},
		check: func(t *testing.T, s snapshot) {
			// The product's price, retail price and weight (0.5 lb); each
			// SKU's options and stock. The rule adding 2.00 to TEE-RED-L
			// is not applied (its row is skipped, saying so).
			wantVariantsA(t, s, "Classic Tee", []string{
				"TEE-RED-S|Color=Red,Size=Small|Price:20,Retail Price:25|5|0.226796",
				"TEE-RED-L|Color=Red,Size=Large|Price:20,Retail Price:25|3|0.226796",
				"TEE-BLU-S|Color=Blue,Size=Small|Price:20,Retail Price:25|0|0.226796",
			})
			// Swatches: the colour code after the value is dropped.
			wantVariantsA(t, s, "Stoneware Mug", []string{
				"MUG-BLK|Colour=Black|Price:12,Sale Price:10|6|0.544311",
				"MUG-WHT|Colour=White|Price:12,Sale Price:10|8|0.544311",
			})
			// Products without SKU rows: their own row is their variant,
			// its stock tracked by product (or not at all).
			wantVariantsA(t, s, "Gift Wrap", []string{"WRAP||Price:4.5|40|0.045359"})
			wantVariantsA(t, s, "Field Guide (e-book)", []string{"EBOOK||Price:9.99|0|0"})
			wantVariantsA(t, s, "Engraved Pen", []string{"PEN||Price:15|25|0.02268"})
		},
		records: func(t *testing.T, r variantRecords) {
			// A SKU's own cost above 0, else its product's; its own UPC.
			for _, w := range []struct{ sku, cost, upc string }{
				{"TEE-RED-S", "8", "712345678904"},
				{"TEE-RED-L", "8.5", ""},
				{"TEE-BLU-S", "8", ""},
				{"MUG-WHT", "4", ""},
				{"WRAP", "1", ""},
				{"EBOOK", "", ""},
			} {
				if cost, upc := r.field(t, w.sku, "cost"), r.field(t, w.sku, "upc"); cost != w.cost || upc != w.upc {
					t.Errorf("%s: cost %q upc %q, want %q and %q", w.sku, cost, upc, w.cost, w.upc)
				}
			}
		},
	},
	{
		// BigCommerce's sample product in the Bulk Edit layout, as a file
		// to create products: no Product ID (known by its name), no SKU.
		file: "bigcommerce-bulk-edit-sample.csv", template: "bigcommerce-bulk-edit", products: 1, variants: 1,
		check: func(t *testing.T, s snapshot) {
			wantVariantsA(t, s, "[Sample] Daventry Meers, dark denim shirt", []string{"||Price:24.5|0|0.453592"})
		},
	},
	{
		// A Squarespace store with a product of four colours: its variant
		// rows, without a Product ID, belong to the row above them.
		file: "squarespace-vallcan.csv", template: "squarespace", products: 3, variants: 6,
		check: func(t *testing.T, s snapshot) {
			wantVariantsA(t, s, "Limpiador de Ojos", []string{"SQ5571153||Price:7.4|3|0"})
			wantVariantsA(t, s, "Orejas de caballo con pelo", []string{"SQ8188421||Price:3|2|0"})
			wantVariantsA(t, s, "Alfombra de Lamido Navideña", []string{
				"SQ3770213|Color=Verde|Price:8.9|0|0",
				"SQ4864940|Color=Amarillo|Price:8.9|5|0",
				"SQ0834192|Color=Rojo|Price:8.9|5|0",
				"SQ0802438|Color=Marrón|Price:8.9|0|0",
			})
		},
	},
	{
		// Another Squarespace store: unlimited stock, a product on sale.
		file: "squarespace-cottoncuts.csv", template: "squarespace", products: 7, variants: 7,
		check: func(t *testing.T, s snapshot) {
			wantVariantsA(t, s, "Style 01", []string{"SQ5206847||Price:40|0|0"})
			wantVariantsA(t, s, "2 Additional Fat Quarters (CLASSIC only)", []string{"SQ3040832||Price:5|0|6.803886"})
			wantVariantsA(t, s, "Add On Border and Binding Strips", []string{"Fabric 1||Price:22.5|3|0"})
			wantVariantsA(t, s, "All Recommended Supplies Bundle", []string{"SQ9025395||Price:170,Sale Price:150|10|0"})
		},
	},
}

// wantVariantsA checks the variants of product name, each written
// "sku|options|prices|stock|weight", in any order.
func wantVariantsA(t *testing.T, s snapshot, name string, want []string) {
	t.Helper()
	var got []string
	for _, v := range s.ofProduct(name) {
		got = append(got, strings.Join([]string{v.SKU, v.Options, v.Prices, v.Stock, v.Weight}, "|"))
	}
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", name, got, want)
	}
}

// TestImportPlatformExports imports each real export into a sandbox and
// checks what the sandbox holds and the rows skipped; a second import
// writes nothing; the export saved as .xlsx imports alike; and mapping
// init recognises the export's layout.
func TestImportPlatformExports(t *testing.T) {
	t.Parallel()
	for _, tc := range exportCasesA {
		t.Run(tc.file, func(t *testing.T) {
			csvEnv := newEnv(t, sandbox.Options{})
			in := csvEnv.copyTo(catalogFile(t, tc.file), tc.edit)
			got := importExportA(t, csvEnv, tc, in)

			// Again: not one write, every row unchanged or skipped again.
			before := csvEnv.srv.Counters().Requests
			rep, err := csvEnv.importFile(context.Background(), tc.template, in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if w := writes(before, csvEnv.srv.Counters().Requests); w != 0 || rep.RequestsPlanned != 0 {
				t.Errorf("second import sent %d writes (%d planned), want none", w, rep.RequestsPlanned)
			}
			total := 0
			for _, n := range rep.Rows {
				total += n
			}
			if rep.Rows[engine.Skipped] != len(tc.skipped) || rep.Rows[engine.Unchanged] != total-len(tc.skipped) {
				t.Errorf("second import rows %v: want %d skipped, the others unchanged", rep.Rows, len(tc.skipped))
			}

			// The same export saved as .xlsx by a spreadsheet program.
			xlsxEnv := newEnv(t, sandbox.Options{})
			book := filepath.Join(xlsxEnv.dir, strings.TrimSuffix(tc.file, ".csv")+".xlsx")
			saveAsXLSXA(t, in, book)
			if fromBook := importExportA(t, xlsxEnv, tc, book); !slices.Equal(fromBook.Variants, got.Variants) {
				t.Errorf("the .xlsx imports otherwise than the .csv:\n xlsx %v\n  csv %v", fromBook.Variants, got.Variants)
			}

			// mapping init recognises the layout.
			if name := mapping.Detect(csvHeaderA(t, in)); name != tc.template {
				t.Errorf("mapping init chose %q, want %q", name, tc.template)
			}
		})
	}
}

// importExportA imports in with tc's template into the empty sandbox of
// e, checks the report, the results file and the sandbox, and returns
// what the sandbox holds.
func importExportA(t *testing.T, e *env, tc exportCaseA, in string) snapshot {
	t.Helper()
	rep, err := e.importFile(context.Background(), tc.template, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Products[engine.Created] != tc.products || rep.Variants[engine.Created] != tc.variants || rep.Failed() != 0 {
		t.Errorf("%s: products %v, variants %v, rows %v; want %d and %d created, none failed",
			filepath.Base(in), rep.Products, rep.Variants, rep.Rows, tc.products, tc.variants)
	}
	var reasons []string
	for _, r := range readResults(t, rep.Results) {
		if r[4] == string(engine.Skipped) {
			reason := r[7]
			if i := strings.Index(reason, "): "); i >= 0 {
				reason = reason[:i+1] // the reason's own words, not what it says to do
			}
			reasons = append(reasons, reason)
		}
	}
	sort.Strings(reasons)
	if !slices.Equal(reasons, tc.skipped) {
		t.Errorf("%s: skipped rows' reasons %q, want %q", filepath.Base(in), reasons, tc.skipped)
	}
	s := e.read()
	if len(s.Products) != tc.products || len(s.Variants) != tc.variants || len(s.duplicates()) > 0 {
		t.Fatalf("%s: the sandbox holds %d products (duplicates %v) and %d variants, want %d and %d",
			filepath.Base(in), len(s.Products), s.duplicates(), len(s.Variants), tc.products, tc.variants)
	}
	tc.check(t, s)
	if tc.records != nil {
		tc.records(t, e.records())
	}
	return s
}

// csvHeaderA reads the header of the CSV file at path.
func csvHeaderA(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := csv.NewReader(f).Read()
	if err != nil {
		t.Fatal(err)
	}
	h[0] = strings.TrimPrefix(h[0], "\ufeff")
	return h
}

// saveAsXLSXA writes the CSV file src to a workbook at dst as a spreadsheet
// program saves a CSV it opened: cells that read as numbers become number
// cells (40.00 is 40, a code like 1063 a number, leading zeros lost), TRUE
// and FALSE booleans, empty cells nothing, the rest text.
func saveAsXLSXA(t *testing.T, src, dst string) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	book := excelize.NewFile()
	defer book.Close()
	sw, err := book.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	for i, rec := range recs {
		cells := make([]any, len(rec))
		for j, c := range rec {
			cells[j] = spreadsheetValueA(c, i == 0)
		}
		if err := sw.SetRow("A"+strconv.Itoa(i+1), cells); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := book.SaveAs(dst); err != nil {
		t.Fatal(err)
	}
}

// spreadsheetValueA is what a spreadsheet program makes of the CSV text c.
func spreadsheetValueA(c string, header bool) any {
	switch {
	case header:
		return c
	case c == "":
		return nil
	case strings.EqualFold(c, "true") || strings.EqualFold(c, "false"):
		return strings.EqualFold(c, "true")
	}
	if n, err := strconv.ParseFloat(c, 64); err == nil && !strings.ContainsAny(c, "eExXnN") {
		return n
	}
	return c
}

// TestImportRowsWithoutAKey imports exports whose variant rows take their
// product's key from the row above them (group.key fill_down), edited: a
// file that starts with such rows, and a product row a skip rule skips.
// Each row's results line says what became of it and why.
func TestImportRowsWithoutAKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, template string
		// edit changes the export's records (the header first).
		edit               func(recs [][]string) [][]string
		products, variants int
		// lines are the results lines, "row action message", of the rows
		// that were not created: a skip reason up to its first ": ", an
		// error after its file and row.
		lines []string
	}{
		{
			name: "the first rows have no key", file: "squarespace-vallcan.csv", template: "squarespace",
			// Without the first product and the first row of the
			// four-colour mat: its other rows come first.
			edit:     func(recs [][]string) [][]string { return append(recs[:1:1], recs[3:]...) },
			products: 1, variants: 1,
			lines: []string{
				`2 failed column "Product ID [Non Editable]", value "": group.key required: ` + fillNoKeyA,
				`3 failed column "Product ID [Non Editable]", value "": group.key required: ` + fillNoKeyA,
				`4 failed column "Product ID [Non Editable]", value "": group.key required: ` + fillNoKeyA,
			},
		},
		{
			name: "a product row is skipped", file: "bigcommerce-bulk-edit-skus.csv", template: "bigcommerce-bulk-edit",
			// The mug's row gets an Item Type the template skips.
			edit: func(recs [][]string) [][]string {
				for _, r := range recs {
					if r[0] == "Product" && r[1] == "113" {
						r[0] = "Bundle"
					}
				}
				return recs
			},
			products: 4, variants: 6,
			lines: []string{
				"5 skipped a rule changing the price of [RB]Color=Red,[S]Size=Large ([ADD]2.00)",
				"7 skipped Item Type \"Bundle\"",
				"8 skipped it belongs to the product of the row above it, which is skipped",
				"9 skipped it belongs to the product of the row above it, which is skipped",
				"10 skipped a rule for [CS]Colour=White:#ffffff that changes neither price nor weight",
				"14 skipped a rule changing the price of [RT]Engraving=Yes ([ADD]5.00)",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, sandbox.Options{})
			in := filepath.Join(e.dir, tc.file)
			writeRecordsA(t, in, tc.edit(readRecordsA(t, catalogFile(t, tc.file))))
			rep, err := e.importFile(context.Background(), tc.template, in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Products[engine.Created] != tc.products || rep.Variants[engine.Created] != tc.variants {
				t.Errorf("products %v, variants %v; want %d and %d created", rep.Products, rep.Variants, tc.products, tc.variants)
			}
			var lines []string
			for _, r := range readResults(t, rep.Results) {
				if r[4] == string(engine.Created) {
					continue
				}
				msg := strings.TrimPrefix(r[7], in+" row "+r[1]+", ")
				if r[4] == string(engine.Skipped) {
					msg, _, _ = strings.Cut(msg, ": ")
				}
				lines = append(lines, strings.Join([]string{r[1], r[4], msg}, " "))
			}
			if !slices.Equal(lines, tc.lines) {
				t.Errorf("results lines:\n got %q\nwant %q", lines, tc.lines)
			}
			if s := e.read(); len(s.Products) != tc.products || len(s.Variants) != tc.variants {
				t.Errorf("the sandbox holds %d products and %d variants, want %d and %d", len(s.Products), len(s.Variants), tc.products, tc.variants)
			}
		})
	}
}

// fillNoKeyA is the start of the message of a row without a key and no
// row above it to take one from.
const fillNoKeyA = "every row needs a product key: a row without one belongs to the product of the row above it (fill_down), and no row above it gives a key"

// readRecordsA reads the CSV file at path.
func readRecordsA(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// writeRecordsA writes recs to a CSV file at path.
func writeRecordsA(t *testing.T, path string, recs [][]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := csv.NewWriter(f).WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
