package importer_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/images/imagestest"
	"lading/importer"
	"lading/sandbox"
	"lading/state"
)

// incrementalProducts is the size of the catalog the incremental tests
// import: 20 products of 3 variants, tagged Classic in products 1, 9
// and 17 (sourcetest's generator).
const incrementalProducts, incrementalVariants = 20, 3

// marked makes an account that has held the generated catalog for ten
// days, and a state in which an incremental import found it equal today;
// it returns the catalog's file.
func marked(t *testing.T) (*env, string) {
	t.Helper()
	return markedOf(t, incrementalProducts)
}

// markedOf is marked for a catalog of products products.
func markedOf(t *testing.T, products int) (*env, string) {
	t.Helper()
	e := newEnv(t, sandbox.Options{})
	e.srv.SetClock(func() time.Time { return time.Now().AddDate(0, 0, -10) })
	in := e.generate("catalog.csv", products, incrementalVariants)
	for _, want := range []engine.Status{engine.Created, engine.Unchanged} {
		rep, err := e.importFile(context.Background(), "generic", in, incremental)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Variants[want] != products*incrementalVariants {
			t.Fatalf("variants %v: want all %s", rep.Variants, want)
		}
	}
	e.srv.SetClock(nil)
	return e, in
}

func incremental(o *importer.Options) { o.Incremental = true }

