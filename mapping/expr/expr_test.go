package expr

import (
	"slices"
	"strings"
	"testing"

	"lading/mapping/header"
)

// A Compiler binds expressions to a header once; a Machine runs them
// over rows.
func TestCompileAndRun(t *testing.T) {
	t.Parallel()
	cols := header.New([]string{"SKU", "Qty", "Weight (lbs)", "Trim"})
	c := NewCompiler(cols, Settings{Decimal: ',', Tables: map[string]map[string]string{"size": {"s": "Small"}}})
	match := "lbs"
	tests := []struct {
		src   string
		scope Scope
		value string
		want  string
		used  []int
	}{
		{`sku + "-" + Qty`, Scope{}, "", "S-1-2,5", []int{0, 1}},
		{`number(qty) * 2`, Scope{}, "", "5", []int{1}},
		{`col("weight (*)")`, Scope{}, "", "2", []int{2}},
		{`weight(value, match)`, Scope{Match: &match}, "2", "0.907185", nil},
		{`let qty = number(Qty); qty + 1`, Scope{}, "", "3.5", []int{1}},
		{`trim(" x ")`, Scope{}, "", "x", nil},
		{`lookup("size", "s")`, Scope{}, "", "Small", nil},
		{`product("Price") + "!"`, Scope{Products: map[string]int{"Price": 0}}, "", "9!", nil},
		{`Qty == "2,5"`, Scope{Bool: true}, "", "true", []int{1}},
	}
	var m Machine
	m.Row([]string{"S-1", "2,5", "2", "t"})
	m.Product([]string{"9"})
	defer m.Done()
	for _, tt := range tests {
		e, err := c.Compile(tt.src, tt.scope)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		v, err := m.Run(e, tt.value)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if s, _, _, _ := Result(v); s != tt.want || !slices.Equal(e.Used, tt.used) {
			t.Errorf("%s = %q reading columns %v, want %q reading %v", tt.src, s, e.Used, tt.want, tt.used)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	c := NewCompiler(header.New([]string{"Sku", "SKU", "Qty"}), Settings{Decimal: '.'})
	for src, want := range map[string]string{
		`Quantity + "x"`:         `no column "Quantity" in the file`,
		`col("sku")`:             `2 columns are "sku" when case and spaces are ignored: "Sku" (column 1), "SKU" (column 2)`,
		`product("Price")`:       `product("Price"): product("Column") reads a cell of the product's row`,
		`match`:                  "match is the text the * of a column pattern stands for",
		`shift(Qty, 3000000000)`: "a shift moves the decimal point at most 30 places",
	} {
		if _, err := c.Compile(src, Scope{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
	var m Machine
	m.Row([]string{"a", "b", "c"})
	e, err := c.Compile(`repeat(Qty, 2000 * 1000)`, Scope{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Run(e, "")
	if msg, limit := Describe(err); !limit || !strings.Contains(msg, "1 MiB") {
		t.Errorf("Describe(%v) = %q, %v; want a limit of 1 MiB", err, msg, limit)
	}
}
