//go:build windows

package state

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockOffset is the byte locked in a lock file: far beyond any data, since
// LockFileEx keeps other handles from reading a locked range and a held
// lock's file carries its holder's record for them to read (the offset
// SQLite uses for its own locks, 1 GiB; locking past the end of a file is
// allowed).
const lockOffset = 1 << 30

// tryLock takes an exclusive lock on f's byte at lockOffset without
// waiting; false when another handle holds it.
func tryLock(f *os.File) (bool, error) {
	ol := windows.Overlapped{Offset: lockOffset}
	err := windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION):
		return false, nil
	}
	return false, err
}
