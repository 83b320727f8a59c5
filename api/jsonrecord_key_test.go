package api

import (
	"encoding/json"
	"testing"
)

// A record's keys match its fields' names as encoding/json matches them:
// exactly, else case aside, also where folding a key's letters past ASCII
// gives an ASCII name ("ſ" folds to "s", the Kelvin sign to "k").
func TestRecordKeysMatchAsEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key   string
		match bool
	}{
		{"sku", true},
		{"SKU", true},
		{"sKu", true},
		{"\u017Fku", true},       // ſku
		{"s\u212Au", true},       // the Kelvin sign
		{"\u017FK\u212A", false}, // three runes, but "sk" and a Kelvin sign fold to "skk"
		{"sk", false},
		{"skus", false},
		{"sk\u00fc", false}, // skü
		{"s\u212A", false},
		{"auto_description", false},
	} {
		key, _ := json.Marshal(tc.key) // a string always encodes
		raw := []byte(`{"id":"1",` + string(key) + `:"X"}`)
		var want struct {
			SKU string `json:"sku"`
		}
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		got, err := decodeRecordJSON[Variant](raw, nil)
		if err != nil {
			t.Fatalf("%q: %v", tc.key, err)
		}
		if string(got.SKU) != want.SKU || (want.SKU == "X") != tc.match {
			t.Errorf("key %q: sku %q, encoding/json %q; want a match: %v", tc.key, got.SKU, want.SKU, tc.match)
		}
	}
}

// Every field name of a record type finds its own field, whether its
// slot is its alone or shared (then its length's names say).
func TestLayoutFindsEachName(t *testing.T) {
	t.Parallel()
	for _, l := range []*recordLayout{layoutOf[Variant](), layoutOf[Product](), layoutOf[VariantPrice](), layoutOf[AttributeOption](),
		layoutOf[Attribute](), layoutOf[WarehouseStockLevel](), layoutOf[Fulfillment](), layoutOf[PackingSlip]()} {
		alone := 0
		for i, name := range l.names {
			if at, ok := l.field([]byte(name)); !ok || at != l.at[i] {
				t.Errorf("name %q: field %v, %v; want %v", name, at, ok, l.at[i])
			}
			if l.slots[slotOf([]byte(name))] == uint8(i+1) {
				alone++
			}
		}
		if alone < len(l.names)/2 {
			t.Errorf("names %q: %d alone in their slots, want most", l.names, alone)
		}
	}
}
