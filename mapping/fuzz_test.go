package mapping

import (
	"errors"
	"fmt"
	"lading/mapping/cell"
	"lading/mapping/expr"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The fuzz targets' seeds are in testdata/fuzz/<target>/ (CI runs only
// them); run one with, for example,
//
//	go test ./mapping -run XXX -fuzz FuzzParseCompile -fuzztime 5m

// FuzzParseCompile parses a mapping file and binds it to a header (its
// cells are the header's names, comma-separated). Nothing may panic; every
// error names the file and a line and column; lookup tables read on the
// side are those the YAML parser reads; a compiled mapping evaluates a row.
func FuzzParseCompile(f *testing.F) {
	f.Add([]byte(minimal), "Handle,Title")
	f.Add([]byte(shopifyLike), strings.Join(shopifyHeader, ","))
	f.Add([]byte("source:\n  decimal: \",\"\nstock:\n  sku: SKU\n  quantity: {column: On Hand, default: \"0\"}\n  warehouse: {column: Location, optional: true}\nskip:\n  - when: SKU == \"\"\n    reason: no SKU\n"), "SKU,On Hand,Location")
	f.Fuzz(func(t *testing.T, data []byte, header string) {
		m, err := Parse("m.yaml", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "m.yaml" || e.Line < 1 || e.Column < 1 {
				t.Fatalf("error %q (%T) does not name m.yaml:line:column", err, err)
			}
			return
		}
		if _, fast := fastTables("m.yaml", data); fast != nil {
			// Read by the YAML parser alone (unless that is too long
			// for it), the tables are the same.
			if slow, _, err := parse("m.yaml", data, nil); err == nil && !reflect.DeepEqual(slow.Tables, m.Tables) {
				t.Fatalf("tables read on the side %q, by the YAML parser %q", m.Tables, slow.Tables)
			}
		}
		cols := strings.SplitN(header, ",", 64)
		checkCompiled(t, m, cols, func() (*Program, error) { return m.Compile("in.csv", cols) })
		if m.Join != nil {
			checkCompiled(t, m, cols, func() (*Program, error) { return m.CompileJoin("joined.csv", cols) })
		}
		if m.Stock != nil {
			checkStock(t, m, cols)
		}
	})
}

// checkStock compiles the stock section and, when that works, evaluates a
// row whose cells are the column names: a quantity is a canonical whole
// number, 0 or more, or an error says why not.
func checkStock(t *testing.T, m *Mapping, cols []string) {
	t.Helper()
	p, err := m.CompileStock("stock.csv", cols)
	if err != nil {
		var list ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Fatalf("stock compile error %q (%T), want an ErrorList", err, err)
		}
		for _, e := range list {
			if e.File != "m.yaml" || e.Line < 1 || e.Column < 1 {
				t.Fatalf("stock compile error %q does not name m.yaml:line:column", e)
			}
		}
		return
	}
	var r StockRow
	if err := p.Eval(cols, &r); err != nil && !reflect.DeepEqual(err, r.Errors) {
		t.Fatalf("Eval returned %v, the row holds %v", err, r.Errors)
	}
	checkStockRow(t, &r)
}

// checkStockRow checks that a row's quantity is a count of units and that
// every error names its target and rule.
func checkStockRow(t *testing.T, r *StockRow) {
	t.Helper()
	for _, e := range r.Errors {
		if e.Target == "" || e.Rule == "" {
			t.Fatalf("row error %+v names no target or rule", e)
		}
	}
	if r.Quantity == "" {
		return
	}
	if n, ok := cell.ParseNumber(r.Quantity, '.'); !ok || n != r.Quantity || !cell.IsWhole(n) || strings.HasPrefix(n, "-") || len(n) > maxUnitDigits {
		t.Fatalf("quantity %q is not a canonical count of units", r.Quantity)
	}
}

