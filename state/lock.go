package state

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrRunInProgress is returned by StartRun when another process (or another
// DB in this one) holds the run with that fingerprint: resuming it there
// too would send its batches twice.
var ErrRunInProgress = errors.New("run in progress elsewhere")

// runLock is an exclusive operating-system lock on a file named after a
// run's fingerprint, held from StartRun to FinishRun or Close. The system
// drops it when the process dies, however it dies, so a crashed run can be
// resumed at once.
type runLock struct{ f *os.File }

// lockDir is where the locks of the state file at path live.
func lockDir(path string) string { return path + "-locks" }

// openLockFile opens (creating it and its directory) the lock file of the
// state file at statePath named after key.
func openLockFile(statePath, key string) (*os.File, error) {
	dir := lockDir(statePath)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(key))
	return os.OpenFile(filepath.Join(dir, hex.EncodeToString(sum[:16])+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
}

// acquireRunLock takes the lock for fingerprint without waiting.
func acquireRunLock(statePath, fingerprint string) (*runLock, error) {
	f, err := openLockFile(statePath, fingerprint)
	if err != nil {
		return nil, err
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	if !held {
		f.Close()
		return nil, ErrRunInProgress
	}
	return &runLock{f: f}, nil
}

// release drops the lock; closing the file releases it.
func (l *runLock) release() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}
