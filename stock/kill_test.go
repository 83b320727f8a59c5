package stock_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"lading/api"
	"lading/engine"
	"lading/internal/syncbuf"
	"lading/sandbox"
	"lading/state"
	"lading/stock"
)

// The child process's settings, from the test that starts it.
const (
	childURL   = "LADING_TEST_STOCK_URL"
	childState = "LADING_TEST_STOCK_STATE"
	childInput = "LADING_TEST_STOCK_INPUT"
)

const (
	killRows  = 2000
	killBatch = 20
)

// childPush pushes the input to the sandbox at url with the state the
// environment names, as lading stock push would, until it is killed.
func childPush(url string) error {
	st, err := state.Open(os.Getenv(childState))
	if err != nil {
		return err
	}
	defer st.Close()
	c, err := api.NewClient(url, "tok", api.WithRate(1000, 100))
	if err != nil {
		return err
	}
	_, err = stock.Push(context.Background(), stock.Options{Options: engine.Options{Client: c, State: st, Scope: scope, Mapping: stockMapping, Input: os.Getenv(childInput), BatchSize: killBatch, Concurrency: 2}})
	return err
}

// A push killed with SIGKILL at a random point and run again ends with
// every level right, and no level set twice: the batches the killed push
// left without an answer are read back, not sent again blindly.
func TestPushKilledAndRunAgain(t *testing.T) {
	t.Parallel()
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	for i := range 3 {
		k := int64(2 + rng.IntN(killRows/killBatch-10))
		t.Run(fmt.Sprint("kill", i), func(t *testing.T) {
			t.Parallel()
			t.Logf("seed %d: killing after %d stock writes", seed, k)
			e := newEnv(t, sandbox.Options{})
			e.seed(killRows, func(int) int64 { return 1 })
			// Latency keeps the child's writes slow enough to be caught.
			e.Restart(sandbox.Options{Latency: 3 * time.Millisecond})
			in := e.levelsFile("stock.csv", killRows, func(i int) int64 { return int64(2 + i%50) })
			statePath := filepath.Join(e.Dir, "child-state.db")
			c0 := e.Srv.Counters()
			killChild(t, e, k, append(os.Environ(), childURL+"="+e.URL, childState+"="+statePath, childInput+"="+in))

			st, err := state.Open(statePath)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			rep, err := e.push(in, func(o *stock.Options) { o.State, o.BatchSize = st, killBatch })
			if err != nil {
				t.Fatal(err)
			}
			a := actions(rep)
			if a[stock.Sent]+a[engine.Unchanged] != killRows || a[engine.Unchanged] == 0 {
				t.Errorf("the push after the kill: rows %v; want every row sent or unchanged, some unchanged", a)
			}
			// Every level differs from the seeded one, so each is set
			// exactly once across both pushes.
			if n := e.Srv.Counters().LevelsSet - c0.LevelsSet; n != killRows {
				t.Errorf("%d levels set for %d rows: some were sent twice (or never)", n, killRows)
			}
			levels, _ := e.live()
			for i := range killRows {
				if levels[sku(i)] != float64(2+i%50) {
					t.Fatalf("%s: live %v, want %d", sku(i), levels[sku(i)], 2+i%50)
				}
			}
			runs, err := st.Runs(context.Background(), 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range runs {
				if open, err := st.OpenIntents(context.Background(), r.ID); err != nil || len(open) > 0 {
					t.Errorf("run %d: %d batches left open (%v)", r.ID, len(open), err)
				}
			}
		})
	}
}

// killChild starts this test binary as a child pushing with env, and kills
// it with SIGKILL once the sandbox has taken k stock writes.
func killChild(t *testing.T, e *env, k int64, env []string) {
	t.Helper()
	// -test.run=^$: should the child not push, it runs no tests (and
	// this test fails) rather than starting children of its own.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = env
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	start := e.Srv.Counters().StockWrites
	deadline := time.Now().Add(60 * time.Second)
	for e.Srv.Counters().StockWrites-start < k {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the child sent fewer than %d stock writes in 60 s; output:\n%s", k, out)
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
	// The sandbox finishes the requests it was handling when the child
	// died, as a service does; the test then reads what it holds.
	time.Sleep(100 * time.Millisecond)
}
