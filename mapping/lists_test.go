package mapping

import (
	"slices"
	"strings"
	"testing"
)

func TestPairsAndDropLast(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr   string
		cells  []string
		want   string // the value: a list's items joined with ","
		errHas string
	}{
		{`pairs(A, B)`, []string{"Color, Size", "Blue, L"}, "Color=Blue,Size=L", ""},
		{`pairs(A, B, ";")`, []string{"Color;Size", "Blue, navy;L"}, "Color=Blue, navy,Size=L", ""},
		{`pairs(split(A, "|"), list(B))`, []string{" Color | Size ", "Blue|L"}, "Color=Blue,Size=L", ""},
		{`pairs(A, B)`, []string{"", ""}, "", ""},
		{`pairs(A, B)`, []string{"Color, Size", "Blue"}, "", `pairs: 2 names ("Color, Size") but 1 values ("Blue"); each name needs the value at the same position`},
		{`pairs(A, B)`, []string{"a=b", "c"}, "", `pairs: the name "a=b" holds "="`},
		{`dropLast(A, ":")`, []string{"Blue:0", ""}, "Blue", ""},
		{`dropLast(A, ":", 2)`, []string{"Color:color:0", ""}, "Color", ""},
		{`dropLast(A, ":")`, []string{"Ratio 16:9:3", ""}, "Ratio 16:9", ""},
		{`dropLast(A, ":")`, []string{"Blue", ""}, "Blue", ""},
		{`dropLast(A, ":", 3)`, []string{"a:b", ""}, "a", ""},
		{`dropLast(list(A, ","), ":")`, []string{"Blue:0, 16GB:1", ""}, "Blue,16GB", ""},
		{`dropLast(A, ":", 0)`, []string{"a:b", ""}, "", "dropLast: 0 parts: give 1 or more"},
		{`dropLast(A, "")`, []string{"a:b", ""}, "", "dropLast: the separator is empty"},
		{`pairs(dropLast(list(A, ","), ":", 2), dropLast(list(B, ","), ":"))`,
			[]string{"Color:color:0, Disk space:select:1", "Blue:0, 16GB:1"}, "Color=Blue,Disk space=16GB", ""},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			p := program(t, "group:\n  key: {value: k}\nproduct:\n  name: {value: n}\nvariant:\n  notes: {expr: '"+tt.expr+"'}\n", "A", "B")
			r := eval(t, p, tt.cells...)
			if tt.errHas != "" {
				if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Rule, tt.errHas) || r.Errors[0].Column != "A" {
					t.Fatalf("errors %v, want one on column A with %q", r.Errors, tt.errHas)
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

func TestOptionsListFromPairs(t *testing.T) {
	t.Parallel()
	src := `group:
  key: {value: k}
product:
  name: {value: n}
options:
  list:
    expr: >-
      pairs(dropLast(list(col("Attribute (Name:Type:Position)*"), ","), ":", 2),
            dropLast(list(col("Value (Value:Position)*"), ","), ":"))
  ignore: ["-"]
`
	p := program(t, src, "Attribute (Name:Type:Position)*", "Value (Value:Position)*")
	tests := []struct {
		names, values string
		want          []Option
		errHas        string
	}{
		{"Color:color:0, Disk space:select:1", "Blue:0, 16GB:1", []Option{{Name: "Color", Value: "Blue"}, {Name: "Disk space", Value: "16GB"}}, ""},
		{"Format:select:0", "A4, portrait:0", nil, "pairs: 1 names"},
		{"Format:select:0", "16:9:0", []Option{{Name: "Format", Value: "16:9"}}, ""},
		{"Size:select:0, Color:color:1", "S:0, -:1", []Option{{Name: "Size", Value: "S"}}, ""},
		{"Size:select:0, size:select:1", "S:0, M:1", []Option{{Name: "Size", Value: "S"}}, `attribute "size" is given twice`},
		{"", "", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.names+" "+tt.values, func(t *testing.T) {
			r := eval(t, p, tt.names, tt.values)
			if tt.errHas != "" {
				if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Rule, tt.errHas) {
					t.Fatalf("errors %v, want one with %q", r.Errors, tt.errHas)
				}
			} else if len(r.Errors) > 0 {
				t.Fatalf("errors: %v", r.Errors)
			}
			var got []Option
			for _, o := range r.Options {
				if o.Column != "Attribute (Name:Type:Position)*" {
					t.Errorf("option %+v: column %q", o, o.Column)
				}
				o.Column = ""
				got = append(got, o)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("options %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestOptionsListOfItems(t *testing.T) {
	t.Parallel()
	// A list an expression gives is read item by item: a value may hold
	// the list separator; an item without "=" is an error.
	p := program(t, "group:\n  key: {value: k}\nproduct:\n  name: {value: n}\noptions:\n  list: {expr: 'split(A, \";\")'}\n", "A")
	r := eval(t, p, "Size=S, small;Color=Blue")
	if len(r.Errors) > 0 || len(r.Options) != 2 || r.Options[0].Value != "S, small" || r.Options[1] != (Option{Name: "Color", Value: "Blue", Column: "A"}) {
		t.Errorf("options %+v errors %v", r.Options, r.Errors)
	}
	r = eval(t, p, "Size=S;Blue")
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Rule, `must be a list of name=value items: "Blue" is not one`) || r.Errors[0].Value != "Size=S;Blue" {
		t.Errorf("errors %v", r.Errors)
	}
}
