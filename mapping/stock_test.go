package mapping

import (
	"errors"
	"strings"
	"testing"
)

const stockMinimal = "stock:\n  sku: SKU\n  quantity: Qty\n"

// stockProgram parses src and binds its stock section to header.
func stockProgram(t *testing.T, src string, header ...string) *StockProgram {
	t.Helper()
	m, err := Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.CompileStock("stock.csv", header)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseStock(t *testing.T) {
	t.Parallel()
	src := `source:
  decimal: ","
  delimiter: ";"
stock:
  sku: {column: Item, required: true}
  quantity: {column: On Hand, default: "0", type: integer}
  warehouse: {column: Location, optional: true}
skip:
  - when: Item == ""
    reason: no item
`
	m, err := Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	st := m.Stock
	if st == nil || !m.StockOnly() {
		t.Fatalf("stock %+v, stock only %v", st, m.StockOnly())
	}
	if st.Pos != (Pos{4, 1}) || st.SKU.Column != "Item" || !st.SKU.Required || st.SKU.Target != "stock.sku" || st.SKU.Name != "sku" {
		t.Errorf("stock %+v sku %+v", st, st.SKU)
	}
	if q := st.Quantity; q.Column != "On Hand" || q.Default != "0" || q.Kind != KindInteger || !q.NotNegative || q.Pos != (Pos{6, 13}) {
		t.Errorf("quantity %+v", q)
	}
	if w := st.Warehouse; w.Column != "Location" || !w.Optional {
		t.Errorf("warehouse %+v", w)
	}
	if m.Group.By != "" || len(m.Skip) != 1 || m.Source.Decimal != "," {
		t.Errorf("group %+v skip %v source %+v", m.Group, m.Skip, m.Source)
	}

	// A catalog mapping may have a stock section too; it is then no
	// stock-only mapping, and imports as before.
	m, err = Parse("m.yaml", []byte(minimal+stockMinimal))
	if err != nil {
		t.Fatal(err)
	}
	if m.Stock == nil || m.StockOnly() || m.Stock.Warehouse != nil {
		t.Errorf("stock %+v, stock only %v", m.Stock, m.StockOnly())
	}
	if _, err := m.Compile("in.csv", []string{"Handle", "Title"}); err != nil {
		t.Errorf("a catalog mapping with a stock section does not compile for an import: %v", err)
	}
	if _, err := m.CompileStock("stock.csv", []string{"SKU", "Qty"}); err != nil {
		t.Errorf("its stock section does not compile: %v", err)
	}
}

func TestParseStockErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		yaml      string
		line, col int
		wantAll   []string
	}{
		{"unknown key", "stock:\n  sku: SKU\n  qty: Qty\n", 3, 3, []string{`stock: unknown key "qty"`, "allowed: sku, quantity, warehouse"}},
		{"close match", "stock:\n  sku: SKU\n  quantities: Qty\n", 3, 3, []string{`did you mean "quantity"?`}},
		{"no quantity", "stock:\n  sku: SKU\n", 1, 1, []string{"stock needs sku", "and quantity (the column holding its units)"}},
		{"no sku", "stock:\n  quantity: Qty\n  warehouse: W\n", 1, 1, []string{"stock needs sku (the column holding each row's SKU)"}},
		{"empty", "source:\n  decimal: \",\"\nstock:\n", 3, 1, []string{"stock needs sku"}},
		{"not a mapping", "stock: SKU\n", 1, 8, []string{"stock must be a mapping"}},
		{"empty value", "stock:\n  sku:\n  quantity: Qty\n", 2, 7, []string{"stock.sku is empty"}},
		{"value spec key", "stock:\n  sku: SKU\n  quantity: {colum: Qty}\n", 3, 14, []string{`stock.quantity: unknown key "colum"`}},
		{"clear when empty", "stock:\n  sku: SKU\n  quantity: {column: Qty, clear_when_empty: true}\n", 3, 27, []string{"stock.quantity: clear_when_empty does not apply", "remove it"}},
		{"optional sku", "stock:\n  sku: {column: SKU, optional: true}\n  quantity: Qty\n", 2, 22, []string{"stock.sku cannot be optional", "remove optional"}},
		{"optional quantity", "stock:\n  sku: SKU\n  quantity: {column: Qty, optional: true}\n", 3, 27, []string{"stock.quantity cannot be optional"}},
		{"quantity as text", "stock:\n  sku: SKU\n  quantity: {column: Qty, type: text}\n", 3, 33, []string{"stock.quantity is always a whole number of units: type text does not apply"}},
		{"split", "stock:\n  sku: {column: SKU, split: \",\"}\n  quantity: Qty\n", 2, 22, []string{"split applies only to list values"}},
		{"catalog part without key", "product:\n  name: Title\n" + stockMinimal, 1, 1, []string{"group.key is required", "a mapping that only pushes stock levels has a stock section and no group, product"}},
		{"catalog part without name", "group:\n  key: Handle\n" + stockMinimal, 1, 1, []string{"product.name is required", "only pushes stock levels"}},
		{"group by alone is a catalog part", "group:\n  by: key\n" + stockMinimal, 1, 1, []string{"group.key is required"}},
		{"nothing", "source:\n  decimal: \",\"\n", 1, 1, []string{"group.key is required"}},
		{"stock twice", stockMinimal + "stock:\n  sku: A\n  quantity: B\n", 4, 1, []string{`"stock" already defined`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("m.yaml", []byte(tt.yaml))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T), want *Error", err, err)
			}
			if e.Line != tt.line || e.Column != tt.col {
				t.Errorf("at %d:%d, want %d:%d (%v)", e.Line, e.Column, tt.line, tt.col, err)
			}
			for _, w := range tt.wantAll {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestCompileStockErrors(t *testing.T) {
	t.Parallel()
	header := []string{"SKU", "Quantity", "Location", "Dup", "Dup"}
	tests := []struct {
		name, src string
		wantAll   []string
	}{
		{"close match", "stock:\n  sku: SKU\n  quantity: Quantty\n", []string{"m.yaml:3:13", "stock.quantity", `no column "Quantty" in stock.csv`, `did you mean "Quantity"?`}},
		{"lists columns", "stock:\n  sku: Item\n  quantity: Quantity\n", []string{"m.yaml:2:8", `no column "Item"`, `"SKU", "Quantity", "Location"`}},
		{"warehouse", "stock:\n  sku: SKU\n  quantity: Quantity\n  warehouse: Loc\n", []string{"m.yaml:4:14", "stock.warehouse"}},
		{"duplicate column", "stock:\n  sku: Dup\n  quantity: Quantity\n", []string{`column "Dup" appears twice in stock.csv (columns 4 and 5)`}},
		{"expression", "stock:\n  sku: SKU\n  quantity: {expr: 'number(Qty) - 1'}\n", []string{"m.yaml:3:20", `no column "Qty"`}},
		{"skip rule", "stock:\n  sku: SKU\n  quantity: Quantity\nskip:\n  - when: Loc == \"\"\n    reason: no location\n", []string{"m.yaml:5:11", `no column "Loc"`}},
		{"two at once", "stock:\n  sku: Skew\n  quantity: Qty\n", []string{"m.yaml:2:8", "m.yaml:3:13"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("m.yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.CompileStock("stock.csv", header)
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v (%T), want an ErrorList", err, err)
			}
			for _, w := range tt.wantAll {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestStockAndCatalogMismatch(t *testing.T) {
	t.Parallel()
	// An import of a stock-only mapping says what the mapping is for.
	m, err := Parse("m.yaml", []byte("source:\n  decimal: \",\"\n"+stockMinimal))
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Compile("in.csv", []string{"SKU", "Qty"})
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 || list[0].Line != 3 || list[0].Column != 1 {
		t.Fatalf("error %v (%T), want one at m.yaml:3:1", err, err)
	}
	for _, w := range []string{"maps stock levels only (stock:)", "cannot import a catalog", "group.key and product.name"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	if strings.Contains(err.Error(), "--") {
		t.Errorf("error %q names a flag", err)
	}

	// Stock levels from a mapping without a stock section: how to add one.
	m, err = Parse("m.yaml", []byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.CompileStock("stock.csv", []string{"SKU", "Qty"})
	var e *Error
	if !errors.As(err, &e) || e.File != "m.yaml" {
		t.Fatalf("error %v (%T), want an *Error naming m.yaml", err, err)
	}
	for _, w := range []string{"has no stock section", "stock:\n    sku: SKU\n    quantity: Available"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}

func TestEvalStock(t *testing.T) {
	t.Parallel()
	header := []string{"SKU", "Qty", "Location", "Status"}
	skip := "skip:\n  - when: Status == \"discontinued\"\n    reason: \"{SKU} is discontinued\"\n"
	dot := stockMinimal + "  warehouse: Location\n" + skip
	comma := "source:\n  decimal: \",\"\n" + dot
	tests := []struct {
		name, src string
		cells     []string
		want      StockRow // without Errors
		errs      []FieldError
	}{
		{"valid", dot, []string{" S-1 ", "12", " Main ", ""}, StockRow{SKU: "S-1", Quantity: "12", Warehouse: "Main"}, nil},
		{"zero", dot, []string{"S-1", "0", "", ""}, StockRow{SKU: "S-1", Quantity: "0"}, nil},
		{"whole written as a decimal", dot, []string{"S-1", "12.0", "", ""}, StockRow{SKU: "S-1", Quantity: "12"}, nil},
		{"three zeros after a separator", dot, []string{"S-1", "1.000", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "1.000", Target: "stock.quantity", Rule: `is ambiguous: 1.000 is 1000 units if "." groups thousands, or 1 if "." is the decimal separator; say which under source in the mapping (thousands: ".", or decimal: ".")`}}},
		{"three zeros after a comma", dot, []string{"S-1", "12,000", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "12,000", Target: "stock.quantity", Rule: `is ambiguous: 12,000 is 12000 units if "," groups thousands, or 12 if "," is the decimal separator; say which under source in the mapping (thousands: ",", or decimal: ",")`}}},
		{"three zeros, decimal set", "source:\n  decimal: \".\"\n" + dot, []string{"S-1", "12.000", "", ""}, StockRow{SKU: "S-1", Quantity: "12"}, nil},
		{"three zeros, decimal comma set", comma, []string{"S-1", "1.000", "", ""}, StockRow{SKU: "S-1", Quantity: "1000"}, nil},
		{"three zeros, thousands dot", "source:\n  thousands: \".\"\n" + dot, []string{"S-1", "1.000", "", ""}, StockRow{SKU: "S-1", Quantity: "1000"}, nil},
		{"three zeros, thousands comma", "source:\n  thousands: \",\"\n" + dot, []string{"S-1", "1.000", "", ""}, StockRow{SKU: "S-1", Quantity: "1"}, nil},
		{"no units either way", dot, []string{"S-1", "0.000", "", ""}, StockRow{SKU: "S-1", Quantity: "0"}, nil},
		{"more groups", dot, []string{"S-1", "1,000,000", "", ""}, StockRow{SKU: "S-1", Quantity: "1000000"}, nil},
		{"thousands", dot, []string{"S-1", "1,234", "", ""}, StockRow{SKU: "S-1", Quantity: "1234"}, nil},
		{"thousands and decimals", dot, []string{"S-1", "1,234.00", "", ""}, StockRow{SKU: "S-1", Quantity: "1234"}, nil},
		{"spaces between thousands", dot, []string{"S-1", "1 234", "", ""}, StockRow{SKU: "S-1", Quantity: "1234"}, nil},
		{"leading zeros and plus", dot, []string{"S-1", "+007", "", ""}, StockRow{SKU: "S-1", Quantity: "7"}, nil},
		{"exponent", dot, []string{"S-1", "1E3", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "1E3", Target: "stock.quantity", Rule: "must be written out, like 1000: a count with an exponent is not how a warehouse counts units; correct the cell"}}},
		{"exponent of a fraction", dot, []string{"S-1", "1.5e1", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "1.5e1", Target: "stock.quantity", Rule: "must be written out, like 15: a count with an exponent is not how a warehouse counts units; correct the cell"}}},
		{"a huge exponent", dot, []string{"S-1", "1e300", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "1e300", Target: "stock.quantity", Rule: "is too large for a count of units (more than 15 digits); check that the quantity column holds the stock level"}}},
		{"a large exponent", dot, []string{"S-1", "1e20", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "1e20", Target: "stock.quantity", Rule: "is too large for a count of units (more than 15 digits); check that the quantity column holds the stock level"}}},
		{"negative zero", dot, []string{"S-1", "-0", "", ""}, StockRow{SKU: "S-1", Quantity: "0"}, nil},
		{"15 digits", dot, []string{"S-1", "999999999999999", "", ""}, StockRow{SKU: "S-1", Quantity: "999999999999999"}, nil},
		{"not a number", dot, []string{"S-1", "lots", "W", ""}, StockRow{SKU: "S-1", Warehouse: "W"},
			[]FieldError{{Column: "Qty", Value: "lots", Target: "stock.quantity", Rule: `must be a number: a count of units like 12 (decimal "."); correct the cell, or skip rows that hold no count with a skip rule`}}},
		{"comma decimal with dot", dot, []string{"S-1", "2,5", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "2,5", Target: "stock.quantity", Rule: `must be a number: a count of units like 12 (decimal "."); correct the cell, or skip rows that hold no count with a skip rule`}}},
		{"fraction", dot, []string{"S-1", "2.5", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "2.5", Target: "stock.quantity", Rule: "must be a whole number of units: 2.5 is a fraction; correct the count"}}},
		{"grouped with dots read with dot", dot, []string{"S-1", "1.234", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "1.234", Target: "stock.quantity", Rule: `must be a whole number of units: 1.234 is a fraction (read with decimal "."; if it means 1234 units, the file groups thousands with ".": set decimal: "," under source); correct the count`}}},
		{"negative", dot, []string{"S-1", "-3", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "-3", Target: "stock.quantity", Rule: "must be 0 or more: negative stock is refused (a warehouse cannot hold fewer than 0 units); correct the count, or skip such rows with a skip rule"}}},
		{"negative fraction is negative", dot, []string{"S-1", "-2.5", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "-2.5", Target: "stock.quantity", Rule: "must be 0 or more: negative stock is refused (a warehouse cannot hold fewer than 0 units); correct the count, or skip such rows with a skip rule"}}},
		{"13 digits", dot, []string{"S-1", "4006381333931", "", ""}, StockRow{SKU: "S-1", Quantity: "4006381333931"}, nil},
		{"16 digits", dot, []string{"S-1", "1234567890123456", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "1234567890123456", Target: "stock.quantity", Rule: "is too large for a count of units (more than 15 digits); check that the quantity column holds the stock level"}}},
		{"no SKU", dot, []string{"  ", "4", "W", ""}, StockRow{Quantity: "4", Warehouse: "W"},
			[]FieldError{{Column: "SKU", Target: "stock.sku", Rule: "required: every stock row needs a SKU; fill in the cell, or skip rows without one with a skip rule"}}},
		{"no quantity", dot, []string{"S-1", "", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Target: "stock.quantity", Rule: "required: every stock row needs a quantity (a whole number of units, 0 or more); fill in the cell, or skip rows without one with a skip rule"}}},
		{"nothing", dot, []string{"", "", "", ""}, StockRow{}, []FieldError{
			{Column: "SKU", Target: "stock.sku", Rule: "required: every stock row needs a SKU; fill in the cell, or skip rows without one with a skip rule"},
			{Column: "Qty", Target: "stock.quantity", Rule: "required: every stock row needs a quantity (a whole number of units, 0 or more); fill in the cell, or skip rows without one with a skip rule"}}},
		{"skip rule", dot, []string{"S-9", "-4", "W", "discontinued"}, StockRow{Skipping: Skipping{Skip: true, SkipReason: "S-9 is discontinued"}, SKU: "S-9"}, nil},
		{"decimal comma", comma, []string{"S-1", "12,0", "W", ""}, StockRow{SKU: "S-1", Quantity: "12", Warehouse: "W"}, nil},
		{"decimal comma thousands", comma, []string{"S-1", "1.234", "", ""}, StockRow{SKU: "S-1", Quantity: "1234"}, nil},
		{"decimal comma fraction", comma, []string{"S-1", "2,5", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "2,5", Target: "stock.quantity", Rule: "must be a whole number of units: 2.5 is a fraction; correct the count"}}},
		{"decimal comma grouped with commas", comma, []string{"S-1", "1,234", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "1,234", Target: "stock.quantity", Rule: `must be a whole number of units: 1.234 is a fraction (read with decimal ","; if it means 1234 units, the file groups thousands with ",": set decimal: "." under source); correct the count`}}},
		{"decimal comma not a number", comma, []string{"S-1", "n/a", "", ""}, StockRow{SKU: "S-1"},
			[]FieldError{{Column: "Qty", Value: "n/a", Target: "stock.quantity", Rule: `must be a number: a count of units like 12 (decimal ","); correct the cell, or skip rows that hold no count with a skip rule`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := stockProgram(t, tt.src, header...)
			var r StockRow
			err := p.Eval(tt.cells, &r)
			if (err != nil) != (len(tt.errs) > 0) {
				t.Fatalf("Eval returned %v, want errors %v", err, tt.errs)
			}
			if err != nil && err.Error() != r.Errors.Error() {
				t.Errorf("Eval returned %v, the row holds %v", err, r.Errors)
			}
			if len(r.Errors) != len(tt.errs) {
				t.Fatalf("errors %v, want %v", r.Errors, tt.errs)
			}
			for i, e := range tt.errs {
				if r.Errors[i] != e {
					t.Errorf("error %d = %+v\n              want %+v", i, r.Errors[i], e)
				}
			}
			got := [...]any{r.Skip, r.SkipReason, r.SKU, r.Quantity, r.Warehouse}
			want := [...]any{tt.want.Skip, tt.want.SkipReason, tt.want.SKU, tt.want.Quantity, tt.want.Warehouse}
			if got != want {
				t.Errorf("row %q, want %q", got, want)
			}
		})
	}
}

