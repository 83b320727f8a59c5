package sandbox

import (
	"cmp"
	"slices"
)

// memo is what a write transaction has looked up or made, kept so that
// the many variants of one write do not each ask the database again:
// pricing tiers, attributes and options by name, and the account's next
// local id (written back once a record is applied, and before the
// transaction commits). A record undone forgets it all, since what it
// made is undone with it.
type memo struct {
	tiers   map[memoKey]int64 // by account and name
	attrs   map[memoKey]int64 // by product and name
	options map[memoKey]int64 // by attribute and value
	local   map[int64]int64   // the last local id handed out, by account, not yet written
	// made are the products and attributes this transaction created:
	// what they hold was made here too, nothing to look up.
	made map[int64]bool
	// combos are the combinations of options of the variants created in
	// products made here; edited are the products one of whose variants
	// was edited since, whose combinations are looked up again.
	combos map[int64]map[string]bool
	edited map[int64]bool
	// layouts are the attributes of the products made here, with their
	// order; tags are the account's live tags by name (by account and
	// name), liveTags the ids of its tags found live.
	layouts  map[int64][]orderedAttr
	tags     map[memoKey]int64
	liveTags map[int64]bool
}

// liveTag records that the tag id is live in the account.
func (m *memo) liveTag(id int64) {
	if m.liveTags == nil {
		m.liveTags = map[int64]bool{}
	}
	m.liveTags[id] = true
}

// orderedAttr is an attribute and its order.
type orderedAttr struct {
	attrRef
	ord int64
}

// addAttribute records an attribute created in product at order ord.
func (m *memo) addAttribute(product int64, a attrRef, ord int64) {
	if !m.made[product] {
		return
	}
	if m.layouts == nil {
		m.layouts = map[int64][]orderedAttr{}
	}
	m.layouts[product] = append(m.layouts[product], orderedAttr{a, ord})
}

// attributes are the attributes of product in order, as productAttributes
// lists them; known is false when the memo cannot tell.
func (m *memo) attributes(product int64) (attrs []attrRef, known bool) {
	if !m.made[product] || m.edited[product] {
		return nil, false
	}
	sorted := slices.SortedStableFunc(slices.Values(m.layouts[product]), func(a, b orderedAttr) int {
		return cmp.Or(cmp.Compare(a.ord, b.ord), cmp.Compare(a.id, b.id))
	})
	for _, a := range sorted {
		attrs = append(attrs, a.attrRef)
	}
	return attrs, true
}

// make records that the product or attribute id was created here.
func (m *memo) make(id int64) {
	if m.made == nil {
		m.made = map[int64]bool{}
	}
	m.made[id] = true
}

// combo reports whether a variant of product has the combination key;
// known is false when the memo cannot tell.
func (m *memo) combo(product int64, key string) (has, known bool) {
	if !m.made[product] || m.edited[product] {
		return false, false
	}
	return m.combos[product][key], true
}

// addCombo records a variant created in product with the combination key.
func (m *memo) addCombo(product int64, key string) {
	if !m.made[product] {
		return
	}
	if m.combos == nil {
		m.combos = map[int64]map[string]bool{}
	}
	if m.combos[product] == nil {
		m.combos[product] = map[string]bool{}
	}
	m.combos[product][key] = true
}

// editing records that a variant of product is edited or deleted.
func (m *memo) editing(product int64) {
	if m.edited == nil {
		m.edited = map[int64]bool{}
	}
	m.edited[product] = true
}

// memoKey is a name within its owner.
type memoKey struct {
	owner int64
	name  string
}

// remember keeps id as the record called name of owner in m, made on
// first use.
func remember(m *map[memoKey]int64, owner int64, name string, id int64) {
	if *m == nil {
		*m = map[memoKey]int64{}
	}
	(*m)[memoKey{owner, name}] = id
}

func lookup(m map[memoKey]int64, owner int64, name string) (int64, bool) {
	id, ok := m[memoKey{owner, name}]
	return id, ok
}

// nextLocalID hands out the account's next local id.
func (t *txn) nextLocalID(account int64) (string, error) {
	n, ok := t.memo.local[account]
	if !ok {
		if _, err := t.row(`SELECT next_local FROM accounts WHERE id = ?`, []any{account}, &n); err != nil {
			return "", err
		}
		if t.memo.local == nil {
			t.memo.local = map[int64]int64{}
		}
	}
	n++
	t.memo.local[account] = n
	return itoa(n), nil
}

// keepMemo writes back the local ids handed out, before the transaction
// commits (a record undone takes its own back: see endRecord).
func (t *txn) keepMemo() error {
	for account, n := range t.memo.local {
		if _, err := t.exec(`UPDATE accounts SET next_local = ? WHERE id = ?`, n, account); err != nil {
			return err
		}
	}
	t.memo.local = nil
	return nil
}

// forgetMemo drops what the memo holds, when what it was made from is
// undone.
func (t *txn) forgetMemo() { t.memo = memo{} }
