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
// its own field of the answer, as read and as kept.
func TestLiveVariantFields(t *testing.T) {
	t.Parallel()
	if len(wire.VariantWriteFields) != numVariantFields {
		t.Fatalf("wire lists %d writable variant fields, LiveVariant keeps %d", len(wire.VariantWriteFields), numVariantFields)
	}
	v := &api.Variant{ID: "7", SKU: "S", Description: "Dee", Notes: "", Weight: "1.5", Cost: "2", UPC: "U",
		Location1: "L", LowStockAlert: "3", SupplierCost: "4"}
	var read LiveVariant
	var r liveRead
	readVariant(&read, &r, v, "9", &api.Sideloads{})
	kept := read.keep()
	readVariant(&read, &r, &api.Variant{ID: "8", SKU: "other", Description: "overwritten"}, "9", &api.Sideloads{})
	for _, name := range wire.VariantWriteFields {
		if got, want := kept.Field(name), v.WriteField(name); got != want {
			t.Errorf("kept field %s = %q, want %q", name, got, want)
		}
		if got, want := read.Field(name), (&api.Variant{SKU: "other", Description: "overwritten"}).WriteField(name); got != want {
			t.Errorf("read field %s = %q, want %q", name, got, want)
		}
	}
	if kept.ID != "7" || kept.SKU() != "S" || kept.ProductID() != "9" {
		t.Errorf("kept %s %s of %s, want 7 S of 9", kept.ID, kept.SKU(), kept.ProductID())
	}
	if kept.Field("nonsense") != "" {
		t.Error("an unknown field has a value")
	}
}
