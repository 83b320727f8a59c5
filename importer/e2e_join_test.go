package importer_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"lading/engine"
	"lading/importer"
	"lading/mapping"
	"lading/sandbox"
)

// joinMapping reads a products file and a combinations file beside it in
// the shape of PrestaShop's exports: a product without combinations is a
// simple product from its own row (join.alone); a combination's price
// and weight are its product's plus its impact (product()).
const joinMapping = `source:
  delimiter: ";"
group:
  key: "Product ID"
product:
  name: "Name *"
variant:
  sku: Reference
  stock: Quantity
  weight: {expr: 'number(product("Weight")) + number(col("Impact on weight"))'}
options:
  list:
    expr: >-
      pairs(dropLast(list(col("Attribute (Name:Type:Position)*"), ","), ":", 2),
            dropLast(list(col("Value (Value:Position)*"), ","), ":"))
tiers:
  columns:
    Price: {expr: 'number(product("Price tax excluded")) + number(col("Impact on price"))'}
join:
  file: combinations.csv
  source: {delimiter: ";"}
  key: "Product ID*"
  alone:
    variant:
      sku: "Reference #"
      stock: Quantity
      weight: Weight
    tiers:
      columns:
        Price: Price tax excluded
`

const (
	joinProducts = "Product ID;Active (0/1);Name *;Price tax excluded;Reference #;Quantity;Weight\n" +
		"1;1;Hummingbird T-shirt;19.12;demo_1;0;0.3\n" +
		"2;1;Mug The best is yet to come;11.9;demo_11;300;0.5\n" +
		"3;1;Customizable mug;13.9;demo_14;300;\n"
	joinCombinations = "Product ID*;Attribute (Name:Type:Position)*;Value (Value:Position)*;Reference;Impact on price;Quantity;Impact on weight\n" +
		"1;Size:select:0, Color:color:1;S:0, White:1;demo_1_S;0;300;0\n" +
		"1;Size:select:0, Color:color:1;M:1, White:1;demo_1_M;0;300;0\n" +
		"1;Size:select:0, Color:color:1;L:2, Black:2;demo_1_L;1.1;250;0.05\n"
)

func TestImportJoinAloneAndProductCells(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	in := filepath.Join(e.dir, "products.csv")
	for name, text := range map[string]string{"products.csv": joinProducts, "combinations.csv": joinCombinations} {
		if err := os.WriteFile(filepath.Join(e.dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := mapping.Parse("prestashop.yaml", []byte(joinMapping))
	if err != nil {
		t.Fatal(err)
	}
	run := func() *importer.Report {
		t.Helper()
		rep, err := importer.Import(context.Background(), importer.Options{Options: engine.Options{Client: e.c, State: e.state, Scope: e.url, Mapping: m, Input: in}, MappingText: []byte(joinMapping)})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := run()
	if rep.Products[engine.Created] != 3 || rep.Variants[engine.Created] != 5 || rep.Rows[engine.Failed] != 0 {
		t.Fatalf("products %v variants %v rows %v; want 3 products and 5 variants created", rep.Products, rep.Variants, rep.Rows)
	}
	got := e.read()
	want := []liveVariant{
		{Product: "Customizable mug", SKU: "demo_14", Prices: "Price:13.9", Stock: "300"},
		{Product: "Hummingbird T-shirt", SKU: "demo_1_L", Options: "Color=Black,Size=L", Prices: "Price:20.22", Stock: "250", Weight: "0.35"},
		{Product: "Hummingbird T-shirt", SKU: "demo_1_M", Options: "Color=White,Size=M", Prices: "Price:19.12", Stock: "300", Weight: "0.3"},
		{Product: "Hummingbird T-shirt", SKU: "demo_1_S", Options: "Color=White,Size=S", Prices: "Price:19.12", Stock: "300", Weight: "0.3"},
		{Product: "Mug The best is yet to come", SKU: "demo_11", Prices: "Price:11.9", Stock: "300", Weight: "0.5"},
	}
	for i := range got.Variants {
		if got.Variants[i].Weight == "0" {
			got.Variants[i].Weight = "" // no weight given reads back as 0
		}
	}
	if !slices.Equal(got.Variants, want) {
		t.Errorf("sandbox holds\n%v\nwant\n%v", got.Variants, want)
	}
	if d := got.duplicates(); len(d) > 0 {
		t.Errorf("duplicates: %v", d)
	}
	// One line a row: the rows of the products without combinations are
	// their variants' lines.
	lines := map[string]string{}
	for _, l := range readResults(t, rep.Results) {
		lines[filepath.Base(l[0])+":"+l[1]] = l[3] + " " + l[4]
	}
	wantLines := map[string]string{
		"products.csv:2": " created", "products.csv:3": "demo_11 created", "products.csv:4": "demo_14 created",
		"combinations.csv:2": "demo_1_S created", "combinations.csv:3": "demo_1_M created", "combinations.csv:4": "demo_1_L created",
	}
	if !maps.Equal(lines, wantLines) {
		t.Errorf("results lines %v, want %v", lines, wantLines)
	}
	again := run()
	if again.Writes != 0 || again.Rows[engine.Unchanged] != 6 {
		t.Errorf("second import: %d writes, rows %v; want none and 6 rows unchanged", again.Writes, again.Rows)
	}
}
