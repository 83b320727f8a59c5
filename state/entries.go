package state

import (
	"context"
	"database/sql"
	"fmt"
)

// A scope of entries is one a job writes whole and reads whole, a cache of
// what it found (an incremental import's marks, a quarter of a million of
// them): one row holds every key of the scope and its value, in the order
// written, as a pack's data (see appendEntry) without its order. Writing
// a quarter of a million rows one by one would take seconds; the row is
// written at once.

// ReplaceEntries makes the entries of scope those each gives add, in one
// write.
func (db *DB) ReplaceEntries(ctx context.Context, scope string, each func(add func(k, v []byte))) error {
	var data []byte
	each(func(k, v []byte) { data = appendEntry(data, k, v) })
	_, err := db.sql.ExecContext(ctx, `INSERT INTO entries (scope, data, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (scope) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`, scope, data, now())
	if err != nil {
		return fmt.Errorf("state: replace entries (%s): %w", scope, err)
	}
	return nil
}

// EachEntry calls fn with every entry of scope, in the order written, as
// bytes valid during the call only. A scope damaged on disk fails before
// fn has seen any of it.
func (db *DB) EachEntry(ctx context.Context, scope string, fn func(k, v []byte)) error {
	err := func() error {
		rows, err := db.sql.QueryContext(ctx, `SELECT data FROM entries WHERE scope = ?`, scope)
		if err != nil {
			return err
		}
		defer rows.Close()
		var data sql.RawBytes // valid until rows.Close
		if rows.Next() {
			if err := rows.Scan(&data); err != nil {
				return err
			}
		}
		if err := walkEntries(data, func(k, v []byte) {}); err != nil {
			return err
		}
		if err := walkEntries(data, fn); err != nil {
			return err
		}
		return rows.Close()
	}()
	if err != nil {
		return fmt.Errorf("state: entries (%s): %w", scope, err)
	}
	return nil
}

// walkEntries calls fn with each entry of data, until one cannot be read
// (errBadPack).
func walkEntries(data []byte, fn func(k, v []byte)) error {
	for len(data) > 0 {
		k, v, rest, err := nextEntry(data)
		if err != nil {
			return err
		}
		fn(k, v)
		data = rest
	}
	return nil
}
