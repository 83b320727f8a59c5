package state

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

const stockScope = "https://a.example|warehouse 3"

// A batch settled keeps the levels of its records taken, with its outcome.
func TestSettleKeepsLevels(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, p := openTemp(t)
	run, _, err := db.StartRun(ctx, "fp", "stock push", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PutStock(ctx, stockScope, map[string]float64{"A": 4, "B": 2}); err != nil {
		t.Fatal(err)
	}
	id, err := db.RecordIntent(ctx, run.ID, "variants.stock", []string{"A", "C"}, []byte(`{"Variants":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	empty, err := db.RecordIntent(ctx, run.ID, "variants.stock", []string{"D"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Settle(ctx, id, Settlement{Outcome: OutcomePartial, Results: []byte(`{"failed":["C"]}`), Levels: []Levels{{Scope: stockScope, Put: map[string]float64{"A": 9}}}}); err != nil {
		t.Fatal(err)
	}
	if err := db.Settle(ctx, empty, Settlement{Outcome: OutcomeRejected, Levels: []Levels{{Scope: stockScope}}}); err != nil {
		t.Fatalf("no levels: %v", err)
	}

	db = reopen(t, db, p)
	got, err := db.Stock(ctx, stockScope)
	if want := map[string]float64{"A": 9, "B": 2}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Stock = %v, %v; want %v", got, err, want)
	}
	all, err := db.Intents(ctx, run.ID)
	if err != nil || len(all) != 2 {
		t.Fatalf("intents %+v, %v", all, err)
	}
	if all[0].Outcome != OutcomePartial || string(all[0].Results) != `{"failed":["C"]}` || all[1].Outcome != OutcomeRejected {
		t.Errorf("outcomes %q %s, %q", all[0].Outcome, all[0].Results, all[1].Outcome)
	}
}

func TestForgetStock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, p := openTemp(t)
	levels := map[string]float64{}
	var keys []string
	for i := range 1200 { // more than two delete chunks
		k := fmt.Sprintf("SKU-%04d", i)
		levels[k] = float64(i)
		keys = append(keys, k)
	}
	if err := db.PutStock(ctx, stockScope, levels); err != nil {
		t.Fatal(err)
	}
	if err := db.PutStock(ctx, "elsewhere", map[string]float64{"SKU-0001": 5}); err != nil {
		t.Fatal(err)
	}
	if err := db.ForgetStock(ctx, stockScope, append(keys[:700:700], "MISSING")); err != nil {
		t.Fatal(err)
	}
	if err := db.ForgetStock(ctx, stockScope, nil); err != nil {
		t.Fatalf("nothing to forget: %v", err)
	}
	db = reopen(t, db, p)
	got, err := db.Stock(ctx, stockScope)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 500 || got["SKU-0700"] != 700 || got["SKU-1199"] != 1199 {
		t.Errorf("after forgetting 700: %d levels, SKU-0700=%v", len(got), got["SKU-0700"])
	}
	if _, ok := got["SKU-0000"]; ok {
		t.Error("SKU-0000 still remembered")
	}
	if other, _ := db.Stock(ctx, "elsewhere"); !reflect.DeepEqual(other, map[string]float64{"SKU-0001": 5}) {
		t.Errorf("other scope %v", other)
	}
}
