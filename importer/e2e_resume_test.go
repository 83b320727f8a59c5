package importer_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lading/api"
	"lading/engine"
	"lading/importer"
	"lading/internal/syncbuf"
	"lading/mapping"
	"lading/sandbox"
	"lading/state"
	"lading/templates"
)

// Generated catalogs of the interruption tests: many products, small
// batches, so that an interruption falls between many batches.
const (
	resumeProducts = 300
	resumeVariants = 4
	resumeBatch    = 5
)

// expected caches reference catalogs by the content of their input.
var expected struct {
	sync.Mutex
	m map[[32]byte]snapshot
}

// expectedCatalog imports path, a catalog of variants rows, into a fresh
// sandbox without faults and returns what it holds: the catalog every
// interrupted import must end with.
func expectedCatalog(t *testing.T, path string, variants int) snapshot {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	expected.Lock()
	defer expected.Unlock()
	if s, ok := expected.m[sum]; ok {
		return s
	}
	ref := newEnv(t, sandbox.Options{})
	rep, err := ref.importFile(context.Background(), "generic", path, func(o *importer.Options) {
		o.BatchSize = 50
		o.ResultsFile = filepath.Join(ref.dir, "ref.results.csv")
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Variants[engine.Created] != variants {
		t.Fatalf("reference import created %v variants", rep.Variants)
	}
	s := ref.read()
	if expected.m == nil {
		expected.m = map[[32]byte]snapshot{}
	}
	expected.m[sum] = s
	return s
}

// sameCatalog fails unless got holds exactly the products and variants of
// want, each once.
func sameCatalog(t *testing.T, got, want snapshot) {
	t.Helper()
	if d := got.duplicates(); len(d) > 0 {
		t.Errorf("duplicate products: %v", d)
	}
	got.bySKU(t)
	if len(got.Products) != len(want.Products) {
		t.Errorf("%d products, want %d", len(got.Products), len(want.Products))
	}
	if !slices.Equal(got.Variants, want.Variants) {
		missing, extra := 0, 0
		have := map[liveVariant]bool{}
		for _, v := range got.Variants {
			have[v] = true
		}
		for _, v := range want.Variants {
			if !have[v] {
				missing++
				if missing <= 3 {
					t.Errorf("missing or different: %s", v)
				}
			}
		}
		extra = len(got.Variants) - (len(want.Variants) - missing)
		t.Errorf("%d variants, want %d: %d missing or different, %d extra", len(got.Variants), len(want.Variants), missing, extra)
	}
}

// noBlindResend fails when a key of a create whose outcome was unknown is
// created again later in the run. In these tests every unknown outcome was
// in fact applied (the sandbox drops the answer after applying), so such a
// re-send would be a write sent again without looking its keys up. It also
// fails when such an intent was not settled as applied once its keys were
// looked up, or when a finished run leaves an intent open. It returns how
// many keys were written with an unknown outcome.
func noBlindResend(t *testing.T, st *state.DB, runID int64) int {
	t.Helper()
	ctx := context.Background()
	intents, err := st.Intents(ctx, runID)
	if err != nil {
		t.Fatal(err)
	}
	unknown := map[string]int{}
	checked := 0
	for _, it := range intents {
		if it.Kind != importer.KindProductCreate && it.Kind != importer.KindVariantCreate {
			continue
		}
		for _, k := range it.Keys {
			if seq, ok := unknown[k]; ok {
				t.Errorf("intent %d creates %s again after intent %d's outcome was unknown", it.Seq, k, seq)
			}
		}
		if it.Outcome == state.OutcomeUnknown || strings.Contains(string(it.Results), "reconciled") {
			if it.Outcome != state.OutcomeApplied {
				t.Errorf("intent %d: outcome %q after its keys were looked up, want applied (the sandbox applied it)", it.Seq, it.Outcome)
			}
			for _, k := range it.Keys {
				unknown[k] = it.Seq
				checked++
			}
		}
	}
	noOpenIntents(t, st, runID)
	t.Logf("%d intents, %d keys written with an unknown outcome", len(intents), checked)
	return checked
}

// noOpenIntents fails when a finished run leaves an intent open: the
// resumed run must have looked up and settled what the stopped one sent.
func noOpenIntents(t *testing.T, st *state.DB, runID int64) {
	t.Helper()
	open, err := st.OpenIntents(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range open {
		t.Errorf("intent %d (%s) left open with outcome %q", it.Seq, it.Kind, it.Outcome)
	}
}

func TestImportResumeDroppedAnswers(t *testing.T) {
	t.Parallel()
	for _, seed := range []int64{1, 7} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			e := newEnv(t, sandbox.Options{DropRate: 0.3, Seed: seed})
			in := e.generate("catalog.csv", resumeProducts, resumeVariants)
			want := expectedCatalog(t, in, resumeProducts*resumeVariants)
			ctx := context.Background()
			var rep *importer.Report
			var err error
			runs, reconciled := 0, 0
			for runs < 4 {
				runs++
				rep, err = e.importFile(ctx, "generic", in, func(o *importer.Options) { o.BatchSize = resumeBatch })
				if err != nil {
					t.Fatalf("run %d: %v", runs, err)
				}
				reconciled += noBlindResend(t, e.state, rep.RunID)
				if rep.Failed() == 0 {
					break
				}
				t.Logf("run %d: rows %v; running again", runs, rep.Rows)
			}
			if rep.Failed() != 0 {
				t.Fatalf("after %d runs rows %v still failed", runs, rep.Rows)
			}
			if f := e.srv.Counters().Faults["drop"]; f == 0 || reconciled == 0 {
				t.Fatalf("the sandbox dropped %d answers, %d keys reconciled: the test proves nothing", f, reconciled)
			}
			sameCatalog(t, e.read(), want)
			// Every row was created by this run (or its earlier attempts).
			if rows := resultsByAction(t, rep.Results); rows[string(engine.Created)] != resumeProducts*resumeVariants {
				t.Errorf("results of the converged run: %v, want every row created", rows)
			}
		})
	}
}

