package mapping

import (
	"strings"
	"testing"
)

// weightProgram maps variant.weight with expr over the columns W (a
// number) and U (a unit), reading numbers with decimal dec.
func weightProgram(t *testing.T, dec, target, expr string) *Program {
	t.Helper()
	src := "source:\n  decimal: \"" + dec + "\"\ngroup:\n  key: {value: k}\nproduct:\n  name: {value: n}\nvariant:\n  " + target + ": {expr: '" + expr + "'}\n"
	return program(t, src, "W", "U")
}

func TestUnitConversions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, dec, expr string
		cells           []string
		want            string // "" with errHas: an error; "" alone: no value
		errHas          string
	}{
		{"grams", ".", `weight(W, "g")`, []string{"145", ""}, "0.145", ""},
		{"kilograms", ".", `weight(W, "kg")`, []string{"2.5", ""}, "2.5", ""},
		{"pound", ".", `weight(W, "lb")`, []string{"1", ""}, "0.453592", ""},
		{"pounds from a cell", ".", `weight(W, U)`, []string{"2.5", "lbs"}, "1.133981", ""},
		{"ounces", ".", `weight(W, "oz")`, []string{"16", ""}, "0.453592", ""},
		{"unit case and dot", ".", `weight(W, U)`, []string{"1", " LBS. "}, "0.453592", ""},
		{"spelt out", ".", `weight(W, U)`, []string{"500", "grams"}, "0.5", ""},
		{"to grams", ".", `weight(W, "lb", "g")`, []string{"1", ""}, "453.59237", ""},
		{"to pounds", ".", `weight(W, "kg", "lb")`, []string{"1", ""}, "2.204623", ""},
		{"to ounces from a cell", ".", `weight(W, "kg", U)`, []string{"1", "oz"}, "35.273962", ""},
		{"decimal comma", ",", `weight(W, "g")`, []string{"1.234,5", ""}, "1.2345", ""},
		{"computed number", ",", `weight(number(W) * 2, "g")`, []string{"0,5", ""}, "0.001", ""},
		{"empty gives nothing", ".", `weight(W, "lb")`, []string{"", "lb"}, "", ""},
		{"arithmetic after", ".", `weight(W, "g") + 0.1`, []string{"200", ""}, "0.3", ""},
		{"unknown unit in a cell", ".", `weight(W, U)`, []string{"3", "stone"}, "", `weight: "stone" is not a weight unit; weight units: g, kg, lb, lbs, oz`},
		{"no unit in a cell", ".", `weight(W, U)`, []string{"3", ""}, "", `weight: no unit given; weight units: g, kg, lb, lbs, oz`},
		{"not a number", ".", `weight(W, "kg")`, []string{"heavy", ""}, "", `weight: "heavy" is not a number (decimal ".")`},
		{"length inches", ".", `length(W, "in")`, []string{"10", ""}, "25.4", ""},
		{"length feet", ".", `length(W, U)`, []string{"2", "ft"}, "60.96", ""},
		{"length mm", ".", `length(W, "mm")`, []string{"15", ""}, "1.5", ""},
		{"length to metres", ".", `length(W, "cm", "m")`, []string{"150", ""}, "1.5", ""},
		{"length to inches", ".", `length(W, U, "in")`, []string{"1", "m"}, "39.370079", ""},
		{"unknown length unit", ".", `length(W, U)`, []string{"1", "yd"}, "", `length: "yd" is not a length unit; length units: mm, cm, m, in, ft`},
		{"weight unit for a length", ".", `length(W, U)`, []string{"1", "kg"}, "", `length: "kg" is not a length unit`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := weightProgram(t, tt.dec, "weight", tt.expr)
			r := eval(t, p, tt.cells...)
			if tt.errHas != "" {
				if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Rule, tt.errHas) {
					t.Fatalf("errors %v, want one with %q", r.Errors, tt.errHas)
				}
				if e := r.Errors[0]; e.Column != "W" || e.Value != tt.cells[0] || e.Target != "variant.weight" {
					t.Errorf("error names column %q value %q target %q", e.Column, e.Value, e.Target)
				}
				return
			}
			if len(r.Errors) > 0 {
				t.Fatalf("errors: %v", r.Errors)
			}
			got := ""
			for _, f := range r.Variant.Fields {
				got = f.Value
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestUnitErrorsAtCompile(t *testing.T) {
	t.Parallel()
	tests := []struct{ expr, errHas string }{
		{`weight(W, "stone")`, `weight: "stone" is not a weight unit; weight units: g, kg, lb, lbs, oz`},
		{`weight(W, "kg", "tonnes")`, `weight: "tonnes" is not a weight unit`},
		{`length(W, "yd")`, `length: "yd" is not a length unit; length units: mm, cm, m, in, ft`},
		{`weight(W)`, `not enough arguments`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			m, err := Parse("m.yaml", []byte("group:\n  key: {value: k}\nproduct:\n  name: {value: n}\nvariant:\n  weight: {expr: '"+tt.expr+"'}\n"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Compile("in.csv", []string{"W", "U"})
			if err == nil || !strings.Contains(err.Error(), tt.errHas) || !strings.Contains(err.Error(), "m.yaml:6:") {
				t.Errorf("error %v, want one at m.yaml:6 with %q", err, tt.errHas)
			}
		})
	}
}

func TestComputedNumbersHaveNoFloatNoise(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr  string
		cells []string
		want  string
	}{
		{`number(W) + number(U)`, []string{"19.99", "1.1"}, "21.09"},
		{`number(W) + number(U)`, []string{"0.1", "0.2"}, "0.3"},
		{`number(W) / 3`, []string{"1", ""}, "0.333333333333333"},
		{`number(W) * 1000`, []string{"123456.789", ""}, "123456789"},
		{`number(W) - number(U)`, []string{"10", "10.5"}, "-0.5"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			p := weightProgram(t, ".", "upc", tt.expr)
			r := eval(t, p, tt.cells...)
			if len(r.Errors) > 0 || len(r.Variant.Fields) != 1 || r.Variant.Fields[0].Value != tt.want {
				t.Errorf("got %+v %v, want %q", r.Variant.Fields, r.Errors, tt.want)
			}
		})
	}
}
