package state

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
)

// A scope of ids or stock levels that is read whole (a stock push reads
// an account's SKU ids and a warehouse's levels, 100,000 of each) is also
// kept packed: one row of the packs table holds every key of the scope
// and its value, sorted by key, and pack_since the keys written since
// (the writes to a packed scope note them, in their transaction). Reading
// the scope whole is then reading the pack and the rows of those keys,
// not every row through SQLite one at a time; writing a scope that is not
// packed costs nothing more.
//
// The rows stay the truth: a pack is made from them, dropped when one of
// them is deleted, and made again by a reader that finds more keys
// written since it than repackAt allows (or by PackStock, which a writer
// of many levels calls). A scope of fewer than minPack rows is never
// packed.

// minPack is the fewest rows a scope needs to be packed: smaller scopes
// are read row by row.
const minPack = 1024

// repackAt is how many keys written since a pack of n entries make it
// stale: a sixteenth of it, or minPack.
func repackAt(n int) int { return max(minPack, n/16) }

// kvTable is a table of values by scope and key that may be packed.
type kvTable struct {
	name, value string // the table and its value column
	// float: the value is a REAL, packed as its 8 bytes (little endian).
	float bool
}

var (
	idsTable   = kvTable{name: "ids", value: "id"}
	stockTable = kvTable{name: "stock", value: "level", float: true}
)

// kv is a row of a kvTable: its value as packed.
type kv struct{ key, value []byte }

// pack is a scope's pack: made counts the times it was made (made again
// meanwhile, it is not the one read); -1 when there is none.
type pack struct {
	made    int64
	entries int
	data    []byte
}

func (p pack) none() bool { return p.made < 0 }

// stale reports whether a pack should be made again, since keys having
// been written after it: or made, when there is none and the scope's rows
// are enough (then since counts them).
func (p pack) stale(since int) bool {
	if p.none() {
		return since >= minPack
	}
	return since > repackAt(p.entries)
}

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// sinceInsert notes keys of a scope written since its pack, after the
// table and the scope.
var sinceInsert = bulkRows{head: `INSERT OR IGNORE INTO pack_since (tbl, scope, key)`, row: `(?1, ?2, ?)`}

