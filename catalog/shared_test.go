package catalog

import (
	"slices"
	"testing"

	"lading/mapping"
)

// Products with the same tags or attributes share one list, which cannot
// be appended to in place; different lists stay apart.
func TestProductsShareEqualLists(t *testing.T) {
	t.Parallel()
	g := NewGrouper(nil)
	add := func(line int, key string, tags []string, attrs ...string) {
		r := &mapping.Row{GroupKey: key, Variant: mapping.VariantFields{SKU: key},
			Product: mapping.ProductFields{Name: mapping.Value{S: key, Set: true}, Tags: tags, TagsSet: true}}
		for _, a := range attrs {
			r.Options = append(r.Options, mapping.Option{Name: a, Value: "x"})
		}
		g.Add(RowRef{File: "in.csv", Line: line}, r)
	}
	add(2, "P1", []string{"a", "b"}, "Color", "Size")
	add(3, "P2", []string{"a", "b"}, "Color", "Size")
	add(4, "P3", []string{"ab"}, "Size")
	add(5, "P4", []string{"a\x01b"}, "Size", "Color")
	res := g.Finish()
	if len(res.Products) != 4 {
		t.Fatalf("%d products", len(res.Products))
	}
	p1, p2, p3, p4 := res.Products[0], res.Products[1], res.Products[2], res.Products[3]
	for _, tc := range []struct {
		name       string
		got, other []string
		want       []string
		shared     bool
	}{
		{"same tags", p2.Tags(), p1.Tags(), []string{"a", "b"}, true},
		{"other tags", p3.Tags(), p1.Tags(), []string{"ab"}, false},
		{"tags that join alike", p4.Tags(), p3.Tags(), []string{"a\x01b"}, false},
		{"same attributes", p2.Attributes(), p1.Attributes(), []string{"Color", "Size"}, true},
		{"other attributes", p3.Attributes(), p1.Attributes(), []string{"Size"}, false},
	} {
		if !slices.Equal(tc.got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
		if shared := &tc.got[0] == &tc.other[0]; shared != tc.shared {
			t.Errorf("%s: shared %v, want %v", tc.name, shared, tc.shared)
		}
		if cap(tc.got) != len(tc.got) {
			t.Errorf("%s: room to append in place (cap %d, len %d)", tc.name, cap(tc.got), len(tc.got))
		}
	}
}
