package sandbox

import (
	"context"
	"database/sql"
	"os"
	"sync/atomic"
)

// A write commits to the database's log (its WAL file), which SQLite
// copies into the database file (a checkpoint) once it has grown past a
// thousand pages: by default in the commit that grew it, under the
// store's lock, where every write waits on it (3 s of a 1,000,000-variant
// --load). The store's connections never checkpoint (wal_autocheckpoint
// 0); the checkpointer does, on a connection of its own, beside the
// writes, once a write has grown the log past walCopied: a passive
// checkpoint copies what no reader still needs and waits on no one. Once
// the whole log is copied, the next write starts it again from its
// beginning, and cuts the file to walKept, so that the file's size is the
// log's.

// walKept is the size the log's file is cut to when the log starts again
// (journal_size_limit), and walCopied the size it grows to before it is
// copied: about SQLite's own threshold of a thousand pages.
const (
	walKept   = 4 << 20
	walCopied = 2 * walKept
)

// checkpointer checkpoints a database after writes, on a goroutine of its
// own. Its methods do nothing on a nil checkpointer.
type checkpointer struct {
	db   *sql.DB
	wal  string        // the log's file
	kick chan struct{} // a write committed
	done chan struct{} // closed once the goroutine has ended
	runs atomic.Uint64 // checkpoints run
}

// startCheckpointer opens dsn on a connection of its own and starts
// checkpointing its database, whose log is the file wal.
func startCheckpointer(dsn, wal string) (*checkpointer, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	c := &checkpointer{db: db, wal: wal, kick: make(chan struct{}, 1), done: make(chan struct{})}
	go c.run()
	return c, nil
}

// committed tells the checkpointer that a write committed.
func (c *checkpointer) committed() {
	if c == nil {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default: // one is pending already
	}
}

// run checkpoints the log once writes have grown it past walCopied,
// until stop.
func (c *checkpointer) run() {
	defer close(c.done)
	for range c.kick {
		if fi, err := os.Stat(c.wal); err != nil || fi.Size() < walCopied {
			continue
		}
		// A checkpoint that fails (the file is closing) leaves the log
		// as it is, for the next, or for SQLite when the last connection
		// closes.
		c.db.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
		c.runs.Add(1)
	}
}

// stop ends the checkpointer once its checkpoint, if one runs, is done.
func (c *checkpointer) stop() {
	if c == nil {
		return
	}
	close(c.kick)
	<-c.done
	c.db.Close()
}
