package importer

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSamplesReadAlike reads samples/catalog.csv and samples/catalog.xlsx
// through the sources: same header, same cells.
func TestSamplesReadAlike(t *testing.T) {
	assertSameRows(t, "../samples/catalog.csv", "../samples/catalog.xlsx", 26)
	src := openTestSource(t, "../samples/catalog.csv", SourceOptions{})
	rows := readAll(t, src)
	// The mug's notes span two lines, so the rows after it start a line
	// later than their index suggests.
	if rows[13].Cells[5] != "MUG-350" || rows[13].Line != 15 || rows[14].Line != 17 {
		t.Errorf("mug row %+v, next line %d", rows[13], rows[14].Line)
	}
}

// TestRealCatalogsRead reads the recorded platform exports, when present,
// without a single row error.
func TestRealCatalogsRead(t *testing.T) {
	dir := "/work/shared/data/catalogs"
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	if len(files) == 0 {
		t.Skip("no catalogs in " + dir)
	}
	want := map[string]struct{ cols, rows int }{
		"shopify-apparel.csv":             {46, 22},
		"shopify-product-template.csv":    {48, 17},
		"woocommerce-sample-products.csv": {51, 25},
	}
	for _, f := range files {
		w, ok := want[filepath.Base(f)]
		if !ok {
			continue
		}
		if _, err := os.Stat(f); err != nil {
			t.Fatal(err)
		}
		src := openTestSource(t, f, SourceOptions{})
		rows := readAll(t, src)
		for _, r := range rows {
			if r.Err != "" {
				t.Errorf("%s: %s", f, r.Err)
			}
		}
		if len(src.Header()) != w.cols || len(rows) != w.rows {
			t.Errorf("%s: %d columns, %d rows; want %d, %d", f, len(src.Header()), len(rows), w.cols, w.rows)
		}
	}
}
