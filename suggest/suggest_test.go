package suggest

import (
	"slices"
	"testing"
)

func TestClose(t *testing.T) {
	templates := []string{"shopify", "shopify-2024", "woocommerce", "generic", "stock", "slips", "shipments"}
	for _, tc := range []struct {
		name string
		list []string
		want []string
	}{
		{"shopfy", templates, []string{"shopify"}},
		{"Shopify", templates, []string{"shopify", "shopify-2024"}},
		{"woocomerce", templates, []string{"woocommerce"}},
		{"stok", templates, []string{"stock"}},
		{"zzzzzz", templates, nil},
		{"sku", []string{"SKU", "Qty"}, []string{"SKU"}},
		{"improt", []string{"import", "export", "demo"}, []string{"import"}},
		{"=>", []string{"=", "!=", ">", ">=", "<", "<="}, []string{"=", ">"}},
	} {
		if got := Close(tc.name, tc.list, 0); !slices.Equal(got, tc.want) {
			t.Errorf("Close(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		name, quote string
		list        []string
		want        string
	}{
		{"templte", "--%s", []string{"template", "mapping", "state"}, "did you mean --template?"},
		{"shopfy", "%s", []string{"shopify", "generic"}, "did you mean shopify?"},
		{"qty", "%q", []string{"Qty", "Quantity", "qty_left"}, `did you mean "Qty" or "qty_left"?`},
		{"nothing-like-it", "%s", []string{"a", "b"}, ""},
	} {
		if got := DidYouMean(tc.name, tc.list, tc.quote); got != tc.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"größe", "grösse", 2}, {"=>", ">=", 2},
		// Latin-1 "Größe" and "Grüße", bytes that are not UTF-8: each differs.
		{"Gr\xf6\xdfe", "Gr\xfc\xdfe", 1}, {"\xf6", "\uFFFD", 1}, {"\xf6\xf6", "\xf6\xf6", 0},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func FuzzDistance(f *testing.F) {
	f.Add("kitten", "sitting")
	f.Fuzz(func(t *testing.T, a, b string) {
		d := Distance(a, b)
		if d != Distance(b, a) {
			t.Fatalf("not symmetric: %q %q", a, b)
		}
		if d > max(len([]rune(a)), len([]rune(b))) || (a == b) != (d == 0) {
			t.Fatalf("Distance(%q, %q) = %d", a, b, d)
		}
	})
}
