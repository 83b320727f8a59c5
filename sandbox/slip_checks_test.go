package sandbox

import (
	"strings"
	"testing"

	"lading/api/wire"
)

// A packing slip packs the lines of its order: a slip naming an order the
// account does not have, a line item of another order, or more units than
// the order has left to pack is refused on that link, in the shape of
// every refused record [B.1]. Units count per variant, whichever line
// names them (the order's line, or its fulfillment's), across the order's
// live slips that are not void.
func TestSlipWritesAreCheckedAgainstTheOrder(t *testing.T) {
	t.Parallel()
	e := pricedEnv(t)
	order := e.order(OrderSpec{ShippingAddress: shipTo, Lines: []OrderLine{{SKU: "TEE-S", Quantity: 3}}})
	e.order(OrderSpec{ShippingAddress: shipTo, Lines: []OrderLine{{SKU: "TEE-S", Quantity: 1}}})
	var mine, theirs string
	for _, f := range e.openFulfillments().records(wire.Fulfillments) {
		li := linkIDsOf(f, wire.LineItems)[0]
		if linkIDsOf(f, wire.SalesOrders)[0] == order {
			mine = li
		} else {
			theirs = li
		}
	}
	orderLine := linkIDsOf(e.read(wire.DetailPath(wire.SalesOrders), map[string]any{wire.SalesOrders: []any{map[string]any{"id": order}}}).
		records(wire.SalesOrders)[0], wire.SalesOrderLineItems)[0]
	slip := func(order string, lines ...string) map[string]any {
		links := map[string]any{"SalesOrders": []any{map[string]any{"id": order}}}
		var ls []any
		for i := 0; i+1 < len(lines); i += 2 {
			ls = append(ls, map[string]any{"id": lines[i], "quantity": lines[i+1]})
		}
		if ls != nil {
			links["LineItems"] = ls
		}
		return map[string]any{"links": links}
	}
	refused := func(rec map[string]any, field, msg string) {
		t.Helper()
		r := e.write(wire.PackingSlips, rec).expect(t, 400)
		if err := r.recordError(wire.PackingSlips, 0); err == nil || err["field"] != field || !strings.Contains(err["message"].(string), msg) {
			t.Errorf("record error %v; want field %s saying %q", err, field, msg)
		}
	}
	refused(slip("999999999", mine, "1"), "links.SalesOrders[0].id", "no SalesOrders record with id 999999999")
	refused(slip(order, theirs, "1"), "links.LineItems[0].id", "line item "+theirs+" is not a line of sales order "+order)
	refused(slip(order, mine, "4"), "links.LineItems[0].quantity", "the order has 3 units of TEE-S to pack, 0 packed")
	refused(map[string]any{"links": map[string]any{"LineItems": []any{map[string]any{"id": mine, "quantity": "1"}}}}, "links.SalesOrders", "names no sales order")

	first := e.mustIDs(wire.PackingSlips, slip(order, mine, "2"))[0]
	// The order's own line names the same units: one is left.
	refused(slip(order, orderLine, "2"), "links.LineItems[0].quantity", "3 units of TEE-S to pack, 2 packed")
	e.mustIDs(wire.PackingSlips, slip(order, orderLine, "1"))
	refused(slip(order, mine, "1"), "links.LineItems[0].quantity", "3 packed")
	// A void slip packs nothing; an edit of a slip counts its own lines once.
	e.mustIDs(wire.PackingSlips, map[string]any{"id": first, "void": 1})
	e.mustIDs(wire.PackingSlips, slip(order, mine, "2"))
	if n := e.read(wire.ListPath(wire.PackingSlips), nil).meta()["total"]; n != "3" {
		t.Errorf("%v slips, want 3", n)
	}
}
