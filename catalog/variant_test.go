package catalog

import (
	"slices"
	"strings"
	"testing"
)

func TestPackedEntriesRoundTrip(t *testing.T) {
	t.Parallel()
	type entry struct {
		kind byte
		id   uint32
		val  string
	}
	tests := []struct {
		name    string
		entries []entry
		size    int // packed bytes
	}{
		{"short values of the first names: two bytes each and the value", []entry{{kOption, 0, "Red"}, {kField, 30, "0.2"}, {kStock, 0, ""}}, 2 + 3 + 2 + 3 + 2},
		{"id 31 and beyond carry a varint", []entry{{kTier, idMore, "x"}, {kField, idMore + 127, "y"}, {kField, idMore + 128, "z"}}, 4 + 4 + 5},
		{"a long value has a longer length", []entry{{kSlot, 2, strings.Repeat("v", 200)}}, 3 + 200},
		{"every kind", []entry{{kOption, 1, "a"}, {kSlot, 1, "b"}, {kField, 1, "c"}, {kTier, 1, "d"}, {kStock, 0, "5"}}, 15},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b []byte
			for _, e := range tt.entries {
				b = appendEntry(b, e.kind, e.id, e.val)
			}
			if len(b) != tt.size {
				t.Errorf("packed into %d bytes, want %d", len(b), tt.size)
			}
			d := string(b)
			for i, want := range tt.entries {
				if len(d) == 0 {
					t.Fatalf("entry %d: no data left", i)
				}
				if k := entryKind(d); k != want.kind {
					t.Errorf("entry %d: entryKind %d, want %d", i, k, want.kind)
				}
				var got entry
				got.kind, got.id, got.val, d = nextEntry(d)
				if got != want {
					t.Errorf("entry %d: %+v, want %+v", i, got, want)
				}
			}
			if d != "" {
				t.Errorf("%d bytes left over", len(d))
			}
		})
	}
}

func TestPackedTextsRoundTrip(t *testing.T) {
	t.Parallel()
	set := func(s string) Value { return Value{S: s, Set: true} }
	tests := []struct {
		name  string
		texts [3]Value
		size  int // packed bytes
	}{
		{"none given: a byte each", [3]Value{}, 3},
		{"given empty differs from not given", [3]Value{set(""), {}, set("")}, 3},
		{"name and description", [3]Value{set("Tee"), set("<p>A tee.</p>"), {}}, 1 + 3 + 1 + 13 + 1},
		{"a long value has a longer length", [3]Value{{}, set(strings.Repeat("d", 300)), set("n")}, 1 + 2 + 300 + 1 + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := appendTexts(nil, tt.texts)
			if len(b) != tt.size {
				t.Errorf("packed into %d bytes, want %d", len(b), tt.size)
			}
			if got := unpackTexts(string(b)); got != tt.texts {
				t.Errorf("unpacked %+v, want %+v", got, tt.texts)
			}
			p := Product{text: string(b)}
			if got := [3]Value{p.Name(), p.Description(), p.Notes()}; got != tt.texts {
				t.Errorf("read back %+v, want %+v", got, tt.texts)
			}
		})
	}
}

// AllFields and AllTiers yield what Fields and Tiers list, and stop when
// told to.
func TestVariantIterators(t *testing.T) {
	t.Parallel()
	nm := newNames()
	var b []byte
	b = appendEntry(b, kOption, nm.id("Color"), "Red")
	b = appendEntry(b, kField, nm.id("weight"), "0.2")
	b = appendEntry(b, kTier, nm.id("Retail"), "10")
	b = appendEntry(b, kField, nm.id("upc"), "012")
	b = appendEntry(b, kTier, nm.id("Sale"), "8")
	v := Variant{s: string(packVariantText(nil, "", b)), nm: nm}
	var fields []Field
	for name, val := range v.AllFields() {
		fields = append(fields, Field{name, val})
	}
	if want := []Field{{"weight", "0.2"}, {"upc", "012"}}; !slices.Equal(fields, want) || !slices.Equal(v.Fields(), want) {
		t.Errorf("fields %v, Fields() %v; want %v", fields, v.Fields(), want)
	}
	var tiers []Tier
	for name, val := range v.AllTiers() {
		tiers = append(tiers, Tier{name, val})
		break
	}
	if want := []Tier{{"Retail", "10"}}; !slices.Equal(tiers, want) {
		t.Errorf("tiers up to the first break %v, want %v", tiers, want)
	}
	if want := []Tier{{"Retail", "10"}, {"Sale", "8"}}; !slices.Equal(v.Tiers(), want) {
		t.Errorf("Tiers() %v, want %v", v.Tiers(), want)
	}
}
