package mapping

import (
	"errors"
	"testing"

	"lading/templates"
)

func TestSuggest(t *testing.T) {
	t.Parallel()
	generic := []string{"product_key", "product_name", "sku", "option1_name", "option1_value", "tier:Retail"}
	tests := []struct {
		name    string
		given   string
		header  []string
		want    string // the template suggested; "" for none
		renamed string // Renames, when the given template's columns are named otherwise
	}{
		{"the generic layout given to shopify", "shopify", generic, "generic", ""},
		{"a stock file given to a catalog template", "generic", []string{"SKU", "Qty"}, "stock", ""},
		{"a mapping of the user's", "", generic, "generic", ""},
		{"the template's own layout", "generic", generic, "", ""},
		{"the stock template's columns named otherwise", "stock", []string{"SKU", "Qty", "Location"}, "stock", "Qty for quantity, Location for warehouse"},
		{"the stock template's columns in other case", "stock.yaml", []string{"SKU", "Quantity"}, "", ""},
		{"no layout lading knows", "shopify", []string{"Reference", "Name", "Price"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, ok := Suggest(tt.given, tt.header)
			if ok != (tt.want != "") || s.Template != tt.want {
				t.Fatalf("Suggest = %+v, %v; want %q", s, ok, tt.want)
			}
			if s.Renamed != (tt.renamed != "") || s.Renames() != tt.renamed {
				t.Errorf("renamed %v, %q; want %q", s.Renamed, s.Renames(), tt.renamed)
			}
		})
	}
}

// A template that does not fit a header is a *MismatchError holding the
// header, which Suggest reads.
func TestMismatchError(t *testing.T) {
	t.Parallel()
	text, err := templates.Get("shopify")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse("shopify.yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	header := []string{"product_key", "product_name", "sku"}
	_, err = m.Compile("catalog.csv", header)
	var me *MismatchError
	var list ErrorList
	if !errors.As(err, &me) || !errors.As(err, &list) || me.File != "catalog.csv" || len(me.Header) != 3 || len(list) < 2 {
		t.Fatalf("error %v (%T), want a *MismatchError of catalog.csv unwrapping to an ErrorList", err, err)
	}
	if s, ok := Suggest("shopify", me.Header); !ok || s.Template != "generic" {
		t.Errorf("Suggest = %+v, %v; want generic", s, ok)
	}
}
