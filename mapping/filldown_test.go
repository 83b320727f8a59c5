package mapping

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// fillMapping is a layout like Squarespace's: a product's key on its
// first row only, a variant on every row.
const fillMapping = `group:
  key: {column: ID, fill_down: true}
product:
  name: Title
variant:
  sku: SKU
options:
  pairs:
    - {name: Option, value: Value}
tiers:
  columns:
    Price: {expr: 'default(Price, product("Price"))'}
skip:
  - when: Type == "GIFT"
    reason: gift cards are not imported
  - when: SKU == "retired"
    reason: retired variant
`

var fillHeader = []string{"ID", "Type", "Title", "SKU", "Option", "Value", "Price"}

// fillRow is what a row of a fill_down file should become.
type fillRow struct {
	cells []string
	// key is the row's product key; role its role; skip its skip reason.
	key  string
	role Role
	skip string
	// price is its tier Price; name its product name.
	price, name string
	// err names the target and a part of the rule of its one error.
	err string
}

func TestFillDown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		rows []fillRow
	}{
		{"rows without a key belong to the product above them", fillMapping, []fillRow{
			{cells: []string{"p1", "", "Mat", "MAT-G", "Color", "Green", "8.90"}, key: "p1", role: RoleBoth, price: "8.9", name: "Mat"},
			{cells: []string{"", "", "", "MAT-Y", "Color", "Yellow", ""}, key: "p1", role: RoleVariant, price: "8.9"},
			{cells: []string{"", "", "", "MAT-R", "Color", "Red", "9.50"}, key: "p1", role: RoleVariant, price: "9.5"},
			{cells: []string{"p2", "", "Ears", "EAR", "", "", "3"}, key: "p2", role: RoleBoth, price: "3", name: "Ears"},
			{cells: []string{"", "", "", "EAR-2", "", "", ""}, key: "p2", role: RoleVariant, price: "3"},
		}},
		{"the first row without a key, and rows under an invalid key", strings.Replace(fillMapping, "{column: ID, fill_down: true}", `{expr: 'ID == "x" ? number(ID) : ID', fill_down: true}`, 1), []fillRow{
			{cells: []string{"", "", "Mat", "MAT-G", "", "", "1"}, err: "group.key: required: " + fillNoKey},
			{cells: []string{"", "", "", "MAT-Y", "", "", "1"}, err: "group.key: required: " + fillNoKey},
			{cells: []string{"p1", "", "Mat", "MAT", "", "", "1"}, key: "p1", role: RoleBoth, price: "1", name: "Mat"},
			{cells: []string{"x", "", "Bad", "BAD", "", "", "1"}, name: "Bad", err: `group.key: number: "x" is not a number (decimal ".")`},
			{cells: []string{"", "", "", "BAD-2", "", "", "1"}, err: "group.key: required: " + fillBadKey},
			{cells: []string{"p2", "", "Ears", "EAR", "", "", "3"}, key: "p2", role: RoleBoth, price: "3", name: "Ears"},
		}},
		{"the rows of a skipped product are skipped with it", fillMapping, []fillRow{
			{cells: []string{"g1", "GIFT", "Card", "GC", "Amount", "10", "10"}, skip: "gift cards are not imported"},
			{cells: []string{"", "", "", "GC-25", "Amount", "25", "25"}, skip: "it belongs to the product of the row above it, which is skipped: gift cards are not imported"},
			{cells: []string{"p1", "", "Mat", "MAT", "", "", "2"}, key: "p1", role: RoleBoth, price: "2", name: "Mat"},
			// A row skipped for itself leaves the product as it is.
			{cells: []string{"", "", "", "retired", "", "", ""}, skip: "retired variant"},
			{cells: []string{"", "", "", "MAT-2", "", "", ""}, key: "p1", role: RoleVariant, price: "2"},
		}},
		{"a role expression decides the rows' roles", strings.Replace(fillMapping, "product:", "  role: {expr: 'Type == \"P\" ? \"product_or_both\" : \"both\"'}\nproduct:", 1), []fillRow{
			{cells: []string{"p1", "P", "Mat", "MAT", "", "", "2"}, key: "p1", role: RoleProduct, price: "2", name: "Mat"},
			{cells: []string{"", "", "", "MAT-2", "", "", ""}, key: "p1", role: RoleBoth, price: "2"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := program(t, tt.src, fillHeader...)
			for i, want := range tt.rows {
				r := eval(t, p, want.cells...)
				if got := describeFillRow(r); got != describeFillRow(want.row(r)) {
					t.Errorf("row %d: got %s\n        want %s", i+1, got, describeFillRow(want.row(r)))
				}
			}
		})
	}
}

