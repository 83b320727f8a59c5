package state

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	_ "modernc.org/sqlite"
)

// packsOf counts the packs of table t and scope.
func packsOf(t *testing.T, db *DB, table, scope string) (n int, entries int) {
	t.Helper()
	err := db.sql.QueryRow(`SELECT count(*), coalesce(sum(entries), 0) FROM packs WHERE tbl = ? AND scope = ?`, table, scope).Scan(&n, &entries)
	if err != nil {
		t.Fatal(err)
	}
	return n, entries
}

// idsOf reads scope whole through EachID, checking that the keys come in
// order, once each.
func idsOf(t *testing.T, db *DB, scope string) map[string]string {
	t.Helper()
	got := map[string]string{}
	var last []byte
	err := db.EachID(context.Background(), scope, func(k, id []byte) {
		if last != nil && bytes.Compare(last, k) >= 0 {
			t.Errorf("key %q after %q", k, last)
		}
		last = append(last[:0], k...)
		got[string(k)] = string(id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func manyIDs(from, n int, id string) map[string]string {
	kv := make(map[string]string, n)
	for i := from; i < from+n; i++ {
		kv[fmt.Sprintf("SKU-%05d", i)] = fmt.Sprint(id, i)
	}
	return kv
}

// A scope read whole is packed once it holds minPack keys; the keys
// written, changed and deleted after are read as the rows hold them, and
// the pack is made again once they are many.
func TestEachIDReadsThePackAndTheRowsWrittenSince(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, p := openTemp(t)
	const scope = "acct|variant"
	want := map[string]string{}
	steps := []struct {
		name      string
		put       map[string]string
		del       []string
		packs     int // packs after the read
		entries   int
		other     string // a scope written beside, never read
		otherKeys int
	}{
		{name: "few keys: rows", put: manyIDs(0, minPack-1, "a"), packs: 0},
		{name: "enough keys: packed", put: manyIDs(minPack-1, 1, "a"), packs: 1, entries: minPack},
		{name: "a few changed and added: pack and rows", put: manyIDs(10, 20, "b"), packs: 1, entries: minPack, other: "acct2|variant", otherKeys: 5},
		{name: "deleted: the pack is dropped, too few to make again", del: []string{"SKU-00003", "SKU-00011", "SKU-99999"}, packs: 0},
		{name: "many written since: made again", put: manyIDs(2000, minPack+1, "c"), packs: 1, entries: 2*minPack - 1},
		{name: "changed after the last", put: manyIDs(2000, 3, "d"), packs: 1, entries: 2*minPack - 1},
	}
	for _, s := range steps {
		if err := db.PutIDs(ctx, scope, s.put); err != nil {
			t.Fatal(err)
		}
		maps.Copy(want, s.put)
		if err := db.DeleteIDs(ctx, scope, s.del); err != nil {
			t.Fatal(err)
		}
		for _, k := range s.del {
			delete(want, k)
		}
		if s.other != "" {
			if err := db.PutIDs(ctx, s.other, manyIDs(0, s.otherKeys, "x")); err != nil {
				t.Fatal(err)
			}
		}
		if got := idsOf(t, db, scope); !maps.Equal(got, want) {
			t.Errorf("%s: EachID gives %d keys, want %d (differ: %v)", s.name, len(got), len(want), firstDiff(got, want))
		}
		if n, e := packsOf(t, db, "ids", scope); n != s.packs || e != s.entries {
			t.Errorf("%s: %d packs of %d entries, want %d of %d", s.name, n, e, s.packs, s.entries)
		}
		if all, err := db.AllIDs(ctx, scope); err != nil || !maps.Equal(all, want) {
			t.Errorf("%s: AllIDs differs: %v", s.name, err)
		}
	}
	// Writes note their keys only in a packed scope.
	for sc, n := range map[string]int{scope: 3, "acct2|variant": 0} {
		var noted int
		if err := db.sql.QueryRow(`SELECT count(*) FROM pack_since WHERE scope = ?`, sc).Scan(&noted); err != nil || noted != n {
			t.Errorf("%s: %d keys noted, %v; want %d", sc, noted, err, n)
		}
	}
	db = reopen(t, db, p)
	if got := idsOf(t, db, scope); !maps.Equal(got, want) {
		t.Errorf("after reopening: differ %v", firstDiff(got, want))
	}
	got, err := db.IDs(ctx, scope, []string{"SKU-00003", "SKU-00012", "SKU-02001"})
	if w := map[string]string{"SKU-00012": "b12", "SKU-02001": "d2001"}; err != nil || !maps.Equal(got, w) {
		t.Errorf("IDs = %v, %v; want %v", got, err, w)
	}
}

func firstDiff(got, want map[string]string) string {
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if got[k] != want[k] {
			return fmt.Sprintf("%q: %q, want %q", k, got[k], want[k])
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			return fmt.Sprintf("%q: %q, want none", k, got[k])
		}
	}
	return "none"
}

// Levels are packed as ids are; PackStock packs them ahead of a read, and
// ForgetStock drops the pack.
func TestEachStockPacked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := openTemp(t)
	want := map[string]float64{}
	for i := range 3 * minPack {
		want[fmt.Sprintf("V%d", i)] = float64(i%50) + 0.5
	}
	want["V7"] = 1e15 + 1
	if err := db.PutStock(ctx, stockScope, want); err != nil {
		t.Fatal(err)
	}
	if err := db.PackStock(ctx, stockScope); err != nil {
		t.Fatal(err)
	}
	if n, e := packsOf(t, db, "stock", stockScope); n != 1 || e != len(want) {
		t.Fatalf("PackStock made %d packs of %d entries, want 1 of %d", n, e, len(want))
	}
	if err := db.PutStock(ctx, stockScope, map[string]float64{"V1": 99, "W": 3}); err != nil {
		t.Fatal(err)
	}
	want["V1"], want["W"] = 99, 3
	if got, err := db.Stock(ctx, stockScope); err != nil || !maps.Equal(got, want) {
		t.Errorf("Stock after a change differs: %v", err)
	}
	if err := db.ForgetStock(ctx, stockScope, []string{"V2", "W"}); err != nil {
		t.Fatal(err)
	}
	delete(want, "V2")
	delete(want, "W")
	if n, _ := packsOf(t, db, "stock", stockScope); n != 0 {
		t.Errorf("%d packs after ForgetStock, want none", n)
	}
	if got, err := db.Stock(ctx, stockScope); err != nil || !maps.Equal(got, want) {
		t.Errorf("Stock after ForgetStock differs: %v", err)
	}
}

// A state written before packs (schema version 4) opens, and its ids and
// levels are read, then packed, as they were.
func TestOpenMigratesRowsWrittenBeforePacks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "state.db")
	old, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations[:4] {
		if _, err := old.Exec(m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := old.Exec(`CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (4)`); err != nil {
		t.Fatal(err)
	}
	ids := manyIDs(0, 2*minPack, "v")
	tx, err := old.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range ids {
		if _, err := tx.Exec(`INSERT INTO ids VALUES ('s', ?, ?, 1)`, k, v); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO stock VALUES ('w', ?, 4, 1)`, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	old.Close()
	db, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for range 2 { // the rows, then the pack
		if got := idsOf(t, db, "s"); !maps.Equal(got, ids) {
			t.Errorf("ids differ: %v", firstDiff(got, ids))
		}
		levels, err := db.Stock(ctx, "w")
		if err != nil || len(levels) != len(ids) || levels["v5"] != 4 {
			t.Errorf("%d levels, v5 at %v, %v", len(levels), levels["v5"], err)
		}
	}
	if n, e := packsOf(t, db, "ids", "s"); n != 1 || e != len(ids) {
		t.Errorf("%d packs of %d ids, want 1 of %d", n, e, len(ids))
	}
}

// FuzzPacked: any data is read as entries or refused with errBadPack, never
// a panic; and entries packed are read back as they were, the delta's
// value winning.
func FuzzPacked(f *testing.F) {
	f.Add([]byte{}, "a=1,b=2", "b=3,c=4")
	f.Add([]byte{2, 'a', 'b', 1, 'x'}, "", "ab=y")
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, "k=", "")
	f.Fuzz(func(t *testing.T, data []byte, packed, since string) {
		n := 0
		if err := eachPacked(data, nil, func(k, v []byte) { n++ }); err != nil && err != errBadPack {
			t.Fatalf("error %v", err)
		}
		if n > len(data) {
			t.Fatalf("%d entries from %d bytes", n, len(data))
		}
		base, delta := fuzzEntries(packed), fuzzEntries(since)
		want := maps.Clone(base)
		var rows []kv
		for _, k := range slices.Sorted(maps.Keys(delta)) {
			want[k] = delta[k]
			rows = append(rows, kv{[]byte(k), []byte(delta[k])})
		}
		var first []byte
		for _, k := range slices.Sorted(maps.Keys(base)) {
			first = appendEntry(first, []byte(k), []byte(base[k]))
		}
		out, entries, err := mergePacked(first, rows)
		got := map[string]string{}
		if err == nil {
			err = eachPacked(out, nil, func(k, v []byte) { got[string(k)] = string(v) })
		}
		if err != nil || entries != len(want) || !maps.Equal(got, want) {
			t.Errorf("merged %v (%d entries, %v), want %v", got, entries, err, want)
		}
	})
}

// fuzzEntries reads "k=v,k=v".
func fuzzEntries(s string) map[string]string {
	m := map[string]string{}
	for _, e := range bytes.Split([]byte(s), []byte(",")) {
		if k, v, ok := bytes.Cut(e, []byte("=")); ok {
			m[string(k)] = string(v)
		}
	}
	return m
}

// A pack made again, or dropped, between its head and its data being
// read is not completed with rows written since another: the rows are
// read one by one instead.
func TestEachOfPackMadeMeanwhile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := openTemp(t)
	packed := manyIDs(0, minPack, "a")
	if err := db.PutIDs(ctx, "s", packed); err != nil {
		t.Fatal(err)
	}
	want := maps.Clone(packed)
	p, err := idsTable.repack(ctx, db, "s")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PutIDs(ctx, "s", map[string]string{"SKU-00001": "new"}); err != nil {
		t.Fatal(err)
	}
	want["SKU-00001"] = "new"
	for _, tt := range []struct {
		name, scope string
		seq         int64
		want        map[string]string
	}{
		{"the pack read", "s", p.made, packed}, // no delta given: the pack's own
		{"another pack", "s", p.made - 1, want},
		{"no pack", "none", p.made, map[string]string{}},
	} {
		got := map[string]string{}
		if err := idsTable.eachOfPack(ctx, db.sql, tt.scope, tt.seq, nil, func(k, v []byte) { got[string(k)] = string(v) }); err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, tt.want) {
			t.Errorf("%s: differ %v", tt.name, firstDiff(got, tt.want))
		}
	}
}

// A pack is a cache of the rows: one damaged on disk is read as its rows
// (nothing of the damaged data reaching the caller), whether it is read
// as it is or made again with rows written since, and is made anew.
func TestDamagedPackIsReadAsItsRows(t *testing.T) {
	t.Parallel()
	swapped := appendEntry(appendEntry(nil, []byte("SKU-9"), []byte("x")), []byte("SKU-1"), []byte("y"))
	for _, damage := range []struct {
		name string
		data func(good []byte) []byte
	}{
		{"cut short", func(good []byte) []byte { return good[:len(good)-3] }},
		{"a length past the end", func([]byte) []byte { return []byte{0xff, 0xff, 0x03, 'a'} }},
		{"keys out of order", func([]byte) []byte { return swapped }},
	} {
		for _, since := range []int{0, 2 * minPack} { // the pack as it is; made again
			t.Run(fmt.Sprintf("%s, %d written since", damage.name, since), func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				db, _ := openTemp(t)
				want := manyIDs(0, 2*minPack, "a")
				if err := db.PutIDs(ctx, "s", want); err != nil {
					t.Fatal(err)
				}
				p, err := idsTable.repack(ctx, db, "s")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := db.sql.Exec(`UPDATE packs SET data = ? WHERE tbl = 'ids'`, damage.data(p.data)); err != nil {
					t.Fatal(err)
				}
				later := manyIDs(2*minPack-since/2, since, "b") // half new, half changed
				if err := db.PutIDs(ctx, "s", later); err != nil {
					t.Fatal(err)
				}
				maps.Copy(want, later)
				for read := range 2 {
					if got := idsOf(t, db, "s"); !maps.Equal(got, want) {
						t.Fatalf("read %d: %d ids, first difference %v", read+1, len(got), firstDiff(got, want))
					}
				}
				if err := idsTable.packIfStale(ctx, db, "s"); err != nil {
					t.Fatal(err)
				}
				if n, e := packsOf(t, db, "ids", "s"); n != 1 || e != len(want) {
					t.Errorf("%d packs of %d ids after the damaged one, want 1 of %d", n, e, len(want))
				}
			})
		}
	}
}
