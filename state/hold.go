package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// ErrLocked is what a LockedError wraps: the lock is held by another
// process, or by another DB or Lock in this one.
var ErrLocked = errors.New("held by another lading process")

// LockedError says who holds a lock that Hold could not take, as the
// holder recorded it when it took the lock. PID is 0 when the holder had
// not yet written its record (or it could not be read).
type LockedError struct {
	PID   int
	Host  string
	What  string
	Since time.Time
}

func (e *LockedError) Error() string {
	var b strings.Builder
	b.WriteString("another lading process")
	if e.PID != 0 {
		fmt.Fprintf(&b, " (pid %d", e.PID)
		if e.Host != "" {
			fmt.Fprintf(&b, " on host %s", e.Host)
		}
		if !e.Since.IsZero() {
			fmt.Fprintf(&b, ", since %s", e.Since.UTC().Format("2006-01-02 15:04:05 UTC"))
		}
		b.WriteString(")")
	}
	if e.What != "" {
		fmt.Fprintf(&b, " is running %s", e.What)
	} else {
		b.WriteString(" is already doing this")
	}
	b.WriteString(": wait for it to finish, or stop it")
	return b.String()
}

func (e *LockedError) Unwrap() error { return ErrLocked }

// Lock is a lock taken with Hold.
type Lock struct {
	mu sync.Mutex
	f  *os.File
}

// holder is the record a lock's file holds while it is held. The
// operating-system lock alone decides whether the lock is held: the
// record of a process that died stays in the file, but it is read only
// when taking the lock failed, and then it names the live holder (who
// rewrote it on taking the lock).
type holder struct {
	PID   int       `json:"pid"`
	Host  string    `json:"host"`
	What  string    `json:"what"`
	Since time.Time `json:"since"`
}

// holdPrefix keeps the names given to Hold apart from run fingerprints,
// whose locks live in the same directory.
const holdPrefix = "hold\x00"

// Hold takes the lock called name (any string; hashed to a file name like
// the run locks) without waiting, until Release or until the process ends
// however it ends. what says, for the holder's message, what the holder is
// doing (like "stock push of stock.csv"): no secrets (never the command
// line: it may hold a token).
//
// The lock does not depend on the DB staying open: Close does not release
// it. When another process (or another Lock in this one) holds it, Hold
// returns a *LockedError, which wraps ErrLocked.
//
// The holder's record (pid, host, what, since) is kept in the lock file
// itself, which the operating system unlocks when the process dies. On
// Windows the lock covers one byte far beyond the record, so that others
// can still read it.
func (db *DB) Hold(name, what string) (*Lock, error) {
	f, err := openLockFile(db.path, holdPrefix+name)
	if err != nil {
		return nil, fmt.Errorf("state: lock for %s: %w", what, err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("state: lock %s for %s: %w", f.Name(), what, err)
	}
	if !held {
		defer f.Close()
		return nil, lockedBy(f)
	}
	if err := writeHolder(f, what); err != nil {
		f.Close()
		return nil, fmt.Errorf("state: lock %s for %s: writing who holds it: %w", f.Name(), what, err)
	}
	return &Lock{f: f}, nil
}

// Release lets the lock go. It may be called more than once, and on nil.
func (l *Lock) Release() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// writeHolder replaces the record in f with this process's.
func writeHolder(f *os.File, what string) error {
	host, _ := os.Hostname()
	b, err := json.Marshal(holder{PID: os.Getpid(), Host: host, What: what, Since: time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err = f.WriteAt(append(b, '\n'), 0)
	return err
}

// maxHolderBytes bounds what is read of a holder record.
const maxHolderBytes = 64 << 10

// holderTries and holderPause bound the wait for a record the holder is
// writing at that moment (it writes it right after taking the lock).
const (
	holderTries = 5
	holderPause = 5 * time.Millisecond
)

// lockedBy reads the holder's record from f, whose lock another holds.
// A record that cannot be read leaves the error without a name.
func lockedBy(f *os.File) *LockedError {
	for i := range holderTries {
		if i > 0 {
			time.Sleep(holderPause)
		}
		b, err := io.ReadAll(io.NewSectionReader(f, 0, maxHolderBytes))
		if err != nil {
			break
		}
		var h holder
		if json.Unmarshal(b, &h) == nil && h.PID != 0 {
			return &LockedError{PID: h.PID, Host: h.Host, What: h.What, Since: h.Since}
		}
	}
	return &LockedError{}
}
