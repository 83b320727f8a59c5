package catalog

import (
	"slices"
	"strings"
	"testing"

	"lading/mapping"
)

// TestGroupJoinAlone: a product that no joined row names is a simple
// product whose variant is its own row's (join.alone); a product with
// joined rows keeps only those, and its own row's invalid values do not
// matter.
func TestGroupJoinAlone(t *testing.T) {
	t.Parallel()
	src := `
group:
  key: id
product:
  name: name
variant:
  sku: ref
options:
  list: attrs
tiers:
  columns:
    Price: {expr: 'number(product("price")) + number(impact)'}
join:
  file: combos.csv
  key: product_id
  alone:
    variant:
      sku: {column: reference, required: true}
      stock: qty
    tiers:
      columns:
        Price: price
`
	m, err := mapping.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	mainP, err := m.Compile("products.csv", []string{"id", "name", "reference", "price", "qty"})
	if err != nil {
		t.Fatal(err)
	}
	g := NewGrouper(m)
	var r mapping.Row
	for i, row := range [][]string{
		{"1", "Shirt", "", "20", ""},    // combinations; no reference of its own
		{"2", "Mug", "MUG", "9.5", "4"}, // no combination: a simple product
		{"3", "Cap", "", "5", "1"},      // no combination and no reference: invalid
		{"2", "Mug", "MUG-2", "1", "1"}, // a second row of the mug: its first row's variant counts
	} {
		mainP.Eval(row, &r)
		g.Add(RowRef{"products.csv", i + 2}, &r)
	}
	joinP, err := mainP.CompileJoin("combos.csv", []string{"product_id", "ref", "impact", "attrs"})
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range [][]string{{"1", "SH-S", "0", "Size=S"}, {"1", "SH-L", "2.5", "Size=L"}} {
		joinP.Eval(row, &r)
		g.Add(RowRef{"combos.csv", i + 2}, &r)
	}
	res := g.Finish()
	ps := byKey(res)

	shirt := ps["1"]
	if !shirt.Valid() || len(shirt.Variants) != 2 || !slices.Equal(shirt.ProductRows(), []RowRef{{"products.csv", 2}}) {
		t.Fatalf("shirt %+v %s", shirt, errText(shirt))
	}
	for k, want := range []string{"20", "22.5"} {
		if p, _ := shirt.Variants[k].Tier("Price"); p != want {
			t.Errorf("shirt variant %d price %q, want %q", k, p, want)
		}
	}

	mug := ps["2"]
	if !mug.Valid() || len(mug.Variants) != 1 || mug.Variants[0].SKU() != "MUG" || mug.Variants[0].Row() != (RowRef{"products.csv", 3}) {
		t.Fatalf("mug %+v %s", mug, errText(mug))
	}
	if p, _ := mug.Variants[0].Tier("Price"); p != "9.5" || mug.Variants[0].Stock().S != "4" {
		t.Errorf("mug price %q stock %q", p, mug.Variants[0].Stock().S)
	}
	// The row that became the variant is no longer a product row; the
	// mug's second row still is.
	if !slices.Equal(mug.ProductRows(), []RowRef{{"products.csv", 5}}) || len(mug.Rows()) != 2 {
		t.Errorf("mug product rows %v, rows %v", mug.ProductRows(), mug.Rows())
	}

	cap := ps["3"]
	if cap.Valid() || !strings.Contains(errText(cap), `products.csv row 4, column "reference", value "": join.alone.variant.sku required`) {
		t.Errorf("cap: %s", errText(cap))
	}
	if res.Rows != 6 || len(res.Products) != 3 {
		t.Errorf("%d rows, %d products; want 6 and 3", res.Rows, len(res.Products))
	}
}
