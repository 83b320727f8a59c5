package importer_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"lading/api"
	"lading/app"
	"lading/engine"
	"lading/images/imagestest"
	"lading/importer"
	"lading/mapping"
	"lading/sandbox"
	"lading/source"
	"lading/templates"
)

// platformCase is a real export of a platform imported through its
// template: what the sandbox must hold after, and the rows skipped.
type platformCase struct {
	name, template string
	// files are in testdata/catalogs; a second file is the one the
	// template joins, given beside the first as on the command line.
	files []string
	comma rune // the files' CSV delimiter
	// edit, when set, changes the first file's text in the copy imported
	// (a case the public samples lack).
	edit               func(string) string
	products, variants int
	// skipped are the skipped rows' "file:row: reason", sorted; the file
	// is named without its extension (.csv or .xlsx).
	skipped []string
	// failed are the failed rows' "file:row" and a part of their message,
	// sorted by file and row.
	failed [][2]string
	check  func(t *testing.T, e *env, s snapshot)
}

func TestImportPlatformsB(t *testing.T) {
	t.Parallel()
	for _, tc := range platformCases() {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, sandbox.Options{})
			files := make([]string, len(tc.files))
			for i, f := range tc.files {
				edit := tc.edit
				if i > 0 {
					edit = nil
				}
				files[i] = e.copyTo(catalogFile(t, f), edit)
			}
			rep := tc.importInto(t, e, files)
			s := e.read()
			tc.checkImport(t, e, rep, s)

			// Again: not one write, every row unchanged or skipped again.
			before := e.srv.Counters().Requests
			rep2 := tc.importInto(t, e, files)
			if w := writes(before, e.srv.Counters().Requests); w != 0 || rep2.RequestsPlanned != 0 {
				t.Errorf("second import sent %d writes (%d planned), want none", w, rep2.RequestsPlanned)
			}
			rows := total(rep.Rows)
			unchanged := rows - len(tc.skipped) - len(tc.failed)
			if rep2.Rows[engine.Unchanged] != unchanged || rep2.Rows[engine.Skipped] != len(tc.skipped) || rep2.Failed() != len(tc.failed) {
				t.Errorf("second import: rows %v, want %d unchanged, %d skipped, %d failed", rep2.Rows, unchanged, len(tc.skipped), len(tc.failed))
			}
			if got := e.read(); !slices.Equal(got.Variants, s.Variants) {
				t.Errorf("the second import changed the catalog")
			}

			// The same files saved as .xlsx, into an empty account: the
			// same catalog.
			x := newEnv(t, sandbox.Options{})
			xfiles := make([]string, len(files))
			for i, f := range files {
				xfiles[i] = savedAsXLSX(t, f, tc.comma)
			}
			xrep := tc.importInto(t, x, xfiles)
			xs := x.read()
			tc.checkImport(t, x, xrep, xs)
			if !slices.Equal(xs.Variants, s.Variants) {
				t.Errorf("the .xlsx files import otherwise than the .csv:\n xlsx %v\n  csv %v", xs.Variants, s.Variants)
			}
		})
	}
}

