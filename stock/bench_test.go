package stock_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/mapping"
	"lading/sandbox"
	"lading/sandbox/sandboxtest"
	"lading/source"
	"lading/source/sourcetest"
	"lading/state"
	"lading/stock"
	"lading/templates"
)

// Benchmarks of a stock push of 100,000 SKUs (LADING_BENCH_ROWS changes the
// number) into a sandbox account that holds them, seeded once per process
// into a SQLite file:
//
//	go test -run '^$' -bench StockPush -benchtime 3x ./stock
//	go test -run '^$' -bench StockLocal ./stock
//
// StockPush: first, a push with an empty cache (every SKU looked up, every
// level sent); again, the same file once more; changed, a file with 1% of
// the levels changed, with the SKUs and levels remembered. The request
// counts are the contract: each pass fails the benchmark unless it sent
// exactly the writes its changes need (levels ÷ 100, rounded up) and no
// more reads than allowed (first: the SKUs ÷ 250, rounded up; else none).
//
// StockLocal: the local work of the changed push (read the file, find the
// SKUs in the state, compare with the levels remembered, plan), as a dry
// run that sends no request (dry-run-shuffled: of its rows in another
// order), beside the bare read of the same file (encoding/csv alone) and
// lading's read of it through the stock mapping.
// They report rows/s, B/op, peak-RSS-MB (the process's, which holds the
// idle sandbox too) and peak-rise-MB (how far the work raised the RSS).
//
// Seeding 100,000 variants takes about 5 s and the first push about 16 s
// on 2 cores; the benchmarks log both.

// benchScope is the account scope of the benchmarks' pushes.
const benchScope = "bench"

// The levels of the benchmarks' files: the seeded opening stock, the base
// file, and two files changing every 100th level of the base (1%), each
// from the other, so that pushing them in turn changes 1% each time.
func openingUnits(i int) int64 { return int64(i % 7) }
func baseUnits(i int) int64    { return int64(10 + i%500) }
func changedUnits(by int64) func(int) int64 {
	return func(i int) int64 {
		if i%100 == 0 {
			return baseUnits(i) + by
		}
		return baseUnits(i)
	}
}

// changedRows is how many rows of n the changed files change.
func changedRows(n int) int { return (n + 99) / 100 }

// account is the seeded sandbox the benchmarks of a process share.
type account struct {
	srv  *sandbox.Server
	hs   *httptest.Server
	url  string
	rows int
	// mapping is the built-in stock template, as --template stock reads it.
	mapping *mapping.Mapping
	// warm is a closed state file in which the base file was pushed: every
	// SKU's id and level is remembered. openWarm opens a copy.
	warm string
}

var shared struct {
	once sync.Once
	acct *account
	err  error
}

// seededAccount returns the process's sandbox holding rows variants
// (StockSKU(0) ...) and a warm state, seeding them on first use.
func seededAccount(b *testing.B) *account {
	b.Helper()
	rows := sourcetest.BenchRows(b)
	dir := sourcetest.BenchDir(b)
	shared.once.Do(func() { shared.acct, shared.err = newAccount(b, dir, rows) })
	switch {
	case shared.err != nil:
		b.Fatal(shared.err)
	case shared.acct == nil:
		b.Fatal("seeding the sandbox failed in an earlier benchmark")
	case shared.acct.rows != rows:
		b.Fatalf("the sandbox holds %d variants; LADING_BENCH_ROWS changed to %d within the process", shared.acct.rows, rows)
	}
	return shared.acct
}

// newAccount starts a sandbox on a file in dir, seeds rows variants and
// pushes the base file into a new state, the warm one. The process's
// shared account is never closed; others are, with close.
func newAccount(b testing.TB, dir string, rows int) (*account, error) {
	srv, err := sandbox.New(sandbox.Options{DBPath: filepath.Join(dir, "sandbox.db")})
	if err != nil {
		return nil, err
	}
	hs := httptest.NewServer(srv)
	a := &account{srv: srv, hs: hs, url: hs.URL + "/api2", rows: rows, mapping: stockTemplate(b), warm: filepath.Join(dir, "warm.db")}
	done := false
	defer func() {
		if !done { // an error, or a Fatal while seeding
			a.close()
		}
	}()
	if _, err := srv.RegisterToken("tok"); err != nil {
		return nil, err
	}
	start := time.Now()
	seed := &env{&sandboxtest.Env{T: b, C: a.client(b)}}
	seed.seed(rows, openingUnits)
	b.Logf("seeded %d variants in %v", rows, time.Since(start).Round(time.Millisecond))

	start = time.Now()
	st, err := state.Open(a.warm)
	if err != nil {
		return nil, err
	}
	rep, got := a.push(b, st, a.file(b, "base"), false)
	if err := st.Close(); err != nil {
		return nil, err
	}
	b.Logf("first push of %d levels in %v: %d writes, %d reads", rows, time.Since(start).Round(time.Millisecond), rep.Writes, rep.Reads)
	if err := checkPush(rep, got, firstPush(rows)); err != nil {
		return nil, fmt.Errorf("the first push: %w", err)
	}
	done = true
	return a, nil
}

