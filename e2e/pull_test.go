package e2e

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"lading/api"
	"lading/api/wire"
	"lading/sandbox"
)

// TestCLIFulfillmentsPull: the open fulfillments come out one line per
// line item with what is left to ship, --new pulls a fulfillment once, and
// a status set from the command line shows on the next pull.
func TestCLIFulfillmentsPull(t *testing.T) {
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
	addr := map[string]string{"company": "Acme", "street1": "1 Main St", "city": "Springfield", "zip": "12345", "country": "US"}
	order := func(lines ...sandbox.OrderLine) {
		if _, err := e.srv.CreateOrder(ctx, sandbox.OrderSpec{Token: testToken, ShippingAddress: addr, Lines: lines}); err != nil {
			t.Fatal(err)
		}
	}
	order(sandbox.OrderLine{SKU: "MUG-1", Quantity: 2}, sandbox.OrderLine{SKU: "TEE-S", Quantity: 1})
	pull := func(name string, extra ...string) (rows []map[string]string, records int) {
		t.Helper()
		out := filepath.Join(dir, name)
		r := lading(ctx, append(append(common, "fulfillments", "pull", "--state", st, "--json", "-o", out), extra...)...)
		if r.err != nil {
			t.Fatalf("pull: %v\n%s", r.err, r.output())
		}
		var sum struct{ Records int }
		if err := json.Unmarshal([]byte(r.stdout.String()), &sum); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		recs, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range recs[1:] {
			row := map[string]string{}
			for i, h := range recs[0] {
				row[h] = rec[i]
			}
			rows = append(rows, row)
		}
		return rows, sum.Records
	}
	rows, n := pull("first.csv", "--new")
	if n != 1 || len(rows) != 2 {
		t.Fatalf("first pull: %d fulfillments, rows %v; want 1 and 2 lines", n, rows)
	}
	for _, r := range rows {
		want := map[string]string{"MUG-1": "2", "TEE-S": "1"}[r["sku"]]
		if r["quantity"] != want || r["quantity_left"] != want || r["quantity_shipped"] != "0" || r["ship_to_company"] != "Acme" || r["fulfillment_id"] == "" {
			t.Errorf("line %v", r)
		}
	}
	order(sandbox.OrderLine{SKU: "CAP-1", Quantity: 1})
	if rows, n := pull("second.csv", "--new"); n != 1 || len(rows) != 1 || rows[0]["sku"] != "CAP-1" {
		t.Errorf("a second --new pull: %d fulfillments, %v; want only the new one", n, rows)
	}
	if rows, n := pull("third.csv", "--new"); n != 0 || len(rows) != 0 {
		t.Errorf("a third --new pull: %d fulfillments, %v; want none", n, rows)
	}
	id := rows[0]["fulfillment_id"]
	if r := lading(ctx, append(common, "fulfillments", "status", id, "picking")...); r.err != nil {
		t.Fatalf("status: %v\n%s", r.err, r.output())
	}
	all, n := pull("all.csv")
	if n != 2 {
		t.Errorf("a pull without --new: %d fulfillments, want 2", n)
	}
	for _, r := range all {
		if r["fulfillment_id"] == id && r["status"] != "picking" {
			t.Errorf("fulfillment %s: status %q after status picking", id, r["status"])
		}
	}
}