func TestEvalStockValueSettings(t *testing.T) {
	t.Parallel()
	header := []string{"Item", "On Hand", "Reserved", "Site"}
	tests := []struct {
		name, stock string
		cells       []string
		sku, qty    string
		errHas      string
	}{
		{"expression over two columns", "sku: Item\n  quantity: {expr: 'number(col(\"On Hand\")) - number(Reserved)'}",
			[]string{"A", "12", "5", ""}, "A", "7", ""},
		{"expression below zero", "sku: Item\n  quantity: {expr: 'number(col(\"On Hand\")) - number(Reserved)'}",
			[]string{"A", "2", "5", ""}, "A", "", "must be 0 or more: negative stock is refused"},
		{"oversold counted as none", "sku: Item\n  quantity: {expr: 'max(number(col(\"On Hand\")) - number(Reserved), 0)'}",
			[]string{"A", "2", "5", ""}, "A", "0", ""},
		{"expression of the cell", "sku: Item\n  quantity: {column: On Hand, expr: 'replace(value, \" pcs\", \"\")'}",
			[]string{"A", "40 pcs", "", ""}, "A", "40", ""},
		{"expression error", "sku: Item\n  quantity: {expr: 'number(Reserved)'}",
			[]string{"A", "", "many", ""}, "A", "", `number: "many" is not a number`},
		{"sku from an expression", "sku: {expr: 'upper(Item) + \"-\" + Site'}\n  quantity: On Hand",
			[]string{"ab", "3", "", "2"}, "AB-2", "3", ""},
		{"constant warehouse", "sku: Item\n  quantity: On Hand\n  warehouse: {value: Main}",
			[]string{"A", "3", "", ""}, "A", "3", ""},
		{"default quantity", "sku: Item\n  quantity: {column: On Hand, default: \"0\"}",
			[]string{"A", " ", "", ""}, "A", "0", ""},
		{"required sku says so once", "sku: {column: Item, required: true}\n  quantity: On Hand",
			[]string{"", "1", "", ""}, "", "1", "required: must not be empty"},
		// With decimal "," (these rows' Site is ","), a number an
		// expression computes is still read as the number it is.
		{"decimal comma: computed", "sku: Item\n  quantity: {expr: 'number(col(\"On Hand\")) - number(Reserved)'}",
			[]string{"A", "12,0", "2", ","}, "A", "10", ""},
		{"decimal comma: computed fraction", "sku: Item\n  quantity: {expr: 'number(col(\"On Hand\")) / 2'}",
			[]string{"A", "5", "", ","}, "A", "", "must be a whole number of units: 2.5 is a fraction; correct the count"},
		{"decimal comma: default", "sku: Item\n  quantity: {column: On Hand, default: \"1,0\"}",
			[]string{"A", "", "", ","}, "A", "1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "stock:\n  " + tt.stock + "\n"
			if tt.cells[3] == "," {
				src = "source:\n  decimal: \",\"\n" + src
			}
			p := stockProgram(t, src, header...)
			var r StockRow
			p.Eval(tt.cells, &r)
			if r.SKU != tt.sku || r.Quantity != tt.qty {
				t.Errorf("sku %q quantity %q, want %q %q", r.SKU, r.Quantity, tt.sku, tt.qty)
			}
			switch {
			case tt.errHas == "" && len(r.Errors) > 0:
				t.Errorf("errors %v", r.Errors)
			case tt.errHas != "" && (len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Rule, tt.errHas)):
				t.Errorf("errors %v, want one with %q", r.Errors, tt.errHas)
			}
		})
	}
}

