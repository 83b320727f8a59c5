package ops

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"lading/state"
)

// accountsOf writes a token file for each account and returns the
// accounts: section that names them, at a base URL nothing listens on
// (the fake commands make no request).
func (w *world) accountsOf(names ...string) string {
	var b strings.Builder
	b.WriteString("accounts:\n")
	for _, n := range names {
		w.write(n+".token", "token-of-"+n, 0)
		b.WriteString("  " + n + ": {base_url: \"http://127.0.0.1:9\", token_file: DIR/" + n + ".token}\n")
	}
	return b.String()
}

// A folder job takes each settled file once, oldest first, and moves it
// to done/, or failed/ when a row or the run failed, with its results
// file (and the run's error) beside it; it leaves files being written,
// hidden ones, and those whose run failed for a reason that may pass.
func TestFolderJob(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	f := newFake()
	for _, n := range []string{"ok", "rows", "error", "denied"} {
		os.MkdirAll(filepath.Join(w.dir, n), 0o755)
	}
	jobs := w.jobs(f, w.accountsOf("acme")+`jobs:
  - {account: acme, job: stock push, name: ok, folder: DIR/ok}
  - {account: acme, job: stock push, name: rows, folder: DIR/rows, fail: rows}
  - {account: acme, job: stock push, name: error, folder: DIR/error, fail: error}
  - {account: acme, job: stock push, name: denied, folder: DIR/denied, fail: denied}
`)
	hour := time.Hour
	w.write("ok/b.csv", "b\n", hour)
	w.write("ok/a.csv", "a\n", 2*hour)
	w.write("ok/done/a.csv", "an older a\n", 3*hour)
	for _, skipped := range []string{"ok/.hidden.csv", "ok/c.csv.tmp", "ok/d.CSV.PART"} {
		w.write(skipped, "x\n", hour)
	}
	w.write("ok/fresh.csv", "still being written\n", 0)
	w.write("rows/r.csv", "r\n", hour)
	w.write("error/e.csv", "e\n", hour)
	w.write("denied/d.csv", "d\n", hour)

	tally, err := w.runner().Once(t.Context(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if tally[OK] != 2 || tally[Partial] != 1 || tally[Failed] != 2 {
		t.Errorf("tally %v, want 2 ok, 1 partial, 2 failed", tally)
	}
	if a, b := slices.Index(f.inputs, "a.csv"), slices.Index(f.inputs, "b.csv"); a < 0 || b < a {
		t.Errorf("the files were taken in the order %v, want ok's oldest (a.csv) before b.csv", f.inputs)
	}
	w.wantFiles(map[string]string{
		"ok/done/a-2.csv":                "a\n",
		"ok/done/a-2.csv.results.csv":    "row,status\na\n",
		"ok/done/a.csv":                  "an older a\n",
		"ok/done/b.csv":                  "b\n",
		"ok/done/b.csv.results.csv":      "row,status\nb\n",
		"rows/failed/r.csv":              "r\n",
		"rows/failed/r.csv.results.csv":  "row,status\nr\n",
		"error/failed/e.csv":             "e\n",
		"error/failed/e.csv.error.txt":   "the mapping does not fit the file\n",
		"denied/d.csv":                   "d\n",
		"ok/.hidden.csv":                 "x\n",
		"ok/c.csv.tmp":                   "x\n",
		"ok/d.CSV.PART":                  "x\n",
		"ok/fresh.csv":                   "still being written\n",
		"error/failed/e.csv.results.csv": "row,status\ne\n",
	})
	for _, gone := range []string{"ok/a.csv", "ok/b.csv", "rows/r.csv", "error/e.csv", "denied/done", "denied/failed"} {
		if _, err := os.Stat(filepath.Join(w.dir, gone)); err == nil {
			t.Errorf("%s is still there", gone)
		}
	}
	st := w.state("acme")
	if recs, err := st.AllIDs(t.Context(), state.KeyDropped("acme")); err != nil || len(recs) != 1 {
		t.Errorf("the files remembered as taken and not moved: %v %v, want the refused one's only", recs, err)
	}
}

// wantFiles checks that each file of the world (by its path in the
// world's folder) holds what files say.
func (w *world) wantFiles(files map[string]string) {
	w.t.Helper()
	for path, want := range files {
		if b, err := os.ReadFile(filepath.Join(w.dir, path)); err != nil || string(b) != want {
			w.t.Errorf("%s: %q %v, want %q", path, b, err, want)
		}
	}
}

// state opens the state of the account called name.
func (w *world) state(name string) *state.DB {
	w.t.Helper()
	st, err := state.Open(w.dirs.StatePath(name))
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { st.Close() })
	return st
}

// value is the value of a counter or gauge.
func value(m prometheus.Metric) float64 {
	var d dto.Metric
	if err := m.Write(&d); err != nil {
		panic(err)
	}
	if d.Counter != nil {
		return d.Counter.GetValue()
	}
	return d.Gauge.GetValue()
}

// A runner killed while it ran a dropped file runs it again when it
// starts (the job resumes its run), and one killed once the run had
// ended only moves the file where the run's outcome sent it.
func TestFolderJobAfterAKill(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	f := newFake()
	os.MkdirAll(filepath.Join(w.dir, "in"), 0o755)
	jobs := w.jobs(f, w.accountsOf("acme")+"jobs:\n  - {account: acme, job: shipments push, folder: DIR/in}\n")
	taken := w.write("in/taken.csv", "t\n", time.Hour)
	ended := w.write("in/ended.csv", "e\n", time.Hour)
	st := w.state("acme")
	keyT, _ := dropKey(taken)
	keyE, _ := dropKey(ended)
	os.MkdirAll(filepath.Join(w.dir, "in", stageFolder), 0o755)
	os.WriteFile(stagedResults(ended, keyE), []byte("row,status\ne,posted\n"), 0o644)
	r := w.runner()
	a := &account{Account: Account{Name: "acme"}, st: st}
	if err := r.putRecord(t.Context(), a, keyT, dropped{Status: statusTaken}); err != nil {
		t.Fatal(err)
	}
	if err := r.putRecord(t.Context(), a, keyE, dropped{Status: FailedFolder, Dest: filepath.Join(w.dir, "in", "failed", "ended.csv"), Error: "3 rows failed"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := r.Once(t.Context(), jobs); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.inputs, []string{"taken.csv"}) {
		t.Errorf("files run: %v, want taken.csv only (ended.csv's run had ended)", f.inputs)
	}
	w.wantFiles(map[string]string{
		"in/done/taken.csv":               "t\n",
		"in/failed/ended.csv":             "e\n",
		"in/failed/ended.csv.results.csv": "row,status\ne,posted\n",
		"in/failed/ended.csv.error.txt":   "3 rows failed\n",
		"in/done/taken.csv.results.csv":   "row,status\nt\n",
	})
	if recs, _ := w.state("acme").AllIDs(t.Context(), state.KeyDropped("acme")); len(recs) != 0 {
		t.Errorf("records left: %v", recs)
	}
}

// The same file dropped again under its name after it was moved is a new
// file, and runs again; a file dropped again under another name too.
func TestFolderJobSameFileAgain(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	f := newFake()
	os.MkdirAll(filepath.Join(w.dir, "in"), 0o755)
	jobs := w.jobs(f, w.accountsOf("acme")+"jobs:\n  - {account: acme, job: shipments push, folder: DIR/in}\n")
	for _, name := range []string{"shipped.csv", "shipped.csv", "copy.csv"} {
		w.write("in/"+name, "same\n", time.Hour)
		if _, err := w.runner().Once(t.Context(), jobs); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(f.inputs, []string{"shipped.csv", "shipped.csv", "copy.csv"}) {
		t.Errorf("runs: %v", f.inputs)
	}
	for _, p := range []string{"done/shipped.csv", "done/shipped-2.csv", "done/copy.csv", "done/shipped-2.csv.results.csv"} {
		if _, err := os.Stat(filepath.Join(w.dir, "in", p)); err != nil {
			t.Error(err)
		}
	}
}

// One account whose token cannot be read fails its runs and no other's;
// the metrics show both. The jobs of an account and kind never run at
// once. The runner stops when asked, after the runs in flight.
func TestRunnerKeepsAccountsApart(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	f := newFake()
	jobs := w.jobs(f, w.accountsOf("acme", "globex")+`  broken: {base_url: "http://127.0.0.1:9", token_file: DIR/missing.token}
jobs:
  - {account: acme, job: stock push, name: one, file: a.csv, every: 100ms}
  - {account: acme, job: stock push, name: two, file: b.csv, every: 100ms}
  - {account: globex, job: fulfillments pull, every: 100ms}
  - {account: broken, job: fulfillments pull, every: 100ms}
`)
	r := w.runner()
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx, jobs, nil, nil) }()
	failed := func() float64 {
		return value(r.Metrics.runs.WithLabelValues("broken", "fulfillments pull", string(Failed)))
	}
	eventually(t, "three runs of each job", func() bool {
		return f.runsOf("acme/one") >= 3 && f.runsOf("acme/two") >= 3 && f.runsOf("globex/fulfillments pull") >= 3 && failed() >= 3
	})
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if f.overlap {
		t.Error("two stock pushes of acme ran at once")
	}
	if f.runsOf("broken/fulfillments pull") != 0 {
		t.Error("the broken account's job ran without a token")
	}
	f.mu.Lock()
	if len(f.limiters["acme"]) != 1 || len(f.limiters["globex"]) != 1 {
		t.Errorf("acme's runs were paced by %d limiters and globex's by %d; want one each, the account's", len(f.limiters["acme"]), len(f.limiters["globex"]))
	}
	for l := range f.limiters["acme"] {
		if f.limiters["globex"][l] {
			t.Error("acme and globex share a limiter")
		}
	}
	f.mu.Unlock()
	ok := value(r.Metrics.runs.WithLabelValues("globex", "fulfillments pull", string(OK)))
	if ok < 3 || value(r.Metrics.lastSuccess.WithLabelValues("globex", "fulfillments pull")) == 0 ||
		value(r.Metrics.lastSuccess.WithLabelValues("broken", "fulfillments pull")) != 0 {
		t.Errorf("metrics: globex ok %v; the last successes of globex and broken: %v, %v", ok,
			value(r.Metrics.lastSuccess.WithLabelValues("globex", "fulfillments pull")),
			value(r.Metrics.lastSuccess.WithLabelValues("broken", "fulfillments pull")))
	}
	if r.Healthy() == nil {
		t.Error("a stopped runner says it is healthy")
	}
}

// Reloading the jobs starts the new and changed ones (after the run in
// flight of the old one) and stops the gone; stopping the runner
// interrupts the runs in flight, which stay unended in the state, so that
// a runner started again runs them at once.
func TestRunnerReloadsAndStops(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	f := newFake()
	slow, stuck := make(chan struct{}), make(chan struct{})
	f.hold["acme/slow"], f.hold["acme/stuck"] = slow, stuck
	accounts := w.accountsOf("acme")
	jobs := w.jobs(f, accounts+"jobs:\n  - {account: acme, job: export, name: slow, every: 1h}\n")
	next := w.jobs(f, accounts+"jobs:\n  - {account: acme, job: export, name: quick, every: 1h}\n  - {account: acme, job: stock push, name: stuck, file: a.csv, every: 1h}\n")
	r := w.runner()
	ctx, stop := context.WithCancel(t.Context())
	reload := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx, jobs, reload, func() (*Jobs, error) { return next, nil }) }()
	if got := <-f.started; got != "acme/slow" {
		t.Fatalf("first run: %s", got)
	}
	reload <- struct{}{}
	if got := <-f.started; got != "acme/stuck" {
		t.Fatalf("after the reload: %s started, want stuck (quick waits for slow's run, of its kind)", got)
	}
	close(slow)
	for _, want := range []string{"acme/slow", "acme/quick"} {
		if got := <-f.ended; got != want {
			t.Fatalf("%s ended, want %s", got, want)
		}
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if f.runsOf("acme/slow") != 1 || f.runsOf("acme/quick") != 1 {
		t.Errorf("slow ran %d times, quick %d; want once each", f.runsOf("acme/slow"), f.runsOf("acme/quick"))
	}
	st := w.state("acme")
	quick, err := loadTimes(t.Context(), st, "acme", "quick")
	if err != nil || quick.Started.IsZero() || quick.Unfinished() || quick.Success.IsZero() {
		t.Errorf("quick's times: %+v %v, want a run that ended well", quick, err)
	}
	stuckTimes, err := loadTimes(t.Context(), st, "acme", "stuck")
	if err != nil || !stuckTimes.Unfinished() {
		t.Errorf("stuck's times: %+v %v, want a run that never ended", stuckTimes, err)
	}
	if j := next.Jobs[1]; !j.Next(stuckTimes, time.Now()).Before(time.Now()) {
		t.Error("a run cut short is not due at once")
	}
}