// An incremental import reads from the account only what changed there
// since the marks' day and the products whose rows changed, and finds
// every change a whole comparison would: in the file, and in the account
// (a variant's field, a product's name), and the changes its listings do
// not show (a variant deleted, a tag renamed) by giving the marks up.
func TestIncrementalImport(t *testing.T) {
	t.Parallel()
	cases := []incrementalCase{{
		name: "nothing changed", change: func(*env, string) string { return "" },
		// the size of the account, two counts, the variants, tags and
		// products changed since
		marked: incrementalProducts, reads: 6,
	}, {
		name:   "a price changed in the file",
		change: priceChanged("P000004-Red-M"),
		// and a look-up of the changed product's SKUs, and its full read
		marked: incrementalProducts - 1, reads: 8,
		variants: engine.Counts{engine.Updated: 1}, products: engine.Counts{engine.Updated: 1},
	}, {
		name:   "a variant's weight changed in the account",
		change: variantWritten("P000007-Red-S", api.VariantWrite{Weight: api.String("9.99")}),
		marked: incrementalProducts - 1, reads: 8,
		variants: engine.Counts{engine.Updated: 1}, products: engine.Counts{engine.Updated: 1},
	}, {
		name:   "a variant's SKU changed in the account",
		change: variantWritten("P000005-Red-M", api.VariantWrite{SKU: api.String("RENAMED")}),
		// the file's SKU is looked up and not found: its variant is
		// created, and refused (another has its options), as a whole
		// comparison does
		marked: incrementalProducts - 1, reads: 8,
		variants: engine.Counts{engine.Failed: 1}, products: engine.Counts{engine.Updated: 1},
	}, {
		name: "a product renamed in the account",
		change: func(e *env, _ string) string {
			v := e.variant("P000012-Red-S")
			if _, err := e.c.Products.Write(context.Background(), []api.ProductWrite{{ID: v.ProductID(), Name: api.String("Renamed")}}); err != nil {
				e.t.Fatal(err)
			}
			return ""
		},
		marked: incrementalProducts - 1, reads: 8,
		products: engine.Counts{engine.Updated: 1},
	}, {
		name: "a new variant's SKU given to another product in the account",
		change: func(e *env, _ string) string {
			// Product 21, created today and marked: a variant of it
			// deleted is not one the count of older variants misses.
			ctx := context.Background()
			in := e.generate("more.csv", incrementalProducts+1, incrementalVariants)
			for range 2 {
				if _, err := e.importFile(ctx, "generic", in, incremental); err != nil {
					e.t.Fatal(err)
				}
			}
			v := e.variant("P000021-Red-S")
			if res, err := e.c.Variants.Write(ctx, []api.VariantWrite{{ID: v.ID, Delete: 1}}); err != nil || len(res.Failed) > 0 {
				e.t.Fatalf("deleting the variant: %v %v", res, err)
			}
			res, err := e.c.Products.Write(ctx, []api.ProductWrite{{Name: api.String("Stray")}})
			if err != nil || len(res.Failed) > 0 {
				e.t.Fatalf("writing the product: %v %v", res, err)
			}
			stray := api.VariantWrite{SKU: api.String("P000021-Red-S"), Links: &api.VariantLinks{Products: []api.Ref{{ID: res.IDs[0]}}}}
			if res, err := e.c.Variants.Write(ctx, []api.VariantWrite{stray}); err != nil || len(res.Failed) > 0 {
				e.t.Fatalf("writing the variant: %v %v", res, err)
			}
			return in
		},
		// the look-up of the product's SKUs finds two products, read in
		// full, and it fails as a whole comparison fails it
		marked: incrementalProducts, reads: 8, more: 1,
		variants: engine.Counts{engine.Failed: incrementalVariants}, products: engine.Counts{engine.Failed: 1},
	}, {
		name: "most variants changed in the account",
		change: func(e *env, _ string) string {
			var writes []api.VariantWrite
			for p := 1; len(writes) <= incrementalProducts*incrementalVariants/2; p++ {
				for _, size := range []string{"S", "M", "L"} {
					writes = append(writes, api.VariantWrite{ID: e.variant(fmt.Sprintf("P%06d-Red-%s", p, size)).ID, Weight: api.String("9.99")})
				}
			}
			if res, err := e.c.Variants.Write(context.Background(), writes); err != nil || len(res.Failed) > 0 {
				e.t.Fatalf("writing the variants: %v %v", res, err)
			}
			return ""
		},
		// the size, the counts, the first page of the variants changed,
		// the whole account
		whole: "33 variants were changed in the account", reads: 6,
		variants: engine.Counts{engine.Updated: 33}, products: engine.Counts{engine.Updated: 11},
	}, {
		name: "most products changed in the account",
		change: func(e *env, _ string) string {
			var writes []api.ProductWrite
			for p := 1; p <= incrementalProducts/2+1; p++ {
				writes = append(writes, api.ProductWrite{ID: e.variant(fmt.Sprintf("P%06d-Red-S", p)).ProductID(), Notes: api.String("changed")})
			}
			if res, err := e.c.Products.Write(context.Background(), writes); err != nil || len(res.Failed) > 0 {
				e.t.Fatalf("writing the products: %v %v", res, err)
			}
			return ""
		},
		// notes the file gives (products 1, 6 and 11) are written back;
		// an empty cell leaves the others'
		whole: "11 products were changed in the account", reads: 7,
		products: engine.Counts{engine.Updated: 3},
	}, {
		name: "a variant deleted in the account",
		change: func(e *env, _ string) string {
			v := e.variant("P000015-Red-L")
			if _, err := e.c.Variants.Write(context.Background(), []api.VariantWrite{{ID: v.ID, Delete: 1}}); err != nil {
				e.t.Fatal(err)
			}
			return ""
		},
		// the size, the counts (the variants created since, the tags
		// before), the whole account, the product read in full, and the
		// counts again (the size too, after the writes)
		whole: "some were deleted since", reads: 8,
		variants: engine.Counts{engine.Created: 1}, products: engine.Counts{engine.Updated: 1},
	}, {
		name: "a tag renamed in the account",
		change: func(e *env, _ string) string {
			ctx := context.Background()
			for _, pg := range pages(e.t, e.c.ProductTags.ListPages(ctx, nil)) {
				for _, tag := range pg.Records {
					if string(tag.Name) == "Classic" {
						if _, err := e.c.ProductTags.Write(ctx, []api.ProductTagWrite{{ID: tag.ID, Name: "Timeless"}}); err != nil {
							e.t.Fatal(err)
						}
					}
				}
			}
			return ""
		},
		// the size, the counts, the variants, products and tags changed,
		// the whole account (counted today already: not again)
		whole: `the tag "Timeless" was changed`, reads: 8,
		products: engine.Counts{engine.Updated: 3},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, incrementalProducts)
		})
	}
}

