package catalog

import (
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lading/mapping"
	"lading/templates"
)

// catalogs holds real public catalog exports (see testdata/README.md).
const catalogs = "../testdata/catalogs"

// importFile runs a real catalog through a template: read, evaluate, group.
func importFile(t *testing.T, template, file string) *Result {
	t.Helper()
	res := groupFile(t, templateMapping(t, template), file)
	for _, e := range res.Errors {
		t.Errorf("row error: %v", &e)
	}
	for _, p := range res.Products {
		for _, e := range p.Errs() {
			t.Errorf("product %s: %v", p.Key, &e)
		}
	}
	return res
}

// templateMapping is the built-in mapping template.
func templateMapping(t *testing.T, template string) *mapping.Mapping {
	t.Helper()
	text, err := templates.Get(template)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mapping.Parse(template+".yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// groupFile reads the catalog file through m and groups its rows; every
// row must be accounted for once.
func groupFile(t *testing.T, m *mapping.Mapping, file string) *Result {
	t.Helper()
	path := filepath.Join(catalogs, file)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	header[0] = strings.TrimPrefix(header[0], "\ufeff")
	p, err := m.Compile(file, header)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGrouper(m)
	var row mapping.Row
	var lines []int
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		line, _ := r.FieldPos(0)
		lines = append(lines, line)
		p.Eval(rec, &row)
		g.Add(RowRef{File: file, Line: line}, &row)
	}
	res := g.Finish()
	checkEveryRowOnce(t, res, lines)
	return res
}

func countVariants(ps []*Product) int {
	n := 0
	for _, p := range ps {
		n += len(p.Variants)
	}
	return n
}

func find(t *testing.T, ps []*Product, key string) *Product {
	t.Helper()
	for _, p := range ps {
		if p.Key == key {
			return p
		}
	}
	t.Fatalf("no product %q", key)
	return nil
}

func TestShopifyApparel(t *testing.T) {
	t.Parallel()
	res := importFile(t, "shopify", "shopify-apparel.csv")
	if len(res.Products) != 20 || countVariants(res.Products) != 22 {
		t.Fatalf("got %d products, %d variants; want 20, 22", len(res.Products), countVariants(res.Products))
	}
	attributeless := 0
	for _, p := range res.Products {
		if len(p.Attributes()) == 0 && len(p.Variants) == 1 {
			attributeless++
		}
		for i := range p.Variants {
			if _, ok := p.Variants[i].Tier("Price"); !ok {
				t.Errorf("%s variant %d has no Price tier", p.Key, i)
			}
		}
	}
	if attributeless != 19 {
		t.Errorf("attributeless single-variant products = %d, want 19", attributeless)
	}
	top := find(t, res.Products, "classic-varsity-top")
	if strings.Join(top.Attributes(), ",") != "Size" {
		t.Errorf("classic-varsity-top attributes = %v", top.Attributes())
	}
	var sizes []string
	for i := range top.Variants {
		s, _ := top.Variants[i].Option("Size")
		sizes = append(sizes, s)
	}
	if strings.Join(sizes, ",") != "Small,Medium,Large" {
		t.Errorf("sizes = %v", sizes)
	}
	if v, _ := top.Variants[0].Tier("Price"); v != "60" {
		t.Errorf("price = %q, want 60", v)
	}
	shirt := find(t, res.Products, "ocean-blue-shirt")
	if shirt.Name().S != "Ocean Blue Shirt" || strings.Join(shirt.Tags(), ",") != "men" {
		t.Errorf("ocean-blue-shirt: name %q tags %v", shirt.Name().S, shirt.Tags())
	}
	if k := shirt.VariantKey(&shirt.Variants[0]); k != "ocean-blue-shirt|" {
		t.Errorf("variant key = %q", k)
	}
}

// Shopify's template holds barcodes a spreadsheet has already rounded
// ("3.65275E+11"): every variant row fails, naming the column. Without its
// barcodes it imports whole.
func TestShopifyProductTemplate(t *testing.T) {
	t.Parallel()
	m := templateMapping(t, "shopify")
	lost := 0
	for _, p := range groupFile(t, m, "shopify-product-template.csv").Products {
		for _, e := range p.Errs() {
			if strings.Contains(e.Error(), `column "Variant Barcode"`) && strings.Contains(e.Error(), "scientific notation, not a UPC") {
				lost++
			}
		}
	}
	if lost != 16 {
		t.Errorf("%d rows refused for their barcode, want every variant row's, 16", lost)
	}
	m.Variant.Fields = slices.DeleteFunc(m.Variant.Fields, func(f *mapping.ValueSpec) bool { return f.Name == "upc" })
	res := groupFile(t, m, "shopify-product-template.csv")
	for _, p := range res.Products {
		if len(p.Errs()) > 0 || len(res.Errors) > 0 {
			t.Fatalf("errors without the barcodes: %v, %v", p.Errs(), res.Errors)
		}
	}
	if len(res.Products) != 3 || countVariants(res.Products) != 16 {
		t.Fatalf("got %d products, %d variants; want 3, 16", len(res.Products), countVariants(res.Products))
	}
	// Row 17 has nothing but an image: it gives the product its image,
	// and no variant.
	if len(res.Skipped) != 0 {
		t.Errorf("skipped = %+v", res.Skipped)
	}
	imageOnly := find(t, res.Products, "example-pants")
	if i := slices.IndexFunc(imageOnly.Images(), func(im Image) bool { return im.Row.Line == 17 }); i < 0 || imageOnly.Images()[i].Position != 4 ||
		!slices.Contains(imageOnly.ProductRows(), RowRef{File: "shopify-product-template.csv", Line: 17}) {
		t.Errorf("row 17's image: %+v, product rows %v", imageOnly.Images(), imageOnly.ProductRows())
	}
	shirt := find(t, res.Products, "example-shirt")
	if strings.Join(shirt.Attributes(), ",") != "Color,Size" || len(shirt.Variants) != 12 {
		t.Errorf("example-shirt: %v, %d variants", shirt.Attributes(), len(shirt.Variants))
	}
	if v := shirt.Variants[0]; v.SKU() != "SRT_COT_111" {
		t.Errorf("first SKU = %q", v.SKU())
	}
	if w, _ := shirt.Variants[0].Field("weight"); w != "0.145" {
		t.Errorf("weight = %q, want 0.145", w)
	}
	if strings.Join(shirt.Tags(), "|") != "Made to Order|Shirt Tag" {
		t.Errorf("tags = %q", shirt.Tags())
	}
	pants := find(t, res.Products, "example-pants")
	var stock []string
	for i := range pants.Variants {
		stock = append(stock, pants.Variants[i].Stock().S)
	}
	if strings.Join(stock, ",") != "20,15,10" {
		t.Errorf("pants stock = %v", stock)
	}
	if c, _ := pants.Variants[0].Tier("Compare At Price"); c != "64.95" {
		t.Errorf("compare at = %q", c)
	}
	if c, _ := pants.Variants[0].Field("cost"); c != "50" {
		t.Errorf("cost = %q", c)
	}
	if w, _ := pants.Variants[0].Field("weight"); w != "0.226796185" {
		t.Errorf("weight = %q", w)
	}
	hat := find(t, res.Products, "example-hat")
	if len(hat.Variants) != 1 || len(hat.Attributes()) != 0 || hat.Variants[0].SKU() != "HAT_GRY_275" {
		t.Errorf("hat: %d variants, attributes %v", len(hat.Variants), hat.Attributes())
	}
	if _, ok := shirt.Variants[0].Tier("Compare At Price"); ok {
		t.Error("empty Compare At Price gave a tier")
	}
}

func TestWooCommerceSample(t *testing.T) {
	t.Parallel()
	res := importFile(t, "woocommerce", "woocommerce-sample-products.csv")
	if len(res.Products) != 16 || countVariants(res.Products) != 21 {
		t.Fatalf("got %d products, %d variants; want 16, 21", len(res.Products), countVariants(res.Products))
	}
	variable := 0
	for _, p := range res.Products {
		if len(p.Attributes()) > 0 {
			variable++
		} else if len(p.Variants) != 1 {
			t.Errorf("simple %s has %d variants", p.Key, len(p.Variants))
		}
	}
	if variable != 2 {
		t.Errorf("variable products = %d, want 2", variable)
	}
	tee := find(t, res.Products, "woo-vneck-tee")
	hoodie := find(t, res.Products, "woo-hoodie")
	if len(tee.Variants) != 3 || len(hoodie.Variants) != 4 {
		t.Errorf("variations: tee %d, hoodie %d", len(tee.Variants), len(hoodie.Variants))
	}
	if strings.Join(hoodie.Attributes(), ",") != "Color,Logo" {
		t.Errorf("hoodie attributes %v", hoodie.Attributes())
	}
	if o, _ := hoodie.Variants[0].Option("Logo"); o != "No" {
		t.Errorf("hoodie first variation Logo = %q", o)
	}
	if s, _ := hoodie.Variants[0].Tier("Sale price"); s != "42" {
		t.Errorf("sale price = %q", s)
	}
	if len(res.Skipped) != 2 {
		t.Fatalf("skipped = %+v", res.Skipped)
	}
	for i, want := range []string{"grouped", "external"} {
		if !strings.HasPrefix(res.Skipped[i].Reason, want+" product") {
			t.Errorf("skip reason %q, want it to name %q", res.Skipped[i].Reason, want)
		}
	}
	beanie := find(t, res.Products, "woo-beanie")
	if len(beanie.Attributes()) != 0 || beanie.Variants[0].SKU() != "woo-beanie" {
		t.Errorf("beanie: %v %q", beanie.Attributes(), beanie.Variants[0].SKU())
	}
	// 0.2 lb ("Weight (lbs)") in kilograms, to 6 places
	if w, _ := beanie.Variants[0].Field("weight"); w != "0.090718" {
		t.Errorf("beanie weight %q", w)
	}
}

// checkEveryRowOnce asserts that every input row is accounted for exactly
// once: skipped, an orphan error, or a row of exactly one product.
func checkEveryRowOnce(t *testing.T, res *Result, lines []int) {
	t.Helper()
	seen := map[int]int{}
	for _, s := range res.Skipped {
		seen[s.Row.Line]++
	}
	orphan := map[int]bool{}
	for _, e := range res.Errors {
		orphan[e.Row.Line] = true
	}
	for l := range orphan {
		seen[l]++
	}
	for _, p := range res.Products {
		for _, r := range p.Rows() {
			seen[r.Line]++
		}
	}
	if res.Rows != len(lines) {
		t.Errorf("Rows = %d, want %d", res.Rows, len(lines))
	}
	for _, l := range lines {
		if seen[l] != 1 {
			t.Errorf("row %d accounted for %d times", l, seen[l])
		}
		delete(seen, l)
	}
	for l := range seen {
		t.Errorf("row %d reported but never read", l)
	}
}
