package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/api"
	"lading/api/wire"
	"lading/sandbox"
)

// TestCLIShipmentsPush: the 3PL's loop from the command line. A pulled
// order file gives the ids; a confirmation file ships half an order, then
// (appended) the rest, which completes the fulfillment; the same file again
// posts nothing; a row over what is left exits 3 naming it.
func TestCLIShipmentsPush(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{}, wire.APIPrefix)
	dir := t.TempDir()
	common := []string{"--base-url", e.base, "--token", testToken, "--quiet"}
	ctx := context.Background()
	st := filepath.Join(dir, "state.db")
	importGood(t, common, dir, st)
	var levels []api.StockLevel
	for v, err := range e.c.Variants.List(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		levels = append(levels, api.StockLevel{VariantID: v.ID, WarehouseID: api.ID(e.acct.WarehouseID), Units: 20})
	}
	if _, err := e.c.Stock.SetAvailable(ctx, levels); err != nil {
		t.Fatal(err)
	}
	e.order(t, "1 Main St", sandbox.OrderLine{SKU: "MUG-1", Quantity: 2}, sandbox.OrderLine{SKU: "TEE-S", Quantity: 1})
	var f api.ID
	for x, err := range e.c.Fulfillments.List(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		f = x.ID
	}
	file := filepath.Join(dir, "shipped.csv")
	header := []string{"fulfillment_id", "sku", "quantity", "tracking_number", "carrier", "shipped_at"}
	half := [][]string{{string(f), "MUG-1", "1", "1Z001", "UPS", "2026-11-21 10:00"}}
	rest := [][]string{{string(f), "MUG-1", "1", "1Z002", "UPS", "2026-11-22 10:00"}, {string(f), "TEE-S", "1", "1Z002", "UPS", "2026-11-22 10:00"}}
	push := func(extra ...string) (*run, map[string]any) {
		t.Helper()
		r := lading(ctx, append(append(common, "shipments", "push", "--template", "shipments", "--state", st, "--settle", "0s", "--json"), append(extra, file)...)...)
		var sum map[string]any
		if out := r.stdout.String(); out != "" {
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatalf("%v: %s", err, r.output())
			}
		}
		return r, sum
	}

	writeCSV(t, file, append([][]string{header}, half...)...)
	r, sum := push()
	if r.err != nil || sum["shipments"] != 1.0 || len(sum["completed"].([]any)) != 0 {
		t.Fatalf("half: %v %v\n%s", r.err, sum, r.output())
	}
	writeCSV(t, file, append(append([][]string{header}, half...), rest...)...)
	r, sum = push()
	rows := sum["rows"].(map[string]any)
	if r.err != nil || sum["shipments"] != 1.0 || rows["already shipped"] != 1.0 || rows["posted"] != 2.0 {
		t.Fatalf("the rest: %v %v\n%s", r.err, sum, r.output())
	}
	if c := sum["completed"].([]any); len(c) != 1 || c[0] != string(f) {
		t.Errorf("completed %v, want %s", c, f)
	}
	for x, err := range e.c.Fulfillments.List(ctx, nil) {
		if err != nil || x.ID == f {
			t.Errorf("fulfillment %s is still open (%v)", f, err)
		}
	}
	r, sum = push()
	if r.err != nil || sum["requests"] != 0.0 || sum["rows"].(map[string]any)["already shipped"] != 3.0 {
		t.Errorf("the same file again: %v %v", r.err, sum)
	}

	e.order(t, "2 Main St", sandbox.OrderLine{SKU: "MUG-1", Quantity: 1})
	var g api.ID
	for x, err := range e.c.Fulfillments.List(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		g = x.ID
	}
	writeCSV(t, file, header, []string{string(g), "MUG-1", "3", "1Z003", "UPS", ""})
	r, _ = push()
	if exitCodeOf(r.err) != 3 || !strings.Contains(r.output(), "1 of 1 row failed") {
		t.Fatalf("over what is left: exit %d, want 3:\n%s", exitCodeOf(r.err), r.output())
	}
	res, err := os.ReadFile(file + ".results.csv")
	if err != nil || !strings.Contains(string(res), "quantity 3 is more than the 1 unit left to ship of SKU MUG-1") {
		t.Errorf("results file: %v\n%s", err, res)
	}
}
