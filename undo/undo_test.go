package undo_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/api"
	"lading/engine"
	"lading/exporter"
	"lading/mapping"
	"lading/sandbox"
	"lading/sandbox/sandboxtest"
	"lading/stock"
	"lading/undo"
)

const scope = "test"

type env struct{ *sandboxtest.Env }

func sku(i int) string { return fmt.Sprintf("SKU-%03d", i) }

// seed creates n variants SKU-000 ... with opening stock i in one product.
func (e *env) seed(n int) {
	e.T.Helper()
	p := api.ProductWrite{Name: api.String("Tee"), Links: &api.ProductLinks{Attributes: []api.AttributeRef{{Name: "Size"}}}}
	for i := range n {
		s, q := sku(i), fmt.Sprint(i)
		p.Links.Variants = append(p.Links.Variants, api.VariantWrite{SKU: &s, Quantity: &q,
			Links: &api.VariantLinks{AttributeOptions: []api.OptionRef{{Value: fmt.Sprint("S", i), Attribute: "Size"}}}})
	}
	if res, err := e.C.Products.Write(context.Background(), []api.ProductWrite{p}); err != nil || len(res.Failed) > 0 {
		e.T.Fatalf("seeding: %v %v", err, res)
	}
}

// export writes the account's catalog (with stock levels) as CSV and
// returns its bytes.
func (e *env) export(name string) []byte {
	e.T.Helper()
	out := filepath.Join(e.Dir, name)
	if _, err := exporter.Export(context.Background(), exporter.Options{Client: e.C, Resource: exporter.Products, Output: out}); err != nil {
		e.T.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		e.T.Fatal(err)
	}
	return b
}

// push pushes a stock file setting SKU-i to level(i) for the first n SKUs.
func (e *env) push(name string, n int, level func(int) int) *stock.Report {
	e.T.Helper()
	path := filepath.Join(e.Dir, name)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"sku", "quantity"})
	for i := range n {
		w.Write([]string{sku(i), fmt.Sprint(level(i))})
	}
	w.Flush()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		e.T.Fatal(err)
	}
	m, err := mapping.Parse("stock.yaml", []byte("stock:\n  sku: sku\n  quantity: quantity\n"))
	if err != nil {
		e.T.Fatal(err)
	}
	rep, err := stock.Push(context.Background(), stock.Options{Options: engine.Options{Client: e.C, State: e.State, Scope: scope, Mapping: m, Input: path}})
	if err != nil {
		e.T.Fatal(err)
	}
	return rep
}

func (e *env) undo(ctx context.Context, run int64, opts ...func(*undo.Options)) (*undo.Report, error) {
	o := undo.Options{Client: e.C, State: e.State, Scope: scope, Run: run, ResultsFile: filepath.Join(e.Dir, fmt.Sprintf("undo-%d.csv", run))}
	for _, f := range opts {
		f(&o)
	}
	return undo.Undo(ctx, o)
}

// lastRun is the newest run's id.
func (e *env) lastRun() int64 {
	e.T.Helper()
	runs, err := e.State.Runs(context.Background(), 1)
	if err != nil || len(runs) != 1 {
		e.T.Fatalf("runs %v, %v", runs, err)
	}
	return runs[0].ID
}

// An undo of a stock push sets the levels back: an export before the push
// and one after the undo are the same, byte for byte; a dry run writes
// nothing; undoing the undo does the push again.
func TestUndoStockPush(t *testing.T) {
	t.Parallel()
	e := &env{sandboxtest.New(t, sandbox.Options{})}
	e.seed(30)
	e.push("first.csv", 30, func(i int) int { return i }) // the levels the state now remembers
	before := e.export("before.csv")

	e.push("changed.csv", 30, func(i int) int { return i + 100*(i%3) })
	run := e.lastRun()
	if after := e.export("after.csv"); bytes.Equal(after, before) {
		t.Fatal("the push changed nothing")
	}

	dry, err := e.undo(context.Background(), run, func(o *undo.Options) { o.DryRun = true })
	if err != nil || dry.Rows[undo.ToRestore] != 20 || dry.Writes != 0 {
		t.Fatalf("dry run: %v %v, %d writes; want 20 to restore and none written", dry.Rows, err, dry.Writes)
	}

	rep, err := e.undo(context.Background(), run)
	if err != nil || rep.Rows[undo.Restored] != 20 || rep.Writes != 1 || rep.Reads != 1 {
		t.Fatalf("undo: %v %v, %d writes %d reads; want 20 restored in 1 read and 1 write", rep.Rows, err, rep.Writes, rep.Reads)
	}
	if after := e.export("undone.csv"); !bytes.Equal(after, before) {
		t.Errorf("after the undo the catalog differs from before the push:\n%s\nwant\n%s", after, before)
	}

	// Undoing the undo pushes the levels again.
	redo, err := e.undo(context.Background(), e.lastRun())
	if err != nil || redo.Rows[undo.Restored] != 20 {
		t.Fatalf("redo: %v %v", redo.Rows, err)
	}
	if again := e.push("changed.csv", 30, func(i int) int { return i + 100*(i%3) }); again.Levels != 0 {
		t.Errorf("after the redo the same file sent %d levels; want none (the account holds them)", again.Levels)
	}
}