// incrementalCase is a change to an account an incremental import marked
// (see markedOf), and what the import after it finds.
type incrementalCase struct {
	name string
	// change changes the account, or the file (returning the file
	// to import; "" for the same).
	change func(e *env, in string) string
	// marked is the count of products taken from the marks; whole
	// says the marks were given up, naming why.
	marked int
	whole  string
	// reads are the import's reads; variants and products are the
	// counts of the import's results that are not unchanged.
	reads              int64
	variants, products engine.Counts
	// more is how many products the file has beyond the catalog's.
	more int
}

// run marks a catalog of products products, changes it, imports it
// incrementally and checks what the import found, and that a whole
// comparison after it finds the account holding the file.
func (tc incrementalCase) run(t *testing.T, products int) {
	t.Helper()
	e, in := markedOf(t, products)
	if edited := tc.change(e, in); edited != "" {
		in = edited
	}
	rep, err := e.importFile(context.Background(), "generic", in, incremental)
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Incremental
	if got == nil || got.Marked != tc.marked || !strings.Contains(got.Whole, tc.whole) || (tc.whole == "") != (got.Whole == "") {
		t.Errorf("incremental %+v: want %d products taken from their marks, the whole file compared for %q", got, tc.marked, tc.whole)
	}
	if rep.Reads != tc.reads {
		t.Errorf("%d reads, want %d", rep.Reads, tc.reads)
	}
	products += tc.more
	all := products * incrementalVariants
	wantVariants, wantProducts := withUnchanged(tc.variants, all), withUnchanged(tc.products, products)
	if !equalCounts(rep.Variants, wantVariants) || !equalCounts(rep.Products, wantProducts) {
		t.Errorf("variants %v, products %v; want %v and %v", rep.Variants, rep.Products, wantVariants, wantProducts)
	}
	// A whole comparison after it finds the account holding the file:
	// nothing to write, or the same failures again.
	again, err := e.importFile(context.Background(), "generic", in, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantVariants, wantProducts = withUnchanged(nil, all), withUnchanged(nil, products)
	if rep.Variants[engine.Failed] > 0 {
		wantVariants, wantProducts = rep.Variants, rep.Products
	}
	if !equalCounts(again.Variants, wantVariants) || !equalCounts(again.Products, wantProducts) {
		t.Errorf("a whole comparison after it: variants %v, products %v; want %v and %v", again.Variants, again.Products, wantVariants, wantProducts)
	}
}

// In an account where looking SKUs up takes fewer reads than the whole
// catalog, a product whose rows, or whose live product, changed since its
// mark is read by the id its mark gave it, one read where its SKUs would
// take a look-up and then a read in full; a SKU not found there has it
// looked up as before. Every change is found as a whole comparison finds
// it.
func TestIncrementalReadsByMarkedID(t *testing.T) {
	t.Parallel()
	const products = 400 // 1,200 variants: three pages of the Products listing
	cases := []incrementalCase{{
		name: "nothing changed", change: func(*env, string) string { return "" },
		// the size of the account, two counts, the variants, tags and
		// products changed since
		marked: products, reads: 6,
	}, {
		name:   "a price changed in the file",
		change: priceChanged("P000204-Red-M"),
		// and the product read by its id
		marked: products - 1, reads: 7,
		variants: engine.Counts{engine.Updated: 1}, products: engine.Counts{engine.Updated: 1},
	}, {
		name:   "a variant's weight changed in the account",
		change: variantWritten("P000307-Red-S", api.VariantWrite{Weight: api.String("9.99")}),
		marked: products - 1, reads: 7,
		variants: engine.Counts{engine.Updated: 1}, products: engine.Counts{engine.Updated: 1},
	}, {
		name: "a SKU changed in the file",
		change: func(e *env, in string) string {
			return e.rewrite(in, "P000012-Red-L", func(row []string) { row[5] = "NEW-12" })
		},
		// the product read by its id has not NEW-12: the product's SKUs
		// looked up; the variant of the old SKU, not in the file, is left
		marked: products - 1, reads: 8,
		variants: engine.Counts{engine.Failed: 1}, products: engine.Counts{engine.Updated: 1},
	}, {
		name: "two SKUs swapped in the file",
		change: func(e *env, in string) string {
			swapped := e.rewrite(in, "P000012-Red-L", func(row []string) { row[5] = "SWAP" })
			swapped = e.rewrite(swapped, "P000013-Red-L", func(row []string) { row[5] = "P000012-Red-L" })
			return e.rewrite(swapped, "SWAP", func(row []string) { row[5] = "P000013-Red-L" })
		},
		// both products read by their ids hold a SKU of the other: their
		// SKUs are looked up, found in two products, and both fail, as
		// in a whole comparison
		marked: products - 2, reads: 8,
		variants: engine.Counts{engine.Failed: 6}, products: engine.Counts{engine.Failed: 2},
	}, {
		name:   "a variant's SKU changed in the account",
		change: variantWritten("P000005-Red-M", api.VariantWrite{SKU: api.String("RENAMED")}),
		marked: products - 1, reads: 8,
		variants: engine.Counts{engine.Failed: 1}, products: engine.Counts{engine.Updated: 1},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, products)
		})
	}
}

