package templates_test

import (
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"testing"

	"lading/mapping"
	"lading/source"
	"lading/source/sourcetest"
	"lading/templates"
)

// The platform templates read a platform's CSV export and the same sheet
// saved as .xlsx alike: their source settings leave the format to the
// file's extension.
func TestTemplatesReadCSVAndXLSX(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ template, export string }{
		{"shopify", "shopify-apparel.csv"},
		{"woocommerce", "woocommerce-sample-products.csv"},
	} {
		t.Run(tt.template, func(t *testing.T) {
			text, err := templates.Get(tt.template)
			if err != nil {
				t.Fatal(err)
			}
			m, err := mapping.Parse(tt.template+".yaml", text)
			if err != nil {
				t.Fatal(err)
			}
			opts := source.Options{Format: m.Source.Format, Sheet: m.Source.Sheet, HeaderRow: m.Source.HeaderRow,
				Delimiter: m.Source.Delimiter, Encoding: m.Source.Encoding}
			csvPath := filepath.Join("..", "testdata", "catalogs", tt.export)
			header, rows := readSource(t, csvPath, opts)
			xlsxPath := filepath.Join(t.TempDir(), "export.xlsx")
			sourcetest.WriteBook(t, xlsxPath, append([][]string{header}, rows...))
			xHeader, xRows := readSource(t, xlsxPath, opts)
			if !reflect.DeepEqual(xHeader, header) || !reflect.DeepEqual(xRows, rows) {
				t.Errorf("the .xlsx reads otherwise than the .csv:\nheader %q\n  want %q\n%d rows, want %d", xHeader, header, len(xRows), len(rows))
			}
			if _, err := m.Compile(xlsxPath, xHeader); err != nil {
				t.Errorf("the template does not fit the .xlsx header: %v", err)
			}
		})
	}
}

// readSource reads path's header and rows, padded to the header's width.
func readSource(t *testing.T, path string, opts source.Options) ([]string, [][]string) {
	t.Helper()
	src, err := source.Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var rows [][]string
	for range 100_000 {
		row, _, err := src.Next()
		if errors.Is(err, io.EOF) {
			return src.Header(), rows
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, append([]string(nil), row...))
	}
	t.Fatalf("%s: more rows than expected", path)
	return nil, nil
}