// A level changed since the push is a conflict: kept and reported (the
// run fails those rows), unless forced; a run of shipments is not undone.
func TestUndoKeepsConflicts(t *testing.T) {
	t.Parallel()
	e := &env{sandboxtest.New(t, sandbox.Options{})}
	e.seed(5)
	e.push("first.csv", 5, func(i int) int { return i })
	e.push("second.csv", 5, func(i int) int { return 50 + i })
	run := e.lastRun()
	// Someone sets SKU-002 by hand.
	var id api.ID
	for p, err := range e.C.Variants.BySKUPages(context.Background(), []string{sku(2)}) {
		if err != nil {
			t.Fatal(err)
		}
		id = p.Records[0].ID
	}
	if _, err := e.C.Stock.SetAvailable(context.Background(), []api.StockLevel{{VariantID: id, WarehouseID: api.ID(e.Acct.WarehouseID), Units: 7}}); err != nil {
		t.Fatal(err)
	}

	rep, err := e.undo(context.Background(), run)
	if err != nil || rep.Rows[undo.Restored] != 4 || rep.Rows[engine.Conflict] != 1 || rep.Failed() != 1 {
		t.Fatalf("undo: %v %v; want 4 restored and 1 conflict", rep.Rows, err)
	}
	for _, l := range rep.Lines {
		if l.Action == engine.Conflict && l.Msg != "the level of SKU SKU-002 in warehouse "+e.Acct.WarehouseID+" changed since the run: available is 7 now; the run set 52; it was 2 before; kept as it is (a forced undo sets it back)" {
			t.Errorf("conflict message: %q", l.Msg)
		}
	}
	forced, err := e.undo(context.Background(), run, func(o *undo.Options) { o.Force = true })
	if err != nil || forced.Rows[undo.Restored] != 1 || forced.Rows[engine.Unchanged] != 4 {
		t.Fatalf("forced: %v %v; want the conflict set back and the rest already back", forced.Rows, err)
	}
}

// cutOff is a transport that, once a write went through, cancels the
// undo's context and loses the write's answer: the undo is interrupted
// as a Ctrl-C during a write whose answer never came would.
type cutOff struct {
	cancel context.CancelFunc
	next   http.RoundTripper
}

func (c cutOff) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := c.next.RoundTrip(r)
	if err == nil && strings.Contains(r.URL.Path, "/v1/") {
		res.Body.Close()
		c.cancel()
		return nil, errors.New("connection reset by peer")
	}
	return res, err
}

// undoCut undoes run as a Ctrl-C during its first write, whose answer
// never came, leaves it (cutOff).
func (e *env) undoCut(run int64) (*undo.Report, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cut, err := api.NewClient(e.URL, sandboxtest.Token, api.WithRate(1000, 100), api.WithRetries(0),
		api.WithHTTPClient(&http.Client{Transport: cutOff{cancel, http.DefaultTransport}}))
	if err != nil {
		e.T.Fatal(err)
	}
	return undo.Undo(ctx, undo.Options{Client: cut, State: e.State, Scope: scope, Run: run, ResultsFile: filepath.Join(e.Dir, "cut.csv")})
}

// An undo interrupted while its write's answer was lost is left to finish:
// run again, it reads back what it sent, and ends where an undo that was
// never interrupted ends.
func TestUndoInterruptedAndRunAgain(t *testing.T) {
	t.Parallel()
	e := &env{sandboxtest.New(t, sandbox.Options{})}
	e.seed(10)
	e.push("first.csv", 10, func(i int) int { return i })
	before := e.export("before.csv")
	e.push("second.csv", 10, func(i int) int { return 20 + i })
	run := e.lastRun()

	rep, err := e.undoCut(run)
	if !errors.Is(err, engine.ErrInterrupted) || rep.Rows[engine.Failed] != 10 {
		t.Fatalf("interrupted undo: %v %v; want 10 failed without an answer", rep.Rows, err)
	}
	again, err := e.undo(context.Background(), run)
	if err != nil || again.Rows[engine.Unchanged] != 10 || again.Writes != 0 {
		t.Fatalf("run again: %v %v, %d writes; want the 10 levels found set back, nothing sent again", again.Rows, err, again.Writes)
	}
	if after := e.export("after.csv"); !bytes.Equal(after, before) {
		t.Errorf("after the undo run again the catalog differs from before the push")
	}
}
