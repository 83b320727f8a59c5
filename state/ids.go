package state

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// idChunk is how many keys one lookup query names.
const idChunk = 500

// PutIDs remembers that each key of scope got the id it maps to, replacing
// what was remembered before. All pairs are committed together.
func (db *DB) PutIDs(ctx context.Context, scope string, kv map[string]string) error {
	if len(kv) == 0 {
		return nil
	}
	err := db.withTx(ctx, func(tx *sql.Tx) error { return db.putIDs(ctx, tx, scope, kv) })
	if err != nil {
		return fmt.Errorf("state: put ids (%s): %w", scope, err)
	}
	return nil
}

// idsUpsert upserts ids of a scope, after the scope and the time.
var idsUpsert = bulkRows{
	head: `INSERT INTO ids (scope, updated_at, key, id)`,
	row:  `(?1, ?2, ?, ?)`,
	tail: `ON CONFLICT (scope, key) DO UPDATE SET id = excluded.id, updated_at = excluded.updated_at`,
}

// putIDs upserts kv of scope in tx.
func (db *DB) putIDs(ctx context.Context, tx *sql.Tx, scope string, kv map[string]string) error {
	if len(kv) == 0 {
		return nil
	}
	if err := idsTable.noteWritten(ctx, db, tx, scope, maps.Keys(kv)); err != nil {
		return err
	}
	return db.writeRows(ctx, tx, &idsUpsert, []any{scope, now()}, mapRows(kv))
}

// DeleteIDs forgets keys of scope, for example ids the service no longer
// knows.
func (db *DB) DeleteIDs(ctx context.Context, scope string, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	err := db.withTx(ctx, func(tx *sql.Tx) error { return deleteKeys(ctx, tx, idsTable, scope, keys) })
	if err != nil {
		return fmt.Errorf("state: delete ids (%s): %w", scope, err)
	}
	return nil
}

// IDs returns the remembered ids of those keys of scope that have one.
// The map grows with what is found: sized for every key, a million-row
// import's 250,000 product keys would cost 19 MB when none has an id.
func (db *DB) IDs(ctx context.Context, scope string, keys []string) (map[string]string, error) {
	out := map[string]string{}
	if len(keys) > walkKeys {
		return out, db.walkIDs(ctx, scope, keys, out)
	}
	for chunk := range slices.Chunk(keys, idChunk) {
		q := `SELECT key, id FROM ids WHERE scope = ? AND key IN (` + placeholders(len(chunk)) + `)`
		if err := db.collectIDs(ctx, out, q, keyArgs(scope, chunk)...); err != nil {
			return nil, fmt.Errorf("state: ids (%s): %w", scope, err)
		}
	}
	return out, nil
}

// walkKeys is how many keys IDs looks up by walking the whole scope
// beside them, in key order, rather than idChunk at a time: a million-row
// import's 250,000 product keys took 500 queries and 0.36 s.
const walkKeys = 8 * idChunk

// walkIDs puts into out the ids of those keys of scope that have one,
// walking the scope and the keys sorted side by side.
func (db *DB) walkIDs(ctx context.Context, scope string, keys []string, out map[string]string) error {
	sorted := slices.Sorted(slices.Values(keys))
	err := db.EachID(ctx, scope, func(k, id []byte) {
		for len(sorted) > 0 && sorted[0] < string(k) {
			sorted = sorted[1:]
		}
		if len(sorted) > 0 && sorted[0] == string(k) {
			out[sorted[0]] = string(id)
		}
	})
	return err
}

// AllIDs returns every remembered key and id of scope.
func (db *DB) AllIDs(ctx context.Context, scope string) (map[string]string, error) {
	out := map[string]string{}
	err := db.EachID(ctx, scope, func(k, id []byte) { out[string(k)] = string(id) })
	return out, err
}

// EachID calls fn with every remembered key of scope and its id, in key
// order, as bytes valid during the call only: a caller keeping a few of
// many keys copies only those, and one that holds the key already copies
// none. It holds no map of its own. A scope of many keys is read from its
// pack (see packed.go).
func (db *DB) EachID(ctx context.Context, scope string, fn func(key, id []byte)) error {
	if err := idsTable.each(ctx, db, scope, fn); err != nil {
		return fmt.Errorf("state: ids (%s): %w", scope, err)
	}
	return nil
}

// deleteKeys deletes keys of scope from t, in tx, and the scope's pack.
func deleteKeys(ctx context.Context, tx *sql.Tx, t kvTable, scope string, keys []string) error {
	for chunk := range slices.Chunk(keys, idChunk) {
		q := `DELETE FROM ` + t.name + ` WHERE scope = ? AND key IN (` + placeholders(len(chunk)) + `)`
		if _, err := tx.ExecContext(ctx, q, keyArgs(scope, chunk)...); err != nil {
			return err
		}
	}
	return t.dropPack(ctx, tx, scope)
}

func (db *DB) collectIDs(ctx context.Context, out map[string]string, query string, args ...any) error {
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k, id string
		if err := rows.Scan(&k, &id); err != nil {
			return err
		}
		out[k] = id
	}
	return rows.Err()
}

// keyArgs is scope followed by keys, as query arguments.
func keyArgs(scope string, keys []string) []any {
	args := make([]any, 0, len(keys)+1)
	args = append(args, scope)
	for _, k := range keys {
		args = append(args, k)
	}
	return args
}

// placeholders is "?, ?, ..." n times.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}
