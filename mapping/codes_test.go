package mapping

import (
	"strings"
	"testing"
)

// A SKU or a UPC in scientific notation has lost its digits in the
// spreadsheet: its row fails, saying so and how to keep them. Other text
// and numbers may be written so.
func TestCodesInScientificNotation(t *testing.T) {
	t.Parallel()
	const src = `
group: {by: key, key: sku}
product: {name: name}
variant: {sku: sku, upc: upc, weight: weight}
`
	p := program(t, src, "sku", "name", "upc", "weight")
	tests := []struct {
		cells []string
		bad   []string // the targets whose value is refused
	}{
		{[]string{"1.23457E+11", "Tee", "036000291452", "1"}, []string{"variant.sku"}},
		{[]string{"S-1", "1.5E+3", "3,6E+10", "1.5E+3"}, []string{"variant.upc"}},
		{[]string{"S-1", "Tee", "-1.2345678901234568E+19", "1"}, []string{"variant.upc"}},
		{[]string{"S-1", "Tee", "2E+10", "1"}, []string{"variant.upc"}},
		{[]string{"12E4", "Tee", "0E+10", "1"}, nil},
		{[]string{"1.5E", "Tee", "E+10", "1"}, nil},
		{[]string{"S-1", "Tee", "1.E+10", "1"}, nil},
	}
	for _, tt := range tests {
		r := eval(t, p, tt.cells...)
		var bad []string
		for _, e := range r.Errors {
			bad = append(bad, e.Target)
			if !strings.Contains(e.Rule, "scientific notation") || !strings.Contains(e.Rule, "already lost") || !strings.Contains(e.Rule, "format the column as text") {
				t.Errorf("%q: %s: %s", tt.cells, e.Target, e.Rule)
			}
		}
		if strings.Join(bad, ",") != strings.Join(tt.bad, ",") {
			t.Errorf("%q: refused %q, want %q", tt.cells, bad, tt.bad)
		}
	}

	sp := stockProgram(t, "stock: {sku: SKU, quantity: Qty}\n", "SKU", "Qty")
	var r StockRow
	if err := sp.Eval([]string{"4.00001E+12", "3"}, &r); err == nil || !strings.Contains(err.Error(), `column "SKU" value "4.00001E+12" (stock.sku): is a number in scientific notation, not a SKU`) {
		t.Errorf("stock row with a SKU in scientific notation: %v", err)
	}
}