// noteWritten notes, in tx, that keys of scope were written, when the
// scope is packed.
func (t kvTable) noteWritten(ctx context.Context, db *DB, tx *sql.Tx, scope string, keys iter.Seq[string]) error {
	var packed bool
	err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM packs WHERE tbl = ? AND scope = ?)`, t.name, scope).Scan(&packed)
	if err != nil || !packed {
		return err
	}
	return db.writeRows(ctx, tx, &sinceInsert, []any{t.name, scope}, func(yield func([]any) bool) {
		row := make([]any, 1)
		for k := range keys {
			if row[0] = k; !yield(row) {
				return
			}
		}
	})
}

// each calls fn with every key of scope and its value (as packed), in
// key order, as bytes valid during the call only: from the scope's pack
// and the rows of the keys written since, the pack made again first when
// it is stale, or row by row when the scope is too small to pack.
//
// The pack is a cache of the rows: a damaged one (the file was harmed on
// disk) is dropped and the rows read instead, before fn has seen any of it.
func (t kvTable) each(ctx context.Context, db *DB, scope string, fn func(k, v []byte)) error {
	err := t.eachCached(ctx, db, scope, fn)
	if !errors.Is(err, errBadPack) {
		return err
	}
	if err := db.withTx(ctx, func(tx *sql.Tx) error { return t.dropPack(ctx, tx, scope) }); err != nil {
		return err
	}
	return t.eachRow(ctx, db.sql, scope, fn)
}

// eachCached is each, failing with errBadPack on a damaged pack.
func (t kvTable) eachCached(ctx context.Context, db *DB, scope string, fn func(k, v []byte)) error {
	p, since, err := t.headAndSince(ctx, db.sql, scope)
	switch {
	case err != nil:
		return err
	case p.none() && since < minPack:
		return t.eachRow(ctx, db.sql, scope, fn)
	case p.stale(since):
		if p, err = t.repack(ctx, db, scope); err != nil {
			return err
		}
		return walkPacked(p.data, nil, fn) // made by repack just now
	}
	var delta []kv
	if since > 0 {
		if delta, err = t.rowsSince(ctx, db.sql, scope); err != nil {
			return err
		}
	}
	return t.eachOfPack(ctx, db.sql, scope, p.made, delta, fn)
}

// eachOfPack calls fn with the entries of scope's pack (the made-th) and
// of delta, reading the pack's data where the driver holds it (a copy of
// megabytes saved). A pack made again meanwhile, or dropped, is not the
// one delta completes: the rows are read one by one instead.
func (t kvTable) eachOfPack(ctx context.Context, q querier, scope string, made int64, delta []kv, fn func(k, v []byte)) error {
	rows, err := q.QueryContext(ctx, `SELECT made, data FROM packs WHERE tbl = ? AND scope = ?`, t.name, scope)
	if err != nil {
		return err
	}
	defer rows.Close()
	now := int64(-1)
	var data sql.RawBytes // valid until rows.Close
	if rows.Next() {
		err = rows.Scan(&now, &data)
	}
	if err == nil && now != made {
		rows.Close()
		return t.eachRow(ctx, q, scope, fn)
	}
	if err == nil {
		err = eachPacked(data, delta, fn)
	}
	if err != nil {
		return err
	}
	return rows.Close()
}

// packIfStale makes scope's pack again when it is stale, or makes it when
// there is none and the scope has enough rows.
func (t kvTable) packIfStale(ctx context.Context, db *DB, scope string) error {
	p, since, err := t.headAndSince(ctx, db.sql, scope)
	if err == nil && p.stale(since) {
		_, err = t.repack(ctx, db, scope)
	}
	return err
}

// headAndSince reads what scope's pack is, without its data, and counts
// the keys written since; or, when there is none, the scope's rows.
func (t kvTable) headAndSince(ctx context.Context, q querier, scope string) (p pack, since int, err error) {
	err = q.QueryRowContext(ctx, `SELECT made, entries FROM packs WHERE tbl = ? AND scope = ?`, t.name, scope).Scan(&p.made, &p.entries)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		p = pack{made: -1}
		err = q.QueryRowContext(ctx, `SELECT count(*) FROM `+t.name+` WHERE scope = ?`, scope).Scan(&since)
	case err == nil:
		err = q.QueryRowContext(ctx, `SELECT count(*) FROM pack_since WHERE tbl = ? AND scope = ?`, t.name, scope).Scan(&since)
	}
	return p, since, err
}

func (t kvTable) readPack(ctx context.Context, q querier, scope string) (pack, error) {
	p := pack{made: -1}
	err := q.QueryRowContext(ctx, `SELECT made, entries, data FROM packs WHERE tbl = ? AND scope = ?`, t.name, scope).Scan(&p.made, &p.entries, &p.data)
	if errors.Is(err, sql.ErrNoRows) {
		return pack{made: -1}, nil
	}
	return p, err
}

// repack makes scope's pack again from its pack and the rows of the keys
// written since (from all its rows, when there is none), in one write
// transaction, and returns it.
func (t kvTable) repack(ctx context.Context, db *DB, scope string) (pack, error) {
	var p pack
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		old, err := t.readPack(ctx, tx, scope)
		if err != nil {
			return err
		}
		if !old.none() {
			var delta []kv
			if delta, err = t.rowsSince(ctx, tx, scope); err == nil {
				p.data, p.entries, err = mergePacked(old.data, delta)
			}
		}
		if old.none() || errors.Is(err, errBadPack) { // made from the rows
			p.data, p.entries, err = t.packRows(ctx, tx, scope)
		}
		if err != nil {
			return err
		}
		p.made = max(old.made, 0) + 1
		if _, err := tx.ExecContext(ctx, `INSERT INTO packs (tbl, scope, made, entries, data) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (tbl, scope) DO UPDATE SET made = excluded.made, entries = excluded.entries, data = excluded.data`,
			t.name, scope, p.made, p.entries, p.data); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM pack_since WHERE tbl = ? AND scope = ?`, t.name, scope)
		return err
	})
	if err != nil {
		return pack{}, fmt.Errorf("packing %s: %w", t.name, err)
	}
	return p, nil
}

// dropPack forgets scope's pack, in tx: rows of it were deleted.
func (t kvTable) dropPack(ctx context.Context, tx *sql.Tx, scope string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM packs WHERE tbl = ? AND scope = ?`, t.name, scope); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM pack_since WHERE tbl = ? AND scope = ?`, t.name, scope)
	return err
}

// eachRow calls fn with every row of scope, one at a time, in key order.
func (t kvTable) eachRow(ctx context.Context, q querier, scope string, fn func(k, v []byte)) error {
	return t.scan(ctx, q, `SELECT key, `+t.value+` FROM `+t.name+` WHERE scope = ? ORDER BY key`, []any{scope}, fn)
}

