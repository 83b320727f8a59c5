package mapping

import (
	"errors"
	"strings"
	"testing"
)

// The limits on what an expression may make are errors naming the mapping
// file, the line and column of the expression, and the limit: when the
// amounts are written out, as Compile errors; otherwise as errors of the
// row.
func TestExpressionLimitsAtCompile(t *testing.T) {
	t.Parallel()
	tests := []struct{ expr, want string }{
		{`shift(value, 3000000000)`, "shift(…, 3000000000): a shift moves the decimal point at most 30 places"},
		{`shift(value, -31)`, "at most 30 places"},
		{`repeat(value, 2000000)`, "repeat(…, 2000000): an expression may make a text of at most 1048576 bytes"},
		{`toJSON(value)`, `no column "toJSON"`},    // disabled: can copy a text many times over
		{`concat([A], [A])`, `no column "concat"`}, // idem, for lists
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			m, err := Parse("m.yaml", []byte(minimal+"variant:\n  weight: {column: A, expr: '"+tt.expr+"'}\n"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Compile("in.csv", []string{"Handle", "Title", "A", "B"})
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 {
				t.Fatalf("error %v, want one", err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "m.yaml:6:29: variant.weight: ") || !strings.Contains(msg, tt.want) {
				t.Errorf("error %q, want m.yaml:6:29 and %q", msg, tt.want)
			}
		})
	}
}

func TestExpressionLimitsOnRows(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 2000)
	const tooLong = "would make a text longer than 1048576 bytes (1 MiB), the most an expression may make"
	const listTooLong = "the list's items are longer in all than 1048576 bytes (1 MiB)"
	tests := []struct {
		expr, a, b, want string
	}{
		{`shift(A, int(B))`, "1.5", "1000000", "shift by 1000000 places: a shift moves the decimal point at most 30 places either way"},
		{`repeat(A, int(B))`, "xx", "1000000", "repeat " + tooLong},
		{`replace(A, "", A)`, long, "", "replace " + tooLong},
		{`join(split(repeat(A, 500), ""), B)`, long, ",", "join " + tooLong},
		{`reduce(1..12, #acc + #acc, A)`, long, "", "+ " + tooLong},
		{`let a = A + A; let b = a + a; let c = b + b; let d = c + c; let e = d + d; let f = e + e; let g = f + f; let h = g + g; let i = h + h; i + i`, long, "", "+ " + tooLong},
		{`upper(repeat(A, 600000))`, "\xff", "", "upper " + tooLong},
		{`text(split(repeat(A, 500), ""))`, long, "", "text " + tooLong},
		{`map(1..1000, A)`, long, "", listTooLong},
		{`join(map(1..1000, A), B)`, long, ",", listTooLong},
		{`len(map(1..20, repeat(A, 1000000)))`, "x", "", "repeat: the expressions of this row have made more than 16777216 bytes (16 MiB) of text"},
		{`len(1..1000000) + len(A)`, "x", "", "the expression builds lists, ranges or maps of more than 100000 items in all"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			p := program(t, minimal+"variant:\n  description: {expr: '"+tt.expr+"'}\n", "Handle", "Title", "A", "B")
			r := eval(t, p, "h", "T", tt.a, tt.b)
			if len(r.Errors) != 1 {
				t.Fatalf("errors %v, want one", r.Errors)
			}
			e := r.Errors[0]
			if !strings.Contains(e.Rule, tt.want) || !strings.HasSuffix(e.Rule, "(the expression at m.yaml:6:23)") {
				t.Errorf("rule %q, want %q and the expression's place", e.Rule, tt.want)
			}
			if e.Target != "variant.description" || e.Column != "A" {
				t.Errorf("error names column %q target %q", e.Column, e.Target)
			}
		})
	}
}

// Within the limits, the helpers that are bounded work as expr's own.
func TestBoundedHelpers(t *testing.T) {
	t.Parallel()
	tests := []struct{ expr, want string }{
		{`repeat(A, 3)`, "ababab"},
		{`replace(A, "b", "-")`, "a-"},
		{`join(split("x,y", ","), "+")`, "x+y"},
		{`join(map(1..3, A))`, "ababab"},
		{`upper(A) + lower("C")`, "ABc"},
		{`string(number("1.50"))`, "1.5"},
		{`text(list("a|b"))`, "a,b"},
		{`reduce(1..3, #acc + A, "")`, "ababab"},
		{`1 + 2`, "3"},
		{`shift(A + "", 1)`, ""}, // not a number: an error, below
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			p := program(t, minimal+"variant:\n  description: {expr: '"+tt.expr+"'}\n", "Handle", "Title", "A")
			r := eval(t, p, "h", "T", "ab")
			if tt.want == "" {
				if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Rule, `"ab" is not a number`) {
					t.Errorf("errors %v", r.Errors)
				}
				return
			}
			if len(r.Errors) > 0 || len(r.Variant.Fields) != 1 || r.Variant.Fields[0].Value != tt.want {
				t.Errorf("fields %v errors %v, want %q", r.Variant.Fields, r.Errors, tt.want)
			}
		})
	}
}