func TestEvalStockOptionalWarehouse(t *testing.T) {
	t.Parallel()
	src := stockMinimal + "  warehouse: {column: Location, optional: true}\n"
	with := stockProgram(t, src, "SKU", "Qty", "Location")
	without := stockProgram(t, src, "SKU", "Qty")
	var r StockRow
	if err := with.Eval([]string{"A", "1", " East "}, &r); err != nil || r.Warehouse != "East" {
		t.Errorf("warehouse %q, err %v", r.Warehouse, err)
	}
	if err := without.Eval([]string{"A", "1"}, &r); err != nil || r.Warehouse != "" || r.Quantity != "1" {
		t.Errorf("without the column: %+v, err %v", r, err)
	}
}

// A skip rule whose expression fails reports the error and the row goes
// on; a StockRow reused for the next row holds nothing of the last.
func TestEvalStockReuse(t *testing.T) {
	t.Parallel()
	src := stockMinimal + "skip:\n  - when: number(Qty) > 100\n    reason: too many\n"
	p := stockProgram(t, src, "SKU", "Qty")
	var r StockRow
	p.Eval([]string{"A", "x"}, &r)
	if len(r.Errors) != 2 || r.Errors[0].Target != "skip when" || r.Errors[1].Target != "stock.quantity" {
		t.Fatalf("errors %v", r.Errors)
	}
	p.Eval([]string{"B", "500"}, &r)
	if !r.Skip || r.SkipReason != "too many" || r.SKU != "B" || len(r.Errors) != 0 {
		t.Errorf("row %+v", r)
	}
	if err := p.Eval([]string{"C", "5"}, &r); err != nil || r.Skip || r.SkipReason != "" || r.SKU != "C" || r.Quantity != "5" {
		t.Errorf("row %+v, err %v", r, err)
	}
}

