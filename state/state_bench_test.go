package state

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRecordIntentAndOutcome is the state's cost per batch: two
// synced commits.
func BenchmarkRecordIntentAndOutcome(b *testing.B) {
	ctx := context.Background()
	db, _ := openTemp(b)
	run, _, err := db.StartRun(ctx, "fp", "import", nil)
	if err != nil {
		b.Fatal(err)
	}
	keys := make([]string, 100)
	for i := range keys {
		keys[i] = fmt.Sprintf("SKU-%06d", i)
	}
	payload := make([]byte, 20<<10)
	for b.Loop() {
		id, err := db.RecordIntent(ctx, run.ID, "variants.create", keys, payload)
		if err != nil {
			b.Fatal(err)
		}
		if err := db.RecordOutcome(ctx, id, OutcomeApplied, payload[:2<<10]); err != nil {
			b.Fatal(err)
		}
	}
}

func benchIDs(n int) (map[string]string, []string) {
	kv := make(map[string]string, n)
	keys := make([]string, 0, n)
	for i := range n {
		k := fmt.Sprintf("SKU-%07d", i)
		kv[k] = fmt.Sprint(1_000_000 + i)
		keys = append(keys, k)
	}
	return kv, keys
}

// BenchmarkPutIDs10k stores 10,000 key → id pairs in one commit.
func BenchmarkPutIDs10k(b *testing.B) {
	ctx := context.Background()
	db, _ := openTemp(b)
	kv, _ := benchIDs(10_000)
	for b.Loop() {
		if err := db.PutIDs(ctx, "scope", kv); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(10_000*b.N)/b.Elapsed().Seconds(), "ids/s")
}

// BenchmarkIDs10k looks 10,000 keys up among 100,000.
func BenchmarkIDs10k(b *testing.B) {
	ctx := context.Background()
	db, _ := openTemp(b)
	kv, keys := benchIDs(100_000)
	if err := db.PutIDs(ctx, "scope", kv); err != nil {
		b.Fatal(err)
	}
	keys = keys[:10_000]
	for b.Loop() {
		got, err := db.IDs(ctx, "scope", keys)
		if err != nil || len(got) != len(keys) {
			b.Fatalf("%d ids, %v", len(got), err)
		}
	}
	b.ReportMetric(float64(10_000*b.N)/b.Elapsed().Seconds(), "ids/s")
}

// BenchmarkStock100k reads back the 100,000 levels remembered for a scope,
// as a stock push of a 100,000-variant warehouse does before planning.
func BenchmarkStock100k(b *testing.B) {
	ctx := context.Background()
	db, _ := openTemp(b)
	levels := make(map[string]float64, 100_000)
	for i := range 100_000 {
		levels[fmt.Sprintf("SKU-%07d", i)] = float64(i % 50)
	}
	if err := db.PutStock(ctx, "scope", levels); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		got, err := db.Stock(ctx, "scope")
		if err != nil || len(got) != len(levels) {
			b.Fatalf("%d levels, %v", len(got), err)
		}
	}
}

