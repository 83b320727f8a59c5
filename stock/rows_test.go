package stock_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"lading/api"
	"lading/engine"
	"lading/sandbox"
	"lading/state"
	"lading/stock"
)

// Bad rows are reported on their rows and the rest goes ahead; nothing is
// ever created.
func TestPushReportsBadRowsAndSendsTheRest(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(6, func(int) int64 { return 1 })
	f := e.file("stock.csv",
		[]string{sku(0), "7"},
		[]string{"NOPE-1", "3"},
		[]string{sku(1), "-2"},
		[]string{sku(2), "2.5"},
		[]string{sku(3), "lots"},
		[]string{sku(4), "4"},
		[]string{sku(4), "5"},
		[]string{sku(5), "9"},
		[]string{sku(5), "9"},
		[]string{"", "1"},
	)
	rep, err := e.push(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		action engine.Status
		msg    string
	}{
		{stock.Sent, ""},
		{engine.Unknown, `SKU "NOPE-1" is not in the account`},
		{engine.Invalid, "0 or more"},
		{engine.Invalid, "whole number"},
		{engine.Invalid, "must be a number"},
		{engine.Invalid, "row 7: 4, row 8: 5"},
		{engine.Invalid, "row 7: 4, row 8: 5"},
		{stock.Sent, ""},
		{stock.Sent, "the same SKU and quantity as row 9"},
		{engine.Invalid, "SKU"},
	}
	if len(rep.Lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(rep.Lines), len(want))
	}
	for i, w := range want {
		l := rep.Lines[i]
		if l.Row != i+2 || l.Action != w.action || !strings.Contains(l.Msg, w.msg) {
			t.Errorf("row %d: %s %q; want row %d %s containing %q", l.Row, l.Action, l.Msg, i+2, w.action, w.msg)
		}
	}
	if rep.Failed() != 7 || rep.Levels != 2 {
		t.Errorf("%d failed, %d levels sent; want 7 and 2", rep.Failed(), rep.Levels)
	}
	levels, ids := e.live()
	if len(ids) != 6 {
		t.Errorf("the account has %d variants after the push, want 6: a push must create nothing", len(ids))
	}
	if levels[sku(0)] != 7 || levels[sku(5)] != 9 || levels[sku(1)] != 1 || levels[sku(4)] != 1 {
		t.Errorf("live levels %v", levels)
	}
}

// A strict push sends nothing when a row is bad, and says so on each row.
func TestStrictPushSendsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(3, func(int) int64 { return 1 })
	f := e.file("stock.csv", []string{sku(0), "7"}, []string{"NOPE", "3"})
	c0 := e.Srv.Counters()
	rep, err := e.push(f, func(o *stock.Options) { o.Strict = true })
	if !errors.Is(err, engine.ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
	if n := e.Srv.Counters().StockWrites - c0.StockWrites; n != 0 || rep.Writes != 0 {
		t.Errorf("a strict push with a bad row sent %d stock writes", n)
	}
	if l := rep.Lines[0]; l.Action != engine.Skipped || !strings.Contains(l.Msg, "strict") {
		t.Errorf("the good row: %s %q", l.Action, l.Msg)
	}
}

// Verifying reads the live levels and repairs one changed behind lading's
// back, which a delta push cannot see; it also remembers the live levels
// that match.
func TestVerifyRepairsALevelChangedElsewhere(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(20, func(int) int64 { return 1 })
	f := e.levelsFile("stock.csv", 20, func(i int) int64 { return int64(i) })
	if _, err := e.push(f); err != nil {
		t.Fatal(err)
	}
	_, ids := e.live()
	// Someone sets SKU-000004 to 99 in the account.
	if _, err := e.C.Stock.SetAvailable(context.Background(), []api.StockLevel{{VariantID: ids[sku(4)], WarehouseID: api.ID(e.Acct.WarehouseID), Units: 99}}); err != nil {
		t.Fatal(err)
	}
	rep, err := e.push(f)
	if err != nil || rep.Writes != 0 {
		t.Fatalf("the delta push: %v, %d writes; want none (it compares with what it pushed)", err, rep.Writes)
	}
	c0 := e.Srv.Counters()
	rep, err = e.push(f, func(o *stock.Options) { o.Verify = true })
	if err != nil {
		t.Fatal(err)
	}
	if n := e.Srv.Counters().LevelsSet - c0.LevelsSet; n != 1 || rep.Writes != 1 || rep.Reads != 1 {
		t.Errorf("verify: %d levels set in %d writes with %d reads; want 1, 1, 1", n, rep.Writes, rep.Reads)
	}
	l := rep.Lines[4]
	if l.Action != stock.Sent || !l.HasOld || l.Old != 99 || l.Units != 4 {
		t.Errorf("the repaired row: %+v", l)
	}
	if levels, _ := e.live(); levels[sku(4)] != 4 {
		t.Errorf("live level of %s is %v after verify, want 4", sku(4), levels[sku(4)])
	}
}

