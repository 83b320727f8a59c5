package stock_test

import (
	"database/sql"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"lading/api"
	"lading/engine"
	"lading/sandbox"
	"lading/stock"
)

// Only the levels that changed since the last push are sent; the first
// push of a cold cache looks the SKUs up in one read.
func TestPushSendsOnlyChangedLevels(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(30, func(int) int64 { return 5 })
	first := e.levelsFile("first.csv", 30, func(i int) int64 { return int64(10 + i) })
	rep, err := e.push(first)
	if err != nil {
		t.Fatal(err)
	}
	// One read: the SKUs' look-up, whose stock levels name the token's
	// warehouse.
	if rep.Writes != 1 || rep.Reads != 1 || rep.Levels != 30 {
		t.Errorf("first push: %d writes, %d reads, %d levels; want 1 write, 1 read, 30 levels", rep.Writes, rep.Reads, rep.Levels)
	}
	c0 := e.Srv.Counters()
	second := e.levelsFile("second.csv", 30, func(i int) int64 {
		if i%10 == 3 {
			return int64(100 + i)
		}
		return int64(10 + i)
	})
	rep, err = e.push(second)
	if err != nil {
		t.Fatal(err)
	}
	c1 := e.Srv.Counters()
	if got := c1.LevelsSet - c0.LevelsSet; got != 3 || rep.Writes != 1 || rep.Reads != 0 {
		t.Errorf("second push: %d levels set, %d writes, %d reads; want 3, 1, 0", got, rep.Writes, rep.Reads)
	}
	if a := actions(rep); !maps.Equal(a, map[engine.Status]int{stock.Sent: 3, engine.Unchanged: 27}) {
		t.Errorf("second push: rows %v", a)
	}
	levels, _ := e.live()
	for i := range 30 {
		want := float64(10 + i)
		if i%10 == 3 {
			want = float64(100 + i)
		}
		if levels[sku(i)] != want {
			t.Errorf("%s: live level %v, want %v", sku(i), levels[sku(i)], want)
		}
	}
}

// A file of many SKUs reads the state's SKU cache in one pass: a warm
// cache still means no look-up read, and SKUs the cache holds beyond the
// file's do not count.
func TestPushManySKUsReadsTheCacheWhole(t *testing.T) {
	t.Parallel()
	const n = 5100
	e := newEnv(t, sandbox.Options{})
	e.seed(n, func(int) int64 { return 1 })
	if _, err := e.push(e.levelsFile("all.csv", n, func(int) int64 { return 2 })); err != nil {
		t.Fatal(err)
	}
	// The file now holds fewer SKUs than the cache, and 51 changed.
	rep, err := e.push(e.levelsFile("some.csv", n-100, func(i int) int64 { return 2 + int64(i%100/99) }))
	if err != nil {
		t.Fatal(err)
	}
	a := actions(rep)
	if rep.Reads != 0 || rep.Writes != 1 || a[stock.Sent] != 50 || a[engine.Unchanged] != n-150 {
		t.Errorf("%d reads, %d writes, rows %v; want 0 reads, 1 write, 50 sent", rep.Reads, rep.Writes, a)
	}
}

// A file's rows in any order are placed and planned alike: the state's
// SKU ids and levels are matched by a merge when the SKUs ascend, and by
// a map when not (rows repeating a SKU, with its quantity or another,
// included).
func TestPushRowsInAnyOrder(t *testing.T) {
	t.Parallel()
	const n = 5100 // enough to read the SKU cache whole, and packed
	e := newEnv(t, sandbox.Options{})
	e.seed(n, func(int) int64 { return 1 })
	if _, err := e.push(e.levelsFile("all.csv", n, func(int) int64 { return 2 })); err != nil {
		t.Fatal(err)
	}
	_, ids := e.live()
	rows := make([][]string, 0, n+3)
	for i := range n {
		rows = append(rows, []string{sku(i), fmt.Sprint(2 + i%10/9)}) // every 10th changed
	}
	extra := [][]string{{sku(7), "2"}, {sku(12), "5"}, {"NOPE-1", "1"}} // a repeat, a conflict, unknown
	shuffled := slices.Clone(rows)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	descending := slices.Clone(rows)
	slices.Reverse(descending)
	tests := []struct {
		name string
		rows [][]string
	}{
		{"ascending", rows},
		{"ascending_repeats", append(slices.Clone(rows), extra...)},
		{"shuffled", shuffled},
		{"shuffled_repeats", append(slices.Clone(shuffled), extra...)},
		{"descending", descending},
	}
	for _, tt := range tests {
		rep, err := e.push(e.file(tt.name+".csv", tt.rows...), func(o *stock.Options) { o.DryRun = true })
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for _, l := range rep.Lines {
			want := rowFate(l.SKU, ids[l.SKU])
			if l.SKU == sku(12) && len(tt.rows) > n {
				want = engine.Invalid
			}
			old := want != engine.Unknown && want != engine.Invalid
			if l.Action != want || (l.VariantID != ids[l.SKU] && want != engine.Invalid) || l.HasOld != old || (old && l.Old != 2) {
				t.Errorf("%s: row %d (%s): %s, variant %q, old %v %v; want %s, variant %q, old 2", tt.name, l.Row, l.SKU, l.Action, l.VariantID, l.Old, l.HasOld, want, ids[l.SKU])
			}
		}
	}
}