// priceChanged changes the price of sku's row in the file.
func priceChanged(sku string) func(e *env, in string) string {
	return func(e *env, in string) string {
		return e.rewrite(in, sku, func(row []string) { row[17] = "77.70" })
	}
}

// variantWritten writes w to the live variant of sku.
func variantWritten(sku string, w api.VariantWrite) func(e *env, in string) string {
	return func(e *env, _ string) string {
		w.ID = e.variant(sku).ID
		if _, err := e.c.Variants.Write(context.Background(), []api.VariantWrite{w}); err != nil {
			e.t.Fatal(err)
		}
		return ""
	}
}

// withUnchanged is c with the rest of total unchanged.
func withUnchanged(c engine.Counts, total int) engine.Counts {
	out := engine.Counts{engine.Unchanged: total}
	for s, n := range c {
		out[s] += n
		out[engine.Unchanged] -= n
	}
	return out
}

func equalCounts(a, b engine.Counts) bool {
	for s, n := range a {
		if b[s] != n {
			return false
		}
	}
	for s, n := range b {
		if a[s] != n {
			return false
		}
	}
	return true
}

// rewrite writes a copy of in whose row of sku edit changed.
func (e *env) rewrite(in, sku string, edit func(row []string)) string {
	e.t.Helper()
	f, err := os.Open(in)
	if err != nil {
		e.t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		e.t.Fatal(err)
	}
	found := false
	for _, row := range rows {
		if row[5] == sku {
			edit(row)
			found = true
		}
	}
	if !found {
		e.t.Fatalf("no row of SKU %s in %s", sku, in)
	}
	out := strings.TrimSuffix(in, ".csv") + "-edited.csv"
	var b strings.Builder
	w := csv.NewWriter(&b)
	if err := w.WriteAll(rows); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// The marks of another file's products in the same account are kept by an
// incremental import of this one, and one that had nothing to compare
// (a file of invalid rows) leaves every mark as it was.
func TestIncrementalKeepsOtherFilesMarks(t *testing.T) {
	t.Parallel()
	e, in := marked(t)
	ctx := context.Background()
	e.srv.SetClock(func() time.Time { return time.Now().AddDate(0, 0, -10) })
	other := filepath.Join(e.dir, "other.csv")
	if err := os.WriteFile(other, []byte("product_key,product_name,sku,option1_name,option1_value\nx,X,X-1,Size,S\nx,,X-2,Size,M\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	invalid := filepath.Join(e.dir, "invalid.csv")
	if err := os.WriteFile(invalid, []byte("product_key,product_name,sku,option1_name,option1_value\ny,Y,Y-1,Size,S\ny,,Y-1,Size,M\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{other, other} { // created, then marked
		if _, err := e.importFile(ctx, "generic", f, incremental); err != nil {
			t.Fatal(err)
		}
	}
	e.srv.SetClock(nil)
	if _, err := e.importFile(ctx, "generic", invalid, incremental); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file   string
		marked int
	}{{in, incrementalProducts}, {other, 1}} {
		rep, err := e.importFile(ctx, "generic", tc.file, incremental)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Incremental == nil || rep.Incremental.Marked != tc.marked {
			t.Errorf("%s: %+v, want %d products taken from their marks", filepath.Base(tc.file), rep.Incremental, tc.marked)
		}
	}
}

// Every platform's sample export, imported incrementally into an account
// that has held it for days, is taken from its marks, every product that
// was found unchanged, and nothing is written or read beyond the
// account's changes: the marks read each layout's products alike every
// time (their options, tiers, tags, joined files).
func TestIncrementalRealCatalogs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		template string
		files    []string
		edit     func(string) string
	}{
		{"shopify", []string{"shopify-apparel.csv"}, nil},
		{"shopify", []string{"shopify-product-template.csv"}, retypedBarcodes},
		{"shopify", []string{"shopify-posters-linked-options.csv"}, nil},
		{"shopify-2024", []string{"shopify-2024-template.csv"}, nil},
		{"bigcommerce", []string{"bigcommerce-machdemo.csv"}, nil},
		{"bigcommerce", []string{"bigcommerce-chatto.csv"}, nil},
		{"bigcommerce-bulk-edit", []string{"bigcommerce-bulk-edit-skus.csv"}, nil},
		{"squarespace", []string{"squarespace-cottoncuts.csv"}, nil},
		{"woocommerce", []string{"woocommerce-sample-products.csv"}, nil},
		{"magento2", []string{"magento2-sample-data-hoodies.csv"}, nil},
		{"prestashop", []string{"prestashop-products_import.csv", "prestashop-combinations_import.csv"}, nil},
	} {
		t.Run(tc.files[0], func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, sandbox.Options{})
			in := e.copyTo(catalogFile(t, tc.files[0]), tc.edit)
			if len(tc.files) > 1 {
				b, err := os.ReadFile(catalogFile(t, tc.files[1]))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(e.dir, "combinations.csv"), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ctx := context.Background()
			e.srv.SetClock(func() time.Time { return time.Now().AddDate(0, 0, -10) })
			var marking *importer.Report
			for range 2 { // created, then found unchanged and marked
				rep, err := e.importFile(ctx, tc.template, in, incremental)
				if err != nil {
					t.Fatal(err)
				}
				marking = rep
			}
			e.srv.SetClock(nil)
			rep, err := e.importFile(ctx, tc.template, in, incremental)
			if err != nil {
				t.Fatal(err)
			}
			unchanged := marking.Products[engine.Unchanged]
			if rep.Incremental == nil || rep.Incremental.Marked != unchanged || rep.Incremental.Whole != "" || unchanged == 0 {
				t.Errorf("incremental %+v: want the %d products found unchanged taken from their marks", rep.Incremental, unchanged)
			}
			if rep.Writes != 0 || !equalCounts(rep.Products, marking.Products) || !equalCounts(rep.Variants, marking.Variants) {
				t.Errorf("%d writes, products %v, variants %v; want none, and %v, %v as the import before", rep.Writes, rep.Products, rep.Variants, marking.Products, marking.Variants)
			}
		})
	}
}