func (a *account) close() {
	a.hs.Close()
	a.srv.Close()
}

// client is a client of the sandbox's token, unpaced: the benchmarks
// measure lading and the sandbox, not the pacing.
func (a *account) client(b testing.TB) *api.Client {
	c, err := api.NewClient(a.url, "tok", api.WithRate(1e6, 1000))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// file is the generated stock file "base", "changedA" or "changedB" of
// the account's rows.
func (a *account) file(b testing.TB, name string) string {
	units := map[string]func(int) int64{"base": baseUnits, "changedA": changedUnits(1000), "changedB": changedUnits(2000)}[name]
	if units == nil {
		b.Fatalf("no stock file %q", name)
	}
	return sourcetest.BenchStockFile(b, fmt.Sprint(name, a.rows), a.rows, units)
}

// openWarm opens a copy of the warm state in a directory of b's.
func (a *account) openWarm(b *testing.B) *state.DB {
	b.Helper()
	data, err := os.ReadFile(a.warm)
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(b.TempDir(), "state.db")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		b.Fatal(err)
	}
	st, err := state.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// served is what the sandbox counted during a push.
type served struct {
	requests, stockWrites, levelsSet int64
}

func servedSince(before, after sandbox.Counters) served {
	sum := func(m map[string]int64) (n int64) {
		for _, v := range m {
			n += v
		}
		return n
	}
	return served{
		requests:    sum(after.Requests) - sum(before.Requests),
		stockWrites: after.StockWrites - before.StockWrites,
		levelsSet:   after.LevelsSet - before.LevelsSet,
	}
}

// push pushes file with st (a dry run when dry) and returns the report and what the sandbox counted.
func (a *account) push(b testing.TB, st *state.DB, file string, dry bool) (*stock.Report, served) {
	b.Helper()
	// The results file of a real push goes next to the input, in the
	// directory the benchmarks' files are removed with.
	o := stock.Options{Options: engine.Options{Client: a.client(b), State: st, Scope: benchScope, Mapping: a.mapping, Input: file, DryRun: dry}}
	before := a.srv.Counters()
	rep, err := stock.Push(context.Background(), o)
	if err != nil {
		b.Fatal(err)
	}
	return rep, servedSince(before, a.srv.Counters())
}

// stockTemplate is the built-in stock mapping, as --template stock reads it.
func stockTemplate(b testing.TB) *mapping.Mapping {
	text, err := templates.Get("stock")
	if err != nil {
		b.Fatal(err)
	}
	m, err := mapping.Parse("stock.yaml", text)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// pushWant is what a push of n rows must cost and do.
type pushWant struct {
	writes   int64 // write requests, exactly
	maxReads int64 // read requests, at most
	levels   int64 // levels the sandbox set, exactly
	rows     map[engine.Status]int
}

func writesFor(levels int) int64 {
	return int64((levels + wire.MaxWriteRecords - 1) / wire.MaxWriteRecords)
}

// firstPush: every SKU looked up (one read per 250, or the whole listing)
// and every level sent.
func firstPush(n int) pushWant {
	return pushWant{writes: writesFor(n), maxReads: int64((n + wire.MaxPageSize - 1) / wire.MaxPageSize), levels: int64(n),
		rows: map[engine.Status]int{stock.Sent: n}}
}

// unchangedPush: nothing sent, nothing read.
func unchangedPush(n int) pushWant {
	return pushWant{rows: map[engine.Status]int{engine.Unchanged: n}}
}

// changedPush: only the changed levels sent, nothing read.
func changedPush(n int) pushWant {
	c := changedRows(n)
	return pushWant{writes: writesFor(c), levels: int64(c), rows: map[engine.Status]int{stock.Sent: c, engine.Unchanged: n - c}}
}

// dryChangedPush: the changed push as a dry run: no request at all.
func dryChangedPush(n int) pushWant {
	c := changedRows(n)
	return pushWant{rows: map[engine.Status]int{stock.ToSend: c, engine.Unchanged: n - c}}
}

// checkPush says how rep, and what the sandbox served, differ from w.
func checkPush(rep *stock.Report, got served, w pushWant) error {
	switch {
	case rep.Writes != w.writes || rep.Reads > w.maxReads:
		return fmt.Errorf("%d writes and %d reads; want %d writes and at most %d reads", rep.Writes, rep.Reads, w.writes, w.maxReads)
	case got.requests != rep.Requests || got.stockWrites != rep.Writes || got.levelsSet != w.levels:
		return fmt.Errorf("the sandbox served %d requests, %d stock writes, set %d levels; want %d, %d, %d",
			got.requests, got.stockWrites, got.levelsSet, rep.Requests, rep.Writes, w.levels)
	case !maps.Equal(rep.Rows, engine.Counts(w.rows)):
		return fmt.Errorf("rows %v; want %v", rep.Rows, w.rows)
	}
	return nil
}

func BenchmarkStockPush(b *testing.B) {
	b.Run("first", func(b *testing.B) {
		a := seededAccount(b)
		file := a.file(b, "base")
		benchPushes(b, a, firstPush(a.rows), func() (*state.DB, string) {
			st, err := state.Open(filepath.Join(b.TempDir(), "state.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { st.Close() })
			return st, file
		})
	})
	b.Run("again", func(b *testing.B) {
		a := seededAccount(b)
		st, file := a.openWarm(b), a.file(b, "base")
		benchPushes(b, a, unchangedPush(a.rows), func() (*state.DB, string) { return st, file })
	})
	b.Run("changed", func(b *testing.B) {
		a := seededAccount(b)
		st := a.openWarm(b)
		files := []string{a.file(b, "changedA"), a.file(b, "changedB")}
		n := 0
		benchPushes(b, a, changedPush(a.rows), func() (*state.DB, string) {
			n++
			return st, files[n%2]
		})
	})
}

// benchPushes pushes, b.N times, the file next gives with its state, checks
// each push against w and reports writes/op, reads/op and rows/s.
func benchPushes(b *testing.B, a *account, w pushWant, next func() (*state.DB, string)) {
	var writes, reads int64
	passes := 0
	for b.Loop() {
		b.StopTimer()
		st, file := next()
		b.StartTimer()
		rep, got := a.push(b, st, file, false)
		if err := checkPush(rep, got, w); err != nil {
			b.Fatalf("push %d of %s: %v", passes+1, filepath.Base(file), err)
		}
		writes, reads = writes+rep.Writes, reads+rep.Reads
		passes++
	}
	b.ReportMetric(float64(writes)/float64(passes), "writes/op")
	b.ReportMetric(float64(reads)/float64(passes), "reads/op")
	b.ReportMetric(float64(a.rows*passes)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkStockLocal: the changed push's local work beside reads of the
// same file.
func BenchmarkStockLocal(b *testing.B) {
	b.Run("bare-csv", func(b *testing.B) {
		a := seededAccount(b)
		file := a.file(b, "changedA")
		b.ReportAllocs()
		rss := sourcetest.StartPeakRSS()
		sourcetest.BenchBareCSVFile(b, file, a.rows)
		rss.Report(b)
	})
	b.Run("read", func(b *testing.B) {
		a := seededAccount(b)
		file := a.file(b, "changedA")
		b.ReportAllocs()
		rss := sourcetest.StartPeakRSS()
		n, passes := 0, 0
		for b.Loop() {
			in, err := stock.Read(context.Background(), a.mapping, file, source.Limits{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			n += len(in.Lines)
			passes++
		}
		sourcetest.ReportRows(b, a.rows, n, passes)
		rss.Report(b)
	})
	b.Run("dry-run", func(b *testing.B) {
		a := seededAccount(b)
		benchDryRuns(b, a, a.file(b, "changedA"))
	})
	// The same rows in another order: the state's SKUs and levels are
	// matched through maps rather than by a merge.
	b.Run("dry-run-shuffled", func(b *testing.B) {
		a := seededAccount(b)
		benchDryRuns(b, a, shuffled(b, a.file(b, "changedA")))
	})
}

// benchDryRuns dry-runs the push of file, b.N times, with a copy of the
// warm state, checking each against the changed push's plan.
func benchDryRuns(b *testing.B, a *account, file string) {
	st := a.openWarm(b)
	w := dryChangedPush(a.rows)
	b.ReportAllocs()
	rss, cpu := sourcetest.StartPeakRSS(), sourcetest.StartCPU()
	n, passes := 0, 0
	for b.Loop() {
		rep, got := a.push(b, st, file, true)
		if err := checkPush(rep, got, w); err != nil {
			b.Fatalf("dry run %d: %v", passes+1, err)
		}
		n += len(rep.Lines)
		passes++
	}
	cpu.Report(b, passes, time.Millisecond, "cpu-ms/op")
	sourcetest.ReportRows(b, a.rows, n, passes)
	rss.Report(b)
}

// shuffled writes the rows of the CSV file at path in an order of their
// own (the same every time), after its header, into a file of b's.
func shuffled(b *testing.B, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	body := lines[1:]
	rand.New(rand.NewPCG(22, 1)).Shuffle(len(body), func(i, j int) { body[i], body[j] = body[j], body[i] })
	p := filepath.Join(b.TempDir(), "shuffled.csv")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o600); err != nil {
		b.Fatal(err)
	}
	return p
}

// The contract at a size a test affords: 2,000 SKUs, 8 pages of a listing.
func TestPushRequestCounts(t *testing.T) {
	t.Parallel()
	const rows = 2000
	a, err := newAccount(t, t.TempDir(), rows) // checks the first push
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	st, err := state.Open(a.warm)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tests := []struct {
		file string
		dry  bool
		want pushWant
	}{
		{"base", false, unchangedPush(rows)},
		{"changedA", true, dryChangedPush(rows)},
		{"changedA", false, changedPush(rows)},
		{"changedB", false, changedPush(rows)},
		{"changedB", false, unchangedPush(rows)},
	}
	for i, tt := range tests {
		rep, got := a.push(t, st, a.file(t, tt.file), tt.dry)
		if err := checkPush(rep, got, tt.want); err != nil {
			t.Errorf("push %d (%s, dry run %v): %v", i+1, tt.file, tt.dry, err)
		}
	}
}
