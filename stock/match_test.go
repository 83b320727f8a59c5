package stock

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"lading/api"
)

// The matcher finds the rows of each key, by a merge of the rows' runs
// or by a map, alike.
func TestMatcher(t *testing.T) {
	t.Parallel()
	descending := func(n int) []string { // n runs
		keys := make([]string, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("k%03d", n-i)
		}
		return keys
	}
	tests := []struct {
		name   string
		keys   []string // the rows' keys, in their order
		merged bool     // matched by a merge
	}{
		{"none", nil, true},
		{"one", []string{"a"}, true},
		{"ascending, repeats", []string{"a", "b", "b", "c"}, true},
		{"two runs", []string{"b", "d", "a", "c", "e"}, true},
		{"three runs, ties in order", []string{"b", "c", "a", "c", "b", "b", "z"}, true},
		{"descending, as many runs as merged", descending(maxRuns), true},
		{"too many runs", append(descending(maxRuns), "a"), false},
	}
	for _, tt := range tests {
		rows := make([]int, len(tt.keys))
		for p := range rows {
			rows[p] = 10 + p // indexes into lines, not positions
		}
		key := func(i int) string { return tt.keys[i-10] }
		m := newMatcher(rows, key)
		if m.sorted != tt.merged {
			t.Errorf("%s: merged %v, want %v", tt.name, m.sorted, tt.merged)
		}
		scan := append(slices.Sorted(slices.Values(slices.Compact(slices.Sorted(slices.Values(tt.keys))))), "zz")
		scan = append([]string{"0"}, scan...) // keys no row holds
		var got []string
		for _, k := range scan {
			m.each([]byte(k), func(p int) { got = append(got, fmt.Sprintf("%s@%d", k, p)) })
		}
		var want []string
		for _, k := range scan {
			for p, rk := range tt.keys {
				if rk == k {
					want = append(want, fmt.Sprintf("%s@%d", k, p))
				}
			}
		}
		if tt.merged && !slices.Equal(got, want) {
			t.Errorf("%s: %s, want %s", tt.name, strings.Join(got, " "), strings.Join(want, " "))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %s, want %s (in any order)", tt.name, strings.Join(got, " "), strings.Join(want, " "))
		}
	}
}

// groupLines hands on, with the rows still to push, their order by variant
// id as it sorted them, the rows it settled (repeats, conflicts) left
// out; matched by it, each key of a scan finds its row, as a matcher that
// sorts them again finds it.
func TestGroupLinesHandsOnTheOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		variants []string // the rows' variant ids; units differ where marked "!"
	}{
		{"ascending", []string{"1", "2", "3", "4"}},
		{"two runs", []string{"3", "4", "1", "2"}},
		{"two runs, a repeat", []string{"3", "4", "1", "3", "2"}},
		{"three runs, a conflict, a repeat", []string{"5", "6", "2!", "7", "2", "1", "5", "3"}},
		{"all one variant", []string{"9", "9", "9"}},
	}
	for _, tt := range tests {
		lines := make([]Line, len(tt.variants))
		for i, v := range tt.variants {
			id, conflict := strings.CutSuffix(v, "!")
			lines[i] = Line{SKU: "S" + id, VariantID: api.ID(id), Units: 5, Valid: true}
			if conflict {
				lines[i].Units = 6
			}
		}
		g := groupLines(lines)[""]
		if !g.sorted {
			t.Fatalf("%s: not sorted", tt.name)
		}
		variant := func(i int) string { return string(lines[i].VariantID) }
		var got, want []string
		handed, sorted := sortedMatcher(g.rows, variant, g.order), newMatcher(g.rows, variant)
		for k := range 10 {
			key := []byte(fmt.Sprint(k))
			handed.each(key, func(p int) { got = append(got, fmt.Sprintf("%s@%d", key, g.rows[p])) })
			sorted.each(key, func(p int) { want = append(want, fmt.Sprintf("%s@%d", key, g.rows[p])) })
		}
		if !slices.Equal(got, want) || len(got) != len(g.rows) {
			t.Errorf("%s: rows %v matched %v, want %v", tt.name, g.rows, got, want)
		}
	}
}