// --once runs what is due by the state's times: a job run an interval ago
// or never, not one run a minute ago; a schedule whose time passed since
// it was first seen.
func TestOnceRunsWhatIsDue(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	f := newFake()
	jobs := w.jobs(f, w.accountsOf("acme")+`jobs:
  - {account: acme, job: stock push, name: recent, file: a.csv, every: 15m}
  - {account: acme, job: stock push, name: stale, file: a.csv, every: 15m}
  - {account: acme, job: stock push, name: new, file: a.csv, every: 15m}
  - {account: acme, job: export, name: monthly, schedule: "0 6 1 * *"}
  - {account: acme, job: export, name: just-seen, schedule: "0 6 1 * *"}
`)
	st := w.state("acme")
	now := time.Now()
	for name, t0 := range map[string]Times{
		"recent":  {Seen: now.Add(-time.Hour), Started: now.Add(-time.Minute), Ended: now.Add(-time.Minute)},
		"stale":   {Seen: now.Add(-time.Hour), Started: now.Add(-40 * time.Minute), Ended: now.Add(-40 * time.Minute)},
		"monthly": {Seen: now.Add(-40 * 24 * time.Hour)},
	} {
		if err := saveTimes(t.Context(), st, "acme", name, t0); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	tally, err := w.runner().Once(t.Context(), jobs)
	if err != nil || tally[OK] != 3 {
		t.Fatalf("tally %v %v, want 3 ok", tally, err)
	}
	for job, want := range map[string]int{"acme/recent": 0, "acme/stale": 1, "acme/new": 1, "acme/monthly": 1, "acme/just-seen": 0} {
		if got := f.runsOf(job); got != want {
			t.Errorf("%s ran %d times, want %d", job, got, want)
		}
	}
	r := w.runner()
	r.Only = []string{"nobody"}
	if _, err := r.Once(t.Context(), jobs); err == nil || !strings.Contains(err.Error(), `--only nobody: no account is called "nobody"`) {
		t.Errorf("--only an account without jobs: %v", err)
	}
}

// At most Parallel runs are in flight at once, of all the accounts: the
// others wait for a place, and all run.
func TestParallelBoundsTheRunsInFlight(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	f := newFake()
	names := []string{"a1", "a2", "a3", "a4", "a5"}
	text := w.accountsOf(names...) + "jobs:\n"
	for _, n := range names {
		f.hold[n+"/export"] = make(chan struct{})
		text += "  - {account: " + n + ", job: export, every: 1h}\n"
	}
	jobs := w.jobs(f, text)
	r := w.runner()
	r.Parallel = 2
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx, jobs, nil, nil) }()
	// Two runs are held at all times, until the last: a third would
	// start beside them if a place were free.
	held := []string{<-f.started, <-f.started}
	for started := 2; len(held) > 0; {
		close(f.hold[held[0]])
		held = held[1:]
		if started < len(names) {
			held = append(held, <-f.started)
			started++
		}
	}
	for range names {
		<-f.ended
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if f.peak != 2 {
		t.Errorf("%d runs in flight at once at the most, want 2", f.peak)
	}
}
