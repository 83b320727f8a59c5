package source

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waits records the calls of WaitSettled's waiting function.
type waits struct {
	ds   []time.Duration
	whys []string
}

func (w *waits) note(d time.Duration, why string) {
	w.ds = append(w.ds, d)
	w.whys = append(w.whys, why)
}

func writeSettleFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestWaitSettledQuietFile(t *testing.T) {
	t.Parallel()
	const settle = 40 * time.Millisecond
	cases := []struct {
		name   string
		age    time.Duration
		settle time.Duration
		waits  int
	}{
		{"changed an hour ago: at once", time.Hour, settle, 0},
		{"just written: one wait", 0, settle, 1},
		{"modified in the future (a clock ahead): one wait", -time.Hour, settle, 1},
		{"no settle time", 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "stock.csv")
			writeSettleFile(t, path, "sku,qty\nA,1\n")
			mod := time.Now().Add(-c.age)
			if err := os.Chtimes(path, mod, mod); err != nil {
				t.Fatal(err)
			}
			var w waits
			start := time.Now()
			if err := WaitSettled(context.Background(), path, c.settle, w.note); err != nil {
				t.Fatal(err)
			}
			elapsed := time.Since(start)
			if len(w.ds) != c.waits {
				t.Fatalf("%d waits %v %q, want %d", len(w.ds), w.ds, w.whys, c.waits)
			}
			if c.waits == 0 && elapsed >= settle {
				t.Errorf("took %v, want at once", elapsed)
			}
			if c.waits > 0 {
				if elapsed < c.settle || w.ds[0] != c.settle || !strings.HasPrefix(w.whys[0], path+" was changed ") {
					t.Errorf("took %v, waited %v because %q; want %v because it was changed lately", elapsed, w.ds[0], w.whys[0], c.settle)
				}
			}
		})
	}
}

// appender is a writer that appends a line to its file each time
// WaitSettled says it waits, the first times times: a file written to
// during every settle interval, then left alone, whatever the machine's
// load.
type appender struct {
	t        *testing.T
	path     string
	keepTime bool // the modification time is set back to mod after each line
	mod      time.Time
	times    int
	waits
}

func (a *appender) note(d time.Duration, why string) {
	a.waits.note(d, why)
	if len(a.ds) > a.times {
		return
	}
	f, err := os.OpenFile(a.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		a.t.Error(err)
		return
	}
	defer f.Close()
	if _, err := f.WriteString("A,1\n"); err != nil {
		a.t.Error(err)
	}
	if a.keepTime {
		if err := os.Chtimes(a.path, a.mod, a.mod); err != nil {
			a.t.Error(err)
		}
	}
}

// A file being appended to settles only after the writer stops, also when
// its modification time does not move (only its size does).
func TestWaitSettledWhileWritten(t *testing.T) {
	t.Parallel()
	for _, keepTime := range []bool{false, true} {
		name := map[bool]string{false: "size and time change", true: "only the size changes"}[keepTime]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "stock.csv")
			writeSettleFile(t, path, "sku,qty\n")
			mod := time.Now()
			if err := os.Chtimes(path, mod, mod); err != nil {
				t.Fatal(err)
			}
			a := &appender{t: t, path: path, keepTime: keepTime, mod: mod, times: 3}
			if err := WaitSettled(context.Background(), path, 20*time.Millisecond, a.note); err != nil {
				t.Fatal(err)
			}
			// Three waits with a line written in each, then one in which
			// nothing changed.
			if len(a.whys) != 4 {
				t.Errorf("returned after %d waits %q, want 4: the file was written to during the first 3", len(a.whys), a.whys)
			}
			for i := 1; i < len(a.whys); i++ {
				if !strings.Contains(a.whys[i], "is still being written") {
					t.Errorf("wait %d says %q: want it to say the file is still being written", i+1, a.whys[i])
				}
			}
		})
	}
}

func TestWaitSettledCannotRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.csv")
	var w waits
	if err := WaitSettled(context.Background(), missing, time.Second, w.note); !errors.Is(err, fs.ErrNotExist) || len(w.ds) != 0 {
		t.Errorf("missing file: %v after %d waits, want a not-exist error at once", err, len(w.ds))
	}
	// Removed while waiting.
	gone := filepath.Join(dir, "gone.csv")
	writeSettleFile(t, gone, "sku,qty\n")
	remove := func(time.Duration, string) { os.Remove(gone) }
	if err := WaitSettled(context.Background(), gone, 20*time.Millisecond, remove); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("removed while waiting: %v, want a not-exist error", err)
	}
}

// WaitSettled never waits past its context: a long settle ends when the
// context does.
func TestWaitSettledContextEnds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"cancelled before", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, context.Canceled},
		{"cancelled while waiting", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(20*time.Millisecond, cancel)
			return ctx, cancel
		}, context.Canceled},
		{"deadline while waiting", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 20*time.Millisecond)
		}, context.DeadlineExceeded},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "stock.csv")
			writeSettleFile(t, path, "sku,qty\n")
			ctx, cancel := c.ctx()
			defer cancel()
			start := time.Now()
			err := WaitSettled(ctx, path, time.Hour, nil)
			if !errors.Is(err, c.want) {
				t.Errorf("error %v, want %v", err, c.want)
			}
			if d := time.Since(start); d > 500*time.Millisecond {
				t.Errorf("returned after %v, want soon after the context ended", d)
			}
		})
	}
}

// A drop folder's scans see a file settle by WaitSettled's rules, on the
// clock the scans give: an old file at the first look, a new one once it
// has stayed the same for settle, a growing one not before it stops.
func TestSettling(t *testing.T) {
	t.Parallel()
	const settle = time.Minute
	now := time.Now()
	type step struct {
		at     time.Duration // after now
		append string        // written before this look
		want   bool
	}
	for _, tc := range []struct {
		name  string
		age   time.Duration
		steps []step
	}{
		{"old at the first look", time.Hour, []step{{0, "", true}}},
		{"new: settled a minute after it was first seen", 0, []step{{0, "", false}, {30 * time.Second, "", false}, {time.Minute, "", true}}},
		{"growing: the minute counts from the last change", 0, []step{{0, "", false}, {50 * time.Second, "B,2\n", false},
			{time.Minute + 10*time.Second, "", false}, {time.Minute + 50*time.Second, "", true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "shipped.csv")
			writeSettleFile(t, path, "sku,qty\nA,1\n")
			mod := now.Add(-tc.age)
			if err := os.Chtimes(path, mod, mod); err != nil {
				t.Fatal(err)
			}
			var s Settling
			for i, st := range tc.steps {
				if st.append != "" {
					f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						t.Fatal(err)
					}
					f.WriteString(st.append)
					f.Close()
				}
				got, err := s.Settled(path, settle, now.Add(st.at))
				if err != nil || got != st.want {
					t.Fatalf("look %d at +%s: settled %v, %v; want %v", i, st.at, got, err, st.want)
				}
			}
		})
	}
	var s Settling
	if _, err := s.Settled(filepath.Join(t.TempDir(), "gone.csv"), settle, now); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file that is gone: %v, want fs.ErrNotExist", err)
	}
}
