package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers driver "sqlite"
)

// firstID is where the shared id sequence starts, so that ids look like the
// real service's nine-digit ids.
const firstID = 100000000

// timeLayout is how the service writes timestamps. [A.3]
const timeLayout = "2006-01-02T15:04:05+00:00"

// store is the SQLite database behind a Server. Writes are serialised by
// mu on one connection. Reads are served on a few read-only connections of
// their own (WAL), so that the pages of a listing read concurrently are
// served concurrently, each from a committed snapshot. A sandbox without a
// database file keeps its database in a temporary folder, removed by
// close: the same store, its pages in the operating system's cache.
type store struct {
	mu sync.Mutex
	db *sql.DB
	// conn is the one connection every write runs on; transactions are
	// plain BEGIN/COMMIT on it so prepared statements stay valid.
	conn   *sql.Conn
	stmts  map[string]*sql.Stmt
	raw    rawStmts
	nextID int64
	// readDB and readers serve reads; closed is set once close has taken
	// the readers back.
	readDB  *sql.DB
	readers chan *readConn
	closed  atomic.Bool
	// temp is the temporary folder of a store without a file ("" for one
	// on a file).
	temp string
	// path is the database file's, sync its synchronous mode (OFF for a
	// store without a file: nothing outlives the process).
	path, sync string
	// started and committed count the write transactions that began to
	// commit and that ended: a read that finds them equal around the start
	// of its snapshot knows which state of the data it sees (see read).
	started, committed atomic.Uint64
	// pages remembers where the pages of listings begin.
	pages *pager
	// spare is the room the last write's held rows took (see pending),
	// for the next write: a catalog write holds some 20,000 parameters.
	spare pending
	// clock, when set, is the time records are stamped with (SetClock).
	clock atomic.Pointer[func() time.Time]
}

// execer is a *sql.DB or a *sql.Conn.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// timeIndexesOn makes the indexes of records by time (timeIndexes), or
// drops them.
func timeIndexesOn(ctx context.Context, db execer, on bool) error {
	for _, ix := range timeIndexes {
		q := "DROP INDEX IF EXISTS " + ix.name
		if on {
			q = "CREATE INDEX IF NOT EXISTS " + ix.name + " ON " + ix.on
		}
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// loading readies the store for a load of many writes (on), or makes it
// as it was (off), between writes. A load runs without the indexes of
// records by time, built after it, and its commits do not wait for the
// disk (synchronous=OFF, as a store without a file commits): a
// 1,000,000-variant load waited for it at every copy of the log into the
// database, under the lock every write takes, and took 1.1 times as long.
// A load stopped midway leaves the database whole, but one the system's
// crash stops may leave it damaged. After the load, the store commits as
// before and the log is copied into the database file, which then waits
// for the disk: what the load wrote is on it.
func (st *store) loading(on bool) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	ctx := context.Background()
	if on {
		if _, err := st.conn.ExecContext(ctx, "PRAGMA synchronous=OFF"); err != nil {
			return err
		}
		return timeIndexesOn(ctx, st.conn, false)
	}
	if err := timeIndexesOn(ctx, st.conn, true); err != nil {
		return err
	}
	if _, err := st.conn.ExecContext(ctx, "PRAGMA synchronous="+st.sync); err != nil {
		return err
	}
	if _, err := st.conn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return err
	}
	return st.syncFile()
}