// checkCompiled compiles and, when that works, evaluates a row whose
// cells are the column names.
func checkCompiled(t *testing.T, m *Mapping, cols []string, compile func() (*Program, error)) {
	t.Helper()
	p, err := compile()
	if err != nil {
		var list ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Fatalf("compile error %q (%T), want an ErrorList", err, err)
		}
		for _, e := range list {
			if e.File != "m.yaml" || e.Line < 1 || e.Column < 1 {
				t.Fatalf("compile error %q does not name m.yaml:line:column", e)
			}
		}
		return
	}
	var r Row
	if err := p.Eval(cols, &r); err != nil && !reflect.DeepEqual(err, r.Errors) {
		t.Fatalf("Eval returned %v, the row holds %v", err, r.Errors)
	}
	for _, e := range r.Errors {
		if e.Target == "" || e.Rule == "" {
			t.Fatalf("row error %+v names no target or rule", e)
		}
	}
}

// exprPositions are where the fuzzed expression is said to be for each
// target, so that a message can be traced to its target.
var exprPositions = map[string]Pos{"description": {3, 7}, "weight": {4, 7}, "notes": {5, 7}, "low_stock_alert": {6, 7}}

// exprMapping maps every kind of target to the expression src, over the
// columns A and B (and a constant product).
func exprMapping(src string) *Mapping {
	m := &Mapping{
		File:    "m.yaml",
		Source:  Source{DateFormats: []string{"DD/MM/YYYY"}},
		Group:   Group{By: ByKey, Key: &ValueSpec{Target: "group.key", Const: "k", HasConst: true, Pos: Pos{1, 7}}},
		Product: ProductSpec{Name: &ValueSpec{Target: "product.name", Const: "n", HasConst: true, Pos: Pos{2, 7}}},
		Tables:  map[string]map[string]string{"colours": {"rouge": "Red", "bleu": "Blue"}},
	}
	kinds := map[string]Kind{"description": KindText, "weight": KindNumber, "notes": KindDate, "low_stock_alert": KindInteger}
	m.Stock = &StockSpec{
		SKU:      &ValueSpec{Target: "stock.sku", Name: "sku", Column: "A", Pos: Pos{7, 8}},
		Quantity: &ValueSpec{Target: "stock.quantity", Name: "quantity", Expr: src, Kind: KindInteger, NotNegative: true, Pos: Pos{8, 13}},
		Pos:      Pos{7, 1},
	}
	for _, name := range []string{"description", "weight", "notes", "low_stock_alert"} {
		m.Variant.Fields = append(m.Variant.Fields, &ValueSpec{
			Target: "variant." + name, Name: name, Expr: src, Kind: kinds[name],
			NotNegative: name == "weight", Pos: exprPositions[name],
		})
	}
	return m
}

var (
	canonicalDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	limitPlace    = regexp.MustCompile(`\(the expression at ([^)]*)\)`)
)

// FuzzExpression evaluates an expression with the helpers on cells A and
// B, for text, number, date and whole-number targets. Nothing may panic;
// compile errors name the file, line and column of the expression; a limit
// met names where the expression is; values are canonical for their kind
// and within the limits; the number and date readers' results read back
// as themselves.
func FuzzExpression(f *testing.F) {
	f.Add(`shift(A, -3)`, "145", "")
	f.Add(`number(A) * 2 + number(B)`, "1.5", "2")
	f.Fuzz(func(t *testing.T, src, a, b string) {
		checkReaders(t, a)
		checkReaders(t, b)
		m := exprMapping(src)
		p, err := m.Compile("in.csv", []string{"A", "B"})
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("compile error %q (%T), want an ErrorList", err, err)
			}
			for _, e := range list {
				if e.File != "m.yaml" || e.Line < 3 || e.Line > 6 || e.Column != 7 {
					t.Fatalf("compile error %q is not at an expression's place", e)
				}
			}
			return
		}
		var r Row
		start := time.Now()
		p.Eval([]string{a, b}, &r)
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("a row took %v", d)
		}
		for _, e := range r.Errors {
			name := strings.TrimPrefix(e.Target, "variant.")
			pos, ok := exprPositions[name]
			if !ok || e.Rule == "" {
				t.Fatalf("row error %+v names no target or rule", e)
			}
			if at := limitPlace.FindStringSubmatch(e.Rule); at != nil && at[1] != fmt.Sprintf("m.yaml:%d:%d", pos.Line, pos.Column) {
				t.Fatalf("row error %+v names the expression of another target", e)
			}
		}
		for _, v := range r.Variant.Fields {
			checkValue(t, v)
		}
		sp, err := m.CompileStock("in.csv", []string{"A", "B"})
		if err != nil {
			t.Fatalf("the stock section does not compile where the same expression does: %v", err)
		}
		var sr StockRow
		sp.Eval([]string{a, b}, &sr)
		checkStockRow(t, &sr)
	})
}

