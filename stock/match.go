package stock

// matcher finds which of a push's rows hold each key of a state scan
// (SKU ids, levels), which yields the keys in order. When the rows' keys
// ascend too (a file sorted by SKU; the variant ids of SKUs created in
// order), it walks both once, as a merge; else it indexes the rows' keys
// in a map.
type matcher struct {
	rows []int // indexes into the push's lines
	key  func(i int) string
	// sorted: the keys of rows ascend; pos is where the merge is.
	sorted bool
	pos    int
	// Else at maps a key to the position in rows of its first row, and
	// next chains the positions of rows repeating a key (-1: none; nil
	// when no key repeats).
	at   map[string]int32
	next []int32
}

func newMatcher(rows []int, key func(i int) string) *matcher {
	m := &matcher{rows: rows, key: key, sorted: true}
	for p := 1; p < len(rows); p++ {
		if key(rows[p]) < key(rows[p-1]) {
			m.sorted = false
			break
		}
	}
	if m.sorted {
		return m
	}
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
	for m.pos < len(m.rows) && m.key(m.rows[m.pos]) < string(k) {
		m.pos++
	}
	for m.pos < len(m.rows) && m.key(m.rows[m.pos]) == string(k) {
		fn(m.pos)
		m.pos++
	}
}
