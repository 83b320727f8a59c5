package sandbox

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

// keepMemo writes back the local ids handed out.
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
