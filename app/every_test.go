package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"lading/api"
	"lading/images/imagestest"
	"lading/state"
)

// The schedule runs until the command is stopped or a run ends in an
// error that would end every later run too; other errors are logged and
// the next run goes ahead.
func TestSchedule(t *testing.T) {
	t.Parallel()
	unreachable := errors.New("the service did not answer")
	for _, tt := range []struct {
		name string
		// errs are the runs' errors in turn; the run after the last one
		// stops the command, as Ctrl-C would between runs.
		errs     []error
		stopIn   bool // the last run is stopped during the run instead
		want     error
		runs     int
		warnings int
	}{
		{name: "stopped between runs", errs: []error{nil, nil}, runs: 3},
		{name: "rows failed, then stopped", errs: []error{&PartialError{Failed: 1, Total: 2}}, runs: 2},
		{name: "unreachable, then stopped", errs: []error{unreachable, unreachable}, runs: 3, warnings: 2},
		{name: "usage error", errs: []error{nil, Usagef("bad mapping")}, want: &UsageError{}, runs: 2},
		{name: "locked", errs: []error{&state.LockedError{PID: 7}}, want: state.ErrLocked, runs: 1},
		{name: "token refused", errs: []error{fmt.Errorf("reading: %w", api.ErrAccessDenied)}, want: api.ErrAccessDenied, runs: 1},
		{name: "interrupted in a run", errs: []error{nil, &InterruptedError{Msg: "interrupted"}}, want: &InterruptedError{}, runs: 2},
		{name: "any error once stopped", errs: []error{nil, context.Canceled}, stopIn: true, want: context.Canceled, runs: 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
			defer stop()
			var say, logs bytes.Buffer
			s := schedule{what: "pull", every: time.Millisecond, say: &say, log: slog.New(slog.NewTextHandler(&logs, nil))}
			runs := 0
			once := func() error {
				runs++
				if runs > len(tt.errs) {
					stop()
					return nil
				}
				if tt.stopIn && runs == len(tt.errs) {
					stop()
				}
				return tt.errs[runs-1]
			}
			err := s.run(ctx, once, lasting)
			if !sameError(err, tt.want) {
				t.Errorf("run: %v, want %v", err, tt.want)
			}
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				t.Fatal("the schedule did not end within 10 s")
			}
			if runs != tt.runs {
				t.Errorf("%d runs, want %d", runs, tt.runs)
			}
			if n := strings.Count(logs.String(), "this pull did not complete, and the next one goes ahead"); n != tt.warnings {
				t.Errorf("%d warnings, want %d:\n%s", n, tt.warnings, logs.String())
			}
			// Each run the schedule goes on from says when the next one is.
			next := regexp.MustCompile(`(?m)^next pull at \d\d:\d\d:\d\d$`)
			n, want := len(next.FindAllString(say.String(), -1)), min(runs, len(tt.errs))-boolInt(tt.want != nil)
			if n != want {
				t.Errorf("%d lines \"next pull at\", want %d:\n%s", n, want, say.String())
			}
		})
	}
}

// sameError reports whether err is want: nil for nil, else the same kind.
func sameError(err, want error) bool {
	var (
		u *UsageError
		i *InterruptedError
	)
	switch w := want.(type) {
	case nil:
		return err == nil
	case *UsageError:
		return errors.As(err, &u)
	case *InterruptedError:
		return errors.As(err, &i)
	default:
		return errors.Is(err, w)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The next run is the first turn after now: a run that overran skips the
// turns it missed, and the turns keep their times.
func TestNextRun(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		now  time.Duration // after t0
		want time.Duration
	}{
		{now: 2 * time.Second, want: 15 * time.Minute},
		{now: 15 * time.Minute, want: 30 * time.Minute},
		{now: 47 * time.Minute, want: 60 * time.Minute},
	} {
		if got := nextRun(t0, t0.Add(tt.now), 15*time.Minute); !got.Equal(t0.Add(tt.want)) {
			t.Errorf("now t0+%s: next at t0+%s, want t0+%s", tt.now, got.Sub(t0), tt.want)
		}
	}
}

// A file rewritten more often than --settle is never pushed: after a push
// has waited longer than one --every interval for it, every interval says
// so (in --json too, one object a line), naming the write-then-rename rule.
func TestEveryWarnsOfAFileThatNeverSettles(t *testing.T) {
	t.Parallel()
	const token = "app-test-token-settle"
	base := newSandbox(t, token)
	dir := t.TempDir()
	in := filepath.Join(dir, "stock.csv")
	ctx, stop := context.WithTimeout(context.Background(), 20*time.Second)
	defer stop()
	// The warehouse system rewrites the file in place, again and again.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ctx.Err() == nil; i++ {
			os.WriteFile(in, fmt.Appendf(nil, "sku,quantity\nA,%d\n", i), 0o644)
			time.Sleep(20 * time.Millisecond)
		}
	}()
	defer wg.Wait()
	for {
		if _, err := os.Stat(in); err == nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	// The command's stdout, one JSON object a line, read as it comes.
	pr, pw := io.Pipe()
	var errOut bytes.Buffer
	a := New(Env{Stdout: pw, Stderr: &errOut, Getenv: func(string) string { return "" }, ImageTransport: imagestest.Offline()})
	done := make(chan error, 1)
	go func() {
		done <- a.RunContext(ctx, []string{"lading", "--base-url", base, "--token", token, "stock", "push", "--template", "stock",
			"--every", "1s", "--settle", "150ms", "--json", "--state", filepath.Join(dir, "state.db"), in})
		pw.Close()
	}()
	var ws []string
	lines := bufio.NewScanner(pr)
	for len(ws) < 2 && lines.Scan() {
		var w struct{ Warning string }
		if json.Unmarshal(lines.Bytes(), &w) == nil && w.Warning != "" {
			ws = append(ws, w.Warning)
		}
	}
	stop()
	go io.Copy(io.Discard, pr)
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		var ie *InterruptedError
		if !errors.As(err, &ie) {
			t.Errorf("push: %v", err)
		}
	}
	if len(ws) < 2 {
		t.Fatalf("%d warnings in --json output, want one per interval after the first; stderr:\n%s", len(ws), errOut.String())
	}
	for _, w := range ws {
		if !strings.Contains(w, in) || !strings.Contains(w, "rename") || !strings.Contains(w, "not pushed") {
			t.Errorf("warning %q: want it to name the file, say it was not pushed, and give the write-then-rename rule", w)
		}
	}
	if !strings.Contains(errOut.String(), "rename") {
		t.Errorf("stderr does not warn:\n%s", errOut.String())
	}
}
