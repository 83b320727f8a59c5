package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"lading/api/wire"
)

// Order states: an order waits until it can initialise a fulfillment.
const (
	orderWaiting = "waiting"
	orderOpen    = "open"
)

// timeLayouts are the ISO 8601 forms accepted in writes. [Spec]
var timeLayouts = []string{"2006-01-02T15:04:05-0700", time.RFC3339, "2006-01-02T15:04:05Z0700", time.RFC3339Nano}

// normalizeTime parses an ISO 8601 date-time with an offset (or a date)
// and gives it in the service's form.
func normalizeTime(s, field string) (string, error) {
	s = strings.TrimSpace(s)
	for _, l := range timeLayouts {
		if tm, err := time.Parse(l, s); err == nil {
			return tm.UTC().Format(timeLayout), nil
		}
	}
	if tm, err := time.Parse("2006-01-02", s); err == nil {
		return tm.UTC().Format(timeLayout), nil
	}
	return "", fieldErr(field, "%s %q is not an ISO 8601 date-time like 2016-02-08T22:57:11+0000", field, s)
}

func fulfillmentSpec() *listSpec {
	return &listSpec{
		resource: wire.Fulfillments, table: "fulfillments", base: "deleted = 0 AND complete = 0",
		cols:   withCommon(map[string]column{"status": {"status", kText}}),
		render: renderFulfillments,
	}
}

// resolveAccount finds the account (and token access) an admin call names.
func (s *Server) resolveAccount(ctx context.Context, token, account string) (access, error) {
	if token != "" {
		a, ok, err := s.authenticate(ctx, token)
		if err != nil {
			return a, err
		}
		if !ok {
			return a, errors.New("the token is not registered: register it first (POST " + wire.SandboxAdminPrefix + "/tokens)")
		}
		return a, nil
	}
	var a access
	var found bool
	err := s.st.do(ctx, func(t *txn) error {
		var err error
		if account == "" {
			if a.account, err = t.defaultAccount(); err != nil {
				return err
			}
		} else if a.account, err = strconv.ParseInt(strings.TrimSpace(account), 10, 64); err != nil {
			return fmt.Errorf("account %q is not an id", account)
		}
		found, err = t.row(`SELECT warehouse_id, channel_id, client_id FROM tokens WHERE account_id = ? ORDER BY created_at LIMIT 1`,
			[]any{a.account}, &a.warehouse, &a.channel, &a.client)
		return err
	})
	if err != nil {
		return a, err
	}
	if !found {
		return a, fmt.Errorf("account %d has no token yet: authorize a client or register a token first", a.account)
	}
	return a, nil
}

// recheckWaiting tries again every waiting order of the account, oldest
// first, once stock changed in this transaction.
func (t *txn) recheckWaiting(account int64) error {
	if !t.stockChanged {
		return nil
	}
	t.stockChanged = false
	var ids []int64
	if err := t.eachRow(`SELECT id FROM orders WHERE account_id = ? AND state = ? ORDER BY id`, []any{account, orderWaiting}, func(rows *row) error {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
		return nil
	}); err != nil {
		return err
	}
	for _, id := range ids {
		if err := t.tryInitialise(account, id); err != nil {
			return err
		}
	}
	return nil
}

// tryInitialise opens the order's fulfillment if the three conditions
// hold, committing its stock; bundles are split into components.
func (t *txn) tryInitialise(account, order int64) error {
	var warehouse int64
	var addr *int64
	if _, err := t.row(`SELECT warehouse_id, address_id FROM orders WHERE id = ?`, []any{order}, &warehouse, &addr); err != nil {
		return err
	}
	if addr == nil {
		return nil
	}
	var x int64
	assigned, err := t.row(`SELECT 1 FROM tokens WHERE account_id = ? AND warehouse_id = ? LIMIT 1`, []any{account, warehouse}, &x)
	if err != nil || !assigned {
		return err
	}
	lines, err := t.expandLines(order)
	if err != nil {
		return err
	}
	for _, l := range lines {
		avail, err := t.availableIn(l.variant, warehouse)
		if err != nil {
			return err
		}
		if avail < l.quantity {
			return nil
		}
	}
	f := t.newID()
	if _, err := t.exec(`INSERT INTO fulfillments(id, account_id, order_id, warehouse_id, created_at, updated_at) VALUES(?,?,?,?,?,?)`,
		f, account, order, warehouse, t.now, t.now); err != nil {
		return err
	}
	for _, l := range lines {
		if _, err := t.exec(`INSERT INTO line_items(id, fulfillment_id, variant_id, sku, quantity) VALUES(?,?,?,?,?)`,
			t.newID(), f, l.variant, l.sku, l.quantity); err != nil {
			return err
		}
		if err := t.adjustLevel(account, l.variant, warehouse, 0, l.quantity); err != nil {
			return err
		}
	}
	_, err = t.exec(`UPDATE orders SET state = ?, updated_at = ? WHERE id = ?`, orderOpen, t.now, order)
	return err
}

