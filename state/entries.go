package state

import (
	"context"
	"database/sql"
	"fmt"
)

// A scope of entries is one a job writes whole and reads whole, a cache of
// what it found (an incremental import's marks, a quarter of a million of
// them): its keys and values, in the order written, packed as a pack's
// data (see appendEntry; without its order, which walkPacked does not
// need) in parts of about partSize bytes, each a row. Written as rows, a quarter of a million entries took
// seconds; as one, the megabytes of it were held twice more, by the
// driver and by SQLite.

// partSize is about how many bytes of entries a row holds.
const partSize = 1 << 20

// ReplaceEntries makes the entries of scope those each gives add, in one
// transaction.
func (db *DB) ReplaceEntries(ctx context.Context, scope string, each func(add func(k, v []byte))) error {
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM entries WHERE scope = ?`, scope); err != nil {
			return err
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO entries (scope, part, data, updated_at) VALUES (?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		var data []byte
		part, at := 0, now()
		flush := func() {
			if len(data) > 0 && err == nil {
				_, err = stmt.ExecContext(ctx, scope, part, data, at)
				part, data = part+1, data[:0]
			}
		}
		each(func(k, v []byte) {
			if data = appendEntry(data, k, v); len(data) >= partSize {
				flush()
			}
		})
		flush()
		return err
	})
	if err != nil {
		return fmt.Errorf("state: replace entries (%s): %w", scope, err)
	}
	return nil
}

// EachEntry calls fn with every entry of scope, in the order written, as
// bytes valid during the call only. A scope damaged on disk fails before
// fn has seen any of it.
func (db *DB) EachEntry(ctx context.Context, scope string, fn func(k, v []byte)) error {
	err := db.eachPart(ctx, scope, func(data []byte) error { return walkPacked(data, nil, func(k, v []byte) {}) })
	if err == nil {
		err = db.eachPart(ctx, scope, func(data []byte) error { return walkPacked(data, nil, fn) })
	}
	if err != nil {
		return fmt.Errorf("state: entries (%s): %w", scope, err)
	}
	return nil
}

// eachPart calls fn with the data of each part of scope, in order, until
// it fails.
func (db *DB) eachPart(ctx context.Context, scope string, fn func(data []byte) error) error {
	rows, err := db.sql.QueryContext(ctx, `SELECT data FROM entries WHERE scope = ? ORDER BY part`, scope)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var data sql.RawBytes // valid until the next row
		if err := rows.Scan(&data); err != nil {
			return err
		}
		if err := fn(data); err != nil {
			return err
		}
	}
	return rows.Err()
}
