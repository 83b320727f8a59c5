package state

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	holdName = "https://a.example|warehouse 3"
	holdWhat = "stock push of stock.csv"
)

// lockedError takes the lock with db and expects it to be held by
// another, returning who.
func lockedError(t *testing.T, db *DB, name string) *LockedError {
	t.Helper()
	l, err := db.Hold(name, "the second push")
	if err == nil {
		l.Release()
		t.Fatalf("Hold(%q) succeeded while another holds it", name)
	}
	var le *LockedError
	if !errors.Is(err, ErrLocked) || !errors.As(err, &le) {
		t.Fatalf("Hold(%q) = %v, want a *LockedError wrapping ErrLocked", name, err)
	}
	return le
}

func TestHoldNamesTheHolder(t *testing.T) {
	t.Parallel()
	db1, p := openTemp(t)
	db2, err := Open(p) // another process, as far as locks go
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	before := time.Now().Add(-time.Second)
	l, err := db1.Hold(holdName, holdWhat)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()

	le := lockedError(t, db2, holdName)
	host, _ := os.Hostname()
	if le.PID != os.Getpid() || le.Host != host || le.What != holdWhat ||
		le.Since.Before(before) || le.Since.After(time.Now()) {
		t.Errorf("holder %+v, want pid %d on %s running %q since about now", le, os.Getpid(), host, holdWhat)
	}
	want := fmt.Sprintf("another lading process (pid %d on host %s, since %s) is running %s: wait for it to finish, or stop it",
		os.Getpid(), host, le.Since.UTC().Format("2006-01-02 15:04:05 UTC"), holdWhat)
	if le.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", le.Error(), want)
	}
	// The same DB cannot take it twice either.
	if le := lockedError(t, db1, holdName); le.PID != os.Getpid() {
		t.Errorf("second Hold in the holder's DB: %+v", le)
	}
	// Other names, and a run whose fingerprint is the same string, are
	// other locks.
	other, err := db2.Hold(holdName+" ", holdWhat)
	if err != nil {
		t.Fatalf("another name: %v", err)
	}
	other.Release()
	if _, _, err := db2.StartRun(context.Background(), holdName, "stock push", nil); err != nil {
		t.Fatalf("run with the lock's name as fingerprint: %v", err)
	}
}

func TestHoldReleaseAndClose(t *testing.T) {
	t.Parallel()
	db1, p := openTemp(t)
	db2, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	l, err := db1.Hold(holdName, holdWhat)
	if err != nil {
		t.Fatal(err)
	}
	// Closing the DB leaves the lock held: it lasts until Release.
	db1.Close()
	lockedError(t, db2, holdName)
	l.Release()
	l.Release() // twice is harmless
	var nilLock *Lock
	nilLock.Release()
	again, err := db2.Hold(holdName, "the second push")
	if err != nil {
		t.Fatalf("Hold after Release: %v", err)
	}
	again.Release()
}

// A record left in the lock file by a process that died names nobody: the
// lock is free, and taking it rewrites the record.
func TestHoldIgnoresStaleRecord(t *testing.T) {
	t.Parallel()
	db, p := openTemp(t)
	f, err := openLockFile(p, holdPrefix+holdName)
	if err != nil {
		t.Fatal(err)
	}
	stale := `{"pid":999999,"host":"gone","what":"an old push with a much longer description than the new one","since":"2020-01-01T00:00:00Z"}` + "\n"
	if _, err := f.WriteString(stale); err != nil {
		t.Fatal(err)
	}
	f.Close()
	l, err := db.Hold(holdName, holdWhat)
	if err != nil {
		t.Fatalf("Hold over a dead process's record: %v", err)
	}
	defer l.Release()
	db2, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if le := lockedError(t, db2, holdName); le.PID != os.Getpid() || le.What != holdWhat {
		t.Errorf("holder %+v, want this process running %q", le, holdWhat)
	}
}

func TestLockedErrorMessage(t *testing.T) {
	t.Parallel()
	since := time.Date(2026, 11, 22, 15, 3, 5, 0, time.FixedZone("CET", 3600))
	for _, c := range []struct {
		e    LockedError
		want string
	}{
		{LockedError{PID: 4242, Host: "build-1", What: holdWhat, Since: since},
			"another lading process (pid 4242 on host build-1, since 2026-11-22 14:03:05 UTC) is running stock push of stock.csv: wait for it to finish, or stop it"},
		{LockedError{PID: 7, What: holdWhat},
			"another lading process (pid 7) is running stock push of stock.csv: wait for it to finish, or stop it"},
		{LockedError{},
			"another lading process is already doing this: wait for it to finish, or stop it"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.e, got, c.want)
		}
	}
}

// holdHelperEnv names the state file the helper process holds a lock of.
const holdHelperEnv = "LADING_STATE_HOLD_HELPER"

// holdAndHang holds holdName in the state at p, says so on stdout and
// waits to be killed.
func holdAndHang(p string) error {
	db, err := Open(p)
	if err != nil {
		return err
	}
	if _, err := db.Hold(holdName, holdWhat); err != nil {
		return err
	}
	fmt.Println("held")
	time.Sleep(time.Minute) // killed long before
	return errors.New("helper process was not killed within a minute")
}

// TestHoldFreedWhenHolderKilled: another process holding the lock is
// named, and once it is killed (SIGKILL, no cleanup) the lock is free at
// once.
func TestHoldFreedWhenHolderKilled(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "state.db")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), holdHelperEnv+"="+p)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	sc := bufio.NewScanner(out)
	if !sc.Scan() || strings.TrimSpace(sc.Text()) != "held" {
		t.Fatalf("helper did not report holding the lock: %q %v", sc.Text(), sc.Err())
	}
	db, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if le := lockedError(t, db, holdName); le.PID != cmd.Process.Pid || le.What != holdWhat {
		t.Errorf("holder %+v, want pid %d running %q", le, cmd.Process.Pid, holdWhat)
	}

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	l, err := db.Hold(holdName, holdWhat)
	if err != nil {
		t.Fatalf("Hold right after the holder was killed: %v", err)
	}
	l.Release()
}