// fulfilLine is one line to ship: a variant (never a bundle) and units.
type fulfilLine struct {
	variant, quantity int64
	sku               string
}

// expandLines turns the order's lines into line items: a bundle's line
// becomes its components times the quantity; repeated variants add up.
// [Spec] workflow step 6
func (t *txn) expandLines(order int64) ([]fulfilLine, error) {
	type raw struct {
		variant, qty int64
		bundle       bool
	}
	var raws []raw
	if err := t.eachRow(`SELECT l.variant_id, l.quantity, v.bundle FROM order_lines l JOIN variants v ON v.id = l.variant_id
		WHERE l.order_id = ? ORDER BY l.id`, []any{order}, func(rows *row) error {
		var r raw
		if err := rows.Scan(&r.variant, &r.qty, &r.bundle); err != nil {
			return err
		}
		raws = append(raws, r)
		return nil
	}); err != nil {
		return nil, err
	}
	qty := map[int64]int64{}
	var order_ []int64
	add := func(v, q int64) {
		if _, ok := qty[v]; !ok {
			order_ = append(order_, v)
		}
		qty[v] += q
	}
	for _, r := range raws {
		if !r.bundle {
			add(r.variant, r.qty)
			continue
		}
		comps, err := t.components(r.variant)
		if err != nil {
			return nil, err
		}
		for _, c := range comps {
			add(c.variant, c.quantity*r.qty)
		}
	}
	out := make([]fulfilLine, 0, len(order_))
	for _, v := range order_ {
		var sku string
		if _, err := t.row(`SELECT sku FROM variants WHERE id = ?`, []any{v}, &sku); err != nil {
			return nil, err
		}
		out = append(out, fulfilLine{variant: v, quantity: qty[v], sku: sku})
	}
	return out, nil
}

func renderFulfillments(t *txn, c *call, ids []int64, res *readResult) error {
	recs := map[int64]map[string]any{}
	links := map[int64]map[string]any{}
	var parts orderParts
	if err := t.eachRow(`SELECT f.id, f.order_id, o.address_id, f.status, f.complete, f.created_at, f.updated_at
		FROM fulfillments f JOIN orders o ON o.id = f.order_id WHERE f.id IN `+inIDs, []any{idList(ids)}, func(rows *row) error {
		var id, order int64
		var addr *int64
		var status, created, updated string
		var complete bool
		if err := rows.Scan(&id, &order, &addr, &status, &complete, &created, &updated); err != nil {
			return err
		}
		l := map[string]any{wire.LineItems: []any{}, wire.SalesOrders: idLinks([]int64{order}), wire.Addresses: []any{}}
		parts.orders.add(order)
		if addr != nil {
			l[wire.Addresses] = idLinks([]int64{*addr})
			parts.addrs.add(*addr)
		}
		links[id] = l
		recs[id] = map[string]any{"id": itoa(id), "status": status, "complete": boolStr(complete),
			"created_at": created, "updated_at": updated, wire.KeyLinks: l}
		return nil
	}); err != nil {
		return err
	}
	if err := t.eachRow(`SELECT fulfillment_id, id FROM line_items WHERE fulfillment_id IN `+inIDs+` ORDER BY fulfillment_id, id`, []any{idList(ids)}, func(rows *row) error {
		var f, li int64
		if err := rows.Scan(&f, &li); err != nil {
			return err
		}
		appendLink(links[f], wire.LineItems, li)
		parts.items.add(li)
		return nil
	}); err != nil {
		return err
	}
	for _, id := range ids {
		if r, ok := recs[id]; ok {
			res.records = append(res.records, r)
		}
	}
	if err := t.linkShipments(ids, links, res); err != nil {
		return err
	}
	if err := t.sideloadOrderPackages(res, c.acc.account, parts.orders.ids); err != nil {
		return err
	}
	return parts.sideload(t, res, c.acc.account, true)
}

