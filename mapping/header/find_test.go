package header

import (
	"errors"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		header []string
		find   string
		col    int    // -1: an error
		match  string // the text a pattern's * stands for
		errAll []string
		amb    bool // the error is an *AmbiguousError
	}{
		{"as written", []string{"SKU", "Qty"}, "Qty", 1, "", nil, false},
		{"case", []string{"SKU", "Qty"}, "sku", 0, "", nil, false},
		{"spaces around", []string{" Variant SKU ", "Qty"}, "variant sku", 0, "", nil, false},
		{"spaces around the name", []string{"Variant SKU", "Qty"}, "  Variant SKU ", 0, "", nil, false},
		{"inner run of spaces", []string{"Option1  Value"}, "option1 value", 0, "", nil, false},
		{"tab and no-break space", []string{"Option1\t\u00a0Value"}, "Option1 Value", 0, "", nil, false},
		{"byte order mark", []string{"\ufeffsku", "qty"}, "SKU", 0, "", nil, false},
		{"as written first", []string{"Sku", "SKU", "sku"}, "SKU", 1, "", nil, false},
		{"spaces are not dropped", []string{"Option1 Value"}, "Option1Value", -1, "",
			[]string{`no column "Option1Value" in the file`, `did you mean "Option1 Value"?`}, false},
		{"two columns fit loosely", []string{"Sku", "Qty", "SKU"}, "sku ", -1, "",
			[]string{`no column "sku " in the file as written`, `2 columns are "sku " when case and spaces are ignored`, `"Sku" (column 1), "SKU" (column 3)`}, true},
		{"a name twice fits once", []string{"SKU", "SKU"}, "sku", 0, "", nil, false},
		{"unknown", []string{"SKU", "Qty"}, "Quantity", -1, "", []string{`no column "Quantity" in the file; columns: "SKU", "Qty"`}, false},
		{"pattern", []string{"SKU", "Weight (lbs)"}, "Weight (*)", 1, "lbs", nil, false},
		{"pattern loosely", []string{"SKU", "WEIGHT  (LBS)"}, "weight (*)", 1, "LBS", nil, false},
		{"pattern as written first", []string{"weight (kg)", "Weight (lbs)"}, "Weight (*)", 1, "lbs", nil, false},
		{"pattern fits two", []string{"Weight (kg)", "Weight (lbs)"}, "Weight (*)", -1, "",
			[]string{`column pattern "Weight (*)" matches 2 columns in the file: "Weight (kg)", "Weight (lbs)"`}, true},
		{"pattern fits two loosely", []string{"weight (kg)", "WEIGHT (lbs)"}, "Weight (*)", -1, "",
			[]string{`matches 2 columns`}, true},
		{"pattern with two stars", []string{"A"}, "*a*", -1, "", []string{"a column pattern has one *"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			i, match, _, err := New(tt.header).Find(tt.find)
			if tt.col >= 0 {
				if err != nil || i != tt.col || match != tt.match {
					t.Fatalf("Find(%q) = %d, %q, %v; want %d, %q", tt.find, i, match, err, tt.col, tt.match)
				}
				return
			}
			if err == nil {
				t.Fatalf("Find(%q) = %d, want an error", tt.find, i)
			}
			for _, w := range tt.errAll {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			var amb *AmbiguousError
			if errors.As(err, &amb) != tt.amb {
				t.Errorf("error %v: ambiguous %v, want %v", err, !tt.amb, tt.amb)
			}
		})
	}
}

func TestLoose(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"SKU": "sku", "  Variant   SKU\t": "variant sku", "Qty\u00a0on\u00a0hand": "qty on hand", "": "",
	} {
		if got := Loose(in); got != want {
			t.Errorf("Loose(%q) = %q, want %q", in, got, want)
		}
	}
}