// With images, an incremental import takes a product whose images were
// all found in the account from its mark, with the mark's files: nothing
// uploaded again. A file deleted in the account gives the marks up (it
// is uploaded again); a file added to a product has that product compared.
func TestIncrementalWithImages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	in := e.copyTo(catalogFile(t, "shopify-product-template.csv"), retypedBarcodes)
	srv := imagestest.New(t)
	h, _, recs := exportRecords(t, in, ',')
	cols := imageColumns{single: []string{"Image Src", "Variant Image"}}
	for _, rec := range recs {
		for _, src := range cols.cells(h, rec) {
			srv.Put(src, imagestest.JPEG(len(src), 3000+len(src)))
		}
	}
	opts := func(o *importer.Options) {
		withImages(srv, "")(o)
		o.Incremental = true
	}
	ctx := context.Background()
	run := func() *importer.Report {
		t.Helper()
		rep, err := e.importFile(ctx, "shopify", in, opts)
		if err != nil || rep.Images.Failed() != 0 {
			t.Fatalf("%v; images %v", err, rep.Images)
		}
		return rep
	}
	e.srv.SetClock(func() time.Time { return time.Now().AddDate(0, 0, -10) })
	run()
	marking := run()
	e.srv.SetClock(nil)
	images := marking.Images[engine.Unchanged]
	for _, tc := range []struct {
		name   string
		change func()
		marked int
		whole  string
		upload int
	}{
		{"nothing changed", func() {}, 3, "", 0},
		{"a file added to a product", func() {
			f := e.files()[0]
			if _, err := e.c.ProductFiles.Upload(ctx, api.ID(f.Product), "extra.jpg", bytes.NewReader(imagestest.JPEG(1, 2000))); err != nil {
				t.Fatal(err)
			}
		}, 2, "", 0},
		{"a file deleted", func() {
			if _, err := e.c.ProductFiles.Delete(ctx, api.ID(e.files()[1].ID)); err != nil {
				t.Fatal(err)
			}
		}, 0, "some were deleted since", 1},
		// the product whose image was uploaded again has no mark: its
		// files were not the account's as the import read them
		{"nothing changed since", func() {}, 2, "", 0},
	} {
		tc.change()
		rep := run()
		if rep.Incremental == nil || rep.Incremental.Marked != tc.marked || !strings.Contains(rep.Incremental.Whole, tc.whole) || (tc.whole == "") != (rep.Incremental.Whole == "") {
			t.Errorf("%s: incremental %+v, want %d products taken from their marks, the whole file compared for %q", tc.name, rep.Incremental, tc.marked, tc.whole)
		}
		if rep.Images[importer.Uploaded] != tc.upload || rep.Images[engine.Unchanged] != images-tc.upload {
			t.Errorf("%s: images %v, want %d uploaded and the rest of %d unchanged", tc.name, rep.Images, tc.upload, images)
		}
	}
}

