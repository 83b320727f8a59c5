package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"lading/app"
	"lading/sandbox"
	"lading/state"
)

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("boom"), 1},
		{app.Usagef("bad flag"), 2},
		{fmt.Errorf("wrapped: %w", app.Usagef("bad flag")), 2},
		{&app.PartialError{Failed: 1, Total: 3}, 3},
		{&app.InterruptedError{Msg: "stopped"}, 130},
		{fmt.Errorf("import: %w", context.Canceled), 130},
		{fmt.Errorf("push: %w", &state.LockedError{PID: 42, What: "a stock push"}), 4},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// Every exit code help lists is one exitCode gives, for the error it
// describes.
func TestExitCodesListedAreTheCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int
	}{
		{nil, app.ExitOK},
		{errors.New("boom"), app.ExitFailure},
		{app.Usagef("bad"), app.ExitUsage},
		{&app.PartialError{Failed: 1, Total: 2}, app.ExitPartial},
		{&state.LockedError{PID: 1}, app.ExitLocked},
		{&app.InterruptedError{Msg: "stopped"}, app.ExitInterrupted},
	} {
		if got := exitCode(tc.err); got != tc.code {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.code)
		}
	}
	var listed []int
	for _, e := range app.ExitCodes {
		listed = append(listed, e.Code)
	}
	if want := []int{0, 1, 2, 3, 4, 130}; !slices.Equal(listed, want) {
		t.Errorf("help lists exit codes %v, want %v", listed, want)
	}
}

// docs/exit-codes.md holds the one table of exit codes: every code of
// app.ExitCodes once, in its order, with its meaning. No other page of
// the manual has a table of its own.
func TestExitCodesPage(t *testing.T) {
	text, err := os.ReadFile("docs/exit-codes.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for line := range strings.Lines(string(text)) {
		if cells := strings.Split(strings.TrimSpace(line), " | "); len(cells) == 3 && strings.HasPrefix(cells[0], "| ") {
			rows = append(rows, []string{strings.TrimPrefix(cells[0], "| "), cells[1]})
		}
	}
	if len(rows) != len(app.ExitCodes)+1 || !slices.Equal(rows[0], []string{"code", "meaning"}) {
		t.Fatalf("docs/exit-codes.md: want one table with a row for each of the %d exit codes, found rows %q", len(app.ExitCodes), rows)
	}
	for i, e := range app.ExitCodes {
		if got := rows[i+1]; got[0] != strconv.Itoa(e.Code) || got[1] != e.Meaning {
			t.Errorf("docs/exit-codes.md row %d: %q, want %d, %q", i+1, got, e.Code, e.Meaning)
		}
	}
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range append(pages, "README.md") {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		if page != filepath.Join("docs", "exit-codes.md") && regexp.MustCompile(`(?m)^\| *code *\|`).Match(text) {
			t.Errorf("%s has a table of exit codes of its own: link to docs/exit-codes.md instead", page)
		}
	}
}

// Every link of the README and docs/ to a file of the repository leads to
// a file that is there, and to a heading of it when it names one.
func TestDocLinks(t *testing.T) {
	pages := []string{"README.md"}
	for _, pattern := range []string{"docs/*.md", "docs/reference/*.md"} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, found...)
	}
	links := 0
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range markdownLink.FindAllStringSubmatch(withoutCode(string(text)), -1) {
			target, anchor, _ := strings.Cut(m[1], "#")
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			path := page
			if target != "" {
				path = filepath.Join(filepath.Dir(page), target)
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Errorf("%s: the link %s leads to no file", page, m[0])
				continue
			}
			if anchor == "" || info.IsDir() {
				continue
			}
			linked, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(headingAnchors(string(linked)), anchor) {
				t.Errorf("%s: the link %s leads to no heading of %s (its headings: %v)", page, m[0], path, headingAnchors(string(linked)))
			}
		}
	}
	if links < 50 {
		t.Errorf("found %d links in %d pages: are they still written [text](path)?", links, len(pages))
	}
}

var (
	markdownLink = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	codeBlock    = regexp.MustCompile("(?ms)^ *```.*?^ *```$")
	heading      = regexp.MustCompile(`(?m)^#+ (.+)$`)
	notInAnchor  = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
)

// withoutCode is a page without its code blocks, whose text is not
// markdown.
func withoutCode(page string) string { return codeBlock.ReplaceAllString(page, "") }

