package state

import (
	"context"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"
)

func openTest(t *testing.T) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// recordTwoCreates records a batch of run creating products P1 and P2.
func recordTwoCreates(t *testing.T, db *DB, run *Run) int64 {
	t.Helper()
	in := []Change{{Seq: 0, Op: OpCreate, Resource: ResourceProduct, Key: "P1"}, {Seq: 1, Op: OpCreate, Resource: ResourceProduct, Key: "P2"}}
	intent, err := db.RecordIntent(context.Background(), run.ID, "products.create", []string{"P1", "P2"}, []byte("[]"), in...)
	if err != nil {
		t.Fatal(err)
	}
	return intent
}

// openTestRun is openTest with an import run started in it.
func openTestRun(t *testing.T) (*DB, *Run) {
	t.Helper()
	db := openTest(t)
	run, _, err := db.StartRun(context.Background(), "fp", "import", nil)
	if err != nil {
		t.Fatal(err)
	}
	return db, run
}

// A batch's changes are recorded with it, before it is sent, and confirmed
// record by record once it is answered.
func TestChangesRecordedWithTheirBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	run, _, err := db.StartRun(ctx, "fp", "stock push", map[string]string{"input": "s.csv"})
	if err != nil {
		t.Fatal(err)
	}
	in := []Change{
		{Seq: 0, Op: OpUpdate, Resource: ResourceLevel, Key: "A", RecordID: "11", ParentID: "3", Before: map[string]string{"available": "4"}, After: map[string]string{"available": "7"}},
		{Seq: 1, Op: OpCreate, Resource: ResourceProduct, Key: "P2", After: map[string]string{"name": "Mug"}},
		{Seq: 2, Op: OpUpdate, Resource: ResourceLevel, Key: "C", RecordID: "13", After: map[string]string{"available": "1"}},
	}
	intent, err := db.RecordIntent(ctx, run.ID, "k", []string{"A", "P2", "C"}, []byte("[]"), in...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.Changes(ctx, run.ID)
	if err != nil || len(got) != 3 || got[0].Written != WrittenUnknown || got[1].RecordID != "" {
		t.Fatalf("before the answer: %+v, %v", got, err)
	}
	if err := db.Settle(ctx, intent, Settlement{Outcome: OutcomeApplied, Took: map[int]string{0: "11", 1: "900"}}); err != nil {
		t.Fatal(err)
	}
	got, err = db.Changes(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []Written{WrittenYes, WrittenYes, WrittenNo}
	for i, c := range got {
		if c.Written != want[i] || c.Key != in[i].Key || !reflect.DeepEqual(c.After, in[i].After) {
			t.Errorf("change %d: %+v", i, c)
		}
	}
	if got[1].RecordID != "900" || got[0].Before["available"] != "4" || len(got[2].Before) != 0 {
		t.Errorf("ids and befores: %+v", got)
	}
	// Confirmed again (a read back after a lost answer): what it says now
	// holds, and a record taken without an id keeps the one it had.
	if err := db.Settle(ctx, intent, Settlement{Outcome: OutcomeApplied, Took: map[int]string{1: "", 2: "13"}}); err != nil {
		t.Fatal(err)
	}
	again, err := db.Changes(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again[0].Written != WrittenNo || again[1].Written != WrittenYes || again[2].Written != WrittenYes || again[1].RecordID != "900" {
		t.Errorf("confirmed again: %+v", again)
	}
	if err := db.Settle(ctx, intent, Settlement{Outcome: OutcomeApplied, Took: map[int]string{0: "11", 1: "900"}}); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishRun(ctx, run.ID, StatusDone, map[string]any{"rows": map[string]int{"sent": 2}}); err != nil {
		t.Fatal(err)
	}
	r, err := db.GetRun(ctx, run.ID)
	if err != nil || string(r.Summary) != `{"rows":{"sent":2}}` {
		t.Errorf("summary %s, %v", r.Summary, err)
	}

	// A later run writing record 11 again is named to an undo of this one.
	later, _, err := db.StartRun(ctx, "fp2", "stock push", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.RecordIntent(ctx, later.ID, "k", []string{"A"}, nil, Change{Op: OpUpdate, Resource: ResourceLevel, Key: "A", RecordID: "11"}); err != nil {
		t.Fatal(err)
	}
	runs, err := db.LaterRuns(ctx, run.ID, []RecordRef{{ResourceLevel, "11"}, {ResourceLevel, "13"}})
	if err != nil || len(runs) != 1 || runs[0].ID != later.ID {
		t.Errorf("later runs %+v, %v", runs, err)
	}
}

// A batch the account took none of (refused, or to be sent again) has
// every change unwritten, as answered or after a read back said otherwise.
func TestChangesOfABatchTakenNone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, run := openTestRun(t)
	intent := recordTwoCreates(t, db, run)
	for _, took := range []map[int]string{{}, {0: "5", 1: "6"}, {}} {
		if err := db.Settle(ctx, intent, Settlement{Outcome: OutcomeApplied, Took: took}); err != nil {
			t.Fatal(err)
		}
		got, err := db.Changes(ctx, run.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range got {
			if want := map[bool]Written{true: WrittenYes, false: WrittenNo}[len(took) > 0]; c.Written != want {
				t.Errorf("took %v: change %d is %v, want %v", took, i, c.Written, want)
			}
		}
	}
}

// Pruning forgets old finished runs with their batches and changes, but
// keeps the last ones whatever their age, and unfinished ones.
func TestPruneRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	var ids []int64
	for i := range 5 {
		run, _, err := db.StartRun(ctx, "fp"+string(rune('a'+i)), "import", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.RecordIntent(ctx, run.ID, "k", []string{"x"}, nil, Change{Op: OpCreate, Resource: ResourceProduct, Key: "x"}); err != nil {
			t.Fatal(err)
		}
		if i != 1 {
			if err := db.FinishRun(ctx, run.ID, StatusDone, nil); err != nil {
				t.Fatal(err)
			}
		}
		ids = append(ids, run.ID)
	}
	n, err := db.PruneRuns(ctx, time.Now().Add(time.Hour), 2)
	if err != nil || n != 2 {
		t.Fatalf("pruned %d, %v; want the two oldest finished runs", n, err)
	}
	runs, err := db.Runs(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var left []int64
	for _, r := range runs {
		left = append(left, r.ID)
	}
	if want := []int64{ids[4], ids[3], ids[1]}; !reflect.DeepEqual(left, want) {
		t.Errorf("runs left %v, want %v (the last two and the unfinished one)", left, want)
	}
	if c, err := db.Changes(ctx, ids[0]); err != nil || len(c) != 0 {
		t.Errorf("changes of a pruned run: %v, %v", c, err)
	}
	if n, err := db.PruneRuns(ctx, time.Now().Add(-time.Hour), 0); err != nil || n != 0 {
		t.Errorf("runs of the last hour pruned: %d, %v", n, err)
	}
}

// Settle writes a batch's outcome, the changes it took with their ids,
// and what the job keeps (ids, levels, files, and keys forgotten) in one
// transaction: all of them, or, when one fails (the outcome of a batch
// there is not; a pending outcome), none.
func TestSettleIsOneTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, run := openTestRun(t)
	intent := recordTwoCreates(t, db, run)
	ids, levels, files := KeyProducts("acct"), KeyLevels("acct", "3"), KeyFiles("acct")
	if err := db.PutIDs(ctx, ids, map[string]string{"OLD": "7"}); err != nil {
		t.Fatal(err)
	}
	file := File{Product: "501", Place: "front.jpg", FileID: "90", Hash: "aa", Name: "front.jpg"}
	s := Settlement{Outcome: OutcomePartial, Results: []byte(`{"ids":["501"]}`), Took: map[int]string{0: "501"},
		Keys:   []Keys{{Scope: ids, Put: map[string]string{"P1": "501"}, Forget: []string{"OLD"}}},
		Levels: []Levels{{Scope: levels, Put: map[string]float64{"501": 4}}},
		Files:  []Files{{Scope: files, Put: []File{file}}}}
	for _, bad := range []struct {
		id int64
		o  Outcome
	}{{intent + 100, OutcomePartial}, {intent, OutcomePending}} {
		failed := s
		failed.Outcome = bad.o
		if err := db.Settle(ctx, bad.id, failed); err == nil {
			t.Fatalf("batch %d settled as %q", bad.id, bad.o)
		}
	}
	kept := func() (map[string]string, map[string]float64, []File) {
		t.Helper()
		i, err := db.AllIDs(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		l, err := db.Stock(ctx, levels)
		if err != nil {
			t.Fatal(err)
		}
		f, err := db.Files(ctx, files, []string{"501"})
		if err != nil {
			t.Fatal(err)
		}
		return i, l, f
	}
	if i, l, f := kept(); !maps.Equal(i, map[string]string{"OLD": "7"}) || len(l) != 0 || len(f) != 0 {
		t.Errorf("settlements that failed kept ids %v, levels %v, files %v", i, l, f)
	}
	if err := db.Settle(ctx, intent, s); err != nil {
		t.Fatal(err)
	}
	got, err := db.Changes(ctx, run.ID)
	if err != nil || len(got) != 2 {
		t.Fatalf("changes %+v, %v", got, err)
	}
	if got[0].Written != WrittenYes || got[0].RecordID != "501" || got[1].Written != WrittenNo {
		t.Errorf("changes after the settlement: %+v, want P1 written as 501 and P2 not", got)
	}
	if i, l, f := kept(); !maps.Equal(i, map[string]string{"P1": "501"}) || !maps.Equal(l, map[string]float64{"501": 4}) || !slices.Equal(f, []File{file}) {
		t.Errorf("kept after the settlement: ids %v, levels %v, files %+v", i, l, f)
	}
	if open, err := db.OpenIntents(ctx, run.ID); err != nil || len(open) != 0 {
		t.Errorf("the batch is still open: %+v, %v", open, err)
	}
}

// A scratch state keeps its run's batches and what became of them, and
// nothing a later run reads (the history, the records' ids, stock levels
// and files), where a state opened with Open keeps it all.
func TestScratchKeepsNothingForLaterRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		open    func(string) (*DB, error)
		scratch bool
	}{{"Open", Open, false}, {"OpenScratch", OpenScratch, true}} {
		db, err := tc.open(filepath.Join(t.TempDir(), "state.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		run, _, err := db.StartRun(ctx, "fp", "import", nil)
		if err != nil {
			t.Fatal(err)
		}
		intent := recordTwoCreates(t, db, run)
		if err := db.Settle(ctx, intent, Settlement{Outcome: OutcomeApplied, Took: map[int]string{0: "11", 1: "12"},
			Keys:   []Keys{{Scope: "ids", Put: map[string]string{"P1": "11", "P2": "12"}}},
			Levels: []Levels{{Scope: "stock", Put: map[string]float64{"A": 3}}},
			Files:  []Files{{Scope: "files", Put: []File{{Product: "P1", Place: "P1 1", FileID: "77", Hash: "00", Size: 1, Name: "a.jpg"}}}},
		}); err != nil {
			t.Fatal(err)
		}
		intents, err := db.Intents(ctx, run.ID)
		if err != nil || len(intents) != 1 || intents[0].Outcome != OutcomeApplied {
			t.Errorf("%s: intents %+v, %v; want the batch, applied", tc.name, intents, err)
		}
		changes, err := db.Changes(ctx, run.ID)
		if err != nil {
			t.Fatal(err)
		}
		ids, err := db.AllIDs(ctx, "ids")
		if err != nil {
			t.Fatal(err)
		}
		levels, err := db.Stock(ctx, "stock")
		if err != nil {
			t.Fatal(err)
		}
		files, err := db.Files(ctx, "files", []string{"P1"})
		if err != nil {
			t.Fatal(err)
		}
		kept := []int{len(changes), len(ids), len(levels), len(files)}
		want := []int{2, 2, 1, 1}
		if tc.scratch {
			want = []int{0, 0, 0, 0}
		}
		if !slices.Equal(kept, want) {
			t.Errorf("%s kept %v changes, ids, levels and files; want %v", tc.name, kept, want)
		}
	}
}
