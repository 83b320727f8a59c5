package stock_test

import (
	"maps"
	"testing"

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
