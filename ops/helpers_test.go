package ops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lading/api"
	"lading/engine"
)

// errDenied is the service refusing a token.
var errDenied = &api.APIError{StatusCode: 401, Method: "POST", Path: "/v2/Variants", Message: "unknown access_token"}

// fake is a command for the runner's tests: it counts its runs, reads
// the file it is given, and ends as its job's options say.
type fake struct {
	mu     sync.Mutex
	runs   map[string]int // by account and job name
	inputs []string
	// limiters are the pacers of each account's runs.
	limiters map[string]map[*api.Limiter]bool
	running  map[string]int // runs in flight, by account and kind
	overlap  bool           // two runs of an account and kind at once
	// inFlight counts the runs in flight, peak the most at once.
	inFlight, peak int
	// hold keeps each run of a job (by account and name) until its
	// channel is closed; set before the runs start.
	hold map[string]chan struct{}
	// started and ended receive a job's account and name as each run
	// starts and ends.
	started, ended chan string
}

func newFake() *fake {
	return &fake{runs: map[string]int{}, running: map[string]int{}, hold: map[string]chan struct{}{}, limiters: map[string]map[*api.Limiter]bool{},
		started: make(chan string, 1000), ended: make(chan string, 1000)}
}

// kinds are the fake's commands. A job's option fail: rows makes a row of
// each run fail, fail: error makes the run fail with an error, fail:
// denied as a refused token does; bad: anything is refused when bound.
func (f *fake) kinds() Kinds {
	bind := func(j *Job) (Task, error) {
		opts := map[string]string{}
		for _, o := range j.Options {
			opts[o.Key] = o.Values[0]
		}
		if v, ok := opts["bad"]; ok {
			return Task{}, &OptionError{Key: "bad", Err: fmt.Errorf("%q is not a value it takes", v)}
		}
		return Task{Settle: time.Minute, Run: func(ctx context.Context, t Target) (Result, error) { return f.run(ctx, j, t, opts) }}, nil
	}
	return Kinds{"stock push": {File: true, Bind: bind}, "shipments push": {File: true, Bind: bind},
		"fulfillments pull": {Bind: bind}, "export": {Bind: bind}}
}

func (f *fake) run(ctx context.Context, j *Job, t Target, opts map[string]string) (Result, error) {
	key := j.Account + "/" + j.Kind
	f.mu.Lock()
	f.running[key]++
	f.overlap = f.overlap || f.running[key] > 1
	f.inFlight++
	f.peak = max(f.peak, f.inFlight)
	f.runs[j.Account+"/"+j.Name]++
	if f.limiters[j.Account] == nil {
		f.limiters[j.Account] = map[*api.Limiter]bool{}
	}
	f.limiters[j.Account][t.Client.Limiter()] = true
	if t.Input != "" {
		f.inputs = append(f.inputs, filepath.Base(t.Input))
	}
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.running[key]--
		f.inFlight--
		f.mu.Unlock()
	}()
	f.started <- j.Account + "/" + j.Name
	defer func() { f.ended <- j.Account + "/" + j.Name }()
	if hold := f.hold[j.Account+"/"+j.Name]; hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return Result{}, fmt.Errorf("%w: stopped", engine.ErrInterrupted)
		}
	}
	res := Result{Rows: engine.Counts{"sent": 1}, Summary: "1 sent"}
	if t.Input != "" {
		b, err := os.ReadFile(t.Input)
		if err != nil {
			return Result{}, err
		}
		res.Results = t.Results
		if err := os.WriteFile(t.Results, append([]byte("row,status\n"), b...), 0o644); err != nil {
			return Result{}, err
		}
	}
	switch opts["fail"] {
	case "rows":
		res.Rows[engine.Failed] = 1
	case "error":
		return res, errors.New("the mapping does not fit the file")
	case "denied":
		return Result{}, fmt.Errorf("reading variants: %w", errDenied)
	}
	return res, nil
}

// runsOf is how many times the job account/name ran.
func (f *fake) runsOf(job string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.runs[job]
}

// world is a test's folders: its user's config and data, and a folder
// for its files.
type world struct {
	t    *testing.T
	dirs Dirs
	dir  string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	dir := t.TempDir()
	return &world{t: t, dirs: Dirs{Config: filepath.Join(dir, "config"), Data: filepath.Join(dir, "data")}, dir: dir}
}

// write writes a file of the world (relative to its folder), modified
// age ago, and returns its path.
func (w *world) write(name, text string, age time.Duration) string {
	w.t.Helper()
	p := filepath.Join(w.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		w.t.Fatal(err)
	}
	mod := time.Now().Add(-age)
	if err := os.Chtimes(p, mod, mod); err != nil {
		w.t.Fatal(err)
	}
	return p
}

// jobs parses a jobs file whose text names the world's folder as DIR.
func (w *world) jobs(f *fake, text string) *Jobs {
	w.t.Helper()
	text = strings.ReplaceAll(text, "DIR", w.dir)
	jobs, err := Parse(filepath.Join(w.dir, "jobs.yaml"), []byte(text), Setup{Kinds: f.kinds(), Registry: &Registry{Accounts: map[string]Account{}}})
	if err != nil {
		w.t.Fatalf("the jobs file:\n%v", err)
	}
	return jobs
}

// runner is a runner of the world, logging to the test's log.
func (w *world) runner() *Runner {
	return &Runner{Dirs: w.dirs, Logger: slog.New(slog.NewTextHandler(testWriter{w.t}, nil)), Metrics: NewMetrics()}
}

// testWriter writes a runner's log lines to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

var _ io.Writer = testWriter{}

// eventually waits, up to 10 s, for cond; what says what was awaited.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