// syncFile waits for the disk to hold the database file as written (a
// store without a file has nothing to wait for).
func (st *store) syncFile() error {
	if st.sync == "OFF" {
		return nil
	}
	f, err := os.Open(st.path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// now is the time a transaction stamps what it writes with.
func (st *store) now() string {
	t := time.Now()
	if clock := st.clock.Load(); clock != nil {
		t = (*clock)()
	}
	return t.UTC().Format(timeLayout)
}

// readConn is a read-only connection with its own prepared statements.
type readConn struct {
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
	raw   rawStmts
}

// readConns is how many reads a file-backed store serves at once.
const readConns = 4

// openStore opens (and if needed creates) the database at path, or a
// private one in a temporary folder when path is "".
func openStore(path string) (*store, error) {
	temp, syncMode := "", "NORMAL"
	if path == "" {
		dir, err := os.MkdirTemp("", "lading-sandbox-")
		if err != nil {
			return nil, fmt.Errorf("sandbox: a folder for the database: %w", err)
		}
		// Nothing outlives the process: no write waits for the disk.
		temp, path, syncMode = dir, filepath.Join(dir, "sandbox.db"), "OFF"
	}
	st, err := openFile(path, syncMode)
	if err != nil {
		if temp != "" {
			os.RemoveAll(temp)
		}
		return nil, err
	}
	st.temp = temp
	return st, nil
}

// openFile opens the database file path, committing with synchronous
// mode syncMode.
func openFile(path, syncMode string) (*store, error) {
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=synchronous(" + syncMode + ")" +
		fmt.Sprintf("&_pragma=cache_size(%d)&_pragma=temp_store(MEMORY)&_pragma=wal_autocheckpoint(%d)", -cacheKiB, walPages)
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sandbox: open database %q: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("sandbox: create schema in %q: %w", path, err)
	}
	if err := timeIndexesOn(context.Background(), db, true); err != nil {
		db.Close()
		return nil, fmt.Errorf("sandbox: create schema in %q: %w", path, err)
	}
	if err := addColumns(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("sandbox: update the tables of %q: %w", path, err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("sandbox: connect to %q: %w", path, err)
	}
	st := &store{db: db, conn: conn, stmts: map[string]*sql.Stmt{}, raw: rawStmts{}, nextID: firstID, pages: newPager(),
		path: path, sync: syncMode}
	if err := st.openReaders(dsn); err != nil {
		conn.Close()
		db.Close()
		return nil, fmt.Errorf("sandbox: open read connections to %q: %w", path, err)
	}
	var v string
	switch err := conn.QueryRowContext(context.Background(), `SELECT v FROM meta WHERE k='next_id'`).Scan(&v); err {
	case nil:
		n, perr := strconv.ParseInt(v, 10, 64)
		if perr != nil {
			st.close()
			return nil, fmt.Errorf("sandbox: database %q has a bad id sequence %q", path, v)
		}
		st.nextID = n
	case sql.ErrNoRows:
	default:
		st.close()
		return nil, fmt.Errorf("sandbox: read id sequence in %q: %w", path, err)
	}
	return st, nil
}

// cacheKiB is the page cache of each connection: the indexes of a
// million variants fit in it.
const cacheKiB = 64 << 10

// walPages is how long the write-ahead log grows, in pages, before its
// pages are copied into the database: 64 MiB, where SQLite's default is 4
// MiB. A page that many writes change (a table's last, an index's busiest)
// is copied once for many of them: a load of 1,000,000 variants takes
// about 0.93 of the time it took with the default.
const walPages = 16384

// mmapBytes is how much of the database file each read-only connection
// maps into memory (SQLite's mmap_size; at most its build's limit, about
// 2 GiB): pages read from the mapping, not copied out of the file by a
// system call each. A read of 250 products by id with their 1,000
// variants from a 1,000,000-variant account took 65-90 ms where it took
// 125-140 ms, and the first count of its variants 0.17-0.19 s where it
// took 0.23-0.24 s. The connection that writes reads the file as before.
const mmapBytes = 2 << 30

// openReaders opens the read-only connections of a file-backed store.
func (st *store) openReaders(dsn string) error {
	rdb, err := sql.Open("sqlite", dsn+fmt.Sprintf("&_pragma=query_only(1)&_pragma=mmap_size(%d)", mmapBytes))
	if err != nil {
		return err
	}
	rdb.SetMaxOpenConns(readConns)
	rdb.SetMaxIdleConns(readConns)
	rdb.SetConnMaxLifetime(0)
	rdb.SetConnMaxIdleTime(0)
	st.readDB, st.readers = rdb, make(chan *readConn, readConns)
	for range readConns {
		c, err := rdb.Conn(context.Background())
		if err != nil {
			rdb.Close()
			return err
		}
		st.readers <- &readConn{conn: c, stmts: map[string]*sql.Stmt{}, raw: rawStmts{}}
	}
	return nil
}

// addColumns adds to the tables of an older database file the columns
// they lack (see addedColumns).
func addColumns(db *sql.DB) error {
	for _, c := range addedColumns {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?`, c.table, c.column).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			continue
		}
		if _, err := db.Exec(`ALTER TABLE ` + c.table + ` ADD COLUMN ` + c.column + ` ` + c.decl); err != nil {
			return err
		}
	}
	return nil
}

func (st *store) close() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, s := range st.stmts {
		s.Close()
	}
	st.stmts = map[string]*sql.Stmt{}
	if !st.closed.Swap(true) {
		for range readConns {
			rc := <-st.readers
			for _, s := range rc.stmts {
				s.Close()
			}
			closeRaw(rc.conn, rc.raw)
			rc.conn.Close()
		}
		st.readDB.Close()
	}
	closeRaw(st.conn, st.raw)
	st.conn.Close()
	err := st.db.Close()
	if st.temp != "" {
		err = errors.Join(err, os.RemoveAll(st.temp))
		st.temp = ""
	}
	return err
}

// txn is one transaction; every handler works inside one.
type txn struct {
	st  *store
	ctx context.Context
	now string
	// conn, stmts and raw are the connection the transaction runs on and
	// its prepared statements: the store's own, or a reader's.
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
	raw   rawStmts
	ids   bool // the id sequence moved
	// stockChanged asks for waiting orders to be checked again.
	stockChanged bool
	// levelsSet counts the ReconcileInventory entries applied so far by
	// the records that did not fail.
	levelsSet int64
	// memo is what this write looked up or made.
	memo memo
	// pend are the rows of its inserts held back; rec is the record
	// being applied, if any.
	pend pending
	rec  *recordScope
	// version is the state of the data a read sees: the number of writes
	// committed before it, plus one; 0 when it cannot be told.
	version uint64
	// held, in a read, keeps the buffers its records are written into
	// until its answer is written (see jw); nil otherwise.
	held *heldBufs
}

// do runs fn in a transaction under the store lock, committing when fn
// returns nil.
func (st *store) do(ctx context.Context, fn func(t *txn) error) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	// The request context does not cancel the transaction: a write that
	// started is applied in full, as the service would.
	bg := context.WithoutCancel(ctx)
	if _, err := st.conn.ExecContext(bg, "BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("sandbox: begin transaction: %w", err)
	}
	rollback := func() { st.conn.ExecContext(bg, "ROLLBACK") }
	t := &txn{st: st, ctx: bg, now: st.now(), conn: st.conn, stmts: st.stmts, raw: st.raw}
	t.pend.reuse(&st.spare)
	defer st.spare.reuse(&t.pend)
	if err := fn(t); err != nil {
		rollback()
		return err
	}
	if err := t.ready(); err != nil {
		rollback()
		return err
	}
	if err := t.keepMemo(); err != nil {
		rollback()
		return err
	}
	if t.ids {
		if _, err := t.exec(`INSERT INTO meta(k,v) VALUES('next_id',?) ON CONFLICT(k) DO UPDATE SET v=excluded.v`,
			strconv.FormatInt(st.nextID, 10)); err != nil {
			rollback()
			return err
		}
	}
	st.started.Add(1)
	defer st.committed.Add(1)
	if _, err := st.conn.ExecContext(bg, "COMMIT"); err != nil {
		rollback()
		return fmt.Errorf("sandbox: commit: %w", err)
	}
	return nil
}

// read runs fn, which only reads, in a read transaction on a reader,
// concurrently with other reads and with the writes: it sees what was
// committed when it began. t.version tells which state of the data that
// is, when it can be told (see pager).
func (st *store) read(ctx context.Context, fn func(t *txn) error) error {
	if st.closed.Load() {
		return fmt.Errorf("sandbox: the store is closed")
	}
	var rc *readConn
	select {
	case rc = <-st.readers:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { st.readers <- rc }()
	bg := context.WithoutCancel(ctx)
	before := st.committed.Load()
	if _, err := rc.conn.ExecContext(bg, "BEGIN"); err != nil {
		return fmt.Errorf("sandbox: begin read: %w", err)
	}
	t := &txn{st: st, ctx: bg, now: st.now(), conn: rc.conn, stmts: rc.stmts, raw: rc.raw}
	// The snapshot starts with the first statement that reads. No write
	// began to commit between the count before it and the one after it:
	// the snapshot holds exactly the writes committed before.
	var one int
	if _, err := t.row(`SELECT 1 FROM meta LIMIT 1`, nil, &one); err != nil {
		rc.conn.ExecContext(bg, "ROLLBACK")
		return err
	}
	if st.started.Load() == before {
		t.version = before + 1 // 0 means unknown
	}
	err := fn(t)
	if _, cerr := rc.conn.ExecContext(bg, "COMMIT"); err == nil && cerr != nil {
		err = fmt.Errorf("sandbox: end read: %w", cerr)
	}
	return err
}

// newID hands out the next id of the shared sequence.
func (t *txn) newID() int64 {
	t.ids = true
	t.st.nextID++
	return t.st.nextID
}

// stmt returns a prepared statement, preparing and caching it on first
// use, once the rows held back are sent.
func (t *txn) stmt(q string) (*sql.Stmt, error) {
	if err := t.ready(); err != nil {
		return nil, err
	}
	return t.prepared(q)
}

// prepared returns a prepared statement, preparing and caching it on
// first use.
func (t *txn) prepared(q string) (*sql.Stmt, error) {
	s, ok := t.stmts[q]
	if !ok {
		var err error
		s, err = t.conn.PrepareContext(t.ctx, q)
		if err != nil {
			return nil, fmt.Errorf("sandbox: prepare %q: %w", q, err)
		}
		t.stmts[q] = s
	}
	return s, nil
}

// execDynamic runs SQL that is not worth a cached statement.
func (t *txn) execDynamic(q string) error {
	if err := t.ready(); err != nil {
		return err
	}
	if _, err := t.conn.ExecContext(t.ctx, q); err != nil {
		return fmt.Errorf("sandbox: %q: %w", q, err)
	}
	return nil
}

func (t *txn) exec(q string, args ...any) (sql.Result, error) {
	s, err := t.stmt(q)
	if err != nil {
		return nil, err
	}
	r, err := s.Exec(args...)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %q: %w", q, err)
	}
	return r, nil
}

// live checks that id is a record of table in account that is not deleted;
// otherwise the write record fails with an error naming resource and id.
func (t *txn) live(table, resource string, id, account int64) error {
	var x int64
	found, err := t.row(`SELECT id FROM `+table+` WHERE id = ? AND account_id = ? AND deleted = 0`, []any{id, account}, &x)
	if err != nil {
		return err
	}
	if !found {
		return fieldErr("id", "no %s record with id %d in this account (it may be deleted)", resource, id)
	}
	return nil
}

// markDeleted marks a record deleted: kept, but hidden from listings.
func (t *txn) markDeleted(table string, id int64) (sql.Result, error) {
	return t.exec(`UPDATE `+table+` SET deleted = 1, updated_at = ? WHERE id = ?`, t.now, id)
}

// row scans one row; found is false when there is none.
func (t *txn) row(q string, args []any, dest ...any) (found bool, err error) {
	if err := t.ready(); err != nil {
		return false, err
	}
	return t.firstRow(q, args, dest)
}

// rowBeside is row without sending the rows held back first: for a query
// whose caller looks at them itself.
func (t *txn) rowBeside(q string, args []any, dest ...any) (found bool, err error) {
	return t.firstRow(q, args, dest)
}

// savepoint runs fn so that its changes are undone if it fails, leaving the
// rest of the transaction intact. [B.2] one record fails alone.
func (t *txn) savepoint(fn func() error) error {
	r := t.beginRecord()
	return t.endRecord(r, fn())
}

// idList encodes ids as a JSON array for `IN (SELECT value FROM json_each(?))`,
// which keeps one prepared statement for any number of ids.
func idList(ids []int64) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

const inIDs = `(SELECT value FROM json_each(?))`