// headingAnchors are the anchors GitHub gives the headings of a page:
// lower case, punctuation left out, spaces as hyphens.
func headingAnchors(page string) []string {
	var out []string
	for _, m := range heading.FindAllStringSubmatch(withoutCode(page), -1) {
		a := notInAnchor.ReplaceAllString(strings.ToLower(strings.TrimSpace(m[1])), "")
		out = append(out, strings.ReplaceAll(a, " ", "-"))
	}
	return out
}

func TestManageMemoryRespectsTheEnvironment(t *testing.T) {
	const other = 1 << 40
	for _, tc := range []struct {
		name, env, value string
		want             int64
	}{
		{"nothing set: lading's limit", "", "", memoryLimit},
		{"GOMEMLIMIT set: left alone", "GOMEMLIMIT", "1GiB", other},
		{"GOGC set: left alone", "GOGC", "50", other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prev := debug.SetMemoryLimit(other)
			defer debug.SetMemoryLimit(prev)
			for _, k := range []string{"GOMEMLIMIT", "GOGC"} {
				t.Setenv(k, "")
			}
			if tc.env != "" {
				t.Setenv(tc.env, tc.value)
			}
			manageMemory()
			if got := debug.SetMemoryLimit(-1); got != tc.want {
				t.Errorf("limit %d, want %d", got, tc.want)
			}
		})
	}
}

// Until the first collection the collector runs at firstGCPercent (its
// first collection at 64 MiB of heap), then at Go's pace; the sandbox's
// pace, set before the first collection, stays after it; a GOGC or
// GOMEMLIMIT of the user's leaves the pace alone.
func TestFirstCollection(t *testing.T) {
	for _, tc := range []struct {
		name, env    string
		serve        bool
		first, after int
	}{
		{"Go's pace after the first collection", "", false, firstGCPercent, 100},
		{"the sandbox's pace stays", "", true, sandbox.ServeGCPercent, sandbox.ServeGCPercent},
		{"GOGC set: left alone", "GOGC=150", false, 150, 150},
		{"GOMEMLIMIT set: left alone", "GOMEMLIMIT=1GiB", false, 150, 150},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prevPercent, prevLimit := debug.SetGCPercent(150), debug.SetMemoryLimit(-1)
			defer func() {
				debug.SetGCPercent(prevPercent)
				debug.SetMemoryLimit(prevLimit)
				memory.Lock()
				memory.managed, memory.first = false, false
				memory.Unlock()
			}()
			for _, k := range []string{"GOMEMLIMIT", "GOGC"} {
				t.Setenv(k, "")
			}
			if k, v, ok := strings.Cut(tc.env, "="); ok {
				t.Setenv(k, v)
			}
			ran := make(chan int, 16)
			setCollected := func(f func(int)) { memory.Lock(); firstCollected = f; memory.Unlock() }
			setCollected(func(call int) {
				select {
				case ran <- call:
				default:
				}
			})
			defer setCollected(func(int) {})
			manageMemory()
			memory.Lock()
			call := memory.calls
			memory.Unlock()
			if tc.serve {
				servePace()
			}
			pace := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
			if got := pace(); got != tc.first {
				t.Errorf("GC percent %d before the first collection, want %d", got, tc.first)
			}
			if tc.env == "" {
				// The cleanup runs after a collection finds the
				// sentinel unreachable, on a goroutine of its own.
				runtime.GC()
				awaitCleanup(t, ran, call)
			}
			if got := pace(); got != tc.after {
				t.Errorf("GC percent %d after the first collection, want %d", got, tc.after)
			}
		})
	}
}