// An import of a file none of whose products can be looked up (every one
// invalid) reads nothing from the account; one that can reads its size
// once (beside its own work: see startSizing).
func TestImportReadsSizeOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	invalid := filepath.Join(e.dir, "invalid.csv")
	if err := os.WriteFile(invalid, []byte("product_key,product_name,sku,option1_name,option1_value\ny,Y,Y-1,Size,S\ny,,Y-1,Size,M\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file  string
		reads int64
	}{
		{invalid, 0},
		// the size alone: the account is empty
		{e.generate("catalog.csv", 2, 2), 1},
	} {
		rep, err := e.importFile(context.Background(), "generic", tc.file, func(o *importer.Options) { o.DryRun = true })
		if err != nil {
			t.Fatal(err)
		}
		if rep.Requests != tc.reads || rep.Reads != tc.reads {
			t.Errorf("%s: %d requests, %d reads; want %d reads", filepath.Base(tc.file), rep.Requests, rep.Reads, tc.reads)
		}
	}
}

// A strict incremental import that sends nothing (a row is invalid) keeps
// the marks of the products it found equal, as one that is not strict
// does: once the row is mended, the next one reads the account's changes
// and the mended product, not the whole catalog.
func TestIncrementalStrictKeepsMarks(t *testing.T) {
	t.Parallel()
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprintf("strict=%t", strict), func(t *testing.T) {
			t.Parallel()
			e, in := marked(t)
			ctx := context.Background()
			bad := e.rewrite(in, "P000004-Red-M", func(row []string) { row[17] = "seven" })
			before := e.srv.Counters().Requests
			rep, err := e.importFile(ctx, "generic", bad, func(o *importer.Options) { o.Incremental, o.Strict = true, strict })
			if strict && !errors.Is(err, engine.ErrInvalid) || !strict && err != nil {
				t.Fatalf("err = %v", err)
			}
			if w := writes(before, e.srv.Counters().Requests); w != 0 {
				t.Fatalf("the import of the invalid row sent %d writes", w)
			}
			if rep.Incremental == nil || rep.Incremental.Marked != incrementalProducts-1 {
				t.Fatalf("the import of the invalid row: %+v, want %d products taken from their marks", rep.Incremental, incrementalProducts-1)
			}
			rep, err = e.importFile(ctx, "generic", in, incremental)
			if err != nil {
				t.Fatal(err)
			}
			// The mended product's mark went with its invalid row: its
			// SKUs are looked up and it is read in full.
			if rep.Incremental == nil || rep.Incremental.Marked != incrementalProducts-1 || rep.Incremental.Whole != "" {
				t.Errorf("mended: %+v, want %d products taken from their marks", rep.Incremental, incrementalProducts-1)
			}
			if rep.Reads != 7 {
				t.Errorf("mended: %d reads, want 7", rep.Reads)
			}
			if want := withUnchanged(nil, incrementalProducts*incrementalVariants); !equalCounts(rep.Variants, want) {
				t.Errorf("mended: variants %v, want %v", rep.Variants, want)
			}
		})
	}
}

