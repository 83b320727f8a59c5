package expr

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"lading/mapping/header"
)

// directCols is the header the direct tests compile against.
var directCols = []string{"Option1 Value", "Variant SKU", "Variant Price", "Item Type", "Weight", "Code"}

func directCompiler() *Compiler {
	return NewCompiler(header.New(directCols), Settings{Decimal: '.',
		Tables: map[string]map[string]string{"commands": {"MERGE": "upsert", "DELETE": "delete"}}})
}

// vmRun runs e on the VM alone, as Run did before closures.
func vmRun(m *Machine, e *Expr, value string) (any, error) {
	m.env.Value = value
	m.vm.MemoryBudget = maxItems
	return m.vm.Run(e.prog, &m.env)
}

// sameRun runs e both ways over row and fails t when their results or
// their failing differ: the closures must be invisible.
func sameRun(t *testing.T, e *Expr, src string, row []string, value string) {
	t.Helper()
	var direct, vm Machine
	direct.Row(row)
	vm.Row(row)
	got, gerr := direct.Run(e, value)
	want, werr := vmRun(&vm, e, value)
	if (gerr != nil) != (werr != nil) || (gerr != nil && gerr.Error() != werr.Error()) {
		t.Fatalf("%s over %q (value %q): error %v, the VM's %v", src, row, value, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) && !bothNaN(got, want) {
		t.Fatalf("%s over %q (value %q) = %#v, the VM's %#v", src, row, value, got, want)
	}
	if direct.env.made != vm.env.made {
		t.Fatalf("%s over %q: %d bytes of text charged, the VM %d", src, row, direct.env.made, vm.env.made)
	}
	var text Machine
	text.Row(row)
	if s, ok := text.RunText(e, value); ok && (werr != nil || want != any(s) || text.env.made != vm.env.made) {
		t.Fatalf("%s over %q (value %q): RunText %q charging %d bytes, the VM %#v (error %v) charging %d",
			src, row, value, s, text.env.made, want, werr, vm.env.made)
	}
}

// bothNaN reports whether a and b are both float64 NaNs, which are
// never equal.
func bothNaN(a, b any) bool {
	x, ok1 := a.(float64)
	y, ok2 := b.(float64)
	return ok1 && ok2 && math.IsNaN(x) && math.IsNaN(y)
}

// The shapes of the templates' expressions run as closures, and give what
// the VM gives on every row, short rows and failing helpers included;
// other shapes are the VM's.
func TestDirectMatchesVM(t *testing.T) {
	t.Parallel()
	c := directCompiler()
	rows := [][]string{
		{"", "", "", "Product", "1450", "merge"},
		{"Red", "SKU-1", "9.99", " SKU ", "abc", "DELETE"},
		{"", "", "", "", "", ""},
		{"Blue", "", "0", "Rule", "-2.5", "IGNORE"},
		{"Green"}, // a row shorter than the header: its closures leave it to the VM
	}
	tests := []struct {
		src    string
		scope  Scope
		direct bool
	}{
		{`col("Option1 Value") == "" && col("Variant SKU") == "" && col("Variant Price") == "" ? "product" : "both"`, Scope{}, true},
		{`shift(value, -3)`, Scope{}, true},
		{`shift(col("Variant Price"), 2)`, Scope{}, true},
		{`shift(Code == "merge" ? value : Code, - 1)`, Scope{}, true},
		{`lookup("commands", upper(value), value)`, Scope{}, true},
		{`trim(col("Item Type")) == "Product" ? "product_or_both" : "variant"`, Scope{}, true},
		{`weight(value, "lb")`, Scope{}, true},
		{`number(value) > 0 ? value : ""`, Scope{}, true},
		{`number(Weight) >= 1.5 || not (Code != "merge")`, Scope{Bool: true}, true},
		{`default(col("Variant SKU"), Code)`, Scope{}, true},
		{`max(number(value), 0)`, Scope{}, true},
		{`Code startsWith "DEL" and !(Code endsWith "x") && Code contains "E"`, Scope{Bool: true}, true},
		{`hasPrefix(Code, "DE") ? trimPrefix(Code, "DE") : lower(Code)`, Scope{}, true},
		{`Code == "merge" ? nil : 3`, Scope{}, true},
		{`col("Variant SKU") + "-" + Code`, Scope{}, true},
		{`product("Price") == "" ? value : product("Price")`, Scope{Products: map[string]int{"Price": 0}}, true},
		{`number(Weight) > 0 ?: Code`, Scope{Bool: true}, true}, // a condition of text: expr fails it, and so must Run
		{`trim(col("Item Type")) in ["SKU", "Rule"]`, Scope{Bool: true}, false},
		{`number(Weight) + number(value)`, Scope{}, false},
		{`len(Code) > 3`, Scope{Bool: true}, false},
		{`let w = number(Weight); w > 1`, Scope{Bool: true}, false},
	}
	for _, tt := range tests {
		e, err := c.Compile(tt.src, tt.scope)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if (e.direct != nil) != tt.direct {
			t.Errorf("%s: runs as a closure: %v, want %v", tt.src, e.direct != nil, tt.direct)
		}
		if text := tt.direct && kindOf(e.prog.Node()) == reflect.String; (e.text != nil) != text {
			t.Errorf("%s: gives its text unboxed: %v, want %v", tt.src, e.text != nil, text)
		}
		for _, row := range rows {
			for _, value := range []string{"", "1450", "MERGE", "x"} {
				sameRun(t, e, tt.src, row, value)
			}
		}
	}
}

// shift() in a text's closure is called as it is, nothing boxed: the
// shifted text is all it makes. (Not parallel: AllocsPerRun counts the
// whole process's allocations.)
func TestShiftTextIsNotBoxed(t *testing.T) {
	c := directCompiler()
	e, err := c.Compile(`shift(value, -3)`, Scope{})
	if err != nil || e.text == nil {
		t.Fatalf("shift(value, -3) has no text closure (%v)", err)
	}
	var m Machine
	m.Row(make([]string, len(directCols)))
	value := strings.Repeat("1450", 2)
	allocs := testing.AllocsPerRun(100, func() {
		m.env.made = 0
		if s, ok := m.RunText(e, value); !ok || s != "14501.45" {
			t.Fatalf("RunText = %q, %v", s, ok)
		}
	})
	if allocs > 1 {
		t.Errorf("shift(value, -3) allocates %v times a row, want 1 (its text)", allocs)
	}
}

// A closure that cannot give the VM's answer on a row leaves the row to
// the VM: a cell the row lacks, or a helper's error.
func TestDirectLeavesRowsToVM(t *testing.T) {
	t.Parallel()
	c := directCompiler()
	e, err := c.Compile(`shift(Code, -3)`, Scope{})
	if err != nil {
		t.Fatal(err)
	}
	var m Machine
	m.Row([]string{"a"})
	if _, err := e.direct(&m.env); !errors.Is(err, errToVM) {
		t.Errorf("over a row without the column: %v, want errToVM", err)
	}
	m.Row(make([]string, len(directCols)))
	m.env.R[5] = "abc"
	_, derr := e.direct(&m.env)
	_, err = m.Run(e, "")
	if derr == nil || err == nil {
		t.Fatalf("shift of %q: closure %v, Run %v; want both to fail", "abc", derr, err)
	}
	if msg, _ := Describe(err); msg == "" || msg == derr.Error() && errors.Is(derr, errToVM) {
		t.Errorf("Run's error %q is not the VM's", msg)
	}
}

func FuzzDirect(f *testing.F) {
	f.Add(`col("Option1 Value") == "" && Code == "" ? "product" : "both"`, "", "x", "1450")
	f.Add(`number(value) > 0 ? shift(value, -3) : Code`, "Red", "DELETE", "12.5")
	f.Add(`lookup("commands", upper(value), value)`, "a", "b", "merge")
	f.Fuzz(func(t *testing.T, src, a, b, value string) {
		for _, scope := range []Scope{{}, {Bool: true}} {
			e, err := directCompiler().Compile(src, scope)
			if err != nil || e.direct == nil {
				continue
			}
			sameRun(t, e, src, []string{a, b, a, b, value, b}, value)
			sameRun(t, e, src, []string{a}, value)
		}
	})
}
