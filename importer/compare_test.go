package importer

import (
	"testing"

	"lading/api"
	"lading/api/wire"
)

func TestSameValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		numeric    bool
		live, file string
		want       bool
	}{
		{"identical text", false, "Black / S", "Black / S", true},
		{"UPC that lost its leading zero", false, "12345678905", "012345678905", false},
		{"SKU with leading zeros", false, "42", "0042", false},
		{"SKU as a number with a decimal point", false, "42", "42.0", false},
		{"text with a trailing space in the account", false, "Cotton ", "Cotton", false},
		{"text differing in case", false, "black", "Black", false},
		{"price 1.50 and 1.5", true, "1.50", "1.5", true},
		{"price with a trailing space", true, "1.5 ", "1.50", true},
		{"price with leading zeros", true, "007.5", "7.50", true},
		{"whole price and decimals", true, "25", "25.00", true},
		{"zero and minus zero", true, "-0.0", "0", true},
		{"different prices", true, "1.5", "1.05", false},
		{"negative and positive", true, "-2", "2", false},
		{"empty live value and zero", true, "", "0", false},
		{"numeric field holding text", true, "n/a", "n/a", true},
		{"numeric field, text against a number", true, "n/a", "0", false},
		{"exponent", true, "1e2", "100", true},
		{"thousands separator", true, "1,000", "1000", true},
		{"a lone point", true, ".", "0", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameValue(tt.numeric, tt.live, tt.file); got != tt.want {
				t.Errorf("sameValue(%v, %q, %q) = %v, want %v", tt.numeric, tt.live, tt.file, got, tt.want)
			}
		})
	}
}

// A live variant keeps every writable field the wire lists, each read from
// its own field of the answer.
func TestLiveVariantFields(t *testing.T) {
	t.Parallel()
	if len(wire.VariantWriteFields) != numVariantFields {
		t.Fatalf("wire lists %d writable variant fields, LiveVariant keeps %d", len(wire.VariantWriteFields), numVariantFields)
	}
	v := &api.Variant{SKU: "S", Description: "D", Notes: "N", Weight: "1", Cost: "2", UPC: "U",
		Location1: "L", LowStockAlert: "3", SupplierCost: "4"}
	lv := &LiveVariant{d: &liveDetail{fields: variantFields(v)}}
	seen := map[string]bool{}
	for _, name := range wire.VariantWriteFields {
		got := lv.Field(name)
		if got == "" || seen[got] {
			t.Errorf("field %s = %q: not read, or read from another field", name, got)
		}
		seen[got] = true
	}
	if lv.Field("nonsense") != "" {
		t.Error("an unknown field has a value")
	}
}