// rowFate is what a dry run of TestPushRowsInAnyOrder does with a row of
// sku (whose variant is id): a row repeating a SKU and quantity shares
// the first row's fate.
func rowFate(sku string, id api.ID) engine.Status {
	var i int
	switch _, err := fmt.Sscanf(sku, "SKU-%d", &i); {
	case err != nil || id == "":
		return engine.Unknown
	case i%10 == 9:
		return stock.ToSend
	}
	return engine.Unchanged
}

// A dry run of a file whose SKUs and warehouse the state knows commits
// nothing to the state: a commit waits for the disk, and a push every
// minute would make one each time for nothing.
func TestDryRunOfKnownSKUsWritesNoState(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(30, func(int) int64 { return 5 })
	if _, err := e.push(e.levelsFile("first.csv", 30, func(i int) int64 { return int64(10 + i) })); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", e.State.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // data_version is a connection's
	version := func() (v int64) {
		t.Helper()
		if err := db.QueryRow(`PRAGMA data_version`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := version()
	rep, err := e.push(e.levelsFile("second.csv", 30, func(i int) int64 { return int64(20 + i) }), func(o *stock.Options) { o.DryRun = true })
	if err != nil {
		t.Fatal(err)
	}
	if a := actions(rep); a[stock.ToSend] != 30 || rep.Reads+rep.Writes != 0 {
		t.Fatalf("dry run: rows %v, %d reads, %d writes; want 30 to send and no request", a, rep.Reads, rep.Writes)
	}
	if after := version(); after != before {
		t.Errorf("the dry run committed to the state (data_version %d, then %d)", before, after)
	}
}

// With its state deleted, a push sends nothing the account already has:
// the look-up of its SKUs brings their live levels, which the file's are
// compared with and then remembered.
func TestPushWithoutStateSendsOnlyWhatTheAccountLacks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(30, func(int) int64 { return 5 })
	levels := func(i int) int64 { return int64(10 + i) }
	if _, err := e.push(e.levelsFile("first.csv", 30, levels)); err != nil {
		t.Fatal(err)
	}
	changed := func(i int) int64 { // the first file's levels, row 7's changed
		if i == 7 {
			return 99
		}
		return levels(i)
	}
	fresh := e.OtherState("fresh.db")
	withFresh := func(o *stock.Options) { o.State = fresh }
	c0 := e.Srv.Counters()
	rep, err := e.push(e.levelsFile("again.csv", 30, changed), withFresh)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Srv.Counters().LevelsSet - c0.LevelsSet; got != 1 || rep.Writes != 1 || rep.Reads != 1 {
		t.Errorf("push with a new state: %d levels set, %d writes, %d reads; want 1, 1, 1 (the look-up)", got, rep.Writes, rep.Reads)
	}
	if a := actions(rep); !maps.Equal(a, map[engine.Status]int{stock.Sent: 1, engine.Unchanged: 29}) {
		t.Errorf("push with a new state: rows %v", a)
	}
	// The levels found live are remembered: the same file again costs
	// nothing.
	rep, err = e.push(e.levelsFile("once-more.csv", 30, changed), withFresh)
	if err != nil {
		t.Fatal(err)
	}
	if a := actions(rep); rep.Reads+rep.Writes != 0 || a[engine.Unchanged] != 30 {
		t.Errorf("the next push: %d reads, %d writes, rows %v; want no request, 30 unchanged", rep.Reads, rep.Writes, a)
	}
}