// linkShipments links each fulfillment of ids (links, by id) to the
// shipments posted against it, and sideloads them. [B.5, assumed]
func (t *txn) linkShipments(ids []int64, links map[int64]map[string]any, res *readResult) error {
	ships, err := t.fulfillmentShipments(ids)
	if err != nil {
		return err
	}
	var all []int64
	for _, f := range ids {
		if l := links[f]; l != nil {
			l[wire.Shipments] = idLinks(ships[f])
			all = append(all, ships[f]...)
		}
	}
	return t.sideloadShipments(res, all)
}

func fulfillmentWriter() *writer {
	return &writer{resource: wire.Fulfillments, apply: applyFulfillmentStatus}
}

// applyFulfillmentStatus sets the free-text status of a fulfillment.
// [Spec] "status accepts any string"
func applyFulfillmentStatus(t *txn, c *call, i int, rec record) (int64, error) {
	id, hasID, err := idField(rec, "")
	if err != nil {
		return 0, err
	}
	if !hasID {
		return 0, fieldErr("id", "id is required: fulfillments are created by orders, not by writes")
	}
	status, present, err := strField(rec, "status", "")
	if err != nil {
		return 0, err
	}
	if !present {
		return 0, fieldErr("status", "status is required (any string)")
	}
	var x int64
	found, err := t.row(`SELECT id FROM fulfillments WHERE id = ? AND account_id = ? AND deleted = 0`, []any{id, c.acc.account}, &x)
	if err != nil {
		return 0, err
	}
	if !found {
		return 0, fieldErr("id", "no Fulfillments record with id %d in this account", id)
	}
	_, err = t.exec(`UPDATE fulfillments SET status = ?, updated_at = ? WHERE id = ?`, status, t.now, id)
	return id, err
}

func shipmentWriter() *writer {
	return &writer{resource: wire.Shipments, apply: applyShipment}
}

// applyShipment records shipped units of line items of one open
// fulfillment. When every line item is shipped in full the fulfillment
// completes, leaves the open list, and its stock leaves the warehouse.
func applyShipment(t *txn, c *call, i int, rec record) (int64, error) {
	account := c.acc.account
	shippedAt, fields, err := shipmentFields(rec)
	if err != nil {
		return 0, err
	}
	links, err := linksOf(rec, "")
	if err != nil {
		return 0, err
	}
	f, warehouse, err := t.openFulfillment(account, links)
	if err != nil {
		return 0, err
	}
	lis := links.of(wire.LineItems)
	if len(lis) == 0 {
		return 0, fieldErr("links.LineItems", "a shipment needs links.LineItems [{\"id\", \"quantity\"}]")
	}
	sid := t.newID()
	var cost any
	if c := fields["cost"]; c != "" {
		cost = c
	}
	if _, err := t.exec(`INSERT INTO shipments(id, account_id, fulfillment_id, shipped_at, tracking_number, tracking_link, carrier, cost, created_at)
		VALUES(?,?,?,?,?,?,?,?,?)`, sid, account, f, shippedAt, fields["tracking_number"], fields["tracking_link"], fields["carrier"], cost, t.now); err != nil {
		return 0, err
	}
	packed, err := t.shipLines(f, sid, lis)
	if err != nil {
		return 0, err
	}
	pkg, err := t.packageOfShipment(account, f, shippedAt, fields, packed)
	if err != nil {
		return 0, err
	}
	if _, err := t.exec(`UPDATE shipments SET package_id = ? WHERE id = ?`, pkg, sid); err != nil {
		return 0, err
	}
	return sid, t.afterShipment(account, f, warehouse)
}

// shipmentFields reads a shipment record's shipped_at (required,
// normalised) and its tracking number, link, carrier and cost (checked).
func shipmentFields(rec record) (string, map[string]string, error) {
	shippedAt, present, err := strField(rec, "shipped_at", "")
	if err != nil {
		return "", nil, err
	}
	if !present || shippedAt == "" {
		return "", nil, fieldErr("shipped_at", "shipped_at is required: an ISO 8601 date-time like 2016-02-08T22:57:11+0000")
	}
	if shippedAt, err = normalizeTime(shippedAt, "shipped_at"); err != nil {
		return "", nil, err
	}
	fields := map[string]string{}
	for _, k := range []string{"tracking_number", "tracking_link", "carrier", "cost"} {
		s, _, err := strField(rec, k, "")
		if err != nil {
			return "", nil, err
		}
		fields[k] = s
	}
	if c := fields["cost"]; c != "" {
		if v, err := strconv.ParseFloat(c, 64); err != nil || v < 0 {
			return "", nil, fieldErr("cost", "cost %q is not an amount of 0 or more like 8.95", c)
		}
	}
	return shippedAt, fields, nil
}