// row is the Row want describes, with got's values where want says
// nothing (its variant's SKU and options).
func (want fillRow) row(got *Row) *Row {
	r := &Row{Skip: want.skip != "", SkipReason: want.skip, GroupKey: want.key, Role: want.role}
	if want.skip != "" {
		return r
	}
	if want.name != "" {
		r.Product.Name = Value{S: want.name, Set: true}
	}
	if want.price != "" {
		r.Tiers = []Tier{{"Price", want.price}}
	}
	if want.err != "" {
		target, rule, _ := strings.Cut(want.err, ": ")
		r.Errors = RowErrors{{Target: target, Rule: rule}}
		r.Role, r.Tiers = got.Role, got.Tiers
	}
	return r
}

// describeFillRow writes what the fill_down tests compare of r.
func describeFillRow(r *Row) string {
	if r.Skip {
		return "skipped: " + r.SkipReason
	}
	var errs []string
	for _, e := range r.Errors {
		errs = append(errs, e.Target+": "+e.Rule)
	}
	return fmt.Sprintf("key %q role %v name %q tiers %v errors %q", r.GroupKey, r.Role, r.Product.Name.S, r.Tiers, errs)
}

func TestFillDownProductOrBoth(t *testing.T) {
	t.Parallel()
	src := `group:
  key: {column: ID, fill_down: true}
  role: {expr: 'trim(Kind) == "Product" ? "product_or_both" : "variant"'}
product:
  name: Name
variant:
  sku: SKU
  weight: {expr: 'product("Weight")'}
options:
  list: {expr: 'split(Name, ",")'}
  when: trim(Kind) != "Product"
tiers:
  columns:
    Price: {expr: 'product("Price")'}
`
	p := program(t, src, "Kind", "ID", "Name", "SKU", "Weight", "Price")
	r := eval(t, p, "Product", "7", "Shirt", "SH", "1.5", "abc")
	// The product row is a product, and a variant kept for the case no
	// other row gives it one; that variant's invalid price counts only
	// then.
	if r.Role != RoleProduct || !r.Alone || r.Variant.SKU != "SH" || len(r.Options) != 0 || !r.Product.Name.Set || len(r.Errors) != 0 {
		t.Errorf("product row: %+v", r)
	}
	if len(r.AloneErrors) != 1 || r.AloneErrors[0].Target != "tier Price" {
		t.Errorf("product row's variant errors %v, want the price's", r.AloneErrors)
	}
	// Its SKU rows read the price and weight of the product row.
	r = eval(t, p, "  SKU", "", "Color=Red,Size=S", "SH-RS", "", "")
	if r.Role != RoleVariant || r.Alone || r.GroupKey != "7" || r.Product.Name.Set || len(r.Options) != 2 || r.Options[1] != (Option{Name: "Size", Value: "S", Column: "Name"}) {
		t.Errorf("SKU row: %+v", r)
	}
	if len(r.Errors) != 1 || r.Errors[0] != (FieldError{Column: "Price (on the product's row)", Value: "abc", Target: "tier Price", Rule: `must be a number (decimal ".")`}) {
		t.Errorf("SKU row's errors %v, want the product row's invalid price", r.Errors)
	}
	if len(r.Variant.Fields) != 1 || r.Variant.Fields[0] != (FieldValue{"weight", "1.5"}) {
		t.Errorf("SKU row's weight %v, want the product row's 1.5", r.Variant.Fields)
	}
	// A row the file reader could not read may have been a product's:
	// the rows below it without a key belong to no product.
	p.Unreadable()
	if r := eval(t, p, "  SKU", "", "Size=M", "SH-M", "", ""); len(r.Errors) != 1 || r.Errors[0].Rule != "required: "+fillBadKey {
		t.Errorf("row below an unreadable row: %v", r.Errors)
	}
	eval(t, p, "Product", "7", "Shirt", "SH", "1.5", "abc")
	// A clone goes on from where its program is, on its own.
	c := p.Clone()
	eval(t, p, "Product", "8", "Hat", "HAT", "", "5")
	if r := eval(t, c, "  SKU", "", "Size=M", "SH-M", "", ""); r.GroupKey != "7" || r.Variant.Fields[0].Value != "1.5" {
		t.Errorf("the clone's row: %+v, want product 7's", r)
	}
	if r := eval(t, p, "  SKU", "", "Size=M", "HAT-M", "", ""); r.GroupKey != "8" || len(r.Tiers) != 1 || r.Tiers[0].Value != "5" {
		t.Errorf("the program's row: %+v, want product 8's", r)
	}
}

