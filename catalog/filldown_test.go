package catalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// bulkEdit reads a layout like BigCommerce's Bulk Edit export: a Product
// row with the product's ID, then its SKU rows without it.
const bulkEdit = `
group:
  key:
    expr: 'trim(Type) == "Product" ? ID : ""'
    fill_down: true
  role: {expr: 'trim(Type) == "Product" ? "product_or_both" : "variant"'}
product:
  name: Name
variant:
  sku: SKU
options:
  list: {expr: 'split(Name, ",")'}
  when: trim(Type) != "Product"
tiers:
  columns:
    Price: {expr: 'product("Price")'}
skip:
  - when: trim(Type) == "Rule"
    reason: a rule
`

var bulkEditHeader = []string{"Type", "ID", "Name", "SKU", "Price"}

func TestGroupFillDown(t *testing.T) {
	t.Parallel()
	res := group(t, bulkEdit, bulkEditHeader,
		[]string{"Product", "1", "Shirt", "SH", "20"},   // 2
		[]string{"  SKU", "", "Size=S", "SH-S", ""},     // 3
		[]string{"  Rule", "", "Size=S", "SH-S", ""},    // 4
		[]string{"  SKU", "", "Size=M", "SH-M", ""},     // 5
		[]string{"Product", "2", "Mug", "MUG", "8"},     // 6: no SKU rows
		[]string{"Product", "3", "Cap", "CAP", "abc"},   // 7: an invalid price
		[]string{"  SKU", "", "Color=Red", "CAP-R", ""}, // 8
		[]string{"Product", "4", "Hat", "HAT", "x"},     // 9: an invalid price, no SKU rows
	)
	if len(res.Errors) != 0 || len(res.Skipped) != 1 || res.Skipped[0].Row.Line != 4 {
		t.Fatalf("orphans %v, skipped %v", res.Errors, res.Skipped)
	}
	var got []string
	for _, p := range res.Products {
		var vs []string
		for _, v := range p.Variants {
			vs = append(vs, fmt.Sprintf("%s %v %v (row %d)", v.SKU(), v.Options(), v.Tiers(), v.Row().Line))
		}
		var rows []int
		for _, r := range p.ProductRows() {
			rows = append(rows, r.Line)
		}
		got = append(got, fmt.Sprintf("%s %s: variants %q, product rows %v, errors %q", p.Key, p.Name().S, vs, rows, errText(p)))
	}
	want := []string{
		// The product row is no variant of a product with SKU rows,
		// which read its price.
		`1 Shirt: variants ["SH-S [{Size S}] [{Price 20}] (row 3)" "SH-M [{Size M}] [{Price 20}] (row 5)"], product rows [2], errors ""`,
		// Without SKU rows, the product row is the product's variant.
		`2 Mug: variants ["MUG [] [{Price 8}] (row 6)"], product rows [], errors ""`,
		// An invalid price of a product row counts where it is used: on
		// its SKU rows, or on its own variant when it has none.
		`3 Cap: variants [], product rows [7], errors "in.csv row 8, column \"Price (on the product's row)\", value \"abc\": tier Price must be a number (decimal \".\")"`,
		`4 Hat: variants ["HAT [] [] (row 9)"], product rows [], errors "in.csv row 9, column \"Price (on the product's row)\", value \"x\": tier Price must be a number (decimal \".\")"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("products:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}
