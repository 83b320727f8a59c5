package sandbox

import (
	"maps"
	"strconv"

	"lading/api/wire"
)

// What an order holds: its lines, fulfillments, slips and shipments, for
// fulfillment and sales order reads. [B.5] [B.8, assumed]

// groupIDs runs q (selecting an owner id and a record id, in order) over
// owners and gives each owner's records.
func (t *txn) groupIDs(q string, args ...any) (map[int64][]int64, error) {
	out := map[int64][]int64{}
	err := t.eachRow(q, args, func(rows *row) error {
		var owner, id int64
		if err := rows.Scan(&owner, &id); err != nil {
			return err
		}
		out[owner] = append(out[owner], id)
		return nil
	})
	return out, err
}

// orderLineIDs gives each order's lines as sold, in order.
func (t *txn) orderLineIDs(orders []int64) (map[int64][]int64, error) {
	return t.groupIDs(`SELECT order_id, id FROM order_lines WHERE order_id IN `+inIDs+` ORDER BY order_id, id`, idList(orders))
}

// orderFulfillments gives each order's live fulfillments.
func (t *txn) orderFulfillments(orders []int64) (map[int64][]int64, error) {
	return t.groupIDs(`SELECT order_id, id FROM fulfillments WHERE deleted = 0 AND order_id IN `+inIDs+` ORDER BY order_id, id`, idList(orders))
}

// orderSlips gives each order's live packing slips (void ones too).
func (t *txn) orderSlips(orders []int64) (map[int64][]int64, error) {
	return t.groupIDs(`SELECT l.target_id, s.id FROM record_links l JOIN packing_slips s ON s.id = l.owner_id
		WHERE l.resource = ? AND s.deleted = 0 AND l.target_id IN `+inIDs+` ORDER BY l.target_id, s.id`, wire.SalesOrders, idList(orders))
}

// orderPackages gives each order's live shipments (Packages): those that
// link it, and those of its live slips.
func (t *txn) orderPackages(orders []int64) (map[int64][]int64, error) {
	return t.groupIDs(`SELECT l.target_id, p.id FROM record_links l JOIN packages p ON p.id = l.owner_id
		WHERE l.resource = ? AND p.deleted = 0 AND l.target_id IN `+inIDs+`
		UNION
		SELECT o.target_id, p.id FROM record_links o JOIN packing_slips s ON s.id = o.owner_id AND s.deleted = 0
		JOIN record_links k ON k.resource = ? AND k.target_id = s.id JOIN packages p ON p.id = k.owner_id AND p.deleted = 0
		WHERE o.resource = ? AND o.target_id IN `+inIDs+` ORDER BY 1, 2`,
		wire.SalesOrders, idList(orders), wire.PackingSlips, wire.SalesOrders, idList(orders))
}

// fulfillmentShipments gives each fulfillment's shipments, in order.
func (t *txn) fulfillmentShipments(fs []int64) (map[int64][]int64, error) {
	return t.groupIDs(`SELECT fulfillment_id, id FROM shipments WHERE fulfillment_id IN `+inIDs+` ORDER BY fulfillment_id, id`, idList(fs))
}

// sideloadShipments adds the fulfillment shipments ids, with the units of
// each line item they shipped and the shipment (Packages) record each
// became. [B.5, assumed]
func (t *txn) sideloadShipments(res *readResult, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	lines := map[int64][]any{}
	if err := t.eachRow(`SELECT shipment_id, line_item_id, quantity FROM shipment_lines WHERE shipment_id IN `+inIDs+` ORDER BY rowid`,
		[]any{idList(ids)}, func(rows *row) error {
			var s, li, q int64
			if err := rows.Scan(&s, &li, &q); err != nil {
				return err
			}
			lines[s] = append(lines[s], map[string]any{"id": itoa(li), "quantity": itoa(q)})
			return nil
		}); err != nil {
		return err
	}
	return t.eachRow(`SELECT id, fulfillment_id, shipped_at, tracking_number, tracking_link, carrier, cost, package_id, created_at
		FROM shipments WHERE id IN `+inIDs, []any{idList(ids)}, func(rows *row) error {
		var id, f int64
		var pkg *int64
		var at, number, link, carrier, created string
		var cost *string
		if err := rows.Scan(&id, &f, &at, &number, &link, &carrier, &cost, &pkg, &created); err != nil {
			return err
		}
		l := map[string]any{wire.Fulfillments: idLinks([]int64{f}), wire.LineItems: append([]any{}, lines[id]...), wire.Packages: []any{}}
		if pkg != nil {
			l[wire.Packages] = idLinks([]int64{*pkg})
		}
		res.add(wire.Shipments, itoa(id), map[string]any{"id": itoa(id), "shipped_at": at, "tracking_number": number,
			"tracking_link": link, "carrier": carrier, "cost": nullable(cost), "created_at": created, wire.KeyLinks: l})
		return nil
	})
}

