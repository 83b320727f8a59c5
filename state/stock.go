package state

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
)

// PutStock remembers the stock levels last pushed for keys of scope (for
// example base URL + warehouse, keyed by SKU), replacing what was
// remembered. All levels are committed together.
func (db *DB) PutStock(ctx context.Context, scope string, levels map[string]float64) error {
	if len(levels) == 0 {
		return nil
	}
	err := db.withTx(ctx, func(tx *sql.Tx) error { return db.putStock(ctx, tx, scope, levels) })
	if err != nil {
		return fmt.Errorf("state: put stock (%s): %w", scope, err)
	}
	return nil
}

// stockUpsert upserts levels of a scope, after the scope and the time.
var stockUpsert = bulkRows{
	head: `INSERT INTO stock (scope, updated_at, key, level)`,
	row:  `(?1, ?2, ?, ?)`,
	tail: `ON CONFLICT (scope, key) DO UPDATE SET level = excluded.level, updated_at = excluded.updated_at`,
}

// putStock upserts levels of scope in tx.
func (db *DB) putStock(ctx context.Context, tx *sql.Tx, scope string, levels map[string]float64) error {
	if len(levels) == 0 {
		return nil
	}
	if err := stockTable.noteWritten(ctx, db, tx, scope, maps.Keys(levels)); err != nil {
		return err
	}
	return db.writeRows(ctx, tx, &stockUpsert, []any{scope, now()}, mapRows(levels))
}

// ForgetStock forgets the levels remembered for keys of scope, for
// example of variants that no longer exist. Keys without a level are
// ignored.
func (db *DB) ForgetStock(ctx context.Context, scope string, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	err := db.withTx(ctx, func(tx *sql.Tx) error { return deleteKeys(ctx, tx, stockTable, scope, keys) })
	if err != nil {
		return fmt.Errorf("state: forget stock (%s): %w", scope, err)
	}
	return nil
}

// Stock returns every stock level remembered for scope.
func (db *DB) Stock(ctx context.Context, scope string) (map[string]float64, error) {
	out := map[string]float64{}
	err := db.EachStock(ctx, scope, func(k []byte, level float64) { out[string(k)] = level })
	return out, err
}

// EachStock calls fn with every key of scope that has a level remembered,
// and its level, in key order. The key's bytes are valid during the call
// only: a caller matching the keys against its own copies none. A scope
// of many levels is read from its pack (see packed.go).
func (db *DB) EachStock(ctx context.Context, scope string, fn func(key []byte, level float64)) error {
	err := stockTable.each(ctx, db, scope, func(k, v []byte) {
		fn(k, math.Float64frombits(binary.LittleEndian.Uint64(v)))
	})
	if err != nil {
		return fmt.Errorf("state: stock (%s): %w", scope, err)
	}
	return nil
}

// PackStock packs the levels of scope when many were written since they
// were last packed (see packed.go): a push that confirmed many levels
// calls it, so that the next push reads them at once.
func (db *DB) PackStock(ctx context.Context, scope string) error {
	if err := stockTable.packIfStale(ctx, db, scope); err != nil {
		return fmt.Errorf("state: stock (%s): %w", scope, err)
	}
	return nil
}
