package mapping

import (
	"strings"
	"testing"
)

// prestashop is a mapping in the shape of PrestaShop's two files: the
// products, and their combinations in a joined file.
const prestashop = `group:
  key: Product ID
product:
  name: Name
variant:
  sku: {expr: 'default(Reference, product("Reference #"))'}
  stock: Quantity
options:
  list:
    expr: 'pairs(dropLast(list(col("Attribute (Name:Type:Position)"), ","), ":", 2), dropLast(list(col("Value (Value:Position)"), ","), ":"))'
tiers:
  columns:
    Price: {expr: 'number(product("Price tax excluded")) + number(col("Impact on price"))'}
join:
  file: combinations.csv
  key: Product ID
  skip:
    - when: product("Active (0/1)") == "0"
      reason: the product is not active
  alone:
    variant:
      sku: {column: "Reference #", required: true}
      stock: Quantity
    tiers:
      columns:
        Price: Price tax excluded
`

var (
	psProducts = []string{"Product ID", "Active (0/1)", "Name", "Reference #", "Price tax excluded", "Quantity"}
	psCombos   = []string{"Product ID", "Attribute (Name:Type:Position)", "Value (Value:Position)", "Reference", "Impact on price", "Quantity"}
)

func TestJoinAloneAndProductCells(t *testing.T) {
	t.Parallel()
	m, err := Parse("m.yaml", []byte(prestashop))
	if err != nil {
		t.Fatal(err)
	}
	main, err := m.Compile("products.csv", psProducts)
	if err != nil {
		t.Fatal(err)
	}
	var r Row
	// A product row: its own variant is kept for the case no joined row
	// names it.
	main.Eval([]string{"1", "1", "Mug", "MUG", "9.5", "4"}, &r)
	if !r.Alone || r.Variant.SKU != "MUG" || r.Variant.Stock.S != "4" || len(r.Tiers) != 1 || r.Tiers[0] != (Tier{"Price", "9.5"}) || len(r.Errors) > 0 {
		t.Errorf("product row %+v", r)
	}
	// An invalid value of that variant does not make the row invalid: it
	// counts only if the product has no joined rows.
	main.Eval([]string{"2", "1", "Phone", "", "19.99", ""}, &r)
	if len(r.Errors) != 0 || len(r.AloneErrors) != 1 || r.AloneErrors[0].Target != "join.alone.variant.sku" || r.AloneErrors[0].Column != "Reference #" {
		t.Errorf("product row without reference: errors %v, alone errors %v", r.Errors, r.AloneErrors)
	}
	main.Eval([]string{"3", "0", "Old", "OLD", "5", ""}, &r)

	joined, err := main.CompileJoin("combinations.csv", psCombos)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		cells []string
		sku   string
		price string
		opts  string
		skip  string
		err   string
	}{
		{"price plus impact", []string{"2", "Color:color:0, Disk space:select:1", "Blue:0, 16GB:1", "PH-B16", "1.1", "3"}, "PH-B16", "21.09", "Color=Blue,Disk space=16GB", "", ""},
		{"negative impact", []string{"2", "Color:color:0", "Red:1", "PH-R", "-2", ""}, "PH-R", "17.99", "Color=Red", "", ""},
		{"no impact", []string{"2", "Color:color:0", "Red:1", "PH-R2", "", ""}, "PH-R2", "19.99", "Color=Red", "", ""},
		{"reference from the product", []string{"1", "Size:select:0", "L:0", "", "0", ""}, "MUG", "9.5", "Size=L", "", ""},
		{"skipped by the product's cell", []string{"3", "Size:select:0", "L:0", "OLD-L", "0", ""}, "", "", "", "the product is not active", ""},
		{"unknown product reads empty cells", []string{"9", "Size:select:0", "L:0", "X-L", "1", ""}, "X-L", "1", "Size=L", "", ""},
		{"bad impact", []string{"2", "Color:color:0", "Red:1", "PH-X", "lots", ""}, "PH-X", "", "Color=Red", "", `number: "lots" is not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			joined.Eval(tt.cells, &r)
			if tt.skip != "" {
				if !r.Skip || r.SkipReason != tt.skip || len(r.Errors) > 0 {
					t.Errorf("skip %v %q errors %v, want skipped: %q", r.Skip, r.SkipReason, r.Errors, tt.skip)
				}
				return
			}
			if tt.err != "" {
				if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Rule, tt.err) || r.Errors[0].Target != "tier Price" {
					t.Errorf("errors %v, want one on tier Price with %q", r.Errors, tt.err)
				}
			} else if len(r.Errors) > 0 {
				t.Fatalf("errors %v", r.Errors)
			}
			var opts []string
			for _, o := range r.Options {
				opts = append(opts, o.Name+"="+o.Value)
			}
			price := ""
			for _, tr := range r.Tiers {
				price = tr.Value
			}
			if r.Skip || r.Alone || r.ParentRef != tt.cells[0] || r.Variant.SKU != tt.sku || price != tt.price || strings.Join(opts, ",") != tt.opts {
				t.Errorf("row %+v, want sku %q price %q options %q", r, tt.sku, tt.price, tt.opts)
			}
		})
	}
}

func TestJoinErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		parse     bool // the error is Parse's, else the main Compile's or the joined one's
		header    []string
		joined    []string
		wantAll   []string
	}{
		{"alone without join", minimal + "join:\n  file: c.csv\n  key: K\n  alone: {}\n", true, nil, nil,
			[]string{"m.yaml:8:10", "join.alone needs variant or tiers"}},
		{"alone unknown key", minimal + "join:\n  file: c.csv\n  key: K\n  alone:\n    options: x\n", true, nil, nil,
			[]string{"m.yaml:9:5", `join.alone: unknown key "options"; allowed: variant, tiers`}},
		{"alone unknown field", minimal + "join:\n  file: c.csv\n  key: K\n  alone:\n    variant: {colour: C}\n", true, nil, nil,
			[]string{`join.alone.variant: unknown key "colour"`}},
		{"alone column missing", minimal + "join:\n  file: c.csv\n  key: K\n  alone:\n    variant: {sku: Ref}\n", false, []string{"Handle", "Title"}, nil,
			[]string{"m.yaml:9:20", "join.alone.variant.sku", `no column "Ref" in p.csv`}},
		{"product() column missing", minimal + "variant:\n  cost: {expr: 'product(\"Cost\")'}\njoin:\n  file: c.csv\n  key: K\n", false, []string{"Handle", "Title", "Costs"}, nil,
			[]string{"m.yaml:6:", "variant.cost", `product("Cost"): no column "Cost" in p.csv`, `did you mean "Costs"?`}},
		{"product() in the main file", "group:\n  key: Handle\nproduct:\n  name: Title\n  description: {expr: 'product(\"Title\")'}\n", false, []string{"Handle", "Title"}, nil,
			[]string{"product.description", `product("Column") reads a cell of the product's row in the main file, for the rows of a joined file`}},
		{"product() in join.key", minimal + "join:\n  file: c.csv\n  key: {expr: 'product(\"Title\")'}\n", false, []string{"Handle", "Title"}, []string{"K"},
			[]string{"join.key", `product("Title"): product("Column") reads a cell`}},
		{"product() in join.alone", minimal + "join:\n  file: c.csv\n  key: K\n  alone:\n    variant: {sku: {expr: 'product(\"Title\")'}}\n", false, []string{"Handle", "Title"}, nil,
			[]string{"join.alone.variant.sku", `product("Title"): product("Column") reads a cell`}},
		{"product() of no text", minimal + "variant:\n  cost: {expr: 'product(Title)'}\njoin:\n  file: c.csv\n  key: K\n", false, []string{"Handle", "Title"}, []string{"K", "Title"},
			[]string{"variant.cost", `product() takes one column name of the main file in quotes`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("m.yaml", []byte(tt.src))
			if !tt.parse && err == nil {
				var main *Program
				main, err = m.Compile("p.csv", tt.header)
				if err == nil && tt.joined != nil {
					_, err = main.CompileJoin("c.csv", tt.joined)
				}
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.wantAll {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestJoinWithoutProductCells(t *testing.T) {
	t.Parallel()
	// Mapping.CompileJoin binds a join whose rows read no product cells;
	// product() is then an error saying where it works.
	m, err := Parse("m.yaml", []byte(minimal+"variant:\n  cost: {expr: 'product(\"Title\")'}\njoin:\n  file: c.csv\n  key: K\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.CompileJoin("c.csv", []string{"K"}); err == nil || !strings.Contains(err.Error(), `reads a cell of the product's row`) {
		t.Errorf("error %v", err)
	}
}
