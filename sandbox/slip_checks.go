package sandbox

import (
	"fmt"
	"strconv"

	"lading/api/wire"
)

// A packing slip packs the lines of its sales order. [lading, assumed]
// (wire: "Sales orders read by id") A slip write that names an order the
// account does not have, a line item that is neither a line of its order
// nor a line item of one of the order's fulfillments, or more units than
// the order has left to pack, is refused on that link.

// checkSlipOrder refuses a sales order a slip links that the account does
// not have (writeLinks' check).
func (t *txn) checkSlipOrder(account int64) func(resource string, id int64, path string) error {
	return func(resource string, id int64, path string) error {
		if resource != wire.SalesOrders {
			return nil
		}
		var x int64
		found, err := t.row(`SELECT id FROM orders WHERE id = ? AND account_id = ?`, []any{id, account}, &x)
		if err != nil {
			return err
		}
		if !found {
			return fieldErr(path+"id", "%sid: no SalesOrders record with id %d in this account", path, id)
		}
		return nil
	}
}

// packedLine is a line item a slip links and its units.
type packedLine struct {
	item, units int64
}

// checkPacking refuses the lines of slip that its order does not have, or
// has no units left of: units count per variant (a bundle as its
// components), the order's lines holding what it has to pack, its other
// live slips that are not void what is packed.
func (t *txn) checkPacking(slip int64) error {
	links, err := t.loadLinks([]int64{slip}, []string{wire.SalesOrders, wire.LineItems})
	if err != nil {
		return err
	}
	mine := packedLines(links[slip].value[wire.LineItems])
	if len(mine) == 0 {
		return nil
	}
	orders := links[slip].ids[wire.SalesOrders]
	if len(orders) == 0 {
		return fieldErr("links.SalesOrders", "links.SalesOrders names no sales order: a packing slip packs line items of its order; link it")
	}
	order := orders[0]
	variantOf, err := t.orderItems(order)
	if err != nil {
		return err
	}
	ordered, err := t.orderedUnits(order)
	if err != nil {
		return err
	}
	packed, err := t.packedUnits(order, slip, variantOf)
	if err != nil {
		return err
	}
	for i, l := range mine {
		p := fmt.Sprintf("links.LineItems[%d].", i)
		v, ok := variantOf[l.item]
		if !ok {
			return fieldErr(p+"id", "%sid: line item %d is not a line of sales order %d (nor a line item of its fulfillments)", p, l.item, order)
		}
		units, err := t.expandUnits(v, l.units)
		if err != nil {
			return err
		}
		for _, u := range units {
			if packed[u.variant]+u.quantity > ordered[u.variant] {
				return t.overPacked(p, l, order, u.variant, ordered[u.variant], packed[u.variant])
			}
			packed[u.variant] += u.quantity
		}
	}
	return nil
}

// overPacked refuses line l of a slip for packing more of variant v than
// the order has left.
func (t *txn) overPacked(p string, l packedLine, order, v, ordered, packed int64) error {
	var sku string
	if _, err := t.row(`SELECT sku FROM variants WHERE id = ?`, []any{v}, &sku); err != nil {
		return err
	}
	return fieldErr(p+"quantity", "%squantity %d of line item %d is more than sales order %d has left to pack: the order has %d units of %s to pack, %d packed by its other slips",
		p, l.units, l.item, order, ordered, sku, packed)
}

// packedLines reads a slip's rendered links.LineItems.
func packedLines(v any) []packedLine {
	arr, _ := v.([]any)
	out := make([]packedLine, 0, len(arr))
	for _, e := range arr {
		m := e.(map[string]any)
		id, _ := strconv.ParseInt(m["id"].(string), 10, 64)
		q, _ := m["quantity"].(string)
		n, _ := strconv.ParseInt(q, 10, 64)
		out = append(out, packedLine{id, n})
	}
	return out
}

// orderItems gives the variant of each line of order: its lines as sold,
// and the line items of its live fulfillments.
func (t *txn) orderItems(order int64) (map[int64]int64, error) {
	out := map[int64]int64{}
	err := t.eachRow(`SELECT id, variant_id FROM order_lines WHERE order_id = ?
		UNION ALL SELECT li.id, li.variant_id FROM line_items li JOIN fulfillments f ON f.id = li.fulfillment_id
		WHERE f.order_id = ? AND f.deleted = 0`, []any{order, order}, func(rows *row) error {
		var id, v int64
		if err := rows.Scan(&id, &v); err != nil {
			return err
		}
		out[id] = v
		return nil
	})
	return out, err
}

// orderedUnits are the units of each variant order has to pack, bundles
// as their components.
func (t *txn) orderedUnits(order int64) (map[int64]int64, error) {
	lines, err := t.expandLines(order)
	if err != nil {
		return nil, err
	}
	out := map[int64]int64{}
	for _, l := range lines {
		out[l.variant] += l.quantity
	}
	return out, nil
}

// packedUnits are the units of each variant the order's live slips other
// than slip pack, void slips left out.
func (t *txn) packedUnits(order, slip int64, variantOf map[int64]int64) (map[int64]int64, error) {
	var lines []packedLine
	err := t.eachRow(`SELECT li.target_id, li.quantity FROM record_links o JOIN packing_slips s ON s.id = o.owner_id
		JOIN record_links li ON li.owner_id = s.id AND li.resource = ?
		WHERE o.resource = ? AND o.target_id = ? AND s.id != ? AND s.deleted = 0 AND s.void = 0`,
		[]any{wire.LineItems, wire.SalesOrders, order, slip}, func(rows *row) error {
			var l packedLine
			var q *string
			if err := rows.Scan(&l.item, &q); err != nil {
				return err
			}
			if q != nil {
				l.units, _ = strconv.ParseInt(*q, 10, 64)
			}
			lines = append(lines, l)
			return nil
		})
	if err != nil {
		return nil, err
	}
	out := map[int64]int64{}
	for _, l := range lines {
		units, err := t.expandUnits(variantOf[l.item], l.units)
		if err != nil {
			return nil, err
		}
		for _, u := range units {
			out[u.variant] += u.quantity
		}
	}
	return out, nil
}

// expandUnits is n units of variant v, a bundle as its components.
func (t *txn) expandUnits(v, n int64) ([]fulfilLine, error) {
	comps, err := t.components(v)
	if err != nil || len(comps) == 0 {
		return []fulfilLine{{variant: v, quantity: n}}, err
	}
	out := make([]fulfilLine, len(comps))
	for i, c := range comps {
		out[i] = fulfilLine{variant: c.variant, quantity: c.quantity * n}
	}
	return out, nil
}
