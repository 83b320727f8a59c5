package state

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"
)

// A batch's keys and its changes' values are stored as json.Marshal
// wrote them, byte for byte, whatever they hold.
func TestStoredAsEncodingJSON(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, run := openTestRun(t)
	keys := []string{"SKU-<1>", "Größe & \"L\"", "bad \xff", "line\u2028sep"}
	in := []Change{
		{Seq: 0, Op: OpCreate, Resource: ResourceVariant, Key: keys[0], After: map[string]string{"sku": keys[0], "option1": keys[1], "z": "", "a": "\n\t\x01"}},
		{Seq: 1, Op: OpUpdate, Resource: ResourceVariant, Key: keys[1], Before: map[string]string{"price": "1"}, After: map[string]string{"price": keys[2]}},
		{Seq: 2, Op: OpDelete, Resource: ResourceProduct, Key: keys[3], Before: map[string]string{keys[3]: keys[0]}, After: map[string]string{}},
	}
	intent, err := db.RecordIntent(ctx, run.ID, "k", keys, nil, in...)
	if err != nil {
		t.Fatal(err)
	}
	var stored string
	if err := db.sql.QueryRow(`SELECT keys FROM intents WHERE id = ?`, intent).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if want, _ := json.Marshal(keys); stored != string(want) {
		t.Errorf("keys stored as %s, want %s", stored, want)
	}
	// Ids as the account gave them; none keeps the one recorded, and a
	// place not in the batch is passed over.
	in[1].RecordID = "v-1"
	took := map[int]string{0: `9"0<0>\`, 1: "", 2: "Größe\u2028\xff", 7: "x"}
	if _, err := db.sql.Exec(`UPDATE changes SET record_id = 'v-1' WHERE intent_id = ? AND seq = 1`, intent); err != nil {
		t.Fatal(err)
	}
	if err := db.Settle(ctx, intent, Settlement{Outcome: OutcomeApplied, Took: took}); err != nil {
		t.Fatal(err)
	}
	for _, c := range in {
		var before, after, id string
		var written int
		err := db.sql.QueryRow(`SELECT before, after, record_id, written FROM changes WHERE intent_id = ? AND seq = ?`,
			intent, c.Seq).Scan(&before, &after, &id, &written)
		if err != nil {
			t.Fatal(err)
		}
		if want := cmp.Or(took[c.Seq], c.RecordID); id != want || written != 1 {
			t.Errorf("change %d: id %q, written %d; want %q, 1", c.Seq, id, written, want)
		}
		for _, v := range []struct {
			name, stored string
			m            map[string]string
		}{{"before", before, c.Before}, {"after", after, c.After}} {
			if want := marshalMap(v.m); v.stored != want {
				t.Errorf("change %d: %s stored as %s, want %s", c.Seq, v.name, v.stored, want)
			}
		}
	}
}

// marshalMap is m as the state stored it with json.Marshal: {} for nil.
func marshalMap(m map[string]string) string {
	if m == nil {
		m = map[string]string{}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// Rows more than one statement writes are written by several, each row
// once: the changes of a batch, confirmed, and ids noted in a pack.
func TestWritesOfMoreRowsThanAStatementHolds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, run := openTestRun(t)
	in := make([]Change, 2*bulkChunk+1)
	took := map[int]string{}
	for i := range in {
		in[i] = Change{Seq: i, Op: OpCreate, Resource: ResourceVariant, Key: fmt.Sprint("SKU-", i), After: map[string]string{"n": fmt.Sprint(i)}}
		took[i] = fmt.Sprint("id-", i)
	}
	intent, err := db.RecordIntent(ctx, run.ID, "k", nil, nil, in...)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Settle(ctx, intent, Settlement{Outcome: OutcomeApplied, Took: took}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Changes(ctx, run.ID)
	if err != nil || len(got) != len(in) {
		t.Fatalf("%d changes read back of %d, %v", len(got), len(in), err)
	}
	for i, c := range got {
		if c.Seq != i || c.Key != in[i].Key || c.After["n"] != fmt.Sprint(i) || c.RecordID != took[i] || c.Written != WrittenYes || i > 0 && c.ID != got[i-1].ID+1 {
			t.Fatalf("change %d read back as %+v", i, c)
		}
	}

	const scope = "acct|variant"
	if err := db.PutIDs(ctx, scope, manyIDs(0, minPack, "a")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AllIDs(ctx, scope); err != nil { // packs the scope
		t.Fatal(err)
	}
	later := manyIDs(minPack-bulkChunk, 2*bulkChunk+1, "b") // some new, some changed
	if err := db.PutIDs(ctx, scope, later); err != nil {
		t.Fatal(err)
	}
	want := manyIDs(0, minPack, "a")
	maps.Copy(want, later)
	if all, err := db.AllIDs(ctx, scope); err != nil || !maps.Equal(all, want) {
		t.Errorf("ids read back differ: %v, %v", firstDiff(all, want), err)
	}
}

// Confirming a batch finds each change taken by its batch and place, not
// every row of the answer for each change of the batch.
func TestConfirmTakenFindsEachChange(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	args := make([]any, 0, 3*bulkChunk)
	for seq := range bulkChunk {
		args = append(args, int64(7), seq, "id")
	}
	rows, err := db.sql.Query(`EXPLAIN QUERY PLAN `+confirmTaken.query(bulkChunk), args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var step string
		if err := rows.Scan(&id, &parent, &unused, &step); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, step)
	}
	if want := "SEARCH changes USING INDEX changes_of_intent (intent_id=? AND seq=?)"; !slices.Contains(plan, want) {
		t.Errorf("plan %q\nhas no %q", plan, want)
	}
}
