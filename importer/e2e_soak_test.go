package importer_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"lading/importer"
	"lading/internal/syncbuf"
	"lading/sandbox"
	"lading/state"
)

// The fault soak: 10,000 rows into a sandbox that fails 10% of calls
// (500), throttles 10% (429 without Retry-After, so that the client backs
// off on its own, for milliseconds, rather than a second each time) and
// drops the answer of 2% of writes after applying them, while the
// importing process is killed (SIGKILL) at five random moments. Running
// the same import again until it reports no failed row must end with
// exactly the catalog of the file: every row's variant once, with its
// fields, options and prices, nothing duplicated, no batch left open.
const (
	soakProducts = 2500
	soakVariants = 4
	soakBatch    = 25
	soakKills    = 5
)

func TestImportFaultSoak(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the fault soak takes about ten seconds; run without -short")
	}
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	t.Logf("seed %d", seed)
	e := newEnv(t, sandbox.Options{FailRate: 0.1, ThrottleRate: 0.1, NoRetryAfter: true, DropRate: 0.02, Seed: seed, Latency: time.Millisecond})
	in := e.generate("catalog.csv", soakProducts, soakVariants)
	statePath := filepath.Join(e.dir, "soak-state.db")
	start := time.Now()

	// Kill moments: after so many writes reached the sandbox, in order.
	const writesPlanned = soakProducts / soakBatch
	var at []int64
	for range soakKills {
		at = append(at, int64(1+rng.IntN(writesPlanned*9/10)))
	}
	slices.Sort(at)
	// The catalog a clean import of the file makes, into a sandbox of its
	// own, is imported while the children are killed.
	var want snapshot
	t.Run("kills", func(t *testing.T) {
		t.Run("reference", func(t *testing.T) {
			t.Parallel()
			want = expectedCatalog(t, in, soakProducts*soakVariants)
		})
		t.Run("children", func(t *testing.T) {
			t.Parallel()
			for i, k := range at {
				if !killChildAt(t, e, in, statePath, k) {
					t.Logf("kill %d: the child finished before %d writes", i+1, k)
					break
				}
			}
		})
	})
	if t.Failed() {
		return
	}
	killed := writes(nil, e.srv.Counters().Requests)

	st, err := state.Open(statePath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var rep *importer.Report
	runs := 0
	for runs = 1; runs <= 5; runs++ {
		rep, err = e.importFile(context.Background(), "generic", in, func(o *importer.Options) {
			o.State, o.BatchSize = st, soakBatch
		})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Failed() == 0 {
			break
		}
	}
	if rep.Failed() > 0 {
		t.Fatalf("rows still failed after %d runs: %v", runs, rep.Rows)
	}
	c := e.srv.Counters()
	t.Logf("%d kills at writes %v; then %d runs to finish; %d writes in all (%d before the last kill); faults %v, %d throttled; %s",
		len(at), at, runs, writes(nil, c.Requests), killed, c.Faults, c.Throttled, time.Since(start).Round(time.Millisecond))
	if c.Faults["fail"] == 0 || c.Throttled == 0 {
		t.Errorf("faults %v, %d throttled: the soak met no failure or no throttling", c.Faults, c.Throttled)
	}
	sameCatalog(t, e.read(), want)
	noOpenIntents(t, st, rep.RunID)
}

// killChildAt starts the import in a child process resuming the run in
// statePath, and kills it once the sandbox has received k writes in all.
// It reports false when the child finished first.
func killChildAt(t *testing.T, e *env, in, statePath string, k int64) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperURL+"="+e.url, helperState+"="+statePath,
		helperInput+"="+in, helperScope+"="+e.url, fmt.Sprintf("%s=%d", helperBatch, soakBatch))
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(2 * time.Minute)
	for writes(nil, e.srv.Counters().Requests) < k {
		select {
		case err := <-done:
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatalf("the child failed: %v; output:\n%s", err, out)
			}
			return false
		case <-deadline:
			cmd.Process.Kill()
			<-done
			t.Fatalf("the child sent fewer than %d writes in 2 minutes; output:\n%s", k, out)
		case <-time.After(200 * time.Microsecond):
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-done
	return true
}