// awaitCleanup waits for the cleanup of manageMemory's call to tell ran
// it ran; those of earlier calls (other tests') may tell it too.
func awaitCleanup(t *testing.T, ran <-chan int, call int) {
	t.Helper()
	for {
		select {
		case c := <-ran:
			if c == call {
				return
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the cleanup did not run after a collection")
		}
	}
}

// TestExitCodesOfMistakes runs lading through app.New and exitCode, as main
// does, with calls a script could get wrong: each must exit 2 (usage) and
// say what was wrong, before anything is read from the service or served.
func TestExitCodesOfMistakes(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	const in = "samples/catalog.csv"
	imp := func(flags ...string) []string {
		return append(append([]string{"--token", "t", "import", "--template", "generic"}, flags...), in)
	}
	for _, tc := range []struct {
		args []string
		want string // in the error
	}{
		{[]string{}, "missing command: the commands of lading are demo, import"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"auth", "frob"}, `unknown command "auth frob": the commands of lading auth are login`},
		{[]string{"auth"}, "missing command: the commands of lading auth are login, status, logout\nSee lading auth --help"},
		{[]string{"templates", "frob"}, `unknown command "templates frob"`},
		{[]string{"mapping", "frob"}, `unknown command "mapping frob"`},
		{[]string{"--nope"}, "nope"},
		{[]string{"import", "--nope", in}, "nope"},
		{[]string{"auth", "status", "--nope"}, "nope"},
		{[]string{"sandbox", "--nope"}, "nope"},
		{[]string{"templates", "list", "--nope"}, "nope"},
		{[]string{"mapping", "init", "--nope", in}, "nope"},
		{[]string{"demo", "--nope"}, "nope"},
		{[]string{"import", "--template", "generic"}, "one input file"},
		{[]string{"templates", "show"}, "template name"},
		{[]string{"mapping", "init"}, "one file"},
		{[]string{"auth", "login"}, "--client-id"},
		{[]string{"auth", "login", "--client-id", "x"}, "--redirect-uri"},
		{[]string{"templates", "list", "extra"}, "extra"},
		{[]string{"auth", "status", "extra"}, "extra"},
		{[]string{"auth", "logout", "extra"}, "extra"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "extra"}, "extra"},
		{[]string{"demo", "--out", dir, "extra"}, "extra"},
		{[]string{"--rate", "abc", "templates", "list"}, "rate"},
		{imp("--batch-size", "0"), "--batch-size 0"},
		{imp("--batch-size", "101"), "--batch-size 101"},
		{append([]string{"--rate", "NaN"}, imp()...), "--rate NaN"},
		{append([]string{"--rate", "+Inf"}, imp()...), "--rate +Inf"},
		{append([]string{"--rate", "0"}, imp()...), "--rate 0"},
		{append([]string{"--rate", "-1"}, imp()...), "--rate -1"},
		{append([]string{"--burst", "0"}, imp()...), "--burst 0"},
		{append([]string{"--concurrency", "0"}, imp()...), "--concurrency 0"},
		{append([]string{"--concurrency", "-3"}, imp()...), "--concurrency -3"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--rate", "NaN"}, "--rate NaN"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--rate", "-1"}, "--rate -1"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--rate", "Inf"}, "--rate +Inf"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--burst", "0"}, "--burst 0"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--fail-rate", "NaN"}, "--fail-rate NaN"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--fail-rate", "1.5"}, "--fail-rate 1.5"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--drop-rate", "-0.1"}, "--drop-rate -0.1"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--latency", "-1s"}, "--latency -1s"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--throttle-status", "500"}, "429 or 403"},
		{[]string{"auth", "login", "--client-id", "x", "--redirect-uri", "http://127.0.0.1:1/cb", "--timeout", "0s"}, "--timeout 0s"},
		{[]string{"mapping", "init", "--header-row", "-1", in}, "--header-row -1"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var out, errb bytes.Buffer
			err := app.Run(ctx, app.Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}, append([]string{"lading"}, tc.args...))
			if got := exitCode(err); got != 2 {
				t.Errorf("exit code %d (error %v), want 2\nstdout: %s\nstderr: %s", got, err, out.String(), errb.String())
				return
			}
			if said := err.Error() + "\n" + app.Advice(err); !strings.Contains(said, tc.want) {
				t.Errorf("error %q does not say %q", said, tc.want)
			}
		})
	}
	for _, args := range [][]string{{"--help"}, {"auth", "--help"}, {"templates", "list"}, {"import", "--help"}} {
		a := app.New(app.Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }})
		if err := a.Run(append([]string{"lading"}, args...)); exitCode(err) != 0 {
			t.Errorf("%v: %v, want exit code 0", args, err)
		}
	}
}

