package importer

import "testing"

func TestReadOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name               string
		variants, products int
		want               wholeRead
	}{
		{"products of four: half the pages", 1_000_000, 250_000, wholeRead{pages: 2000, perPage: 125}},
		{"products of one: the Variants listing", 1_000, 1_000, wholeRead{pages: 4}},
		{"products of two", 600, 300, wholeRead{pages: 2, perPage: 250}},
		{"products of forty: 12 a page", 100_000, 2_500, wholeRead{pages: 209, perPage: 12}},
		{"products of 4,000: one a page", 40_000, 10, wholeRead{pages: 10, perPage: 1}},
		{"more products than variants", 100, 5_000, wholeRead{pages: 1}},
		{"products unknown", 1_000, 0, wholeRead{pages: 4}},
		{"an empty account", 0, 0, wholeRead{pages: 0}},
		{"one variant", 1, 1, wholeRead{pages: 1}},
	}
	for _, tt := range tests {
		if got := readOf(tt.variants, tt.products); got != tt.want {
			t.Errorf("%s: readOf(%d, %d) = %+v, want %+v", tt.name, tt.variants, tt.products, got, tt.want)
		}
	}
}