func TestFillDownErrors(t *testing.T) {
	t.Parallel()
	parse := []struct {
		name, src string
		wantAll   []string
	}{
		{"not on group.key", minimal + "variant:\n  sku: {column: SKU, fill_down: true}\n", []string{"m.yaml:6:22", "variant.sku.fill_down: fill_down applies only to group.key"}},
		{"not a boolean", "group:\n  key: {column: ID, fill_down: yes please}\nproduct:\n  name: T\n", []string{"group.key.fill_down", "must be true or false"}},
		{"by parent", "group:\n  by: parent\n  key: {column: SKU, fill_down: true}\n  parent: P\nproduct:\n  name: T\n", []string{"m.yaml:3:8", "fill_down works with group.by: key", "with group.by: parent each row has a key of its own"}},
		{"join", "group:\n  key: {column: ID, fill_down: true}\nproduct:\n  name: T\njoin:\n  file: c.csv\n  key: ID\n", []string{"m.yaml:2:8", "fill_down does not work with join"}},
	}
	for _, tt := range parse {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("m.yaml", []byte(tt.src))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want *Error", err)
			}
			for _, w := range tt.wantAll {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}

	compile := []struct {
		name, src string
		wantAll   []string
	}{
		{"product() in the product section", "group:\n  key: {column: ID, fill_down: true}\nproduct:\n  name: {expr: 'product(\"Title\")'}\n", []string{"m.yaml:4:16", "product.name", "whose group.key has fill_down", "use it in the variant, options, tiers and skip sections"}},
		{"product() in the key", "group:\n  key: {expr: 'product(\"ID\")', fill_down: true}\nproduct:\n  name: Title\n", []string{"group.key", "product(\"Column\") reads"}},
		{"product() of an unknown column", "group:\n  key: {column: ID, fill_down: true}\nproduct:\n  name: Title\nvariant:\n  sku: {expr: 'product(\"Titel\")'}\n", []string{"variant.sku: product(\"Titel\")", `no column "Titel"`, `did you mean "Title"?`}},
		{"product() without fill_down", minimal + "variant:\n  sku: {expr: 'product(\"Title\")'}\n", []string{"variant.sku", "product(\"Column\") reads"}},
	}
	for _, tt := range compile {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("m.yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Compile("in.csv", []string{"ID", "Handle", "Title", "SKU"})
			var l ErrorList
			if !errors.As(err, &l) || len(l) != 1 {
				t.Fatalf("error %v, want one", err)
			}
			for _, w := range tt.wantAll {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}
