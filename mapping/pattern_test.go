package mapping

import (
	"errors"
	"strings"
	"testing"
)

func TestColumnPatterns(t *testing.T) {
	t.Parallel()
	const head = "group:\n  key: SKU\nproduct:\n  name: Name\n"
	tests := []struct {
		name, src string
		header    []string
		cells     []string
		want      map[string]string // variant field: value
		errAll    []string          // a Compile error holding all of these
	}{
		{"pounds", head + "variant:\n  weight: {column: \"Weight (*)\", expr: \"weight(value, match)\"}\n",
			[]string{"SKU", "Name", "Weight (lbs)"}, []string{"S", "N", "2"}, map[string]string{"weight": "0.907185"}, nil},
		{"kilograms", head + "variant:\n  weight: {column: \"Weight (*)\", expr: \"weight(value, match)\"}\n",
			[]string{"SKU", "Name", "Weight (kg)"}, []string{"S", "N", "2"}, map[string]string{"weight": "2"}, nil},
		{"ounces", head + "variant:\n  weight: {column: \"Weight (*)\", expr: \"weight(value, match)\"}\n",
			[]string{"SKU", "Name", "Weight (oz)"}, []string{"S", "N", "8"}, map[string]string{"weight": "0.226796"}, nil},
		{"match as text", head + "variant:\n  notes: {column: \"Length (*)\", expr: 'value + \" \" + match'}\n",
			[]string{"SKU", "Name", "Length (in)"}, []string{"S", "N", "4"}, map[string]string{"notes": "4 in"}, nil},
		{"pattern without expr", head + "variant:\n  cost: \"Cost*\"\n",
			[]string{"SKU", "Name", "Cost (EUR)"}, []string{"S", "N", "3.5"}, map[string]string{"cost": "3.5"}, nil},
		{"exact name first", head + "variant:\n  upc: \"Barcode*\"\n",
			[]string{"SKU", "Name", "Barcode*", "Barcode type"}, []string{"S", "N", "123", "EAN"}, map[string]string{"upc": "123"}, nil},
		{"star matches empty text", head + "variant:\n  upc: \"Barcode*\"\n",
			[]string{"SKU", "Name", "Barcode"}, []string{"S", "N", "123"}, map[string]string{"upc": "123"}, nil},
		{"col() with a pattern", head + "variant:\n  upc: {expr: 'col(\"EAN*\")'}\n",
			[]string{"SKU", "Name", "EAN13"}, []string{"S", "N", "400"}, map[string]string{"upc": "400"}, nil},
		{"option column", head + "options:\n  columns: [{name: Colour, column: \"Colour (*)\"}]\n",
			[]string{"SKU", "Name", "Colour (en)"}, []string{"S", "N", "Red"}, map[string]string{}, nil},
		{"optional and absent", head + "variant:\n  weight: {column: \"Weight (*)\", expr: \"weight(value, match)\", optional: true}\n",
			[]string{"SKU", "Name"}, []string{"S", "N"}, map[string]string{}, nil},
		{"no match", head + "variant:\n  weight: {column: \"Weight (*)\", expr: \"weight(value, match)\"}\n",
			[]string{"SKU", "Name", "Weight"}, nil, nil, []string{"m.yaml:6:", "variant.weight", `no column "Weight (*)" in in.csv`, `did you mean "Weight"?`}},
		{"two matches", head + "variant:\n  weight: {column: \"Weight (*)\", expr: \"weight(value, match)\"}\n",
			[]string{"SKU", "Name", "Weight (kg)", "Weight (lbs)"}, nil, nil, []string{"variant.weight", `column pattern "Weight (*)" matches 2 columns in in.csv: "Weight (kg)", "Weight (lbs)"`, "write the name of the one to use"}},
		{"two matches though optional", head + "variant:\n  weight: {column: \"Weight (*)\", optional: true}\n",
			[]string{"SKU", "Name", "Weight (kg)", "Weight (lbs)"}, nil, nil, []string{`matches 2 columns`}},
		{"two matches in col()", head + "variant:\n  upc: {expr: 'col(\"EAN*\")'}\n",
			[]string{"SKU", "Name", "EAN13", "EAN8"}, nil, nil, []string{`column pattern "EAN*" matches 2 columns in in.csv: "EAN13", "EAN8"`}},
		{"two stars", head + "variant:\n  upc: \"*EAN*\"\n",
			[]string{"SKU", "Name", "EAN"}, nil, nil, []string{`no column "*EAN*"`, "a column pattern has one *"}},
		{"match without a pattern", head + "variant:\n  weight: {column: Weight, expr: \"weight(value, match)\"}\n",
			[]string{"SKU", "Name", "Weight"}, nil, nil, []string{"m.yaml:6:", "match is the text the * of a column pattern stands for", `{column: "Weight (*)", expr: "weight(value, match)"}`}},
		{"unit the pattern matched is checked with the header", head + "variant:\n  weight: {column: \"Weight (*)\", expr: \"weight(value, match)\"}\n",
			[]string{"SKU", "Name", "Weight (stone)"}, nil, nil, []string{"m.yaml:6:", "variant.weight", `weight: "stone" is not a weight unit; weight units: g, kg, lb, lbs, oz`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("m.yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			p, err := m.Compile("in.csv", tt.header)
			if tt.errAll != nil {
				if err == nil {
					t.Fatal("compiled, want an error")
				}
				var list ErrorList
				if !errors.As(err, &list) || len(list) != 1 {
					t.Errorf("%d errors, want 1: %v", len(list), err)
				}
				for _, w := range tt.errAll {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r := eval(t, p, tt.cells...)
			if len(r.Errors) > 0 {
				t.Fatalf("errors: %v", r.Errors)
			}
			got := map[string]string{}
			for _, f := range r.Variant.Fields {
				got[f.Name] = f.Value
			}
			if len(got) != len(tt.want) {
				t.Errorf("fields %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			if tt.name == "option column" && (len(r.Options) != 1 || r.Options[0] != Option{Name: "Colour", Value: "Red", Column: "Colour (en)"}) {
				t.Errorf("options %+v", r.Options)
			}
		})
	}
}

func TestColumnPatternInSkipReasonAndJoin(t *testing.T) {
	t.Parallel()
	src := "group:\n  key: ID\nproduct:\n  name: Name\nvariant:\n  sku: {column: \"Ref*\"}\n" +
		"skip:\n  - when: 'Type == \"pack\"'\n    reason: \"{Type (*)} packs are not imported\"\n" +
		"join:\n  file: c.csv\n  key: \"Product ID*\"\n"
	m, err := Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Compile("p.csv", []string{"ID", "Name", "Type", "Type (en)"})
	if err != nil {
		t.Fatal(err)
	}
	if r := eval(t, p, "1", "Box", "pack", "Pack"); !r.Skip || r.SkipReason != "Pack packs are not imported" {
		t.Errorf("skip %v %q", r.Skip, r.SkipReason)
	}
	j, err := m.CompileJoin("c.csv", []string{"Product ID (main)", "Reference #"})
	if err != nil {
		t.Fatal(err)
	}
	if r := eval(t, j, "1", "R-1"); len(r.Errors) > 0 || r.ParentRef != "1" || r.Variant.SKU != "R-1" {
		t.Errorf("joined row %+v", r)
	}
}
