package source

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"lading/source/sourcetest"
)

// TestGeneratedXLSXMatchesCSV reads the generated files through the
// sources: same header, same cells, same row numbers, whether the workbook
// has inline or shared strings. The sheet is larger
// than the 1 MiB unzip limit, so it is streamed from a temporary file.
func TestGeneratedXLSXMatchesCSV(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes a 12,000-row workbook")
	}
	dir := t.TempDir()
	csvPath, xlsxPath := filepath.Join(dir, "c.csv"), filepath.Join(dir, "c.xlsx")
	f, err := os.Create(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := sourcetest.GenerateCatalogCSV(f, 3000, 4); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := sourcetest.GenerateCatalogXLSX(xlsxPath, 3000, 4); err != nil {
		t.Fatal(err)
	}
	assertSameRows(t, csvPath, xlsxPath, 12000)
	shared := filepath.Join(dir, "shared.xlsx")
	if err := sourcetest.GenerateCatalogXLSXShared(shared, 3000, 4); err != nil {
		t.Fatal(err)
	}
	assertSameRows(t, csvPath, shared, 12000)
}

// assertSameRows checks that two sources hold the same header and rows.
func assertSameRows(t *testing.T, a, b string, wantRows int) {
	t.Helper()
	sa := openTestSource(t, a, Options{})
	sb := openTestSource(t, b, Options{})
	if !reflect.DeepEqual(sa.Header(), sb.Header()) {
		t.Fatalf("headers differ:\n%q\n%q", sa.Header(), sb.Header())
	}
	ra, rb := readAll(t, sa), readAll(t, sb)
	if len(ra) != wantRows || len(rb) != wantRows {
		t.Fatalf("%d and %d rows, want %d", len(ra), len(rb), wantRows)
	}
	for i := range ra {
		if ra[i].Err != "" || rb[i].Err != "" {
			t.Fatalf("row errors: %q / %q", ra[i].Err, rb[i].Err)
		}
		if !reflect.DeepEqual(ra[i].Cells, rb[i].Cells) {
			t.Fatalf("row %d differs:\n%s: %q\n%s: %q", i, a, ra[i].Cells, b, rb[i].Cells)
		}
	}
}