// cancelAfter is a transport that cancels the import's context once it has
// seen k write requests go out.
type cancelAfter struct {
	next   http.RoundTripper
	k      int64
	n      atomic.Int64
	cancel context.CancelFunc
}

func (c *cancelAfter) RoundTrip(r *http.Request) (*http.Response, error) {
	if isWritePath(trimAPI(r.URL.Path)) && c.n.Add(1) == c.k {
		c.cancel()
	}
	return c.next.RoundTrip(r)
}

func trimAPI(p string) string {
	const prefix = "/api2"
	if len(p) > len(prefix) && p[:len(prefix)] == prefix {
		return p[len(prefix):]
	}
	return p
}

func TestImportResumeCancelled(t *testing.T) {
	t.Parallel()
	for _, k := range []int64{1, 9, 40} {
		t.Run(fmt.Sprint("after", k, "writes"), func(t *testing.T) {
			e := newEnv(t, sandbox.Options{})
			in := e.generate("catalog.csv", resumeProducts, resumeVariants)
			want := expectedCatalog(t, in, resumeProducts*resumeVariants)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tr := &cancelAfter{next: http.DefaultTransport, k: k, cancel: cancel}
			c, err := api.NewClient(e.url+"/api2", "tok", api.WithRate(1000, 100), api.WithHTTPClient(&http.Client{Transport: tr}))
			if err != nil {
				t.Fatal(err)
			}
			// The interrupted run keeps its lock until its state file is
			// closed, as when the process ends: this run gets its own.
			statePath := filepath.Join(e.dir, "cancelled.db")
			st, err := state.Open(statePath)
			if err != nil {
				t.Fatal(err)
			}
			before := e.srv.Counters().Requests
			rep, err := e.importFile(ctx, "generic", in, func(o *importer.Options) {
				o.Client, o.State, o.BatchSize, o.Concurrency = c, st, resumeBatch, 2
			})
			st.Close()
			if !errors.Is(err, engine.ErrInterrupted) || !rep.Interrupted {
				t.Fatalf("cancelled import: err %v, report %+v; want ErrInterrupted", err, rep)
			}
			sent := writes(before, e.srv.Counters().Requests)
			if sent < k || sent >= int64(rep.RequestsPlanned) {
				t.Fatalf("%d writes sent before stopping (cancelled after %d, %d planned)", sent, k, rep.RequestsPlanned)
			}
			first := resultsByAction(t, rep.Results)
			if first[string(engine.Created)] == 0 || first[string(engine.Skipped)] == 0 {
				t.Errorf("interrupted run's results %v: want some rows created and the rest skipped", first)
			}

			st, err = state.Open(statePath)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			rep2, err := e.importFile(context.Background(), "generic", in, func(o *importer.Options) { o.State, o.BatchSize = st, resumeBatch })
			if err != nil {
				t.Fatal(err)
			}
			if !rep2.Resumed || rep2.RunID != rep.RunID {
				t.Errorf("second run: resumed %v run %d, want run %d resumed", rep2.Resumed, rep2.RunID, rep.RunID)
			}
			rows := resultsByAction(t, rep2.Results)
			if rows[string(engine.Created)] != resumeProducts*resumeVariants {
				t.Errorf("resumed run's results %v: want all %d rows created", rows, resumeProducts*resumeVariants)
			}
			sameCatalog(t, e.read(), want)
			noOpenIntents(t, st, rep2.RunID)
		})
	}
}