// openFulfillment is the one open fulfillment of the account a shipment's
// links name, with its warehouse.
func (t *txn) openFulfillment(account int64, links linkSet) (f, warehouse int64, err error) {
	fids, err := linkIDs(links.of(wire.Fulfillments), "links.Fulfillments")
	if err != nil {
		return 0, 0, err
	}
	if len(fids) != 1 {
		return 0, 0, fieldErr("links.Fulfillments", "a shipment needs links.Fulfillments with exactly one fulfillment, got %d", len(fids))
	}
	f = fids[0]
	var complete bool
	found, err := t.row(`SELECT complete, warehouse_id FROM fulfillments WHERE id = ? AND account_id = ? AND deleted = 0`,
		[]any{f, account}, &complete, &warehouse)
	switch {
	case err != nil:
		return 0, 0, err
	case !found:
		return 0, 0, fieldErr("links.Fulfillments[0].id", "no Fulfillments record with id %d in this account", f)
	case complete:
		return 0, 0, fieldErr("links.Fulfillments[0].id", "fulfillment %d is already complete", f)
	}
	return f, warehouse, nil
}

// shipLines ships the line items of fulfillment f a shipment sid names
// (a line's quantity defaults to what it has left), refusing a line of
// another fulfillment or more units than are left; it returns what it
// shipped.
func (t *txn) shipLines(f, sid int64, lis []record) ([]OrderLine, error) {
	var packed []OrderLine
	for j, l := range lis {
		p := fmt.Sprintf("links.LineItems[%d].", j)
		li, present, err := idField(l, p)
		if err != nil {
			return nil, err
		}
		if !present {
			return nil, fieldErr(p+"id", "%sid is required", p)
		}
		var qty, shipped int64
		var sku string
		found, err := t.row(`SELECT quantity, shipped_quantity, sku FROM line_items WHERE id = ? AND fulfillment_id = ?`, []any{li, f}, &qty, &shipped, &sku)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fieldErr(p+"id", "%sid: line item %d is not part of fulfillment %d", p, li, f)
		}
		n, present, err := intField(l, "quantity", p)
		if err != nil {
			return nil, err
		}
		if !present {
			n = qty - shipped
		}
		if n <= 0 {
			return nil, fieldErr(p+"quantity", "%squantity must be at least 1 (line item %d has %d left to ship)", p, li, qty-shipped)
		}
		if shipped+n > qty {
			return nil, fieldErr(p+"quantity", "%squantity %d would ship %d of line item %d, which has only %d ordered (%d shipped already)",
				p, n, shipped+n, li, qty, shipped)
		}
		if _, err := t.exec(`UPDATE line_items SET shipped_quantity = shipped_quantity + ? WHERE id = ?`, n, li); err != nil {
			return nil, err
		}
		if _, err := t.exec(`INSERT INTO shipment_lines(shipment_id, line_item_id, quantity) VALUES(?,?,?)`, sid, li, n); err != nil {
			return nil, err
		}
		packed = append(packed, OrderLine{SKU: sku, Quantity: n})
	}
	return packed, nil
}

// afterShipment completes fulfillment f when every line of it is shipped,
// and marks it updated.
func (t *txn) afterShipment(account, f, warehouse int64) error {
	var left int64
	if _, err := t.row(`SELECT COUNT(*) FROM line_items WHERE fulfillment_id = ? AND shipped_quantity < quantity`, []any{f}, &left); err != nil {
		return err
	}
	if left == 0 {
		if err := t.completeFulfillment(account, f, warehouse); err != nil {
			return err
		}
	}
	_, err := t.exec(`UPDATE fulfillments SET updated_at = ? WHERE id = ?`, t.now, f)
	return err
}