func TestStockProgramClone(t *testing.T) {
	t.Parallel()
	p := stockProgram(t, "stock:\n  sku: {expr: 'upper(SKU)'}\n  quantity: Qty\n", "SKU", "Qty")
	c := p.Clone()
	done := make(chan string)
	go func() {
		var r StockRow
		for range 1000 {
			c.Eval([]string{"b", "2"}, &r)
		}
		done <- r.SKU
	}()
	var r StockRow
	for range 1000 {
		p.Eval([]string{"a", "1"}, &r)
	}
	if got := <-done; got != "B" || r.SKU != "A" {
		t.Errorf("clone %q, original %q", got, r.SKU)
	}
	if h := c.Header(); len(h) != 2 || h[1] != "Qty" {
		t.Errorf("header %q", h)
	}
}

// A valid row without expressions costs no allocation; skip rules cost
// what they cost an import's rows.
func TestEvalStockAllocations(t *testing.T) {
	p := stockProgram(t, stockMinimal+"  warehouse: Location\n", "SKU", "Qty", "Location")
	for _, row := range [][]string{{"S-1", "12", "Main"}, {"S-1", "12.0", "Main"}, {"S-1", "0", ""}} {
		var r StockRow
		if n := testing.AllocsPerRun(100, func() { p.Eval(row, &r) }); n != 0 || r.Quantity == "" {
			t.Errorf("row %q: %v allocations, quantity %q", row, n, r.Quantity)
		}
	}
	skip := "skip:\n  - when: Location == \"x\"\n    reason: \"{SKU} skipped\"\n"
	sp := stockProgram(t, stockMinimal+"  warehouse: Location\n"+skip, "SKU", "Qty", "Location")
	ip := program(t, minimal+"variant:\n  sku: SKU\n  stock: Qty\n  location_1: Location\n"+skip, "Handle", "Title", "SKU", "Qty", "Location")
	var sr StockRow
	var ir Row
	stock := testing.AllocsPerRun(100, func() { sp.Eval([]string{"S-1", "12", "Main"}, &sr) })
	imp := testing.AllocsPerRun(100, func() { ip.Eval([]string{"h", "t", "S-1", "12", "Main"}, &ir) })
	if stock > imp || sr.SKU != "S-1" || ir.Variant.SKU != "S-1" {
		t.Errorf("with a skip rule a stock row costs %v allocations, an import's row %v", stock, imp)
	}
}

func BenchmarkEvalStock(b *testing.B) {
	skip := "skip:\n  - when: Location == \"x\"\n    reason: skipped\n"
	for _, bb := range []struct {
		name, src string
		row       []string
	}{
		{"plain", stockMinimal + "  warehouse: Location\n", []string{"SKU-12345", "1234", "Main"}},
		{"thousands", stockMinimal + "  warehouse: Location\n", []string{"SKU-12345", "1,234", "Main"}},
		{"skip rule", stockMinimal + "  warehouse: Location\n" + skip, []string{"SKU-12345", "1234", "Main"}},
	} {
		b.Run(bb.name, func(b *testing.B) {
			m, err := Parse("m.yaml", []byte(bb.src))
			if err != nil {
				b.Fatal(err)
			}
			p, err := m.CompileStock("stock.csv", []string{"SKU", "Qty", "Location"})
			if err != nil {
				b.Fatal(err)
			}
			var r StockRow
			b.ReportAllocs()
			for b.Loop() {
				if err := p.Eval(bb.row, &r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