// BenchmarkSettleStock100 is the state's cost per stock batch: one synced
// commit of an outcome and 100 levels.
func BenchmarkSettleStock100(b *testing.B) {
	ctx := context.Background()
	db, _ := openTemp(b)
	run, _, err := db.StartRun(ctx, "fp", "stock push", nil)
	if err != nil {
		b.Fatal(err)
	}
	keys := make([]string, 100)
	levels := make(map[string]float64, 100)
	for i := range keys {
		keys[i] = fmt.Sprintf("SKU-%06d", i)
		levels[keys[i]] = float64(i)
	}
	for b.Loop() {
		id, err := db.RecordIntent(ctx, run.ID, "variants.stock", keys, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := db.Settle(ctx, id, Settlement{Outcome: OutcomeApplied, Levels: []Levels{{Scope: "scope", Put: levels}}}); err != nil {
			b.Fatal(err)
		}
	}
}

// scratchRun is a scratch state (lading sandbox --load's) with an import
// run started.
func scratchRun(b *testing.B) (*DB, *Run) {
	db, err := OpenScratch(filepath.Join(b.TempDir(), "state.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	run, _, err := db.StartRun(context.Background(), "fp", "import", nil)
	if err != nil {
		b.Fatal(err)
	}
	return db, run
}

// BenchmarkBatchOfCreates is the state's work for one batch of 100
// product creates as an import records it, on a scratch state (lading
// sandbox --load): the intent with its changes, then the answer: the
// outcome, the records confirmed with the ids they got, and the ids.
func BenchmarkBatchOfCreates(b *testing.B) {
	ctx := context.Background()
	db, run := scratchRun(b)
	payload := make([]byte, 100<<10)
	description := strings.Repeat("<p>A fine thing.</p>", 40)
	n := 0
	for b.Loop() {
		keys := make([]string, 100)
		changes := make([]Change, 100)
		took, ids := map[int]string{}, map[string]string{}
		for i := range keys {
			n++
			keys[i] = fmt.Sprintf("product-%07d", n)
			changes[i] = Change{Seq: i, Op: OpCreate, Resource: ResourceProduct, Key: keys[i],
				After: map[string]string{"name": keys[i], "description": description, "tags": "a|b"}}
			took[i] = fmt.Sprint(1_000_000 + n)
			ids[keys[i]] = took[i]
		}
		id, err := db.RecordIntent(ctx, run.ID, "products.create", keys, payload, changes...)
		if err != nil {
			b.Fatal(err)
		}
		if err := db.RecordOutcome(ctx, id, OutcomeApplied, payload[:2<<10]); err != nil {
			b.Fatal(err)
		}
		if err := db.Settle(ctx, id, Settlement{Outcome: OutcomeApplied, Took: took}); err != nil {
			b.Fatal(err)
		}
		if err := db.PutIDs(ctx, KeyProducts("scope"), ids); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBatchState is the state's work for one batch of an import of
// variants (100 products, 400 variants) on a state file: the intent with
// its 400 changes, the answer taking all 400 with their ids, and the ids
// of the 100 products. The products' scope is packed in "packed" (a scope
// read whole), where each id written is noted against the pack too.
func BenchmarkBatchState(b *testing.B) {
	for _, packed := range []bool{false, true} {
		b.Run(map[bool]string{false: "unpacked", true: "packed"}[packed], func(b *testing.B) {
			benchBatchState(b, packed)
		})
	}
}

func benchBatchState(b *testing.B, packed bool) {
	ctx := context.Background()
	db, run := scratchRun(b)
	scope := KeyProducts("scope")
	if packed {
		old, _ := benchIDs(2 * minPack)
		if err := db.PutIDs(ctx, scope, old); err != nil {
			b.Fatal(err)
		}
		if _, err := db.AllIDs(ctx, scope); err != nil {
			b.Fatal(err)
		}
	}
	payload := make([]byte, 100<<10)
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		keys, changes, took, ids := benchBatch(n)
		n++
		id, err := db.RecordIntent(ctx, run.ID, "variants.create", keys, payload, changes...)
		if err != nil {
			b.Fatal(err)
		}
		if err := db.Settle(ctx, id, Settlement{Outcome: OutcomeApplied, Took: took}); err != nil {
			b.Fatal(err)
		}
		if err := db.PutIDs(ctx, scope, ids); err != nil {
			b.Fatal(err)
		}
	}
}

// benchBatch is the n-th batch of 100 products of 4 variants each: the
// variants' keys and creates (4 to 6 fields each), the ids the answer
// gave them, and the products' ids.
func benchBatch(n int) (keys []string, changes []Change, took map[int]string, ids map[string]string) {
	took, ids = map[int]string{}, map[string]string{}
	for p := range 100 {
		product := fmt.Sprintf("product-%07d", n*100+p)
		ids[product] = fmt.Sprint(5_000_000 + n*100 + p)
		for v := range 4 {
			seq := len(changes)
			sku := fmt.Sprintf("SKU-%07d-%d", n*100+p, v)
			after := map[string]string{"sku": sku, "price": "19.90", "barcode": fmt.Sprint(4006381333931 + seq),
				"option1": []string{"S", "M", "L", "XL"}[v]}
			if v%2 == 1 {
				after["option2"], after["tier Wholesale"] = "Black & Grün", "12.50"
			}
			keys = append(keys, sku)
			changes = append(changes, Change{Seq: seq, Op: OpCreate, Resource: ResourceVariant, Key: sku, ParentID: ids[product], After: after})
			took[seq] = fmt.Sprint(9_000_000 + n*400 + seq)
		}
	}
	return keys, changes, took, ids
}