// checkValue checks a value against its target's kind and the limits.
func checkValue(t *testing.T, v FieldValue) {
	t.Helper()
	if len(v.Value) > expr.MaxText {
		t.Fatalf("%s is %d bytes long", v.Name, len(v.Value))
	}
	switch v.Name {
	case "weight", "low_stock_alert":
		if n, ok := cell.ParseNumber(v.Value, '.'); !ok || n != v.Value {
			t.Fatalf("%s %q is not a canonical number", v.Name, v.Value)
		}
		if v.Name == "weight" && strings.HasPrefix(v.Value, "-") {
			t.Fatalf("weight %q is negative", v.Value)
		}
		if v.Name == "low_stock_alert" && !cell.IsWhole(v.Value) {
			t.Fatalf("low_stock_alert %q is not whole", v.Value)
		}
	case "notes":
		if _, err := time.Parse("2006-01-02", v.Value); err != nil || !canonicalDate.MatchString(v.Value) {
			t.Fatalf("notes %q is not a date", v.Value)
		}
	}
}

// checkReaders reads s as a number and a date: what they give reads back
// as itself, and a number shifted there and back is itself.
func checkReaders(t *testing.T, s string) {
	t.Helper()
	for _, dec := range []byte{'.', ','} {
		for _, declared := range []bool{false, true} {
			if plainCount(s) { // taken as it is: as it would be read
				if u, rule := readCount(s, dec, declared, stockCount); u != s || rule != "" {
					t.Fatalf("plain count %q reads as %q, %q", s, u, rule)
				}
			}
		}
		if u, rule := parseCount(s, dec, false, stockCount); rule == "" {
			checkStockRow(t, &StockRow{Quantity: u})
		} else if u != "" {
			t.Fatalf("parseCount(%q, %q) = %q and %q", s, dec, u, rule)
		}
		n, ok := cell.ParseNumber(s, dec)
		if !ok {
			continue
		}
		if again, ok := cell.ParseNumber(n, '.'); !ok || again != n {
			t.Fatalf("ParseNumber(%q, %q) = %q, which reads back as %q, %v", s, dec, n, again, ok)
		}
		up, err := cell.ShiftNumber(n, '.', 7)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := cell.ShiftNumber(up, '.', -7); err != nil || back != n {
			t.Fatalf("ShiftNumber(ShiftNumber(%q, 7), -7) = %q, %v", n, back, err)
		}
	}
	if d, clock, ok := cell.ParseDateTime(s, []string{"02/01/2006"}); ok {
		if again, ok := cell.ParseDate(d, nil); !ok || again != d || !canonicalDate.MatchString(d) {
			t.Fatalf("parseDateTime(%q) = %q, which reads back as %q, %v", s, d, again, ok)
		}
		if clock != "" && !strings.Contains(s, clock) {
			t.Fatalf("parseDateTime(%q): time of day %q is not as written", s, clock)
		}
	}
}
