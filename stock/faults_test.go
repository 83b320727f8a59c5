package stock_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"lading/engine"
	"lading/sandbox"
	"lading/state"
	"lading/stock"
)

// Writes that get no answer (the service applied them and dropped the
// connection, or failed with a 500 before applying) are read back before
// anything is sent again: every level ends right, and none is set twice.
func TestPushChecksUnansweredWritesBeforeSendingAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(600, func(int) int64 { return 1 })
	e.Restart(sandbox.Options{DropRate: 0.3, FailRate: 0.2, Seed: 7})
	f := e.levelsFile("stock.csv", 600, func(i int) int64 { return int64(2 + i%50) })
	c0 := e.Srv.Counters()
	rep, err := e.push(f, func(o *stock.Options) { o.BatchSize = 20 })
	if err != nil {
		t.Fatal(err)
	}
	c1 := e.Srv.Counters()
	if c1.Faults["drop"]+c1.Faults["fail"] == c0.Faults["drop"]+c0.Faults["fail"] {
		t.Fatal("no fault was injected: the test proves nothing")
	}
	if a := actions(rep); a[stock.Sent] != 600 {
		t.Errorf("rows %v; want all 600 sent", a)
	}
	// Every level differs from the seeded one: each is set exactly once.
	if n := c1.LevelsSet - c0.LevelsSet; n != 600 {
		t.Errorf("%d levels set for 600 rows, each changed once", n)
	}
	levels, _ := e.live()
	for i := range 600 {
		if levels[sku(i)] != float64(2+i%50) {
			t.Fatalf("%s: live %v, want %d", sku(i), levels[sku(i)], 2+i%50)
		}
	}
}

// A second push of the same account and warehouse while one runs stops at
// once, naming the process that holds the lock.
func TestConcurrentPushIsLocked(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(2, func(int) int64 { return 1 })
	f := e.levelsFile("stock.csv", 2, func(int) int64 { return 3 })
	p, err := stock.NewPusher(stock.Options{Options: engine.Options{Client: e.C, State: e.State, Scope: scope, Mapping: stockMapping, Input: f}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Push(context.Background()); err != nil {
		t.Fatal(err)
	}
	other, err := state.Open(e.State.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	c0 := e.Srv.Counters()
	_, err = stock.Push(context.Background(), stock.Options{Options: engine.Options{Client: e.C, State: other, Scope: scope, Mapping: stockMapping, Input: f}, Full: true})
	var le *state.LockedError
	if !errors.As(err, &le) || !errors.Is(err, state.ErrLocked) || !strings.Contains(err.Error(), "pid") {
		t.Fatalf("second push: %v; want a LockedError naming the holder", err)
	}
	if n := total(e.Srv.Counters().Requests) - total(c0.Requests); n != 0 {
		t.Errorf("the locked-out push sent %d requests; it knew its warehouse and should have sent none", n)
	}
	// The pusher keeps the lock between its pushes (a schedule) ...
	if _, err := p.Push(context.Background()); err != nil {
		t.Fatal(err)
	}
	// ... and lets it go when closed.
	p.Close()
	if _, err := stock.Push(context.Background(), stock.Options{Options: engine.Options{Client: e.C, State: other, Scope: scope, Mapping: stockMapping, Input: f}}); err != nil {
		t.Fatalf("after Close: %v", err)
	}
}

// A row may name its warehouse by id or label; one the account does not
// have makes the row invalid.
func TestWarehouseColumn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(3, func(int) int64 { return 1 })
	f := e.file("stock.csv",
		[]string{sku(0), "4", e.Acct.WarehouseID},
		[]string{sku(1), "5", "integration WAREHOUSE"},
		[]string{sku(2), "6", "Elsewhere"},
	)
	rep, err := e.push(f)
	if err != nil {
		t.Fatal(err)
	}
	got := []engine.Status{rep.Lines[0].Action, rep.Lines[1].Action, rep.Lines[2].Action}
	if got[0] != stock.Sent || got[1] != stock.Sent || got[2] != engine.Invalid || !strings.Contains(rep.Lines[2].Msg, `warehouse "Elsewhere"`) {
		t.Errorf("actions %v, last message %q", got, rep.Lines[2].Msg)
	}
	if id := rep.Lines[2].WarehouseID; id != "" {
		t.Errorf("the row naming an unknown warehouse is given warehouse %s", id)
	}
	if rep.Levels != 2 {
		t.Errorf("report: %d levels sent, want 2", rep.Levels)
	}
}

func total(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}