// lading sandbox serves at Go's pace: serveMemory takes back the limit
// manageMemory set, and it is not raised again; a limit of the user's
// stays.
func TestServeMemory(t *testing.T) {
	const other = 1 << 40
	for _, tc := range []struct {
		name, gomemlimit string
		want             int64
	}{
		{"lading's limit: taken back", "", math.MaxInt64},
		{"GOMEMLIMIT set: left alone", "1GiB", other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prev := debug.SetMemoryLimit(other)
			defer debug.SetMemoryLimit(prev)
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", tc.gomemlimit)
			manageMemory()
			serveMemory()
			if got := debug.SetMemoryLimit(-1); got != tc.want {
				t.Errorf("limit %d after serveMemory, want %d", got, tc.want)
			}
			w := &heapWatch{}
			for cycle := range uint64(highLooks) {
				if watchHeap(w, cycle+1, 1<<40) {
					t.Fatal("watchHeap after serveMemory went on (the limit is no longer managed)")
				}
			}
			if got := debug.SetMemoryLimit(-1); got != tc.want {
				t.Errorf("limit %d after a look at a large heap, want %d", got, tc.want)
			}
		})
	}
}

// A run has outgrown the limit only when the live heap stays past 85% of
// it for highLooks looks, each after a collection of its own.
func TestHeapWatch(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	type look struct {
		cycle uint64
		live  int64
	}
	// high is a look past 85% of 208 MiB (176.8 MiB) after collection n.
	high := func(n uint64) look { return look{n, 177 * mib} }
	for _, tc := range []struct {
		name  string
		looks []look
		want  bool
	}{
		{"nothing live", []look{{1, 0}, {2, 0}, {3, 0}}, false},
		{"a 1M-row re-import", []look{{1, 160 * mib}, {2, 166 * mib}, {3, 162 * mib}, {4, 166 * mib}}, false},
		{"at 85%", []look{{1, 176 * mib}, {2, 176 * mib}, {3, 176 * mib}}, false},
		{"past 85% for a moment", []look{high(1), high(2), {3, 170 * mib}, high(4), high(5), {6, 0}}, false},
		{"past 85% three times, the same collection", []look{high(1), high(1), high(1), high(2)}, false},
		{"past 85% three collections in a row", []look{high(1), high(2), high(3)}, true},
		{"a larger catalog", []look{{1, 200 * mib}, {2, 220 * mib}, {3, 249 * mib}}, true},
	} {
		w := &heapWatch{}
		got := false
		for _, l := range tc.looks {
			got = w.outgrown(l.cycle, l.live, memoryLimit)
		}
		if got != tc.want {
			t.Errorf("%s: outgrown %t, want %t", tc.name, got, tc.want)
		}
	}
}

// Once a run has outgrown the limit, the collector has a pace and no
// limit, and the heap is no longer watched.
func TestWatchHeapOutgrown(t *testing.T) {
	prevLimit, prevPace := debug.SetMemoryLimit(-1), debug.SetGCPercent(100)
	defer func() { debug.SetMemoryLimit(prevLimit); debug.SetGCPercent(prevPace) }()
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	manageMemory()
	defer serveMemory()
	w := &heapWatch{}
	for cycle := range uint64(highLooks - 1) {
		if !watchHeap(w, cycle+1, 1<<30) {
			t.Fatalf("look %d: watchHeap stopped before the run outgrew the limit", cycle+1)
		}
	}
	if got := debug.SetMemoryLimit(-1); got != memoryLimit {
		t.Fatalf("limit %d before the run outgrew it, want %d", got, memoryLimit)
	}
	if watchHeap(w, highLooks, 1<<30) {
		t.Error("watchHeap went on once the run outgrew the limit")
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d once outgrown, want none", got)
	}
	if got := debug.SetGCPercent(100); got != outgrownGCPercent {
		t.Errorf("GOGC %d once outgrown, want %d", got, outgrownGCPercent)
	}
}

// Once lading sandbox listens, the collector runs at the sandbox's serving
// pace; a GOGC of the user's stays.
func TestServePace(t *testing.T) {
	for _, tc := range []struct {
		name, gogc string
		want       int
	}{
		{"Go's pace: the sandbox's", "", sandbox.ServeGCPercent},
		{"GOGC set: left alone", "150", 150},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prev := debug.SetGCPercent(150)
			defer debug.SetGCPercent(prev)
			t.Setenv("GOGC", tc.gogc)
			servePace()
			if got := debug.SetGCPercent(150); got != tc.want {
				t.Errorf("GC percent %d after servePace, want %d", got, tc.want)
			}
		})
	}
}