// scan runs query, which selects a key and a value of t, and calls fn
// with each row's, the value as packed, as bytes valid during the call
// only.
func (t kvTable) scan(ctx context.Context, q querier, query string, args []any, fn func(k, v []byte)) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var k, v sql.RawBytes // reused: Scan appends to them
	var f float64
	var buf [8]byte
	for rows.Next() {
		if t.float {
			err = rows.Scan(&k, &f)
			v = binary.LittleEndian.AppendUint64(buf[:0], math.Float64bits(f))
		} else {
			err = rows.Scan(&k, &v)
		}
		if err != nil {
			return err
		}
		fn(k, v)
	}
	return rows.Err()
}

// packRows is the data of a pack of every row of scope, read in key
// order (the primary key's): no row is held but in the data.
func (t kvTable) packRows(ctx context.Context, q querier, scope string) (data []byte, entries int, err error) {
	err = t.eachRow(ctx, q, scope, func(k, v []byte) {
		data = appendEntry(data, k, v)
		entries++
	})
	return data, entries, err
}

// rowsSince are the rows of the keys of scope written since its pack,
// sorted by key.
func (t kvTable) rowsSince(ctx context.Context, q querier, scope string) ([]kv, error) {
	return t.rows(ctx, q, `SELECT s.key, t.`+t.value+` FROM pack_since s JOIN `+t.name+` t ON t.scope = s.scope AND t.key = s.key
		WHERE s.tbl = '`+t.name+`' AND s.scope = ?`, scope)
}

// rows are the rows query gives (key, value), sorted by key.
func (t kvTable) rows(ctx context.Context, q querier, query string, args ...any) ([]kv, error) {
	var out []kv
	err := t.scan(ctx, q, query, args, func(k, v []byte) { out = append(out, kv{bytes.Clone(k), bytes.Clone(v)}) })
	slices.SortFunc(out, func(a, b kv) int { return bytes.Compare(a.key, b.key) })
	return out, err
}

// errBadPack is a pack that cannot be read: the file was damaged.
var errBadPack = errors.New("a packed scope is damaged")

// A pack's data is its entries sorted by key, each the key's length (a
// uvarint), the key, the value's length and the value.

// appendEntry appends an entry to a pack's data.
func appendEntry(data, k, v []byte) []byte {
	data = binary.AppendUvarint(data, uint64(len(k)))
	data = append(data, k...)
	data = binary.AppendUvarint(data, uint64(len(v)))
	return append(data, v...)
}

// nextEntry reads the entry at the start of data and returns the rest.
func nextEntry(data []byte) (k, v, rest []byte, err error) {
	if k, data, err = nextBytes(data); err != nil {
		return nil, nil, nil, err
	}
	v, rest, err = nextBytes(data)
	return k, v, rest, err
}

func nextBytes(data []byte) (b, rest []byte, err error) {
	n, w := binary.Uvarint(data)
	if w <= 0 || n > uint64(len(data)-w) {
		return nil, nil, errBadPack
	}
	end := w + int(n)
	return data[w:end:end], data[end:], nil
}

// eachPacked calls fn with the entries of data and delta (sorted by key)
// in key order, delta's value where both hold a key; or, data being
// damaged, fails with errBadPack before fn is called.
func eachPacked(data []byte, delta []kv, fn func(k, v []byte)) error {
	if err := checkPacked(data); err != nil {
		return err
	}
	return walkPacked(data, delta, fn)
}

// walkPacked is eachPacked for data known whole: checked, or just made.
func walkPacked(data []byte, delta []kv, fn func(k, v []byte)) error {
	for len(data) > 0 {
		k, v, rest, err := nextEntry(data)
		if err != nil {
			return err
		}
		for len(delta) > 0 && bytes.Compare(delta[0].key, k) < 0 {
			fn(delta[0].key, delta[0].value)
			delta = delta[1:]
		}
		if len(delta) > 0 && bytes.Equal(delta[0].key, k) {
			k, v = delta[0].key, delta[0].value
			delta = delta[1:]
		}
		fn(k, v)
		data = rest
	}
	for _, r := range delta {
		fn(r.key, r.value)
	}
	return nil
}

// mergePacked is the data of a pack of the entries of data and delta.
func mergePacked(data []byte, delta []kv) (out []byte, entries int, err error) {
	out = make([]byte, 0, len(data)+len(delta)*32)
	err = eachPacked(data, delta, func(k, v []byte) {
		out = appendEntry(out, k, v)
		entries++
	})
	return out, entries, err
}

// checkPacked fails with errBadPack unless data is whole entries with
// their keys ascending, as appendEntry wrote them.
func checkPacked(data []byte) error {
	var last []byte
	for first := true; len(data) > 0; first = false {
		k, _, rest, err := nextEntry(data)
		if err != nil {
			return err
		}
		if !first && bytes.Compare(last, k) >= 0 {
			return errBadPack
		}
		last, data = k, rest
	}
	return nil
}
