package sandbox

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// pager remembers, for the listings of one state of the data, how many
// records each holds and where its pages begin, so that a page deep in a
// listing is read by key (the rows after the id of a known position), not
// by skipping every row before it. The interface pages by number
// (page_num, page_size) and the answers stay what paging by offset gives:
// positions are those of the state a read sees, and what is remembered of
// one state is forgotten when a read sees a later one.
//
// A listing in id order (the default) keeps the id at the end of each page
// served (a mark); a page far from any mark has the marks of the whole
// listing made in one pass first. A listing in another order keeps its ids
// whole, in that order, up to maxOrdered of them.
type pager struct {
	mu      sync.Mutex
	version uint64 // the state remembered; 0 for none yet
	lists   map[string]*listIndex
	clock   uint64 // counts uses, to forget the least used listing
	ordered int    // the ids kept by all lists together
}

// listIndex is what is known of one listing.
type listIndex struct {
	key   string
	total int           // the records listed; -1 until known
	marks map[int]int64 // the id at a position (from 0), in id order
	order []int64       // every id, in another order; nil until read
	used  uint64
}

// Bounds of what a pager keeps.
const (
	maxLists   = 64
	maxOrdered = 4 << 20 // ids kept in listings of another order, all together
	// markStep is how far apart the marks of a pass are; markJump how
	// far a page may be from the nearest mark before a pass makes them.
	markStep = 250
	markJump = 4 * markStep
)

func newPager() *pager { return &pager{lists: map[string]*listIndex{}} }

// index is the listing key of the state version (0: unknown, and nothing
// is remembered: nil).
func (p *pager) index(version uint64, key string) *listIndex {
	if version == 0 {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case version < p.version:
		return nil // a read of an older state, still under way
	case version > p.version:
		p.version, p.lists, p.ordered = version, map[string]*listIndex{}, 0
	}
	p.clock++
	ix := p.lists[key]
	if ix == nil {
		if len(p.lists) >= maxLists {
			p.forgetLeastUsed()
		}
		ix = &listIndex{key: key, total: -1, marks: map[int]int64{}}
		p.lists[key] = ix
	}
	ix.used = p.clock
	return ix
}

// forgetLeastUsed drops the listing used longest ago. p.mu is held.
func (p *pager) forgetLeastUsed() {
	var old *listIndex
	for _, ix := range p.lists {
		if old == nil || ix.used < old.used {
			old = ix
		}
	}
	if old != nil {
		p.ordered -= len(old.order)
		delete(p.lists, old.key)
	}
}

