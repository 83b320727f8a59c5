package sandbox

import (
	"encoding/json"
	"strings"
	"testing"

	"lading/api/wire"
)

// setAvailableRec is a variant record setting available units, with
// extra ReconcileInventory entries after the first.
func setAvailableRec(id string, units any, more ...map[string]any) map[string]any {
	entries := []any{map[string]any{"change": wire.ChangeSetAvailable, "units": units}}
	for _, m := range more {
		entries = append(entries, m)
	}
	return map[string]any{"id": id, "links": map[string]any{wire.ReconcileInventory: entries}}
}

// adminCounters reads the counters through the admin API, as JSON.
func (e *env) adminCounters() map[string]any {
	e.t.Helper()
	res, err := e.ts.Client().Get(e.ts.URL + wire.SandboxAdminPrefix + "/counters")
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// A write of set_available to a deleted variant fails that record alone,
// naming the id; the other records of the request are applied. Only the
// entries applied count as levels set.
func TestStockWriteCounters(t *testing.T) {
	t.Parallel()
	e := stockedEnv(t, 1, 1)
	ids := map[string]string{}
	for _, sku := range []string{"A", "B", "KIT"} {
		v, _ := e.variantBySKU(sku)
		ids[sku] = v["id"].(string)
	}
	e.mustIDs(wire.Variants, map[string]any{"id": ids["KIT"], "delete": 1})

	r := e.write(wire.Variants,
		setAvailableRec(ids["A"], 5),
		setAvailableRec(ids["KIT"], 3),
		setAvailableRec(ids["B"], 8, map[string]any{"change": "add", "units": 1}),
		setAvailableRec(ids["B"], 6, map[string]any{"change": wire.ChangeSetAvailable, "units": 7}),
	).expect(t, 200)
	if er := r.recordError(wire.Variants, 0); er != nil {
		t.Errorf("record 0 failed: %v", er)
	}
	er := r.recordError(wire.Variants, 1)
	if want := "no Variants record with id " + ids["KIT"] + " in this account (it may be deleted)"; er == nil ||
		er["field"] != "id" || er["message"] != want {
		t.Errorf("deleted variant: error %v, want field id, %q", er, want)
	}
	if er := r.recordError(wire.Variants, 2); er == nil || !strings.Contains(er["field"].(string), "ReconcileInventory[1].change") {
		t.Errorf("bad second entry: error %v", er)
	}
	for sku, want := range map[string]string{"A": "5", "B": "7"} {
		if v, _ := e.variantBySKU(sku); v["available"] != want {
			t.Errorf("%s available %v, want %s", sku, v["available"], want)
		}
	}

	// A catalog edit carries no stock; a product write may carry it on
	// its variants; a write whose every record is refused still counts
	// as a stock write.
	e.mustIDs(wire.Variants, map[string]any{"id": ids["A"], "description": "edited"})
	pid := e.read(wire.ListPath(wire.Products), nil).records(wire.Products)[0]["id"].(string)
	e.mustIDs(wire.Products, map[string]any{"id": pid, "links": map[string]any{
		wire.Variants: []any{setAvailableRec(ids["A"], 2)}}})
	e.write(wire.Variants, setAvailableRec(ids["KIT"], 1)).expect(t, 400)

	c := e.srv.Counters()
	if c.StockWrites != 3 || c.LevelsSet != 4 {
		t.Errorf("stock writes %d, levels set %d; want 3 and 4 (A, B twice, A in the product write)", c.StockWrites, c.LevelsSet)
	}
	admin := e.adminCounters()
	if admin["stock_writes"] != 3.0 || admin["levels_set"] != 4.0 {
		t.Errorf("admin counters %v", admin)
	}
	if err := e.srv.Reset(); err != nil {
		t.Fatal(err)
	}
	if c := e.srv.Counters(); c.StockWrites != 0 || c.LevelsSet != 0 {
		t.Errorf("after reset: %+v", c)
	}
}

// A waiting order (the warehouse lacks stock) opens when a set_available
// write gives the warehouse enough, and not before; a write setting too
// little leaves it waiting.
func TestWaitingOrderOpensOnlyWithEnoughStock(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		writes []int // available units of A set, one write each
		open   []bool
	}{
		{"too little", []int{2}, []bool{false}},
		{"too little then enough", []int{2, 3}, []bool{false, true}},
		{"more than enough", []int{9}, []bool{true}},
		{"set to zero", []int{0}, []bool{false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := stockedEnv(t, 1, 0)
			e.order(OrderSpec{ShippingAddress: shipTo, Lines: []OrderLine{{SKU: "A", Quantity: 3}}})
			v, _ := e.variantBySKU("A")
			for i, units := range c.writes {
				e.mustIDs(wire.Variants, setAvailableRec(v["id"].(string), units))
				n := len(e.openFulfillments().records(wire.Fulfillments))
				if open := n == 1; open != c.open[i] {
					t.Fatalf("after setting %d available: %d open fulfillments, want open %v", units, n, c.open[i])
				}
			}
			v, _ = e.variantBySKU("A")
			want := map[bool]string{true: "3", false: "0"}[c.open[len(c.open)-1]]
			if v["committed_stock"] != want {
				t.Errorf("committed_stock %v, want %s", v["committed_stock"], want)
			}
		})
	}
}
