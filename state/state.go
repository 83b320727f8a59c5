// Package state is lading's local memory, a SQLite file (by default
// .lading/state.db): runs, each batch's intent recorded before it is sent and
// its outcome after, the ids that source keys got in the service, and the
// stock levels last pushed.
//
// Every write is committed and synced to disk before the method returns, so
// a crash, a kill or Ctrl-C right after RecordIntent still leaves the intent
// on disk. A DB is safe for use by several goroutines.
package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DefaultPath is where the state lives unless told otherwise, relative to
// the working directory.
const DefaultPath = ".lading/state.db"

// DB is an open state file.
type DB struct {
	path string
	sql  *sql.DB

	mu    sync.Mutex
	locks map[int64]*runLock // runs started here and not finished

	bulk map[*bulkRows]*sql.Stmt // see bulkChunk

	// scratch says no later run opens the state (OpenScratch): it keeps
	// what its run needs of itself, not what later runs read.
	scratch bool
}

// dsnParams: wait up to 10 s for another process's lock; WAL so readers
// never block the writer; synchronous=FULL so a commit is on disk when it
// returns (NORMAL could lose the last commits on power loss); write
// transactions take the lock up front (BEGIN IMMEDIATE), so they never fail
// midway upgrading a read lock.
const dsnParams = "?_busy_timeout=10000&_journal_mode=WAL&_synchronous=FULL&_foreign_keys=1&_txlock=immediate"

// scratchParams are dsnParams for a state that no later run opens:
// synchronous=OFF, a commit does not wait for the disk, and the journal
// is kept in memory (its one connection has no reader to keep apart from
// the writer), so that a page is written once, into the file, rather than
// into the WAL and then again into the file.
const scratchParams = "?_busy_timeout=10000&_journal_mode=MEMORY&_synchronous=OFF&_foreign_keys=1&_txlock=immediate"

// Open opens the state file at path ("" means DefaultPath), creating it and
// its directory when missing (directory mode 0700, file mode 0600), and
// brings its schema up to date.
func Open(path string) (*DB, error) { return open(path, dsnParams) }

// OpenScratch opens a state file as Open does, for a run whose state is
// thrown away when it ends (lading sandbox --load's import): its commits
// do not wait for the disk, so a crash or power loss may lose the last of
// them, and it keeps the run and its batches but nothing later runs read
// (the history of the records changed, which lading undo and lading runs
// show read, the ids, stock levels and files of the records written).
// Never use it for a state a later run relies on.
func OpenScratch(path string) (*DB, error) {
	db, err := open(path, scratchParams)
	if err == nil {
		db.scratch = true
	}
	return db, err
}

func open(path, params string) (*DB, error) {
	if path == "" {
		path = DefaultPath
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("state file %s: the path may not contain ? or #: choose another path for the state file", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}

	sqldb, err := sql.Open("sqlite", path+params)
	if err != nil {
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	// One connection: writers in this process queue in database/sql
	// instead of contending for SQLite's lock.
	sqldb.SetMaxOpenConns(1)
	sqldb.SetConnMaxIdleTime(0)
	db := &DB{path: path, sql: sqldb, locks: map[int64]*runLock{}}
	ctx := context.Background()
	if err := db.sql.PingContext(ctx); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	if err := db.migrate(ctx); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	if err := db.prepareBulk(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	return db, nil
}

// Path is the state file's path.
func (db *DB) Path() string { return db.path }

// Close releases the runs started with this DB (they stay unfinished and
// resumable) and closes the state file.
func (db *DB) Close() error {
	db.mu.Lock()
	for id, l := range db.locks {
		l.release()
		delete(db.locks, id)
	}
	db.mu.Unlock()
	for _, st := range db.bulk {
		st.Close()
	}
	return db.sql.Close()
}

// withTx runs fn in a write transaction and commits it.
func (db *DB) withTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// now is the current time in the unit stored: Unix milliseconds.
func now() int64 { return time.Now().UnixMilli() }

// fromMillis turns a stored time back into a time.Time; 0 is the zero time.
func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}
