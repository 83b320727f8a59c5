package state

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func openTemp(t testing.TB) (*DB, string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "state", "state.db")
	db, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, p
}

func reopen(t testing.TB, db *DB, p string) *DB {
	t.Helper()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db2.Close() })
	return db2
}

func TestOpenCreatesPrivateFileInWALMode(t *testing.T) {
	t.Parallel()
	db, p := openTemp(t)
	if fi, err := os.Stat(filepath.Dir(p)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v, %v; want 0700", fi.Mode().Perm(), err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	var mode string
	if err := db.sql.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode %q, %v; want wal", mode, err)
	}
	var sync int
	if err := db.sql.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil || sync != 2 {
		t.Errorf("synchronous %d, %v; want 2 (FULL)", sync, err)
	}
	var v int
	if err := db.sql.QueryRow(`SELECT version FROM schema_version`).Scan(&v); err != nil || v != SchemaVersion {
		t.Errorf("schema version %d, %v; want %d", v, err, SchemaVersion)
	}
	if db.Path() != p {
		t.Errorf("Path %q", db.Path())
	}
}

// A scratch state is a state like any other but for its commits, which
// do not wait for the disk (and for what it keeps: see
// TestScratchKeepsNothingForLaterRuns); Open reads it as it left it.
func TestOpenScratch(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "scratch.db")
	db, err := OpenScratch(p)
	if err != nil {
		t.Fatal(err)
	}
	var sync, v int
	if err := db.sql.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil || sync != 0 {
		t.Errorf("synchronous %d, %v; want 0 (OFF)", sync, err)
	}
	var journal string
	if err := db.sql.QueryRow(`PRAGMA journal_mode`).Scan(&journal); err != nil || journal != "memory" {
		t.Errorf("journal mode %q, %v; want memory", journal, err)
	}
	if err := db.sql.QueryRow(`SELECT version FROM schema_version`).Scan(&v); err != nil || v != SchemaVersion {
		t.Errorf("schema version %d, %v; want %d", v, err, SchemaVersion)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(p)
	if err != nil {
		t.Fatalf("Open of a scratch state: %v", err)
	}
	defer again.Close()
	if err := again.sql.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil || sync != 2 {
		t.Errorf("reopened with Open: synchronous %d, %v; want 2 (FULL)", sync, err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	db, p := openTemp(t)
	if _, err := db.sql.Exec(`UPDATE schema_version SET version = 99`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err := Open(p)
	if err == nil || !strings.Contains(err.Error(), "schema version 99 is newer than this lading knows") {
		t.Errorf("error %v", err)
	}
}

func TestOpenRejectsQueryCharacters(t *testing.T) {
	t.Parallel()
	if _, err := Open(filepath.Join(t.TempDir(), "a?mode=ro")); err == nil {
		t.Error("no error for a path with ?")
	}
}

func TestRunResumesAfterReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, p := openTemp(t)
	meta := map[string]string{"input": "catalog.csv", "mode": "upsert"}
	run, resumed, err := db.StartRun(ctx, "fp-1", "import", meta)
	if err != nil || resumed {
		t.Fatalf("StartRun: %v, resumed %v", err, resumed)
	}
	meta["input"] = "changed after the call"
	other, resumed, err := db.StartRun(ctx, "fp-2", "import", nil)
	if err != nil || resumed || other.ID == run.ID {
		t.Fatalf("second fingerprint: %+v, %v, %v", other, resumed, err)
	}

	db = reopen(t, db, p)
	again, resumed, err := db.StartRun(ctx, "fp-1", "ignored", map[string]string{"x": "y"})
	if err != nil || !resumed {
		t.Fatalf("StartRun after reopen: %v, resumed %v", err, resumed)
	}
	if again.ID != run.ID || again.Command != "import" || again.Status != StatusRunning || again.Finished() ||
		!reflect.DeepEqual(again.Meta, map[string]string{"input": "catalog.csv", "mode": "upsert"}) {
		t.Errorf("resumed run %+v, want run %d as first started", again, run.ID)
	}
	if !again.StartedAt.Equal(run.StartedAt) {
		t.Errorf("started at %v, want %v", again.StartedAt, run.StartedAt)
	}

	if err := db.FinishRun(ctx, run.ID, StatusDone, nil); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetRun(ctx, run.ID)
	if err != nil || got.Status != StatusDone || !got.Finished() {
		t.Fatalf("finished run %+v, %v", got, err)
	}
	fresh, resumed, err := db.StartRun(ctx, "fp-1", "import", nil)
	if err != nil || resumed || fresh.ID == run.ID {
		t.Errorf("after finish: %+v resumed %v err %v; want a new run", fresh, resumed, err)
	}
	runs, err := db.Runs(ctx, 2)
	if err != nil || len(runs) != 2 || runs[0].ID != fresh.ID || runs[1].ID != other.ID {
		t.Errorf("Runs(2) = %+v, %v", runs, err)
	}
}

func TestFinishRunErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := openTemp(t)
	run, _, err := db.StartRun(ctx, "fp", "import", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, status := range []string{"", StatusRunning} {
		if err := db.FinishRun(ctx, run.ID, status, nil); err == nil {
			t.Errorf("FinishRun(%q) accepted", status)
		}
	}
	if err := db.FinishRun(ctx, run.ID, StatusFailed, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishRun(ctx, run.ID, StatusDone, nil); err == nil {
		t.Error("finishing a finished run accepted")
	}
	if _, err := db.RecordIntent(ctx, run.ID, "variants.create", []string{"A"}, nil); err == nil ||
		!strings.Contains(err.Error(), "the run is finished") {
		t.Errorf("intent on finished run: %v", err)
	}
	if _, err := db.RecordIntent(ctx, 999, "variants.create", []string{"A"}, nil); err == nil {
		t.Error("intent on missing run accepted")
	}
	if _, _, err := db.StartRun(ctx, "", "import", nil); err == nil {
		t.Error("empty fingerprint accepted")
	}
}

func TestIntentsAndOutcomesPersist(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, p := openTemp(t)
	run, _, err := db.StartRun(ctx, "fp", "import", nil)
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		kind    string
		keys    []string
		payload string
		outcome Outcome
		results string
	}
	recs := []rec{
		{"products.create", []string{"tee", "cap"}, `{"Products":[1]}`, OutcomeApplied, `{"ids":[1,2]}`},
		{"variants.create", []string{"TEE-S", "TEE-M"}, `{"Variants":[2]}`, OutcomePartial, `{"errors":1}`},
		{"variants.update", []string{"CAP-1"}, `{"Variants":[3]}`, OutcomeUnknown, ""},
		{"variants.create", []string{"SOCK-1"}, `{"Variants":[4]}`, OutcomeRejected, `{"error":"bad"}`},
		{"variants.create", []string{"MUG-1"}, `{"Variants":[5]}`, OutcomePending, ""},
		{"tags.create", nil, "", OutcomeApplied, ""},
		{"products.create", []string{"belt"}, `{"Products":[6]}`, OutcomeNotApplied, `{"not_applied":"429"}`},
	}
	ids := make([]int64, len(recs))
	for i, r := range recs {
		var payload []byte
		if r.payload != "" {
			payload = []byte(r.payload)
		}
		if ids[i], err = db.RecordIntent(ctx, run.ID, r.kind, r.keys, payload); err != nil {
			t.Fatal(err)
		}
		if r.outcome != OutcomePending {
			var res []byte
			if r.results != "" {
				res = []byte(r.results)
			}
			if err := db.RecordOutcome(ctx, ids[i], r.outcome, res); err != nil {
				t.Fatal(err)
			}
		}
	}

	db = reopen(t, db, p)
	all, err := db.Intents(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(recs) {
		t.Fatalf("%d intents, want %d", len(all), len(recs))
	}
	for i, in := range all {
		r := recs[i]
		wantKeys := r.keys
		if wantKeys == nil {
			wantKeys = []string{}
		}
		// A batch settled lets go of its records; an open one keeps them.
		wantPayload := r.payload
		if r.outcome != OutcomePending && r.outcome != OutcomeUnknown {
			wantPayload = ""
		}
		if in.ID != ids[i] || in.RunID != run.ID || in.Seq != i+1 || in.Kind != r.kind || !reflect.DeepEqual(in.Keys, wantKeys) ||
			string(in.Payload) != wantPayload || in.Outcome != r.outcome || string(in.Results) != r.results {
			t.Errorf("intent %d = %+v, want %+v", i, in, r)
		}
		if in.CreatedAt.IsZero() || in.UpdatedAt.Before(in.CreatedAt) {
			t.Errorf("intent %d times %v %v", i, in.CreatedAt, in.UpdatedAt)
		}
	}
	open, err := db.OpenIntents(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 2 || open[0].ID != ids[2] || open[1].ID != ids[4] {
		t.Errorf("open intents %+v, want the unknown and the pending one", open)
	}

	// Reconciling settles the unknown one.
	if err := db.RecordOutcome(ctx, ids[2], OutcomeApplied, []byte("found by sku")); err != nil {
		t.Fatal(err)
	}
	if open, _ := db.OpenIntents(ctx, run.ID); len(open) != 1 || open[0].ID != ids[4] {
		t.Errorf("after reconciling: %+v", open)
	}
}

func TestRecordOutcomeErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := openTemp(t)
	run, _, _ := db.StartRun(ctx, "fp", "import", nil)
	id, err := db.RecordIntent(ctx, run.ID, "variants.create", []string{"A"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RecordOutcome(ctx, id, OutcomePending, nil); err == nil {
		t.Error("pending outcome accepted")
	}
	if err := db.RecordOutcome(ctx, id, "done", nil); err == nil {
		t.Error("unknown outcome word accepted")
	}
	if err := db.RecordOutcome(ctx, id+100, OutcomeApplied, nil); err == nil || !strings.Contains(err.Error(), "no such batch") {
		t.Errorf("missing intent: %v", err)
	}
	if _, err := db.RecordIntent(ctx, run.ID, "", nil, nil); err == nil {
		t.Error("empty kind accepted")
	}
}

func TestConcurrentRecordIntent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, p := openTemp(t)
	run, _, err := db.StartRun(ctx, "fp", "import", nil)
	if err != nil {
		t.Fatal(err)
	}
	// A second handle on the same file stands in for another process.
	db2, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	const workers, each = 8, 15
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Go(func() {
			h := db
			if w%2 == 1 {
				h = db2
			}
			for i := range each {
				id, err := h.RecordIntent(ctx, run.ID, "variants.create", []string{fmt.Sprintf("W%d-%d", w, i)}, nil)
				if err == nil && i%3 == 0 {
					err = h.RecordOutcome(ctx, id, OutcomeApplied, nil)
				}
				if err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	all, err := db.Intents(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for i, in := range all {
		if in.Seq != i+1 {
			t.Fatalf("intent %d has seq %d: sequence has gaps or duplicates", i, in.Seq)
		}
		keys[in.Keys[0]] = true
	}
	if len(all) != workers*each || len(keys) != workers*each {
		t.Errorf("%d intents with %d distinct keys, want %d", len(all), len(keys), workers*each)
	}
}

// helperEnv names the state file the helper process records an intent in.
const helperEnv = "LADING_STATE_HELPER"

// TestMain runs, instead of the tests, the helper processes that
// TestKilledBetweenIntentAndOutcome (helperEnv) and TestHoldFreedWhenHolderKilled
// (holdHelperEnv) kill.
func TestMain(m *testing.M) {
	helpers := []struct {
		env string
		run func(p string) error
	}{{helperEnv, recordAndHang}, {holdHelperEnv, holdAndHang}}
	for _, h := range helpers {
		if p := os.Getenv(h.env); p != "" {
			if err := h.run(p); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

// recordAndHang records an intent in the state at p, says so on stdout and
// waits to be killed.
func recordAndHang(p string) error {
	ctx := context.Background()
	db, err := Open(p)
	if err != nil {
		return err
	}
	run, _, err := db.StartRun(ctx, "killed-fp", "import", nil)
	if err != nil {
		return err
	}
	id, err := db.RecordIntent(ctx, run.ID, "variants.create", []string{"SKU-1", "SKU-2"}, []byte(`{"Variants":[]}`))
	if err != nil {
		return err
	}
	fmt.Printf("recorded %d\n", id)
	time.Sleep(time.Minute) // killed long before
	return errors.New("helper process was not killed within a minute")
}

// TestKilledBetweenIntentAndOutcome kills a process (SIGKILL, no cleanup)
// right after it recorded an intent: the intent must be on disk, open, and
// the run must resume.
func TestKilledBetweenIntentAndOutcome(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "state.db")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"="+p)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var intentID int64
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), "recorded "); ok {
			intentID, _ = strconv.ParseInt(s, 10, 64)
			break
		}
	}
	if intentID == 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("helper did not report an intent")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	ctx := context.Background()
	db, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	run, resumed, err := db.StartRun(ctx, "killed-fp", "import", nil)
	if err != nil || !resumed {
		t.Fatalf("StartRun after kill: resumed %v, %v", resumed, err)
	}
	open, err := db.OpenIntents(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 1 || open[0].ID != intentID || open[0].Outcome != OutcomePending ||
		!reflect.DeepEqual(open[0].Keys, []string{"SKU-1", "SKU-2"}) || string(open[0].Payload) != `{"Variants":[]}` {
		t.Errorf("open intents after kill %+v, want intent %d pending", open, intentID)
	}
}

func TestIDs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, p := openTemp(t)
	const scope = "https://a.example variant"
	kv := map[string]string{}
	var keys []string
	for i := range 1200 { // more than two lookup chunks
		k := fmt.Sprintf("SKU-%04d", i)
		kv[k] = strconv.Itoa(10000 + i)
		keys = append(keys, k)
	}
	if err := db.PutIDs(ctx, scope, kv); err != nil {
		t.Fatal(err)
	}
	if err := db.PutIDs(ctx, "https://b.example variant", map[string]string{"SKU-0001": "other"}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutIDs(ctx, scope, map[string]string{"SKU-0002": "replaced"}); err != nil {
		t.Fatal(err)
	}
	kv["SKU-0002"] = "replaced"

	db = reopen(t, db, p)
	got, err := db.IDs(ctx, scope, append(keys, "MISSING"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, kv) {
		t.Errorf("IDs: %d entries, want %d; SKU-0002=%q", len(got), len(kv), got["SKU-0002"])
	}
	all, err := db.AllIDs(ctx, scope)
	if err != nil || !reflect.DeepEqual(all, kv) {
		t.Errorf("AllIDs: %d entries, %v", len(all), err)
	}
	if err := db.DeleteIDs(ctx, scope, keys[:600]); err != nil {
		t.Fatal(err)
	}
	all, _ = db.AllIDs(ctx, scope)
	if len(all) != 600 || all["SKU-0600"] != "10600" || all["SKU-0001"] != "" {
		t.Errorf("after delete: %d entries", len(all))
	}
	other, _ := db.AllIDs(ctx, "https://b.example variant")
	if !reflect.DeepEqual(other, map[string]string{"SKU-0001": "other"}) {
		t.Errorf("other scope %v", other)
	}
	if got, err := db.IDs(ctx, scope, nil); err != nil || len(got) != 0 {
		t.Errorf("IDs(nil) = %v, %v", got, err)
	}
}

func TestStock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, p := openTemp(t)
	const scope = "https://a.example warehouse 3"
	if err := db.PutStock(ctx, scope, map[string]float64{"A": 4, "B": 2.5}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutStock(ctx, scope, map[string]float64{"B": 0, "C": 7}); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db, p)
	got, err := db.Stock(ctx, scope)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]float64{"A": 4, "B": 0, "C": 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("Stock = %v, want %v", got, want)
	}
	if other, _ := db.Stock(ctx, "elsewhere"); len(other) != 0 {
		t.Errorf("other scope %v", other)
	}
}

// LeaveRun lets another DB resume the run, unfinished, and the leaving DB
// start it again.
func TestLeaveRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db1, p := openTemp(t)
	db2, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	run, _, err := db1.StartRun(ctx, "fp", "import", nil)
	if err != nil {
		t.Fatal(err)
	}
	db1.LeaveRun(run.ID)
	db1.LeaveRun(run.ID) // twice is harmless
	again, resumed, err := db2.StartRun(ctx, "fp", "import", nil)
	if err != nil || !resumed || again.ID != run.ID || again.Finished() {
		t.Fatalf("resume after LeaveRun: %+v %v %v; want run %d, unfinished", again, resumed, err, run.ID)
	}
	if _, _, err := db1.StartRun(ctx, "fp", "import", nil); !errors.Is(err, ErrRunInProgress) {
		t.Fatalf("StartRun while the other holds it: %v, want ErrRunInProgress", err)
	}
	db2.LeaveRun(again.ID)
	if _, resumed, err := db1.StartRun(ctx, "fp", "import", nil); err != nil || !resumed {
		t.Fatalf("StartRun after the other left: %v %v", resumed, err)
	}
}

func TestRunHeldUntilFinishOrClose(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db1, p := openTemp(t)
	db2, err := Open(p) // another process, as far as locks go
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()

	run, _, err := db1.StartRun(ctx, "fp", "import", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db2.StartRun(ctx, "fp", "import", nil); !errors.Is(err, ErrRunInProgress) {
		t.Fatalf("second StartRun while held: %v, want ErrRunInProgress", err)
	}
	if _, _, err := db2.StartRun(ctx, "other-fp", "import", nil); err != nil {
		t.Fatalf("other fingerprint: %v", err)
	}

	// Close leaves the run unfinished and lets another resume it.
	db1.Close()
	resumed, ok, err := db2.StartRun(ctx, "fp", "import", nil)
	if err != nil || !ok || resumed.ID != run.ID {
		t.Fatalf("resume after Close: %+v %v %v", resumed, ok, err)
	}
	// FinishRun releases it too.
	if err := db2.FinishRun(ctx, run.ID, StatusDone, nil); err != nil {
		t.Fatal(err)
	}
	db3, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer db3.Close()
	if fresh, ok, err := db3.StartRun(ctx, "fp", "import", nil); err != nil || ok || fresh.ID == run.ID {
		t.Fatalf("after FinishRun: %+v %v %v", fresh, ok, err)
	}
}

// Settle writes the outcome and the ids together, or neither.
func TestSettleWithIDs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, p := openTemp(t)
	run, _, err := db.StartRun(ctx, "fp", "slips push", nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := db.RecordIntent(ctx, run.ID, "slips.write", []string{"S1", "S2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Settle(ctx, id, Settlement{Outcome: OutcomePending, Keys: []Keys{{Scope: "acct|slips", Put: map[string]string{"S9": "9"}}}}); err == nil {
		t.Error("a pending outcome was accepted")
	}
	if err := db.Settle(ctx, id, Settlement{Outcome: OutcomePartial, Results: []byte("r"), Keys: []Keys{{Scope: "acct|slips", Put: map[string]string{"S1": "11"}}}}); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db, p)
	got, err := db.AllIDs(ctx, "acct|slips")
	if want := map[string]string{"S1": "11"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ids = %v, %v; want %v", got, err, want)
	}
	if open, err := db.OpenIntents(ctx, run.ID); err != nil || len(open) != 0 {
		t.Errorf("the batch is still open: %+v, %v", open, err)
	}
}
