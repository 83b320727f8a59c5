package mapping

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"lading/mapping/header"
)

// TestColumnsMatchLoosely binds mappings whose column names differ from
// the file's in case and spaces only, wherever a mapping names a column:
// a value's column, a bare name and col() in an expression, a skip rule
// and its reason.
func TestColumnsMatchLoosely(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		header    []string
		cells     []string
		want      StockRow
	}{
		{"the stock template on SKU,Qty-like names", "stock:\n  sku: sku\n  quantity: quantity\n  warehouse: {column: warehouse, optional: true}\n",
			[]string{"SKU", "Quantity"}, []string{"S-1", "4"}, StockRow{SKU: "S-1", Quantity: "4"}},
		{"spaces around and inside", "stock:\n  sku: variant sku\n  quantity: on hand\n",
			[]string{" Variant  SKU ", "On\u00a0Hand"}, []string{"S-1", "4"}, StockRow{SKU: "S-1", Quantity: "4"}},
		{"bare names and col()", "stock:\n  sku: {expr: 'upper(sku)'}\n  quantity: {expr: 'col(\"QTY\")'}\n",
			[]string{"SKU", "Qty"}, []string{"s-1", "4"}, StockRow{SKU: "S-1", Quantity: "4"}},
		{"a value's expression over its column", "stock:\n  sku: SKU\n  quantity: {column: qty, expr: 'number(value) * 2'}\n",
			[]string{"SKU", "Qty"}, []string{"S-1", "4"}, StockRow{SKU: "S-1", Quantity: "8"}},
		{"skip rule and its reason", "stock:\n  sku: SKU\n  quantity: Qty\nskip:\n  - when: status == \"gone\"\n    reason: \"{sku} is {STATUS}\"\n",
			[]string{"SKU", "Qty", "Status"}, []string{"S-1", "4", "gone"}, StockRow{Skipping: Skipping{Skip: true, SkipReason: "S-1 is gone"}, SKU: "S-1"}},
		{"a let name is no column", "stock:\n  sku: SKU\n  quantity: {expr: 'let qty = number(Qty); qty + 1'}\n",
			[]string{"SKU", "QTY"}, []string{"S-1", "4"}, StockRow{SKU: "S-1", Quantity: "5"}},
		{"expr's functions are no columns", "stock:\n  sku: {expr: 'trim(SKU)'}\n  quantity: Qty\n",
			[]string{"SKU", "Qty", "Trim"}, []string{" S-1 ", "4", "x"}, StockRow{SKU: "S-1", Quantity: "4"}},
		{"the name as written first", "stock:\n  sku: sku\n  quantity: Qty\n",
			[]string{"SKU", "Qty", "sku"}, []string{"S-1", "4", "S-2"}, StockRow{SKU: "S-2", Quantity: "4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := stockProgram(t, tt.src, tt.header...)
			var got StockRow
			if err := p.Eval(tt.cells, &got); err != nil {
				t.Fatal(err)
			}
			if got.Errors = nil; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestColumnsMatchingLooselyTwice: a name two columns have when case and
// spaces are ignored is an error naming both, an optional column's too.
func TestColumnsMatchingLooselyTwice(t *testing.T) {
	t.Parallel()
	cols := []string{"Sku", "Qty", "SKU", "warehouse", "Warehouse"}
	for _, src := range []string{
		"stock:\n  sku: sku\n  quantity: Qty\n",
		"stock:\n  sku: {expr: 'trim(sku)'}\n  quantity: Qty\n",
		"stock:\n  sku: Sku\n  quantity: Qty\n  warehouse: {column: WAREHOUSE, optional: true}\n",
	} {
		m, err := Parse("m.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = m.CompileStock("stock.csv", cols)
		var list ErrorList
		if !errors.As(err, &list) || len(list) != 1 {
			t.Fatalf("%s: error %v, want one", src, err)
		}
		msg := err.Error()
		for _, want := range []string{"m.yaml:", "in stock.csv as written", "when case and spaces are ignored", "write the name of the one to use"} {
			if !strings.Contains(msg, want) {
				t.Errorf("error %q lacks %q", msg, want)
			}
		}
		if !strings.Contains(msg, `"Sku" (column 1), "SKU" (column 3)`) && !strings.Contains(msg, `"warehouse" (column 4), "Warehouse" (column 5)`) {
			t.Errorf("error %q names not both columns", msg)
		}
	}
	var amb *header.AmbiguousError
	_, _, _, err := header.New(cols).Find("sku")
	if !errors.As(err, &amb) {
		t.Errorf("Find: %v, want an *AmbiguousError", err)
	}
}
