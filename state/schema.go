package state

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations bring the schema from version i to i+1. Append only: never
// edit a released step, add a new one.
var migrations = []string{
	// 1: runs, intents, key → id cache, last pushed stock.
	`CREATE TABLE runs (
		id          INTEGER PRIMARY KEY,
		fingerprint TEXT    NOT NULL,
		command     TEXT    NOT NULL,
		status      TEXT    NOT NULL,
		meta        TEXT    NOT NULL DEFAULT '{}',
		started_at  INTEGER NOT NULL,
		updated_at  INTEGER NOT NULL,
		finished_at INTEGER
	);
	CREATE INDEX runs_unfinished ON runs (fingerprint) WHERE finished_at IS NULL;
	CREATE TABLE intents (
		id         INTEGER PRIMARY KEY,
		run_id     INTEGER NOT NULL REFERENCES runs (id),
		seq        INTEGER NOT NULL,
		kind       TEXT    NOT NULL,
		keys       TEXT    NOT NULL,
		payload    BLOB,
		outcome    TEXT    NOT NULL DEFAULT '',
		results    BLOB,
		created_at INTEGER NOT NULL,
		updated_at INTEGER NOT NULL,
		UNIQUE (run_id, seq)
	);
	CREATE TABLE ids (
		scope      TEXT    NOT NULL,
		key        TEXT    NOT NULL,
		id         TEXT    NOT NULL,
		updated_at INTEGER NOT NULL,
		PRIMARY KEY (scope, key)
	) WITHOUT ROWID;
	CREATE TABLE stock (
		scope      TEXT    NOT NULL,
		key        TEXT    NOT NULL,
		level      REAL    NOT NULL,
		updated_at INTEGER NOT NULL,
		PRIMARY KEY (scope, key)
	) WITHOUT ROWID;`,
	// 2: what each run did, for its history and its undo: a summary of
	// the run (its rows by status), and each record it wrote with the
	// values it had before and after.
	`ALTER TABLE runs ADD COLUMN summary TEXT NOT NULL DEFAULT '{}';
	CREATE TABLE changes (
		id        INTEGER PRIMARY KEY,
		run_id    INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
		intent_id INTEGER NOT NULL REFERENCES intents (id) ON DELETE CASCADE,
		seq       INTEGER NOT NULL,
		op        TEXT    NOT NULL,
		resource  TEXT    NOT NULL,
		key       TEXT    NOT NULL,
		record_id TEXT    NOT NULL DEFAULT '',
		parent_id TEXT    NOT NULL DEFAULT '',
		before    TEXT    NOT NULL DEFAULT '{}',
		after     TEXT    NOT NULL DEFAULT '{}',
		written   INTEGER
	);
	CREATE INDEX changes_of_run ON changes (run_id, intent_id, seq);
	CREATE INDEX changes_of_record ON changes (resource, record_id);`,
	// 3: the product files imports uploaded, by product and place.
	`CREATE TABLE files (
		scope      TEXT    NOT NULL,
		product    TEXT    NOT NULL,
		place      TEXT    NOT NULL,
		file_id    TEXT    NOT NULL,
		hash       TEXT    NOT NULL,
		size       INTEGER NOT NULL,
		name       TEXT    NOT NULL,
		ours       INTEGER NOT NULL,
		etag       TEXT    NOT NULL DEFAULT '',
		modified   TEXT    NOT NULL DEFAULT '',
		updated_at INTEGER NOT NULL,
		PRIMARY KEY (scope, product, place)
	) WITHOUT ROWID;
	CREATE INDEX files_place ON files (scope, place);`,
	// 4: a batch's changes found by the batch, as they are confirmed
	// record by record.
	`CREATE INDEX changes_of_intent ON changes (intent_id, seq);`,
	// 5: scopes of ids and stock levels read whole are kept packed too
	// (see packed.go): a scope's pack, and the keys written since.
	`CREATE TABLE packs (
		id      INTEGER PRIMARY KEY,
		tbl     TEXT    NOT NULL,
		scope   TEXT    NOT NULL,
		made    INTEGER NOT NULL,
		entries INTEGER NOT NULL,
		data    BLOB    NOT NULL,
		UNIQUE (tbl, scope)
	);
	CREATE TABLE pack_since (
		tbl   TEXT NOT NULL,
		scope TEXT NOT NULL,
		key   TEXT NOT NULL,
		PRIMARY KEY (tbl, scope, key)
	) WITHOUT ROWID;`,
	// 6: scopes a job writes whole and reads whole (see entries.go), in
	// parts of a megabyte.
	`CREATE TABLE entries (
		scope      TEXT    NOT NULL,
		part       INTEGER NOT NULL,
		data       BLOB    NOT NULL,
		updated_at INTEGER NOT NULL,
		PRIMARY KEY (scope, part)
	);`,
}

// SchemaVersion is the schema version this build writes.
var SchemaVersion = len(migrations)

// migrate applies the missing migrations, each in its own transaction.
func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.sql.ExecContext(ctx,
		`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return err
	}
	for {
		done, err := db.migrateOne(ctx)
		if err != nil || done {
			return err
		}
	}
}

// migrateOne applies the next migration, reading the version inside the
// transaction so two processes opening a new file do not both apply it.
func (db *DB) migrateOne(ctx context.Context) (done bool, err error) {
	err = db.withTx(ctx, func(tx *sql.Tx) error {
		var v int
		switch err := tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err {
		case sql.ErrNoRows:
			if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (0)`); err != nil {
				return err
			}
		case nil:
		default:
			return err
		}
		if v > len(migrations) {
			return fmt.Errorf("schema version %d is newer than this lading knows (%d): upgrade lading, or use another state file", v, len(migrations))
		}
		if v == len(migrations) {
			done = true
			return nil
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			return fmt.Errorf("migration to schema version %d: %w", v+1, err)
		}
		_, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, v+1)
		return err
	})
	return done, err
}