// total is the number of records of ix, if known.
func (p *pager) total(ix *listIndex) (int, bool) {
	if ix == nil {
		return 0, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return ix.total, ix.total >= 0
}

func (p *pager) setTotal(ix *listIndex, n int) {
	if ix == nil {
		return
	}
	p.mu.Lock()
	ix.total = n
	p.mu.Unlock()
}

// before is the nearest mark before position start: its position and id,
// or -1 when there is none.
func (p *pager) before(ix *listIndex, start int) (pos int, id int64) {
	pos = -1
	if ix == nil {
		return pos, 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if id, ok := ix.marks[start-1]; ok { // the page after one served
		return start - 1, id
	}
	for at, m := range ix.marks {
		if at < start && at > pos {
			pos, id = at, m
		}
	}
	return pos, id
}

// mark remembers that id is at position pos.
func (p *pager) mark(ix *listIndex, pos int, id int64) {
	if ix == nil {
		return
	}
	p.mu.Lock()
	ix.marks[pos] = id
	p.mu.Unlock()
}

// ordered is the whole listing of ix in its order, if kept.
func (p *pager) orderOf(ix *listIndex) []int64 {
	if ix == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return ix.order
}

// keepOrder keeps ids as the whole listing of ix, within maxOrdered.
func (p *pager) keepOrder(ix *listIndex, ids []int64) {
	if ix == nil || len(ids) > maxOrdered {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.ordered+len(ids) > maxOrdered && len(p.lists) > 1 {
		p.forgetLeastUsed()
	}
	if p.lists[ix.key] != ix || ix.order != nil {
		return // forgotten meanwhile, or kept by another read
	}
	ix.order, ix.total = ids, len(ids)
	p.ordered += len(ids)
}

// listing is the SQL of a parsed listing of one account.
type listing struct {
	from  string // "FROM table WHERE ..."
	args  []any
	order string // "ORDER BY ..."
	key   string // the listing, for the pager
	// plain is a listing of no filter: its few statements (a table's,
	// in an order, with a key to start after or without) are kept
	// prepared, where those of filters, as many as the filters are,
	// are prepared each time.
	plain bool
}

// idOrder is the order of a listing without a sort: ties broken by id,
// which is all there is.
const idOrder = "ORDER BY id ASC"

// sortedIDs is idOrder for a filtered listing of at most fewRecords
// records: sorted after the filter's index found them (the + keeps the
// id's index from being walked for the order).
const (
	sortedIDs  = "ORDER BY +id ASC"
	fewRecords = 10000
)

func newListing(table, base string, account int64, q *listQuery) listing {
	from := "FROM " + table + " WHERE account_id = ?"
	if base != "" {
		from += " AND " + base
	}
	from += q.where
	args := append([]any{account}, q.args...)
	var key strings.Builder
	key.WriteString(from)
	key.WriteString("\x00" + q.order)
	for _, a := range args {
		fmt.Fprintf(&key, "\x00%T:%v", a, a)
	}
	return listing{from: from, args: args, order: q.order, key: key.String(), plain: q.where == ""}
}

// listing runs a parsed listing against table: the total, and the ids of
// the page asked for, in order.
func (t *txn) listing(table, base string, account int64, q *listQuery) (ids []int64, total int, err error) {
	l := newListing(table, base, account, q)
	ix := t.st.pages.index(t.version, l.key)
	start := (q.page - 1) * q.size
	if l.order != idOrder {
		return t.pageInOrder(l, ix, start, q.size)
	}
	if !l.plain {
		// A filter's own index finds few records sooner than the walk in
		// id order finds them among all (a look-up of SKUs, the records
		// changed since a day): those are sorted, once.
		if total, err = t.count(l, ix); err != nil {
			return nil, 0, err
		}
		if total <= fewRecords {
			l.order = sortedIDs
			return t.pageInOrder(l, ix, start, q.size)
		}
	}
	if start == 0 {
		// A first page that is not full is the whole listing: no count.
		if ids, err = t.pageByKey(l, ix, start, q.size); err != nil || len(ids) < q.size {
			t.st.pages.setTotal(ix, len(ids))
			return ids, len(ids), err
		}
		total, err = t.count(l, ix)
		return ids, total, err
	}
	if total, err = t.count(l, ix); err != nil || start >= total {
		return nil, total, err
	}
	ids, err = t.pageByKey(l, ix, start, q.size)
	return ids, total, err
}

// count is the number of records of the listing.
func (t *txn) count(l listing, ix *listIndex) (int, error) {
	if n, ok := t.st.pages.total(ix); ok {
		return n, nil
	}
	var n int
	if err := t.eachRowOnce("SELECT COUNT(*) "+l.from, l.args, func(r *row) error { return r.Scan(&n) }); err != nil {
		return 0, err
	}
	t.st.pages.setTotal(ix, n)
	return n, nil
}

// pageByKey reads up to size ids of a listing in id order from position
// start: after the id of the nearest known position before it.
func (t *txn) pageByKey(l listing, ix *listIndex, start, size int) ([]int64, error) {
	pos, after := t.st.pages.before(ix, start)
	if ix != nil && start-1-pos > markJump {
		if err := t.markAll(l, ix, pos, after); err != nil {
			return nil, err
		}
		pos, after = t.st.pages.before(ix, start)
	}
	from, args := l.from, slices.Clone(l.args)
	if pos >= 0 {
		from += " AND id > ?"
		args = append(args, after)
	}
	args = append(args, size, start-1-pos)
	ids, err := t.idsOf("SELECT id "+from+" "+idOrder+" LIMIT ? OFFSET ?", args, l.plain)
	if err == nil && len(ids) > 0 {
		t.st.pages.mark(ix, start+len(ids)-1, ids[len(ids)-1])
	}
	return ids, err
}

// markAll marks every markStep-th position of the listing after pos (whose
// id is after), in one pass over its index.
func (t *txn) markAll(l listing, ix *listIndex, pos int, after int64) error {
	from, args := l.from, slices.Clone(l.args)
	if pos >= 0 {
		from += " AND id > ?"
		args = append(args, after)
	}
	n := 0
	return t.eachRowOnce("SELECT id "+from+" "+idOrder, args, func(r *row) error {
		if n++; n%markStep == 0 {
			t.st.pages.mark(ix, pos+n, r.int(0))
		}
		return nil
	})
}

// pageInOrder reads the page of a listing in an order other than ids':
// from the whole listing, read once for the state.
func (t *txn) pageInOrder(l listing, ix *listIndex, start, size int) ([]int64, int, error) {
	order := t.st.pages.orderOf(ix)
	if order == nil {
		var err error
		if order, err = t.idsOf("SELECT id "+l.from+" "+l.order, l.args, l.plain); err != nil {
			return nil, 0, err
		}
		t.st.pages.keepOrder(ix, order)
	}
	if start >= len(order) {
		return nil, len(order), nil
	}
	return slices.Clone(order[start:min(start+size, len(order))]), len(order), nil
}

// idsOf runs a query of ids, kept prepared with keep.
func (t *txn) idsOf(q string, args []any, keep bool) ([]int64, error) {
	var ids []int64
	err := t.rawQuery(q, args, keep, func(r *row) error {
		ids = append(ids, r.int(0))
		return nil
	})
	return ids, err
}
