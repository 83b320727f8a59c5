package source

import (
	"path/filepath"
	"testing"
)

// TestSamplesReadAlike reads samples/catalog.csv and samples/catalog.xlsx
// through the sources: same header, same cells.
func TestSamplesReadAlike(t *testing.T) {
	t.Parallel()
	assertSameRows(t, "../samples/catalog.csv", "../samples/catalog.xlsx", 26)
	src := openTestSource(t, "../samples/catalog.csv", Options{})
	rows := readAll(t, src)
	// The mug's notes span two lines, so the rows after it start a line
	// later than their index suggests.
	if rows[13].Cells[5] != "MUG-350" || rows[13].Line != 15 || rows[14].Line != 17 {
		t.Errorf("mug row %+v, next line %d", rows[13], rows[14].Line)
	}
}

// TestRealCatalogsRead reads the public platform exports in
// testdata/catalogs without a single row error.
func TestRealCatalogsRead(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		file       string
		cols, rows int
	}{
		{"shopify-apparel.csv", 46, 22},
		{"shopify-product-template.csv", 48, 17},
		{"woocommerce-sample-products.csv", 51, 25},
	} {
		t.Run(tt.file, func(t *testing.T) {
			src := openTestSource(t, filepath.Join("..", "testdata", "catalogs", tt.file), Options{})
			rows := readAll(t, src)
			for _, r := range rows {
				if r.Err != "" {
					t.Errorf("%s", r.Err)
				}
			}
			if len(src.Header()) != tt.cols || len(rows) != tt.rows {
				t.Errorf("%d columns, %d rows; want %d, %d", len(src.Header()), len(rows), tt.cols, tt.rows)
			}
		})
	}
}