// An incremental import the day after the last one counts the account's
// older records for the next one as it begins, where it knows the
// account's size, not after its writes: the counts it began with, two
// more, and none at the end. The next import finds the account holding
// as many, and a variant deleted after it gives the marks up.
func TestIncrementalCountsForTheNextAsItBegins(t *testing.T) {
	t.Parallel()
	e, in := marked(t)
	ctx := context.Background()
	scope := state.KeyImportedCheck(e.url)
	got, err := e.state.IDs(ctx, scope, []string{"older"})
	if err != nil {
		t.Fatal(err)
	}
	day, counted, ok := strings.Cut(got["older"], " ")
	yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(wire.FilterDateLayout)
	if !ok || day != yesterday {
		t.Fatalf("the marking import counted %q, want the day before today (%s) and the counts", got["older"], yesterday)
	}
	// As the last import left it, had it run yesterday (the catalog is
	// ten days old: as many were created before either day).
	before := time.Now().UTC().AddDate(0, 0, -2).Format(wire.FilterDateLayout)
	if err := e.state.PutIDs(ctx, scope, map[string]string{"older": before + " " + counted}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func()
		reads  int64
		whole  string
	}{
		// the size, two counts from the day before yesterday and two
		// from yesterday, the variants, products and tags changed since
		{"a day after", func() {}, 8, ""},
		// the size, two counts, the changes since
		{"again today", func() {}, 6, ""},
		{"a variant deleted", func() {
			v := e.variant("P000015-Red-L")
			if _, err := e.c.Variants.Write(ctx, []api.VariantWrite{{ID: v.ID, Delete: 1}}); err != nil {
				t.Fatal(err)
			}
		}, 0, "some were deleted since"},
	} {
		tc.change()
		before := e.srv.Counters().Requests
		rep, err := e.importFile(ctx, "generic", in, incremental)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Incremental == nil || !strings.Contains(rep.Incremental.Whole, tc.whole) || (tc.whole == "") != (rep.Incremental.Whole == "") {
			t.Errorf("%s: incremental %+v, want the whole file compared for %q", tc.name, rep.Incremental, tc.whole)
		}
		if tc.whole != "" {
			continue
		}
		if rep.Reads != tc.reads || rep.Incremental.Marked != incrementalProducts {
			t.Errorf("%s: %d reads, %d products taken from their marks; want %d and %d", tc.name, rep.Reads, rep.Incremental.Marked, tc.reads, incrementalProducts)
		}
		var answered int64
		for path, n := range e.srv.Counters().Requests {
			answered += n - before[path]
		}
		if answered != tc.reads {
			t.Errorf("%s: the sandbox answered %d requests, want %d", tc.name, answered, tc.reads)
		}
	}
}