// packageOfShipment records a posted shipment as the account records one
// its staff ship: a packing slip of the order packing the lines shipped
// (those the order names by SKU; a bundle's components are packed on its
// line) and a shipment (Packages) with the tracking, carrier and cost.
// [lading, assumed] (wire.ShipmentWriteFields) It returns the shipment's
// (Packages) id.
func (t *txn) packageOfShipment(account, f int64, shippedAt string, fields map[string]string, lines []OrderLine) (int64, error) {
	var order int64
	if _, err := t.row(`SELECT order_id FROM fulfillments WHERE id = ?`, []any{f}, &order); err != nil {
		return 0, err
	}
	var onOrder []OrderLine
	for _, l := range lines {
		var q int64
		found, err := t.row(`SELECT quantity FROM order_lines WHERE order_id = ? AND sku = ?`, []any{order, l.SKU}, &q)
		if err != nil {
			return 0, err
		}
		if found {
			onOrder = append(onOrder, OrderLine{SKU: l.SKU, Quantity: min(l.Quantity, q)})
		}
	}
	slip, err := t.createSlip(account, order, SlipSpec{Date: shippedAt, Lines: onOrder, Packages: []PackageSpec{{
		TrackingNumber: fields["tracking_number"], TrackingLink: fields["tracking_link"], Carrier: fields["carrier"], Cost: fields["cost"],
	}}})
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(slip.Packages[0], 10, 64)
}

// completeFulfillment marks f complete and takes its units out of stock
// and out of committed stock.
func (t *txn) completeFulfillment(account, f, warehouse int64) error {
	if _, err := t.exec(`UPDATE fulfillments SET complete = 1, updated_at = ? WHERE id = ?`, t.now, f); err != nil {
		return err
	}
	var lines []fulfilLine
	if err := t.eachRow(`SELECT variant_id, quantity FROM line_items WHERE fulfillment_id = ?`, []any{f}, func(rows *row) error {
		var l fulfilLine
		if err := rows.Scan(&l.variant, &l.quantity); err != nil {
			return err
		}
		lines = append(lines, l)
		return nil
	}); err != nil {
		return err
	}
	for _, l := range lines {
		if err := t.adjustLevel(account, l.variant, warehouse, -l.quantity, -l.quantity); err != nil {
			return err
		}
	}
	_, err := t.exec(`UPDATE orders SET state = 'complete', updated_at = ? WHERE id = (SELECT order_id FROM fulfillments WHERE id = ?)`, t.now, f)
	return err
}

// CreateBundle makes the variant of spec.SKU a bundle of the components,
// which become components. A bundle's line in an order becomes its
// components times the ordered quantity.
func (s *Server) CreateBundle(ctx context.Context, spec BundleSpec) (string, error) {
	a, err := s.resolveAccount(ctx, spec.Token, spec.AccountID)
	if err != nil {
		return "", fmt.Errorf("sandbox: create bundle: %w", err)
	}
	if len(spec.Components) == 0 {
		return "", errors.New("sandbox: create bundle: a bundle needs components [{sku, quantity}]")
	}
	var id int64
	err = s.st.do(ctx, func(t *txn) error {
		bySKU := func(sku string) (int64, error) {
			var v int64
			found, err := t.row(`SELECT id FROM variants WHERE account_id = ? AND sku = ? AND deleted = 0`, []any{a.account, sku}, &v)
			if err != nil {
				return 0, err
			}
			if !found {
				return 0, fmt.Errorf("no variant with SKU %q in account %d", sku, a.account)
			}
			return v, nil
		}
		var err error
		if id, err = bySKU(spec.SKU); err != nil {
			return err
		}
		if _, err := t.exec(`DELETE FROM bundle_components WHERE bundle_id = ?`, id); err != nil {
			return err
		}
		for _, c := range spec.Components {
			if c.Quantity <= 0 {
				return fmt.Errorf("component %s: quantity %d must be at least 1", c.SKU, c.Quantity)
			}
			cid, err := bySKU(c.SKU)
			if err != nil {
				return err
			}
			if cid == id {
				return fmt.Errorf("bundle %s cannot contain itself", spec.SKU)
			}
			if _, err := t.exec(`INSERT INTO bundle_components(bundle_id, component_id, quantity) VALUES(?,?,?)`, id, cid, c.Quantity); err != nil {
				return err
			}
			if _, err := t.exec(`UPDATE variants SET component = 1, updated_at = ? WHERE id = ?`, t.now, cid); err != nil {
				return err
			}
		}
		_, err = t.exec(`UPDATE variants SET bundle = 1, updated_at = ? WHERE id = ?`, t.now, id)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("sandbox: create bundle: %w", err)
	}
	return itoa(id), nil
}

// appendLink adds {"id": id} to the links l hold under resource.
func appendLink(l map[string]any, resource string, id int64) {
	if l == nil {
		return
	}
	arr, _ := l[resource].([]any)
	l[resource] = append(arr, map[string]any{"id": itoa(id)})
}
