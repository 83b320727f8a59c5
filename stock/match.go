package stock

// matcher finds which of a push's rows hold each key of a state scan
// (SKU ids, levels), which yields the keys in order. When the rows' keys
// ascend, or ascend in a few runs (a file sorted by SKU; the variant ids
// of SKUs created in batches), it walks both once, as a merge, the runs
// merged first; else it indexes the rows' keys in a map.
type matcher struct {
	rows []int // indexes into the push's lines
	key  func(i int) string
	// sorted: order holds the positions in rows by key (nil: the rows
	// ascend already); pos is where the merge is.
	sorted bool
	order  []int32
	pos    int
	// Else at maps a key to the position in rows of its first row, and
	// next chains the positions of rows repeating a key (-1: none; nil
	// when no key repeats).
	at   map[string]int32
	next []int32
}

func newMatcher(rows []int, key func(i int) string) *matcher {
	if order, ok := sortedOrder(rows, key); ok {
		return sortedMatcher(rows, key, order)
	}
	return indexMatcher(rows, key)
}

// indexMatcher is newMatcher for rows found not sorted: their keys in a
// map.
func indexMatcher(rows []int, key func(i int) string) *matcher {
	m := &matcher{rows: rows, key: key}
	m.at = make(map[string]int32, len(rows))
	for p, i := range rows {
		k := key(i)
		first, ok := m.at[k]
		if !ok {
			m.at[k] = int32(p)
			continue
		}
		if m.next == nil {
			m.next = make([]int32, len(rows))
			for q := range m.next {
				m.next[q] = -1
			}
		}
		m.next[p], m.next[first] = m.next[first], int32(p)
	}
	return m
}

// sortedMatcher is newMatcher for rows sorted already: order holds their
// positions by key, as sortedOrder gives them (nil when they ascend).
func sortedMatcher(rows []int, key func(i int) string, order []int32) *matcher {
	return &matcher{rows: rows, key: key, sorted: true, order: order}
}

// each calls fn with the position in rows of each row whose key is k. The
// keys must come in ascending order.
func (m *matcher) each(k []byte, fn func(p int)) {
	if !m.sorted {
		p, ok := m.at[string(k)]
		for ok && p >= 0 {
			fn(int(p))
			if m.next == nil {
				break
			}
			p = m.next[p]
		}
		return
	}
	for m.pos < len(m.rows) && m.keyAt(m.pos) < string(k) {
		m.pos++
	}
	for m.pos < len(m.rows) && m.keyAt(m.pos) == string(k) {
		fn(m.position(m.pos))
		m.pos++
	}
}

// position is the position in rows of the q-th row by key.
func (m *matcher) position(q int) int {
	if m.order == nil {
		return q
	}
	return int(m.order[q])
}

func (m *matcher) keyAt(q int) string { return m.key(m.rows[m.position(q)]) }

// maxRuns is the most ascending runs of keys sortedOrder merges: past it,
// a map of the keys is cheaper.
const maxRuns = 64

// sortedOrder is the positions in rows by key, rows of equal keys in their
// order: nil when the keys ascend already. ok is false when they ascend
// in more than maxRuns runs.
func sortedOrder(rows []int, key func(i int) string) (order []int32, ok bool) {
	var starts []int // where each run after the first starts
	for p := 1; p < len(rows); p++ {
		if key(rows[p]) < key(rows[p-1]) {
			if len(starts) == maxRuns-1 {
				return nil, false
			}
			starts = append(starts, p)
		}
	}
	if len(starts) == 0 {
		return nil, true
	}
	src, dst := make([]int32, len(rows)), make([]int32, len(rows))
	for p := range src {
		src[p] = int32(p)
	}
	bounds := append(append([]int{0}, starts...), len(rows))
	less := func(a, b int32) bool { return key(rows[a]) < key(rows[b]) }
	for len(bounds) > 2 { // runs [bounds[r], bounds[r+1]), merged in pairs
		next := []int{0}
		for r := 0; r+1 < len(bounds); r += 2 {
			end := bounds[min(r+2, len(bounds)-1)]
			mergeRuns(dst[bounds[r]:end], src[bounds[r]:bounds[r+1]], src[bounds[r+1]:end], less)
			next = append(next, end)
		}
		src, dst, bounds = dst, src, next
	}
	return src, true
}

// mergeRuns merges the ascending runs a and b into dst, a's first on ties.
func mergeRuns(dst, a, b []int32, less func(a, b int32) bool) {
	k := 0
	for len(a) > 0 && len(b) > 0 {
		if less(b[0], a[0]) {
			dst[k], b = b[0], b[1:]
		} else {
			dst[k], a = a[0], a[1:]
		}
		k++
	}
	k += copy(dst[k:], a)
	copy(dst[k:], b)
}