// Environment of the killed helper process.
const (
	helperURL   = "LADING_TEST_IMPORT_URL"
	helperState = "LADING_TEST_IMPORT_STATE"
	helperInput = "LADING_TEST_IMPORT_INPUT"
	helperScope = "LADING_TEST_IMPORT_SCOPE"
	helperBatch = "LADING_TEST_IMPORT_BATCH" // default resumeBatch
)

// The test binary started with helperURL set is the child process
// TestImportResumeKilled kills: it runs childImport instead of the tests.
func init() {
	importer.ChildProcess = func() (int, bool) {
		url := os.Getenv(helperURL)
		if url == "" {
			return 0, false
		}
		if err := childImport(url); err != nil {
			fmt.Fprintln(os.Stderr, "child import:", err)
			return 1, true
		}
		return 0, true
	}
}

// childImport imports the generated catalog into the sandbox at url, with
// the state and input the environment names.
func childImport(url string) error {
	st, err := state.Open(os.Getenv(helperState))
	if err != nil {
		return err
	}
	defer st.Close()
	c, err := api.NewClient(url+"/api2", "tok", fastClient...)
	if err != nil {
		return err
	}
	text, err := templates.Get("generic")
	if err != nil {
		return err
	}
	m, err := mapping.Parse("generic.yaml", text)
	if err != nil {
		return err
	}
	batch := resumeBatch
	if b := os.Getenv(helperBatch); b != "" {
		if batch, err = strconv.Atoi(b); err != nil {
			return err
		}
	}
	_, err = importer.Import(context.Background(), importer.Options{Options: engine.Options{Client: c, State: st, Scope: os.Getenv(helperScope), Mapping: m, Input: os.Getenv(helperInput), BatchSize: batch, Concurrency: 2}, MappingText: text})
	return err
}

func TestImportResumeKilled(t *testing.T) {
	t.Parallel()
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	for i := range 3 {
		k := int64(2 + rng.IntN(45))
		t.Run(fmt.Sprint("kill", i), func(t *testing.T) {
			t.Parallel()
			t.Logf("seed %d: killing after %d writes", seed, k)
			// Latency keeps the child's writes slow enough to be caught.
			e := newEnv(t, sandbox.Options{Latency: 3 * time.Millisecond})
			in := e.generate("catalog.csv", resumeProducts, resumeVariants)
			want := expectedCatalog(t, in, resumeProducts*resumeVariants)
			statePath := filepath.Join(e.dir, "child-state.db")

			// -test.run=^$: should the child not take the import's
			// path, it runs no tests (and this test fails) rather than
			// starting children of its own.
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), helperURL+"="+e.url, helperState+"="+statePath,
				helperInput+"="+in, helperScope+"="+e.url)
			out := &syncbuf.Buffer{}
			cmd.Stdout, cmd.Stderr = out, out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(30 * time.Second)
			for writes(nil, e.srv.Counters().Requests) < k {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("the child sent fewer than %d writes in 30 s; output:\n%s", k, out)
				}
				time.Sleep(200 * time.Microsecond)
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			werr := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(werr, &ee) || ee.Success() {
				t.Fatalf("the child was not killed (it finished first: %v); output:\n%s", werr, out)
			}
			killedAt := writes(nil, e.srv.Counters().Requests)
			if s := e.read(); len(s.Variants) >= len(want.Variants) {
				t.Fatalf("the child had written everything (%d variants) before the kill", len(s.Variants))
			}

			st, err := state.Open(statePath)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			rep, err := e.importFile(context.Background(), "generic", in, func(o *importer.Options) {
				o.State, o.BatchSize = st, resumeBatch
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("killed after %d writes; resumed run %d sent %d more", killedAt, rep.RunID, writes(nil, e.srv.Counters().Requests)-killedAt)
			if !rep.Resumed {
				t.Error("the import after the kill did not resume the killed run")
			}
			if rows := resultsByAction(t, rep.Results); rows[string(engine.Created)] != resumeProducts*resumeVariants {
				t.Errorf("resumed run's results %v: want every row created", rows)
			}
			sameCatalog(t, e.read(), want)
			noOpenIntents(t, st, rep.RunID)
		})
	}
}
