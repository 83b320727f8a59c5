package sandbox

import (
	"database/sql/driver"
	"fmt"
	"maps"
	"strings"
)

// An insert is a table's INSERT whose rows a write transaction holds back
// and sends many at a time, in one statement of several rows: a catalog
// write makes a few dozen rows a product, and one statement a row costs
// more than the row itself. Every other statement of the transaction
// first sends the rows held back (see txn.stmt): nothing reads the data
// without them.
//
// The rows' created_at and updated_at are the transaction's time, the
// same for every row: a statement takes it once, as its first parameter
// (?1, written first in each row so that the rows' own parameters, "?",
// are numbered after it), not twice a row. A parameter costs the driver
// more than its value does SQLite (a text is copied into memory of its
// own, and freed once the statement has run).
type insert struct {
	head, row, tail string // INSERT INTO t(cols) VALUES / (?,?) / ON CONFLICT ...
	width           int    // the parameters of a row's own ("?", not ?1)
	stamped         bool   // the statement takes the time as ?1
	index           int    // its place in inserts
	// sql are the statements of insertChunks[i] rows.
	sql []string
}

// insertChunks are the numbers of rows a statement sends: the rows held
// back go in the largest that fit, then the smaller ones.
var insertChunks = []int{256, 64, 16, 4, 1}

// newInsert is the insert of head's columns, row's parameters, and tail.
// A row that begins with ?1 is stamped: ?1 is the time.
func newInsert(head, row, tail string) *insert {
	in := &insert{head: head, row: row, tail: tail, stamped: strings.HasPrefix(row, "(?1,")}
	in.width = strings.Count(row, "?")
	if in.stamped {
		in.width -= strings.Count(row, "?1")
	}
	for _, n := range insertChunks {
		in.sql = append(in.sql, head+" "+strings.TrimSuffix(strings.Repeat(row+",", n), ",")+tail)
	}
	return in
}

// The inserts a catalog write holds back, sent in this order.
var (
	insertProducts = newInsert(`INSERT INTO products(created_at, updated_at, id, account_id, name, description, notes, local_id, archived) VALUES`,
		`(?1,?1,?,?,?,?,?,?,?)`, "")
	insertTags       = newInsert(`INSERT INTO product_tags(created_at, updated_at, id, account_id, name) VALUES`, `(?1,?1,?,?,?)`, "")
	insertTagLinks   = newInsert(`INSERT OR IGNORE INTO product_tag_links(product_id, tag_id) VALUES`, `(?,?)`, "")
	insertTiers      = newInsert(`INSERT INTO pricing_tiers(created_at, updated_at, id, account_id, name) VALUES`, `(?1,?1,?,?,?)`, "")
	insertAttributes = newInsert(`INSERT INTO attributes(created_at, updated_at, id, account_id, product_id, name, ord) VALUES`,
		`(?1,?1,?,?,?,?,?)`, "")
	insertOptions = newInsert(`INSERT INTO attribute_options(created_at, updated_at, id, account_id, attribute_id, name, ord) VALUES`,
		`(?1,?1,?,?,?,?,?)`, "")
	insertVariants = newInsert(`INSERT INTO variants(created_at, updated_at, id, account_id, product_id, sku, description, notes,
		weight, cost, average_cost, upc, location_1, low_stock_alert, supplier_cost, supplier_id, local_id, sort_order, stock, combo,
		auto_description, auto_description_with_option_type) VALUES`,
		`(?1,?1,?,?,?,?,?,?,?,?,?,?,?,?,COALESCE(?, '0.0000'),?,?,?,?,?,?,?)`, "")
	insertVariantOpts = newInsert(`INSERT INTO variant_options(variant_id, option_id, position) VALUES`, `(?,?,?)`, "")
	insertLevels      = newInsert(`INSERT INTO stock_levels(created_at, updated_at, id, account_id, variant_id, address_id, stock, committed) VALUES`,
		`(?1,?1,?,?,?,?,?,0)`, "")
	insertPrices = newInsert(`INSERT INTO variant_prices(created_at, updated_at, id, account_id, variant_id, tier_id, price) VALUES`,
		`(?1,?1,?,?,?,?,?)`, ` ON CONFLICT(variant_id, tier_id) DO UPDATE SET price = excluded.price, updated_at = excluded.updated_at`)
)

// inserts are the inserts held back, in the order they are sent.
var inserts = []*insert{insertProducts, insertTags, insertTagLinks, insertTiers, insertAttributes, insertOptions,
	insertVariants, insertVariantOpts, insertLevels, insertPrices}

func init() {
	for i, in := range inserts {
		in.index = i
	}
}

// pending are the rows a transaction holds back: the parameters of each
// insert's rows, by its place in inserts, and the SKUs of the variants
// among them.
type pending struct {
	args [][]any
	// named is the room sendRows passes a statement's parameters to the
	// driver in.
	named []driver.NamedValue
	count int
	skus  map[string]int64 // by SKU, the variant's id
	// looked are SKUs looked up in the database (see lookAhead), with
	// the id of the live variant that has each, or 0; forgotten when any
	// other statement runs or rows are sent (a record undone undoes only
	// statements).
	looked      map[string]int64
	lookedAhead bool
}

// maxSpare is the most parameters a write's held rows leave room for,
// for the next write to reuse: more are let go.
const maxSpare = 1 << 16