// importInto imports files into e's sandbox through tc's template, the
// second file, if any, as the joined file.
func (tc platformCase) importInto(t *testing.T, e *env, files []string) *importer.Report {
	t.Helper()
	rep, err := e.importFile(context.Background(), tc.template, files[0], func(o *importer.Options) {
		if len(files) > 1 {
			o.Mapping.Join.File = files[1]
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// checkImport checks what an import of tc's files reported and left in
// the sandbox (s).
func (tc platformCase) checkImport(t *testing.T, e *env, rep *importer.Report, s snapshot) {
	t.Helper()
	if rep.Products[engine.Created] != tc.products || rep.Variants[engine.Created] != tc.variants || rep.Failed() != len(tc.failed) {
		t.Errorf("report: products %v, variants %v, rows %v; want %d and %d created, %d rows failed",
			rep.Products, rep.Variants, rep.Rows, tc.products, tc.variants, len(tc.failed))
	}
	if len(s.Products) != tc.products || len(s.Variants) != tc.variants || len(s.duplicates()) > 0 {
		t.Fatalf("sandbox holds %d products (duplicates %v) and %d variants; want %d and %d",
			len(s.Products), s.duplicates(), len(s.Variants), tc.products, tc.variants)
	}
	s.bySKU(t)
	res := readResults(t, rep.Results)
	if len(res) != total(rep.Rows) {
		t.Errorf("%d results lines for %d rows", len(res), total(rep.Rows))
	}
	var skipped []string
	var failed [][2]string
	for _, r := range res {
		at := strings.TrimSuffix(filepath.Base(r[0]), filepath.Ext(r[0])) + ":" + r[1]
		switch r[4] {
		case string(engine.Skipped):
			skipped = append(skipped, at+": "+r[7])
		case string(engine.Failed):
			failed = append(failed, [2]string{at, r[7]})
		}
	}
	sort.Strings(skipped)
	if !slices.Equal(skipped, tc.skipped) {
		t.Errorf("skipped rows:\n got %q\nwant %q", skipped, tc.skipped)
	}
	slices.SortFunc(failed, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	if len(failed) != len(tc.failed) {
		t.Errorf("failed rows %q, want %d", failed, len(tc.failed))
	}
	for i := range min(len(failed), len(tc.failed)) {
		if failed[i][0] != tc.failed[i][0] || !strings.Contains(failed[i][1], tc.failed[i][1]) {
			t.Errorf("failed row %s: %q, want row %s saying %q", failed[i][0], failed[i][1], tc.failed[i][0], tc.failed[i][1])
		}
	}
	tc.check(t, e, s)
}

func total(cs engine.Counts) int {
	n := 0
	for _, c := range cs {
		n += c
	}
	return n
}

// variantsOf returns the variants of product name as strings
// ("product|sku[options]prices stock=N weight=W"), sorted.
func (s snapshot) variantsOf(name string) []string {
	var out []string
	for _, v := range s.ofProduct(name) {
		out = append(out, v.String())
	}
	sort.Strings(out)
	return out
}

// wantVariants fails t unless product name has exactly the variants want
// (liveVariant strings, in any order).
func wantVariants(t *testing.T, s snapshot, name string, want ...string) {
	t.Helper()
	sort.Strings(want)
	if got := s.variantsOf(name); !slices.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", name, got, want)
	}
}

// plainNumber is a cell a spreadsheet program reads as a number: no
// leading zeros (those it would drop, on a barcode say: keep them as text,
// as a careful export does), no exponent, no sign but a minus.
var plainNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?$`)

// savedAsXLSX writes the CSV file path (delimiter comma) beside it as .xlsx
// the way a spreadsheet program saves it: numbers as numbers, true and
// false as booleans, the rest as text. It returns the new file's path.
func savedAsXLSX(t *testing.T, path string, comma rune) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(b), "\ufeff")))
	r.Comma, r.FieldsPerRecord = comma, -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	f := excelize.NewFile()
	defer f.Close()
	for i, rec := range recs {
		cells := make([]any, len(rec))
		for j, c := range rec {
			switch {
			case i == 0 || c == "":
				cells[j] = c
			case c == "true" || c == "false":
				cells[j] = c == "true"
			case plainNumber.MatchString(c):
				n, err := strconv.ParseFloat(c, 64)
				if err != nil {
					t.Fatal(err)
				}
				cells[j] = n
			default:
				cells[j] = c
			}
		}
		if err := f.SetSheetRow("Sheet1", fmt.Sprintf("A%d", i+1), &cells); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+".xlsx")
	if err := f.SaveAs(out); err != nil {
		t.Fatal(err)
	}
	return out
}

func platformCases() []platformCase {
	return []platformCase{
		magentoHoodies(),
		magentoImportSample(),
		magentoProductTypes(),
		wooCase("woocommerce lbs in", "", "", "0.090718", "10.16 x 12.7 x 1.27"),
		wooCase("woocommerce kg cm", "kg", "cm", "0.2", "4 x 5 x 0.5"),
		wooCase("woocommerce g mm", "g", "mm", "0.0002", "0.4 x 0.5 x 0.05"),
		wooCase("woocommerce oz m", "oz", "m", "0.00567", "400 x 500 x 50"),
		prestashopCase(),
	}
}

// Magento's Luma sample data: two configurable hoodies, each a row
// listing its 15 variants, which have rows of their own.
func magentoHoodies() platformCase {
	hoodie := func(name, code, price string, colors ...string) []string {
		var out []string
		for _, size := range []string{"XS", "S", "M", "L", "XL"} {
			for _, c := range colors {
				out = append(out, fmt.Sprintf("%s|%s-%s-%s[color=%s,size=%s]Price:%s stock=100 weight=0.453592", name, code, size, c, c, size, price))
			}
		}
		return out
	}
	return platformCase{
		name: "magento2 sample data", template: "magento2", files: []string{"magento2-sample-data-hoodies.csv"}, comma: ',',
		products: 2, variants: 30,
		check: func(t *testing.T, _ *env, s snapshot) {
			// 1 lb each, in kilograms.
			wantVariants(t, s, "Chaz Kangeroo Hoodie", hoodie("Chaz Kangeroo Hoodie", "MH01", "52", "Black", "Gray", "Orange")...)
			wantVariants(t, s, "Teton Pullover Hoodie", hoodie("Teton Pullover Hoodie", "MH02", "70", "Black", "Purple", "Red")...)
		},
	}
}

// Magento's import sample: three simple products, a grouped product and
// two bundles of them.
func magentoImportSample() platformCase {
	return platformCase{
		name: "magento2 import sample", template: "magento2", files: []string{"magento2-catalog-product.csv"}, comma: ',',
		products: 3, variants: 3,
		skipped: []string{
			"magento2-catalog-product:5: grouped product: a set of products sold together; each of them is imported from its own row, the set is not",
			"magento2-catalog-product:6: bundle product: made of other products' SKUs (bundle_values); each of them is imported from its own row, the bundle is not",
			"magento2-catalog-product:7: bundle product: made of other products' SKUs (bundle_values); each of them is imported from its own row, the bundle is not",
		},
		check: func(t *testing.T, _ *env, s snapshot) {
			// Weights 1.23 and 1 lbs; their attributes are no options.
			wantVariants(t, s, "Sprite Yoga Strap 6 foot", "Sprite Yoga Strap 6 foot|24-WG085[]Price:14 stock=100 weight=0.557919")
			wantVariants(t, s, "Sprite Yoga Strap 8 foot", "Sprite Yoga Strap 8 foot|24-WG086[]Price:17 stock=100 weight=0.453592")
			wantVariants(t, s, "Sprite Yoga Strap 10 foot", "Sprite Yoga Strap 10 foot|24-WG087[]Price:21 stock=100 weight=0.453592")
		},
	}
}

// The import sample with its straps made a virtual and a downloadable
// product, its grouped product a gift card (a type of Adobe Commerce), a
// cost among the first strap's attributes, and a row of store view "fr"
// added, as a multi-store export has.
func magentoProductTypes() platformCase {
	return platformCase{
		name: "magento2 product types", template: "magento2", files: []string{"magento2-catalog-product.csv"}, comma: ',',
		edit: func(s string) string {
			s = strings.Replace(s, "24-WG086,,Default,simple,", "24-WG086,,Default,virtual,", 1)
			s = strings.Replace(s, "24-WG087,,Default,simple,", "24-WG087,,Default,downloadable,", 1)
			s = strings.Replace(s, "24-WG085_Group,,Default,grouped,", "24-WG085_Group,,Default,giftcard,", 1)
			s = strings.Replace(s, `"has_options=1,quantity_and_stock_status=In Stock,required_options=0",100`,
				`"has_options=1,quantity_and_stock_status=In Stock,required_options=0,cost=7.5",100`, 1)
			return s + "\r\n24-WG085,fr,Default,simple,,base,Sangle de yoga 6 pieds" + strings.Repeat(",", 67)
		},
		products: 3, variants: 3,
		skipped: []string{
			"magento2-catalog-product:5: giftcard product: lading imports simple, virtual, downloadable and configurable products",
			"magento2-catalog-product:6: bundle product: made of other products' SKUs (bundle_values); each of them is imported from its own row, the bundle is not",
			"magento2-catalog-product:7: bundle product: made of other products' SKUs (bundle_values); each of them is imported from its own row, the bundle is not",
			"magento2-catalog-product:8: values of store view fr: lading imports each product's default (All Store Views) row",
		},
		check: func(t *testing.T, e *env, s snapshot) {
			wantVariants(t, s, "Sprite Yoga Strap 6 foot", "Sprite Yoga Strap 6 foot|24-WG085[]Price:14 stock=100 weight=0.557919")
			wantVariants(t, s, "Sprite Yoga Strap 8 foot", "Sprite Yoga Strap 8 foot|24-WG086[]Price:17 stock=100 weight=0.453592")
			wantVariants(t, s, "Sprite Yoga Strap 10 foot", "Sprite Yoga Strap 10 foot|24-WG087[]Price:21 stock=100 weight=0.453592")
			if cost := e.records().field(t, "24-WG085", "cost"); cost != "7.5" {
				t.Errorf("24-WG085 cost %q, want 7.5 (its additional_attributes' cost)", cost)
			}
		},
	}
}

// lading mapping init recognises every sample's layout and writes its
// template.
func TestPlatformsBRecognised(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, tc := range platformCases() {
		f := tc.files[0]
		if seen[f] {
			continue
		}
		seen[f] = true
		t.Run(f, func(t *testing.T) {
			src, err := source.Open(catalogFile(t, f), source.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			name, text := mapping.Init(src.Header(), f)
			if name != tc.template {
				t.Fatalf("mapping init wrote %q, want the %s template:\n%s", name, tc.template, clipText(text))
			}
			want, err := templates.Get(tc.template)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(string(text), string(want)) {
				t.Errorf("mapping init's %s mapping is not the template", name)
			}
		})
	}
}

// clipText is the start of a long text, for messages.
func clipText(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}

// variantRecords are the variant records of a sandbox, by SKU.
type variantRecords map[string]*api.Variant

// field returns the field name (notes, upc or cost) of the variant sku,
// failing t when there is no such variant.
func (r variantRecords) field(t *testing.T, sku, name string) string {
	t.Helper()
	v, ok := r[sku]
	if !ok {
		t.Fatalf("no variant %s in the sandbox", sku)
	}
	switch name {
	case "notes":
		return string(v.Notes)
	case "upc":
		return string(v.UPC)
	case "cost":
		return normNum(string(v.Cost))
	}
	t.Fatalf("field %q: want notes, upc or cost", name)
	return ""
}

// records reads every variant record of e's sandbox, by SKU: the fields
// a snapshot leaves out (notes, barcode, cost).
func (e *env) records() variantRecords {
	e.t.Helper()
	out := variantRecords{}
	for _, pg := range pages(e.t, e.c.Variants.ListPages(context.Background(), nil)) {
		for _, v := range pg.Records {
			out[string(v.SKU)] = v
		}
	}
	return out
}

// wooCase is WooCommerce's sample export, whose store weighs in lbs and
// measures in inches, or a copy of it as a store with weight unit and
// dimension unit dim exports it (the headers say "Weight (kg)", "Length
// (cm)", ...; the numbers are the same). beanieWeight is the beanie's
// weight in kilograms (0.2 in the file) and beanieSize its 4 x 5 x .5 in
// centimetres.
func wooCase(name, weight, dim, beanieWeight, beanieSize string) platformCase {
	var edit func(string) string
	if weight != "" {
		edit = func(s string) string {
			return strings.Replace(s, `"Weight (lbs)","Length (in)","Width (in)","Height (in)"`,
				fmt.Sprintf(`"Weight (%s)","Length (%[2]s)","Width (%[2]s)","Height (%[2]s)"`, weight, dim), 1)
		}
	}
	return platformCase{
		name: name, template: "woocommerce", files: []string{"woocommerce-sample-products.csv"}, comma: ',', edit: edit,
		products: 16, variants: 21,
		skipped: []string{
			"woocommerce-sample-products:24: grouped product: lading imports simple and variable products only",
			"woocommerce-sample-products:25: external product: lading imports simple and variable products only",
		},
		check: func(t *testing.T, e *env, s snapshot) {
			wantVariants(t, s, "Beanie", "Beanie|woo-beanie[]Regular price:20,Sale price:18 stock=0 weight="+beanieWeight)
			// Variations take their weight and size from their product
			// in WooCommerce; their rows give none.
			wantVariants(t, s, "Hoodie",
				"Hoodie|woo-hoodie-blue-logo[Color=Blue,Logo=Yes]Regular price:45 stock=0 weight=",
				"Hoodie|woo-hoodie-blue[Color=Blue,Logo=No]Regular price:45 stock=0 weight=",
				"Hoodie|woo-hoodie-green[Color=Green,Logo=No]Regular price:45 stock=0 weight=",
				"Hoodie|woo-hoodie-red[Color=Red,Logo=No]Regular price:45,Sale price:42 stock=0 weight=")
			wantVariants(t, s, "Awesome V-Neck T-Shirt",
				"Awesome V-Neck T-Shirt|woo-vneck-tee-blue[Color=Blue]Regular price:15 stock=0 weight=",
				"Awesome V-Neck T-Shirt|woo-vneck-tee-green[Color=Green]Regular price:20 stock=0 weight=",
				"Awesome V-Neck T-Shirt|woo-vneck-tee-red[Color=Red]Regular price:20 stock=0 weight=")
			// A downloadable, virtual product has no weight nor size.
			wantVariants(t, s, "Single", "Single|woo-single[]Regular price:3,Sale price:2 stock=0 weight=")
			recs := e.records()
			if got, want := recs.field(t, "woo-beanie", "notes"), "L x W x H: "+beanieSize+" cm"; got != want {
				t.Errorf("woo-beanie notes %q, want %q", got, want)
			}
			if single, red := recs.field(t, "woo-single", "notes"), recs.field(t, "woo-hoodie-red", "notes"); single != "" || red != "" {
				t.Errorf("notes of woo-single %q and woo-hoodie-red %q, want none", single, red)
			}
		},
	}
}

// runLading runs lading's command line with args against e's sandbox and
// state, and returns what it printed and its error.
func (e *env) runLading(args ...string) (string, error) {
	e.t.Helper()
	var out bytes.Buffer
	a := app.New(app.Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }, ImageTransport: imagestest.Offline()})
	common := []string{"lading", "--base-url", e.url + "/api2", "--token", "tok", "--rate", "500", "--burst", "50"}
	err := a.RunContext(context.Background(), append(common, args...))
	return out.String(), err
}

// A mapping that joins a second file takes it after the input file on the
// command line, from anywhere and by any name; without it, the file the
// mapping names is read beside the input. A second file for a mapping
// without join, a missing second file and a joined file not beside the
// input are usage errors saying what to give.
func TestImportTakesTheJoinedFileOnTheCommandLine(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	e := newEnv(t, sandbox.Options{})
	write := func(path, text string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	joinMapping := write(filepath.Join(e.dir, "join.yaml"), `
source: {delimiter: ";"}
group: {key: id}
product: {name: name}
variant: {sku: ref}
options: {list: attrs}
tiers: {columns: {Retail: price}}
join:
  file: combinations.csv
  key: product_id
`)
	plainMapping := write(filepath.Join(e.dir, "plain.yaml"), "group: {key: id}\nproduct: {name: name}\nvariant: {sku: id}\n")
	products := write(filepath.Join(e.dir, "shop", "products.csv"), "id;name\n1;Shirt\n2;Mug\n")
	variants := write(filepath.Join(e.dir, "elsewhere", "variants of 2024.csv"),
		"product_id,ref,attrs,price\n1,SH-S,Size=S,20\n2,MUG-1,,9.5\n1,SH-M,Size=M,21\n")
	state := filepath.Join(e.dir, "state.db")

	for _, tc := range []struct {
		name string
		args []string
		want string // in the usage error's message
	}{
		{"second file for a mapping without join", []string{"--mapping", plainMapping, products, variants}, "has no join section"},
		{"missing second file", []string{"--mapping", joinMapping, products, filepath.Join(e.dir, "nope.csv")}, "second input file"},
		{"joined file not beside the input", []string{"--mapping", joinMapping, products}, "Give that file after the input file"},
		{"three files", []string{"--mapping", joinMapping, products, variants, variants}, "one input file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.srv.Counters().Requests
			out, err := e.runLading(append([]string{"import", "--state", state}, tc.args...)...)
			var ue *app.UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error()+"\n"+app.Advice(err), tc.want) {
				t.Errorf("got %v (output %q), want a usage error saying %q", err, out, tc.want)
			}
			if n := requests(before, e.srv.Counters().Requests); n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
		})
	}

	out, err := e.runLading("import", "--state", state, "--mapping", joinMapping, products, variants)
	if err != nil {
		t.Fatalf("import with the second file named: %v\n%s", err, out)
	}
	wantVariants(t, e.read(), "Shirt", "Shirt|SH-M[Size=M]Retail:21 stock=0 weight=", "Shirt|SH-S[Size=S]Retail:20 stock=0 weight=")
	wantVariants(t, e.read(), "Mug", "Mug|MUG-1[]Retail:9.5 stock=0 weight=")
	res := readResults(t, engine.DefaultResultsPath(products))
	var lines []string
	for _, r := range res {
		lines = append(lines, filepath.Base(r[0])+":"+r[1]+" "+r[4])
	}
	sort.Strings(lines)
	want := []string{"products.csv:2 created", "products.csv:3 created",
		"variants of 2024.csv:2 created", "variants of 2024.csv:3 created", "variants of 2024.csv:4 created"}
	if !slices.Equal(lines, want) {
		t.Errorf("results lines %q, want %q", lines, want)
	}

	// The same files, the second beside the first under the name the
	// mapping gives: found without being named; nothing to write.
	write(filepath.Join(e.dir, "shop", "combinations.csv"), "product_id,ref,attrs,price\n1,SH-S,Size=S,20\n2,MUG-1,,9.5\n1,SH-M,Size=M,21\n")
	before := e.srv.Counters().Requests
	if out, err := e.runLading("import", "--state", state, "--mapping", joinMapping, products); err != nil {
		t.Fatalf("import with the joined file beside: %v\n%s", err, out)
	}
	if w := writes(before, e.srv.Counters().Requests); w != 0 {
		t.Errorf("the joined file found beside the input sent %d writes, want none", w)
	}
}

// PrestaShop's import samples: seven products, four of them with
// combinations. The MacBook Air's combinations give two SKUs twice, and
// two of them the same options: the product is refused with its rows.
func prestashopCase() platformCase {
	nano := []string{}
	for _, c := range []string{"Blue", "Yellow", "Metal", "Black", "Orange", "Pink", "Green", "Purple"} {
		// The price is the product's 100 plus the combination's impact.
		nano = append(nano,
			fmt.Sprintf("iPod Nano|RP-Nano-%s-16GB[Color=%[1]s,Disk space=16GB]Price:140 stock=10 weight=0.068357", c),
			fmt.Sprintf("iPod Nano|RP-Nano-%s-8GB[Color=%[1]s,Disk space=8GB]Price:100 stock=10 weight=0.068357", c))
	}
	shuffle := []string{}
	for _, c := range []string{"Metal", "Blue", "Pink", "Green"} {
		shuffle = append(shuffle, fmt.Sprintf("iPod shuffle|RP-Shuffle-%s[Color=%[1]s]Price:60 stock=12 weight=0.027563", c))
	}
	const combos = "prestashop-combinations_import"
	return platformCase{
		name: "prestashop", template: "prestashop", comma: ';',
		files:    []string{"prestashop-products_import.csv", combos + ".csv"},
		products: 6, variants: 26,
		failed: [][2]string{
			{combos + ":22", "duplicate SKU: also on"},
			{combos + ":23", "duplicate SKU: also on"},
			{combos + ":24", "duplicate SKU: also on"},
			{combos + ":25", `duplicate option combination in product "3"`},
			{"prestashop-products_import:4", "not written: 5 invalid values in this product's rows"},
		},
		check: func(t *testing.T, e *env, s snapshot) {
			wantVariants(t, s, "iPod Nano", nano...)
			wantVariants(t, s, "iPod shuffle", shuffle...)
			wantVariants(t, s, "iPod touch",
				"iPod touch|RP-IpodTouch8GB[Disk space=8GB]Price:240 stock=10 weight=0.194046",
				"iPod touch|RP-IpodTouch16GB[Disk space=16GB]Price:315 stock=10 weight=0.194046",
				"iPod touch|RP-IpodTouch32GB[Disk space=32GB]Price:390 stock=10 weight=0.194046")
			// Products without combinations: their own reference,
			// quantity, price and weight.
			wantVariants(t, s, "MacBook", "MacBook|RP-demo_4[]Price:1150 stock=75 weight=4.454244")
			wantVariants(t, s, "Belkin Leather Folio for iPod nano - Black / Chocolate",
				"Belkin Leather Folio for iPod nano - Black / Chocolate|RP-demo_6[]Price:25 stock=25 weight=0.038588")
			wantVariants(t, s, "Shure SE210 Sound-Isolating Earphones for iPod and iPhone",
				"Shure SE210 Sound-Isolating Earphones for iPod and iPhone|RP-demo_7[]Price:125 stock=15 weight=0.040793")
			if n := len(s.ofProduct("MacBook Air")); n != 0 {
				t.Errorf("MacBook Air has %d variants in the sandbox, want none", n)
			}
			// Barcodes: UPC, else EAN13; cost: the combination's
			// wholesale price, else the product's.
			recs := e.records()
			for _, w := range []struct{ sku, upc, cost string }{
				{"RP-Nano-Blue-16GB", "116052426077", "100"},
				{"RP-Nano-Yellow-8GB", "080064075921", "80"},
				{"RP-demo_4", "1234567890123", "750"},
			} {
				if upc, cost := recs.field(t, w.sku, "upc"), recs.field(t, w.sku, "cost"); upc != w.upc || cost != w.cost {
					t.Errorf("%s: upc %q cost %q, want %q and %q", w.sku, upc, cost, w.upc, w.cost)
				}
			}
		},
	}
}

// lading import --template prestashop takes the products file and the
// combinations file, each from its own folder under its own name, and
// exits 3 for the MacBook Air's rows, naming the results file.
func TestImportPrestashopFromTheCommandLine(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	e := newEnv(t, sandbox.Options{})
	copyAs := func(src, dst string) string {
		t.Helper()
		b, err := os.ReadFile(catalogFile(t, src))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(e.dir, dst)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	products := copyAs("prestashop-products_import.csv", "export/products.csv")
	combinations := copyAs("prestashop-combinations_import.csv", "other/combinaisons 2024.csv")
	out, err := e.runLading("import", "--state", filepath.Join(e.dir, "state.db"), "--template", "prestashop", products, combinations)
	var pe *app.PartialError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "5 of 34 rows failed") {
		t.Fatalf("import: %v, want 5 of 34 rows failed\n%s", err, out)
	}
	if !strings.Contains(out, "products: 6 created, 1 failed") || !strings.Contains(out, "variants: 26 created, 4 failed") {
		t.Errorf("summary:\n%s", out)
	}
	s := e.read()
	if len(s.Products) != 6 || len(s.Variants) != 26 {
		t.Errorf("sandbox holds %d products and %d variants, want 6 and 26", len(s.Products), len(s.Variants))
	}
}
