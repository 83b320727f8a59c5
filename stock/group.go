package stock

import (
	"slices"

	"lading/api"
)

// toPush are the rows to push to a warehouse, one per SKU, in the order
// of the file. When sorted, order holds their positions in rows by
// variant id (nil: they ascend already), as groupLines found it, so that
// the levels remembered are matched to them without sorting them again.
type toPush struct {
	rows   []int
	sorted bool
	order  []int32
}

// matcher matches the rows to keys by variant id, in the order grouping
// found, or indexed when they were not found sorted.
func (g toPush) matcher(variant func(i int) string) *matcher {
	if g.sorted {
		return sortedMatcher(g.rows, variant, g.order)
	}
	return indexMatcher(g.rows, variant)
}

// groupLines settles rows repeating a SKU in a warehouse and returns, by
// warehouse, the first row of each SKU still to push.
func groupLines(lines []Line) map[api.ID]toPush {
	groups := map[api.ID]toPush{}
	for wh, g := range byWarehouse(lines) {
		variant := func(i int) string { return string(lines[i].VariantID) }
		order, ok := sortedOrder(g, variant)
		if ok {
			settleSorted(lines, g, order)
		} else {
			settleByMap(lines, g)
		}
		p := keepPending(lines, g, order)
		if len(p.rows) > 0 {
			p.sorted = ok
			groups[wh] = p
		}
	}
	return groups
}

// keepPending are the rows of g still to push (not settled, not
// repeating another), and order (g's positions by variant id, nil when
// they ascend) as their own positions.
func keepPending(lines []Line, g []int, order []int32) toPush {
	var at []int32 // g's positions in the rows kept, -1 for those dropped
	if order != nil {
		at = make([]int32, len(g))
	}
	kept := g[:0]
	for p, i := range g {
		if lines[i].repeats != 0 || !lines[i].Pending() {
			if at != nil {
				at[p] = -1
			}
			continue
		}
		if at != nil {
			at[p] = int32(len(kept))
		}
		kept = append(kept, i)
	}
	if order == nil {
		return toPush{rows: kept}
	}
	byVariant := order[:0]
	for _, p := range order {
		if at[p] >= 0 {
			byVariant = append(byVariant, at[p])
		}
	}
	return toPush{rows: kept, order: byVariant}
}

// byWarehouse is the pending rows of each warehouse, in order.
func byWarehouse(lines []Line) map[api.ID][]int {
	groups := map[api.ID][]int{}
	var wh api.ID
	var g []int // wh's rows: most files name one warehouse, or none
	for i := range lines {
		l := &lines[i]
		if !l.Pending() {
			continue
		}
		if g == nil || l.WarehouseID != wh {
			if g != nil {
				groups[wh] = g
			}
			wh, g = l.WarehouseID, groups[l.WarehouseID]
			if len(groups) == 0 && g == nil {
				g = make([]int, 0, len(lines)-i) // the first: room for the rest
			}
		}
		g = append(g, i)
	}
	if g != nil {
		groups[wh] = g
	}
	return groups
}

// settleSorted settles the rows of g (one warehouse's) repeating an
// earlier row's variant, order being the positions in g by variant, rows
// of a variant in their order.
func settleSorted(lines []Line, g []int, order []int32) {
	at := func(p int) int { return g[p] }
	if order != nil {
		at = func(p int) int { return g[order[p]] }
	}
	for a := 0; a < len(g); {
		first := at(a)
		b := a + 1
		for b < len(g) && lines[at(b)].VariantID == lines[first].VariantID {
			b++
		}
		if b > a+1 {
			same := make([]int, 0, b-a)
			for p := a; p < b; p++ {
				same = append(same, at(p))
			}
			settleSame(lines, same)
		}
		a = b
	}
}

// settleByMap is settleSorted for rows in any order.
func settleByMap(lines []Line, g []int) {
	firsts := make(map[api.ID]int, len(g))
	same := map[int][]int{} // first row → it and the rows repeating it
	for _, i := range g {
		l := &lines[i]
		if j, ok := firsts[l.VariantID]; ok {
			same[j] = append(same[j], i)
			continue
		}
		firsts[l.VariantID] = i
	}
	for j, rest := range same {
		settleSame(lines, append([]int{j}, rest...))
	}
}

// settleSame settles rows giving one SKU (in one warehouse), the first
// first: the others repeat it when they give the same quantity, else all
// are Invalid.
func settleSame(lines []Line, rows []int) {
	first := rows[0]
	if slices.ContainsFunc(rows[1:], func(i int) bool { return lines[i].Units != lines[first].Units }) {
		duplicateConflict(lines, rows)
		return
	}
	for _, i := range rows[1:] {
		lines[i].repeats = int32(first + 1)
	}
}