// reuse takes the room from's held rows took, emptied, if it is not too
// large, and leaves from none.
func (p *pending) reuse(from *pending) {
	p.args, p.named = nil, nil
	if from.named != nil && cap(from.named) <= maxSpare {
		p.named = from.named[:0]
	}
	for i, a := range from.args {
		if cap(a) > maxSpare {
			from.args[i] = nil
		} else {
			clear(a)
			from.args[i] = a[:0]
		}
	}
	p.args, from.args, from.named = from.args, nil, nil
}

// skuAt is where the SKU is in a row of insertVariants.
const skuAt = 3

// insert holds back a row of in; args are its parameters.
func (t *txn) insert(in *insert, args ...any) {
	if len(args) != in.width {
		panic(fmt.Sprintf("sandbox: %d parameters for a row of %d: %s", len(args), in.width, in.head))
	}
	p := &t.pend
	if p.args == nil {
		p.args = make([][]any, len(inserts))
	}
	p.args[in.index] = append(p.args[in.index], args...)
	p.count++
	if in == insertVariants {
		if sku := args[skuAt].(string); sku != "" {
			if p.skus == nil {
				p.skus = map[string]int64{}
			}
			p.skus[sku] = args[0].(int64)
		}
	}
}

// heldSKU is the variant held back that has sku, if any.
func (t *txn) heldSKU(sku string) (int64, bool) {
	id, ok := t.pend.skus[sku]
	return id, ok
}

// ready is called before any statement runs but the held rows' own: it
// sends the rows held back, so that the statement sees them. Inside a
// record (see savepoint) the rows of the records before it are sent
// first, then the record's savepoint is opened, whose changes the
// statement's then are.
func (t *txn) ready() error {
	t.pend.looked = nil
	if r := t.rec; r != nil && !r.open {
		if err := t.send(r.marks); err != nil {
			return err
		}
		if err := t.execSaved("SAVEPOINT rec"); err != nil {
			return err
		}
		r.open = true
		clear(r.marks)
	}
	return t.send(nil)
}

// send sends the rows held back, the first upto[i] parameters of insert
// i (nil: all of them).
func (t *txn) send(upto []int) error {
	p := &t.pend
	if p.count == 0 {
		return nil
	}
	// The SKUs looked up did not count the variants sent now.
	p.looked = nil
	for i, in := range inserts {
		n := len(p.args[i])
		if upto != nil {
			n = upto[i]
		}
		if err := t.sendRows(in, p.args[i][:n]); err != nil {
			return err
		}
		p.args[i] = p.cut(in, p.args[i], 0, n)
	}
	return nil
}

// sendRows inserts the rows of args, many a statement.
func (t *txn) sendRows(in *insert, args []any) error {
	var stamp []any
	if in.stamped {
		stamp = []any{t.now}
	}
	for len(args) > 0 {
		rows := len(args) / in.width
		k := 0
		for insertChunks[k] > rows {
			k++
		}
		n := insertChunks[k] * in.width
		if err := t.rawExec(in.sql[k], stamp, args[:n]); err != nil {
			return fmt.Errorf("sandbox: %s (%d rows): %w", in.head, insertChunks[k], err)
		}
		args = args[n:]
	}
	return nil
}

// cut removes the parameters args[from:to] of rows of in, held back, and
// their SKUs.
func (p *pending) cut(in *insert, args []any, from, to int) []any {
	if in == insertVariants {
		for j := from; j < to; j += in.width {
			if sku := args[j+skuAt].(string); sku != "" && p.skus[sku] == args[j].(int64) {
				delete(p.skus, sku)
			}
		}
	}
	p.count -= (to - from) / in.width
	kept := append(args[:from], args[to:]...)
	clear(args[len(kept):])
	return kept
}

// execSaved runs a statement of no parameters that sends nothing held back.
func (t *txn) execSaved(q string) error {
	s, err := t.prepared(q)
	if err != nil {
		return err
	}
	if _, err := s.ExecContext(t.ctx); err != nil {
		return fmt.Errorf("sandbox: %q: %w", q, err)
	}
	return nil
}

// recordScope is a record of a write being applied (see savepoint).
type recordScope struct {
	// marks are the parameters held back for each insert when it began:
	// the rows of the records before it.
	marks []int
	// open tells whether its savepoint is open: whether a statement ran.
	open bool
	// local is the memo's local ids when it began.
	local map[int64]int64
}

// beginRecord starts a record: its rows are held back with the others,
// and its savepoint opened only when a statement runs in it.
func (t *txn) beginRecord() *recordScope {
	r := &recordScope{marks: make([]int, len(inserts)), local: maps.Clone(t.memo.local)}
	for i := range t.pend.args {
		r.marks[i] = len(t.pend.args[i])
	}
	t.rec = r
	return r
}

// endRecord ends the record r: with err, what it made is undone, the rows
// it held back and the memo with them.
func (t *txn) endRecord(r *recordScope, err error) error {
	t.rec = nil
	if err == nil {
		if r.open {
			return t.execSaved("RELEASE rec")
		}
		return nil
	}
	p := &t.pend
	for i, in := range inserts {
		if i < len(p.args) {
			p.args[i] = p.cut(in, p.args[i], r.marks[i], len(p.args[i]))
		}
	}
	t.forgetMemo()
	t.memo.local = r.local
	if r.open {
		if rerr := t.execSaved("ROLLBACK TO rec"); rerr != nil {
			return rerr
		}
		if rerr := t.execSaved("RELEASE rec"); rerr != nil {
			return rerr
		}
	}
	// The memo forgot the rows of the records before, still held back:
	// they are sent, so that the database knows them all.
	if rerr := t.send(nil); rerr != nil {
		return rerr
	}
	return err
}
