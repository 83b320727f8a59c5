package sandbox

import (
	"context"
	"fmt"
	"testing"

	"lading/api/wire"
)

// A fulfillment read carries the shipments posted against it (their
// tracking, cost, the units of each line and the shipment record each
// became) and its order's shipments; a sales order read by id carries
// the order's lines, fulfillments, slips and shipments. [B.5] [B.8]
func TestReadsShowWhatAnOrderShipped(t *testing.T) {
	t.Parallel()
	e := stockedEnv(t, 10, 10)
	order := e.order(OrderSpec{ShippingAddress: shipTo, Lines: []OrderLine{{SKU: "A", Quantity: 3}, {SKU: "B", Quantity: 1}}})
	f := e.openFulfillments()
	fid := f.records(wire.Fulfillments)[0]["id"].(string)
	items := linkIDsOf(f.records(wire.Fulfillments)[0], wire.LineItems)
	e.mustIDs(wire.Shipments, map[string]any{"shipped_at": "2026-11-20T10:00:00+0000", "tracking_number": "1Z1", "cost": "7.5",
		"links": map[string]any{"Fulfillments": []any{map[string]any{"id": fid}}, "LineItems": []any{map[string]any{"id": items[0], "quantity": "2"}}}})
	slip, err := e.srv.CreateSlip(context.Background(), SlipSpec{Token: e.token, Order: order, Lines: []OrderLine{{SKU: "B", Quantity: 1}},
		Packages: []PackageSpec{{TrackingNumber: "SLIP-9"}}})
	if err != nil {
		t.Fatal(err)
	}

	r := e.read(wire.DetailPath(wire.Fulfillments), map[string]any{wire.Fulfillments: []any{map[string]any{"id": fid}}}).expect(t, 200)
	ships := linkIDsOf(r.records(wire.Fulfillments)[0], wire.Shipments)
	if len(ships) != 1 {
		t.Fatalf("the fulfillment links shipments %v, want one", ships)
	}
	sh := r.side(wire.Shipments, ships[0])
	lines, _ := sh["links"].(map[string]any)[wire.LineItems].([]any)
	if sh["tracking_number"] != "1Z1" || sh["cost"] != "7.5" || len(lines) != 1 || fmt.Sprint(lines[0]) != fmt.Sprint(map[string]any{"id": items[0], "quantity": "2"}) {
		t.Errorf("shipment %v", sh)
	}
	made := linkIDsOf(sh, wire.Packages)
	if len(made) != 1 || r.side(wire.Packages, made[0])["tracking_number"] != "1Z1" || r.side(wire.Packages, slip.Packages[0])["tracking_number"] != "SLIP-9" {
		t.Errorf("the read's packages: %v", r.body[wire.Packages])
	}

	o := e.read(wire.DetailPath(wire.SalesOrders), map[string]any{wire.SalesOrders: []any{map[string]any{"id": order}}}).expect(t, 200)
	rec := o.records(wire.SalesOrders)[0]
	if got := [4]int{len(linkIDsOf(rec, wire.SalesOrderLineItems)), len(linkIDsOf(rec, wire.Fulfillments)), len(linkIDsOf(rec, wire.PackingSlips)), len(linkIDsOf(rec, wire.Packages))}; got != [4]int{2, 1, 2, 2} {
		t.Errorf("order links %v: want 2 lines, 1 fulfillment, 2 slips, 2 shipments", got)
	}
	for _, name := range []string{wire.SalesOrderLineItems, wire.Fulfillments, wire.LineItems, wire.Shipments, wire.PackingSlips, wire.Packages, wire.Variants} {
		if m, _ := o.body[name].(map[string]any); len(m) == 0 {
			t.Errorf("the order read sideloads no %s", name)
		}
	}
	e.read(wire.DetailPath(wire.SalesOrders), map[string]any{wire.SalesOrders: []any{map[string]any{"id": "1"}}}).expect(t, 404)
}