// sideloadOrderPackages adds the live shipments (Packages) of orders.
func (t *txn) sideloadOrderPackages(res *readResult, account int64, orders []int64) error {
	byOrder, err := t.orderPackages(orders)
	if err != nil {
		return err
	}
	var all uniq
	for _, o := range orders {
		for _, p := range byOrder[o] {
			all.add(p)
		}
	}
	return t.sideloadPackages(res, account, all.ids)
}

// merge adds the records of o as sideloads of r under o's resource, and
// o's sideloads of the names given.
func (r *readResult) merge(o *readResult, names ...string) {
	for _, rec := range o.records {
		m := rec.(map[string]any)
		r.add(o.resource, m["id"].(string), m)
	}
	for _, n := range names {
		for _, s := range o.side[n] {
			r.addSide(n, s)
		}
	}
}

func salesOrderSpec() *listSpec {
	return &listSpec{resource: wire.SalesOrders, table: "orders", base: "1 = 1", cols: withCommon(map[string]column{}), render: renderSalesOrders}
}

// renderSalesOrders renders orders read by id with what they hold: their
// lines as sold, fulfillments (line items, shipments), packing slips,
// shipments and the variants the lines name. [B.8, assumed]
func renderSalesOrders(t *txn, c *call, ids []int64, res *readResult) error {
	account := c.acc.account
	recs, _, err := t.orderRecords(account, ids)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if r, ok := recs[id]; ok {
			res.records = append(res.records, r)
		}
	}
	var lineIDs, fulIDs, slipIDs []int64
	for _, id := range ids {
		links := recs[id][wire.KeyLinks].(map[string]any)
		lineIDs = append(lineIDs, linkedIDs(links[wire.SalesOrderLineItems])...)
		fulIDs = append(fulIDs, linkedIDs(links[wire.Fulfillments])...)
		slipIDs = append(slipIDs, linkedIDs(links[wire.PackingSlips])...)
	}
	variants, err := t.sideloadOrderLines(res, wire.SalesOrderLineItems, account, lineIDs)
	if err != nil {
		return err
	}
	if len(fulIDs) > 0 {
		ful := &readResult{resource: wire.Fulfillments}
		if err := renderFulfillments(t, c, fulIDs, ful); err != nil {
			return err
		}
		res.merge(ful, wire.LineItems, wire.Shipments, wire.Variants)
	}
	if len(slipIDs) > 0 {
		slips := &readResult{resource: wire.PackingSlips}
		if err := renderPackingSlips(t, c, slipIDs, slips); err != nil {
			return err
		}
		res.merge(slips)
	}
	if err := t.sideloadOrderPackages(res, account, ids); err != nil {
		return err
	}
	return t.sideloadVariants(res, variants)
}

// linkedIDs are the ids of a rendered link array.
func linkedIDs(v any) []int64 {
	arr, _ := v.([]any)
	out := make([]int64, 0, len(arr))
	for _, e := range arr {
		if m, ok := e.(map[string]any); ok {
			if id, err := strconv.ParseInt(m["id"].(string), 10, 64); err == nil {
				out = append(out, id)
			}
		}
	}
	return out
}

// orderLinks are the links of rendered orders: their lines, fulfillments,
// live slips and live shipments. [A.3] [B.8, assumed]
func (t *txn) orderLinks(orders []int64) (map[int64]map[string]any, error) {
	out := make(map[int64]map[string]any, len(orders))
	for _, o := range orders {
		out[o] = map[string]any{}
	}
	for _, q := range []struct {
		name string
		get  func([]int64) (map[int64][]int64, error)
	}{{wire.SalesOrderLineItems, t.orderLineIDs}, {wire.Fulfillments, t.orderFulfillments}, {wire.PackingSlips, t.orderSlips}, {wire.Packages, t.orderPackages}} {
		ids, err := q.get(orders)
		if err != nil {
			return nil, err
		}
		for _, o := range orders {
			out[o][q.name] = idLinks(ids[o])
		}
	}
	return out, nil
}

// withLinks adds more links to a rendered record's links.
func withLinks(links, more map[string]any) map[string]any {
	out := maps.Clone(links)
	maps.Copy(out, more)
	return out
}
