package templates_test

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"lading/exporter"
	"lading/mapping"
	"lading/source"
	"lading/templates"
)

// A stock template maps stock levels only, and a catalog template has no
// stock section: each kind of command takes its own.
func TestTemplateKinds(t *testing.T) {
	t.Parallel()
	for _, in := range templates.List() {
		t.Run(in.Name, func(t *testing.T) {
			if in.Kind == templates.KindReport {
				text, err := templates.Get(in.Name)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := exporter.ParseReport(in.Name, text); err != nil {
					t.Errorf("a report template does not parse: %v", err)
				}
				return
			}
			m := parseTemplate(t, in.Name)
			switch in.Kind {
			case templates.KindStock:
				if !m.StockOnly() {
					t.Fatalf("a stock template maps more than stock levels: %+v", m)
				}
				_, err := m.Compile("in.csv", []string{"sku", "quantity"})
				if err == nil || !strings.Contains(err.Error(), "maps stock levels only") {
					t.Errorf("an import with a stock template: %v", err)
				}
			case templates.KindShipments:
				if !m.ShipmentsOnly() {
					t.Fatalf("a shipments template maps more than shipments: %+v", m)
				}
				if _, err := m.Compile("in.csv", []string{"sku"}); err == nil || !strings.Contains(err.Error(), "maps shipments only") {
					t.Errorf("an import with a shipments template: %v", err)
				}
			case templates.KindSlips:
				if !m.SlipsOnly() {
					t.Fatalf("a slips template maps more than packing slips: %+v", m)
				}
				if _, err := m.Compile("in.csv", []string{"key"}); err == nil || !strings.Contains(err.Error(), "maps packing slips only") {
					t.Errorf("an import with a slips template: %v", err)
				}
			case templates.KindCatalog:
				if m.Stock != nil {
					t.Errorf("a catalog template has a stock section: %+v", m.Stock)
				}
			default:
				t.Errorf("kind %q", in.Kind)
			}
		})
	}
}

// Each stock template reads its sample (testdata/stock/, see
// testdata/README.md) without an error on any row: every row gives a
// level or is skipped with its reason.
func TestStockTemplatesReadTheirSamples(t *testing.T) {
	t.Parallel()
	tests := []struct {
		template, sample string
		rows, skipped    int
		levels           map[string]string // SKU: quantity@warehouse, for some rows
		reasons          []string          // some skip reasons
	}{
		{"stock", "levels.csv", 4, 0, map[string]string{"MUG-1": "12@", "TEE-S": "1204@Main", "TEE-M": "0@Main", "CAP-1": "7@"}, nil},
		{"shopify-inventory", "shopify-inventory-export.csv", 63, 33, map[string]string{
			"book-McConaughey-Poems-Prayers":   "609@Underground Sports Shop",
			"pajama-red-m":                     "6@Underground Sports Shop",
			"graduation-cords-Capella":         "0@Underground Sports Shop", // Available -1: oversold
			"medallion-graduation-set-Capella": "0@Underground Sports Shop", // -5
			"graduation-stole-personalized":    "21301@Underground Sports Shop",
		}, []string{
			"not stocked at Underground Sports Shop in Shopify",
			"the variant (avery-label-sheet, Default Title) has no SKU in Shopify; give it one to push its stock",
			"the variant (stole-ccu, Default Title) has no SKU in Shopify; give it one to push its stock",
		}},
		{"amazon-fba", "amazon-fba-inventory.txt", 6, 1, map[string]string{
			"MUG-WHT-11": "20@", "MUG-BLK-11": "0@", "TEE-CREME-M": "1180@", "TEE-CREME-L": "0@", "MUG-WHT-11-USED": "1@",
		}, []string{"not fulfilled by Amazon (afn-listing-exists is not Yes)"}},
	}
	for _, tt := range tests {
		t.Run(tt.template, func(t *testing.T) {
			m := parseTemplate(t, tt.template)
			s := m.Source
			opts := source.Options{Format: s.Format, Sheet: s.Sheet, HeaderRow: s.HeaderRow, Delimiter: s.Delimiter,
				Encoding: s.Encoding, AllowShortRows: s.AllowShortRows}
			header, rows := readSource(t, filepath.Join("..", "testdata", "stock", tt.sample), opts)
			p, err := m.CompileStock(tt.sample, header)
			if err != nil {
				t.Fatalf("the template does not fit its sample's header: %v", err)
			}
			levels, reasons := map[string]string{}, map[string]bool{}
			var r mapping.StockRow
			for i, row := range rows {
				if err := p.Eval(row, &r); err != nil {
					t.Errorf("row %d: %v", i+2, err)
					continue
				}
				if r.Skip {
					reasons[r.SkipReason] = true
					continue
				}
				if _, twice := levels[r.SKU]; twice {
					t.Errorf("row %d: SKU %q again", i+2, r.SKU)
				}
				levels[r.SKU] = r.Quantity + "@" + r.Warehouse
			}
			if len(rows) != tt.rows || len(rows)-len(levels) != tt.skipped {
				t.Errorf("%d rows, %d skipped; want %d, %d", len(rows), len(rows)-len(levels), tt.rows, tt.skipped)
			}
			for sku, q := range tt.levels {
				if got, ok := levels[sku]; !ok || got != q {
					t.Errorf("SKU %q: quantity@warehouse %q (read %v), want %q", sku, got, ok, q)
				}
			}
			for _, why := range tt.reasons {
				if !reasons[why] {
					t.Errorf("no row skipped for %q; reasons: %v", why, reasons)
				}
			}
		})
	}
}

// The Amazon report is read as windows-1252: read as UTF-8, a product name
// with an accent ("crème") is a bad row, so the template's setting matters.
func TestAmazonReportEncoding(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "testdata", "stock", "amazon-fba-inventory.txt")
	_, rows := readSource(t, path, source.Options{Delimiter: '\t', Encoding: "windows-1252"})
	if got := rows[2][3]; got != "T-shirt crème, M" {
		t.Errorf("product name %q", got)
	}
	src, err := source.Open(path, source.Options{Delimiter: '\t'})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var bad error
	for range 10 {
		if _, _, err := src.Next(); err != nil {
			bad = err
			break
		}
	}
	if bad == nil || errors.Is(bad, io.EOF) {
		t.Errorf("read as UTF-8, the report gives no error: %v", bad)
	}
}

func parseTemplate(t *testing.T, name string) *mapping.Mapping {
	t.Helper()
	text, err := templates.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mapping.Parse(name+".yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