// A cached id of a deleted variant is looked up again, once: a SKU that
// now belongs to another variant is sent to it, one that is gone is
// unknown and forgotten.
func TestPushLooksUpDeletedVariantsAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(3, func(int) int64 { return 1 })
	f := e.levelsFile("stock.csv", 3, func(int) int64 { return 2 })
	if _, err := e.push(f); err != nil {
		t.Fatal(err)
	}
	_, ids := e.live()
	ctx := context.Background()
	if _, err := e.C.Variants.Delete(ctx, ids[sku(0)], ids[sku(1)]); err != nil {
		t.Fatal(err)
	}
	// SKU-000001 comes back as a new product's variant.
	s := sku(1)
	if _, err := e.C.Products.Write(ctx, []api.ProductWrite{{Name: api.String("Again"), Links: &api.ProductLinks{Variants: []api.VariantWrite{{SKU: &s}}}}}); err != nil {
		t.Fatal(err)
	}
	f2 := e.levelsFile("stock2.csv", 3, func(int) int64 { return 5 })
	rep, err := e.push(f2)
	if err != nil {
		t.Fatal(err)
	}
	if a := rep.Lines[0]; a.Action != engine.Unknown || !strings.Contains(a.Msg, "no longer in the account") {
		t.Errorf("deleted SKU: %s %q", a.Action, a.Msg)
	}
	if b := rep.Lines[1]; b.Action != stock.Sent {
		t.Errorf("SKU of a new variant: %s %q", b.Action, b.Msg)
	}
	levels, ids2 := e.live()
	if levels[sku(1)] != 5 || levels[sku(2)] != 5 || ids2[sku(1)] == ids[sku(1)] {
		t.Errorf("live levels %v", levels)
	}
	got, err := e.State.IDs(ctx, state.KeySKUs(scope), []string{sku(0), sku(1)})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got[sku(0)]; ok || got[sku(1)] != string(ids2[sku(1)]) {
		t.Errorf("the SKU cache after the push: %v", got)
	}
}

// Verifying reads the whole listing, so a remembered SKU the account no
// longer shows (renamed here) is unknown and forgotten, and its old
// variant is left alone.
func TestVerifyForgetsSKUsTheAccountNoLongerShows(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(3, func(int) int64 { return 1 })
	f := e.levelsFile("stock.csv", 3, func(int) int64 { return 2 })
	if _, err := e.push(f); err != nil {
		t.Fatal(err)
	}
	_, ids := e.live()
	renamed := "RENAMED"
	ctx := context.Background()
	if _, err := e.C.Variants.Write(ctx, []api.VariantWrite{{ID: ids[sku(2)], SKU: &renamed}}); err != nil {
		t.Fatal(err)
	}
	f2 := e.levelsFile("stock2.csv", 3, func(int) int64 { return 9 })
	rep, err := e.push(f2, func(o *stock.Options) { o.Verify = true })
	if err != nil {
		t.Fatal(err)
	}
	if l := rep.Lines[2]; l.Action != engine.Unknown || rep.Writes != 1 {
		t.Errorf("renamed SKU: %s %q, %d writes; want unknown and one write for the other two", l.Action, l.Msg, rep.Writes)
	}
	if levels, _ := e.live(); levels[renamed] != 2 || levels[sku(0)] != 9 {
		t.Errorf("live levels %v: the renamed variant must keep 2", levels)
	}
	if got, _ := e.State.IDs(ctx, state.KeySKUs(scope), []string{sku(2)}); len(got) != 0 {
		t.Errorf("the cache still maps %s: %v", sku(2), got)
	}
}

// A count a European warehouse writes "1.000" (a thousand) is one unit to
// a file read with decimal "."; such a count, and one with an exponent,
// is refused on its row and never sent: the account keeps its level.
func TestPushRefusesAmbiguousCounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(4, func(int) int64 { return 5 })
	f := e.file("stock.csv",
		[]string{sku(0), "1.000"},
		[]string{sku(1), "1e9"},
		[]string{sku(2), "1e300"},
		[]string{sku(3), "8"},
	)
	rep, err := e.push(f)
	if err != nil {
		t.Fatal(err)
	}
	for i, msg := range []string{`is ambiguous: 1.000 is 1000 units if "." groups thousands, or 1 if "." is the decimal separator; say which under source in the mapping (thousands: ".", or decimal: ".")`,
		"must be written out", "too large"} {
		if l := rep.Lines[i]; l.Action != engine.Invalid || !strings.Contains(l.Msg, msg) {
			t.Errorf("row %d: %s %q; want invalid saying %q", l.Row, l.Action, l.Msg, msg)
		}
	}
	levels, _ := e.live()
	if levels[sku(0)] != 5 || levels[sku(1)] != 5 || levels[sku(2)] != 5 || levels[sku(3)] != 8 || rep.Levels != 1 {
		t.Errorf("levels %v, %d sent; want only %s set to 8", levels, rep.Levels, sku(3))
	}
}

// The account is the truth for stock too: a level is set, never added, so
// the same file pushed with another state (a new host, a lost disk) sends
// the levels again and leaves the account exactly as the file says,
// never doubled.
func TestPushWithAnotherStateSetsTheSameLevels(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed(5, func(int) int64 { return 1 })
	f := e.levelsFile("stock.csv", 5, func(i int) int64 { return int64(10 + i) })
	if rep, err := e.push(f); err != nil || rep.Failed() > 0 {
		t.Fatalf("first push: %v", err)
	}
	other, err := state.Open(filepath.Join(e.Dir, "other.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for run := range 2 {
		rep, err := e.push(f, func(o *stock.Options) { o.State = other })
		if err != nil || rep.Failed() > 0 {
			t.Fatalf("push %d with another state: %v", run+2, err)
		}
		levels, ids := e.live()
		for i := range 5 {
			if levels[sku(i)] != float64(10+i) || len(ids) != 5 {
				t.Errorf("push %d with another state: %s at %v (%d variants), want %d", run+2, sku(i), levels[sku(i)], len(ids), 10+i)
			}
		}
	}
}
