package catalog

import (
	"bytes"
	"slices"
	"testing"
)

// A product's content is the same whenever its rows say the same, wherever
// they are in the file and whatever came before them, and differs when
// anything they say does.
func TestProductContent(t *testing.T) {
	t.Parallel()
	a1 := []string{"A", "Tee", "x|y", "A-1", "1.5", "3", "Color", "Red", "Size", "S", "10"}
	a2 := []string{"A", "", "", "A-2", "1.5", "3", "Color", "Blue", "Size", "S", "10"}
	b1 := []string{"B", "Mug", "", "B-1", "", "", "Material", "Clay", "Size", "L", "5"}
	base := contentOf(t, a1, a2, b1)
	edit := func(row []string, col int, value string) []string {
		row = slices.Clone(row)
		row[col] = value
		return row
	}
	for _, tc := range []struct {
		name string
		rows [][]string
		same bool
	}{
		{"the same rows", [][]string{a1, a2, b1}, true},
		{"other products first: other numbers for the names", [][]string{b1, a1, a2}, true},
		{"its rows apart", [][]string{a1, b1, a2}, true},
		{"another product changed", [][]string{a1, a2, edit(b1, 4, "9")}, true},
		{"a weight", [][]string{a1, edit(a2, 4, "1.6"), b1}, false},
		{"a stock", [][]string{a1, edit(a2, 5, "4"), b1}, false},
		{"a tier price", [][]string{edit(a1, 10, "11"), a2, b1}, false},
		{"an option value", [][]string{a1, edit(a2, 7, "Green"), b1}, false},
		{"an option's attribute", [][]string{a1, edit(a2, 6, "Colour"), b1}, false},
		{"a SKU", [][]string{a1, edit(a2, 3, "A-3"), b1}, false},
		{"the name", [][]string{edit(a1, 1, "Top"), a2, b1}, false},
		{"the tags", [][]string{edit(a1, 2, "x"), a2, b1}, false},
		{"the variants' order", [][]string{edit(a2, 1, "Tee"), edit(edit(a1, 1, ""), 2, ""), b1}, false},
		{"a variant more", [][]string{a1, a2, edit(edit(a2, 3, "A-3"), 7, "Grey"), b1}, false},
	} {
		if got := contentOf(t, tc.rows...); bytes.Equal(got, base) != tc.same {
			t.Errorf("%s: content equal %v, want %v", tc.name, !tc.same, tc.same)
		}
	}
}

// contentOf is the content of product A of rows (of keyHeader).
func contentOf(t *testing.T, rows ...[]string) []byte {
	t.Helper()
	res := group(t, keyMapping, keyHeader, rows...)
	p := byKey(res)["A"]
	if p == nil || !p.Valid() {
		t.Fatalf("product A of %q: %v", rows, p)
	}
	return p.AppendContent(nil)
}
