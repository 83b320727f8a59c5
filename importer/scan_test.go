package importer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lading/api"
	"lading/source"
)

func TestDedupe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"none", nil, []string{}},
		{"trimmed, sorted, once each", []string{" b", "a", "b ", "c", "a"}, []string{"a", "b", "c"}},
		{"blanks dropped", []string{"", "  ", "x"}, []string{"x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.in)
			if got := dedupe(in); !slices.Equal(got, tt.want) || got == nil {
				t.Errorf("dedupe(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if !slices.Equal(in, tt.in) {
				t.Errorf("dedupe changed its input: %q, was %q", in, tt.in)
			}
		})
	}
}

func TestWantKeys(t *testing.T) {
	t.Parallel()
	m := templateMapping(t, "shopify")
	path := filepath.Join(t.TempDir(), "in.csv")
	header := []string{"Handle", "Title", "Body (HTML)", "Vendor", "Type", "Tags", "Published", "Option1 Name", "Option1 Value",
		"Option2 Name", "Option2 Value", "Option3 Name", "Option3 Value", "Variant SKU", "Variant Grams", "Variant Inventory Tracker",
		"Variant Inventory Qty", "Variant Inventory Policy", "Variant Fulfillment Service", "Variant Price", "Variant Compare At Price",
		"Variant Requires Shipping", "Variant Taxable", "Variant Barcode", "Cost per item", "Status"}
	csv := strings.Join(header, ",") + "\n"
	for _, r := range [][4]string{{"shirt", "Shirt", "S", " S-2"}, {"shirt", "", "M", "S-1"}, {"mug", "Mug", "", ""}, {"bad", "Bad", "S", "B-1"}, {"bad", "", "M", "B-1"}} {
		row := make([]string, len(header))
		row[0], row[1], row[13], row[19] = r[0], r[1], r[3], "10"
		if r[2] != "" {
			row[7], row[8] = "Size", r[2]
		}
		csv += strings.Join(row, ",") + "\n"
	}
	if err := os.WriteFile(path, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	in, err := Read(context.Background(), m, path, source.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := Want{Products: in.Products}
	// bad repeats B-1: it is invalid, and not looked up.
	if skus, names := w.skus(make([]scanFound, len(in.Products))), w.names(nil); !slices.Equal(skus, []string{"S-1", "S-2"}) || !slices.Equal(names, []string{"Mug"}) {
		t.Errorf("keys = %q, %q; want SKUs S-1 and S-2 (trimmed, sorted), the name Mug", skus, names)
	}
	if !w.anyKey() {
		t.Error("anyKey is false with products to look up")
	}
	if bad := (Want{Products: in.Products[2:]}); bad.anyKey() {
		t.Error("anyKey is true for an invalid product alone")
	}
}

// An id pack gives back every id it was given, by its number, across its
// chunks; the number 0 is no id.
func TestIDPack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ids  []api.ID
	}{
		{"none", nil},
		{"short ids", []api.ID{"1", "v-22", "gid://variant/333"}},
		{"decimal ids, and ids that only look it", []api.ID{"0", "7", "229647038", "999999999999999999", "1000000000000000000",
			"007", "00", "-5", "+5", "12a", "1 ", "18446744073709551616"}},
		{"an empty id among others", []api.ID{"a", "", "b"}},
		{"a long id (a two-byte length)", []api.ID{api.ID(strings.Repeat("x", 300)), "y"}},
		{"an id longer than a chunk, between others", []api.ID{"a", api.ID(strings.Repeat("z", packChunk+5)), "b"}},
		{"past a chunk: 120,000 ids of 10 bytes", func() []api.ID {
			ids := make([]api.ID, 120000)
			for i := range ids {
				ids[i] = api.ID(fmt.Sprintf("id-%07d", i))
			}
			return ids
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p idPack
			refs := make([]uint32, len(tt.ids))
			for i, id := range tt.ids {
				if refs[i] = p.add(id); refs[i] == 0 {
					t.Fatalf("id %d: number 0", i)
				}
			}
			for i, id := range tt.ids {
				if got := p.at(refs[i]); got != id {
					t.Fatalf("id %d: %q, want %q", i, got, id)
				}
				if !p.is(refs[i], id) || p.is(refs[i], id+"0") || p.is(refs[i], "0"+id) {
					t.Fatalf("id %d (%q): is gives the wrong answer", i, id)
				}
			}
			if got := p.at(0); got != "" || !p.is(0, "") || p.is(0, "1") {
				t.Errorf("at(0) = %q, want none", got)
			}
			if len(tt.ids) > 100000 && len(p.chunks) < 2 {
				t.Errorf("%d chunks, want more than one", len(p.chunks))
			}
		})
	}
}

// An id pack gives back any id it is given, and says it is that id and
// no other.
func FuzzIDPack(f *testing.F) {
	for _, id := range []string{"", "0", "229647038", "007", "-1", "999999999999999999", "1000000000000000000", "v-1"} {
		f.Add(id, "1")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		var p idPack
		ra, rb := p.add(api.ID(a)), p.add(api.ID(b))
		if got := p.at(ra); got != api.ID(a) {
			t.Fatalf("at = %q, want %q", got, a)
		}
		if got := p.at(rb); got != api.ID(b) {
			t.Fatalf("at = %q, want %q", got, b)
		}
		if !p.is(ra, api.ID(a)) || p.is(ra, api.ID(b)) != (a == b) {
			t.Fatalf("is(%q): %v, is(%q): %v", a, p.is(ra, api.ID(a)), b, p.is(ra, api.ID(b)))
		}
	})
}

// productOf finds the product of every variant number, asked in the
// file's order, backwards or anyhow, past products of no variants.
func TestProductOfFindsTheVariantsProduct(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		sizes []int // variants a product
	}{
		{"one product", []int{3}},
		{"products of one variant", []int{1, 1, 1, 1}},
		{"products of no variants between and at the ends", []int{0, 3, 0, 0, 2, 1, 0, 4, 0}},
		{"many", []int{5, 1, 0, 7, 2, 2, 9, 0, 1, 3, 4, 4, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var s scan
			var want []int32 // by variant number
			for i, size := range tc.sizes {
				s.first = append(s.first, int32(len(want)))
				for range size {
					want = append(want, int32(i))
				}
			}
			orders := map[string][]int32{}
			for k := range want {
				orders["in order"] = append(orders["in order"], int32(k))
				orders["backwards"] = append(orders["backwards"], int32(len(want)-1-k))
				orders["by sevens"] = append(orders["by sevens"], int32(k*7%len(want)))
			}
			for name, ks := range orders {
				for _, k := range ks {
					if got := s.productOf(k); got != want[k] {
						t.Fatalf("%s: variant %d: product %d, want %d", name, k, got, want[k])
					}
				}
			}
		})
	}
}
