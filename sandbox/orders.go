package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"lading/api/wire"
)

// CreateOrder enters an order in the account, as an integrated sales
// channel would, and initialises its fulfillment at once if it can:
// assigned to an integration's warehouse, enough available stock there,
// shipping address populated. Otherwise it waits and is checked again
// whenever stock changes. [Spec] workflow step 4
func (s *Server) CreateOrder(ctx context.Context, spec OrderSpec) (string, error) {
	a, err := s.resolveAccount(ctx, spec.Token, spec.AccountID)
	if err != nil {
		return "", fmt.Errorf("sandbox: create order: %w", err)
	}
	var id int64
	err = s.st.do(ctx, func(t *txn) error {
		if id, err = t.insertOrder(a, spec); err != nil {
			return err
		}
		return t.tryInitialise(a.account, id)
	})
	if err != nil {
		return "", fmt.Errorf("sandbox: create order: %w", err)
	}
	return itoa(id), nil
}

// insertOrder stores a waiting order, its address, contact and lines.
func (t *txn) insertOrder(a access, spec OrderSpec) (int64, error) {
	if len(spec.Lines) == 0 {
		return 0, errors.New("an order needs at least one line {sku, quantity}")
	}
	warehouse := a.warehouse
	if spec.WarehouseID != "" {
		var err error
		if warehouse, err = strconv.ParseInt(strings.TrimSpace(spec.WarehouseID), 10, 64); err != nil {
			return 0, fmt.Errorf("warehouse_id %q is not an id", spec.WarehouseID)
		}
	}
	date := t.now
	if spec.OrderDate != "" {
		var err error
		if date, err = normalizeTime(spec.OrderDate, "order_date"); err != nil {
			return 0, err
		}
	}
	currency := strings.ToUpper(strings.TrimSpace(spec.Currency))
	if currency == "" {
		currency = "USD"
	}
	if err := knownFields("shipping_address", spec.ShippingAddress, wire.AddressFields); err != nil {
		return 0, err
	}
	if err := knownFields("contact", spec.Contact, wire.ContactWriteFields); err != nil {
		return 0, err
	}
	addr, err := t.insertAddress(a.account, spec.ShippingAddress)
	if err != nil {
		return 0, err
	}
	contact, err := t.insertContact(a.account, spec.Contact)
	if err != nil {
		return 0, err
	}
	local, err := t.nextLocalID(a.account)
	if err != nil {
		return 0, err
	}
	id := t.newID()
	if _, err := t.exec(`INSERT INTO orders(id, account_id, local_id, warehouse_id, address_id, contact_id, order_date, po_num,
		currency_iso, state, created_at, updated_at) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)`,
		id, a.account, "O"+local, warehouse, addr, contact, date, spec.PONum, currency, orderWaiting, t.now, t.now); err != nil {
		return 0, err
	}
	for i, l := range spec.Lines {
		if err := t.insertOrderLine(a.account, id, i, l); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// insertOrderLine stores line i of an order, priced as given or at the
// variant's price in its first pricing tier.
func (t *txn) insertOrderLine(account, order int64, i int, l OrderLine) error {
	if l.Quantity <= 0 {
		return fmt.Errorf("line %d (%s): quantity %d must be at least 1", i, l.SKU, l.Quantity)
	}
	var vid int64
	var desc string
	found, err := t.row(`SELECT id, auto_description FROM variants WHERE account_id = ? AND sku = ? AND deleted = 0`,
		[]any{account, l.SKU}, &vid, &desc)
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("line %d: no variant with SKU %q in account %d", i, l.SKU, account)
	}
	var price any
	if p := strings.TrimSpace(l.Price); p != "" {
		if f, err := strconv.ParseFloat(p, 64); err != nil || f < 0 {
			return fmt.Errorf("line %d (%s): price %q is not an amount of 0 or more like 19.99", i, l.SKU, l.Price)
		}
		price = p
	} else {
		var tierPrice string
		found, err := t.row(`SELECT price FROM variant_prices WHERE variant_id = ? ORDER BY tier_id LIMIT 1`, []any{vid}, &tierPrice)
		if err != nil {
			return err
		}
		if found {
			price = tierPrice
		}
	}
	_, err = t.exec(`INSERT INTO order_lines(id, order_id, variant_id, sku, quantity, price, description) VALUES(?,?,?,?,?,?,?)`,
		t.newID(), order, vid, l.SKU, l.Quantity, price, desc)
	return err
}

// knownFields refuses a key of fields that records of its kind do not
// have (an address's recipient is "contact", not "name").
func knownFields(what string, fields map[string]string, known []string) error {
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if !slices.Contains(known, k) {
			return fmt.Errorf("%s has no field %q: its fields are %s", what, k, strings.Join(known, ", "))
		}
	}
	return nil
}

func populated(addr map[string]string) bool {
	for _, v := range addr {
		if strings.TrimSpace(v) != "" {
			return true
		}
	}
	return false
}

// insertAddress stores a postal address; an empty one is not stored (nil).
func (t *txn) insertAddress(account int64, fields map[string]string) (any, error) {
	if !populated(fields) {
		return nil, nil
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	id := t.newID()
	_, err = t.exec(`INSERT INTO addresses(id, account_id, data, created_at, updated_at) VALUES(?,?,?,?,?)`,
		id, account, string(b), t.now, t.now)
	return id, err
}

// insertContact stores a customer contact; an empty one is not stored (nil).
func (t *txn) insertContact(account int64, fields map[string]string) (any, error) {
	if !populated(fields) {
		return nil, nil
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	local, err := t.nextLocalID(account)
	if err != nil {
		return nil, err
	}
	id := t.newID()
	_, err = t.exec(`INSERT INTO contacts(id, account_id, local_id, data, created_at, updated_at) VALUES(?,?,?,?,?,?)`,
		id, account, local, string(b), t.now, t.now)
	return id, err
}

// orderParts collects the related records a read sideloads with slips or
// fulfillments, each id once.
type orderParts struct {
	items, orders, addrs, contacts uniq
}

// link collects the parts a record links, by resource.
func (p *orderParts) link(ids map[string][]int64) {
	for _, x := range ids[wire.LineItems] {
		p.items.add(x)
	}
	for _, x := range ids[wire.SalesOrders] {
		p.orders.add(x)
	}
	for _, x := range ids[wire.Addresses] {
		p.addrs.add(x)
	}
	for _, x := range ids[wire.Contacts] {
		p.contacts.add(x)
	}
}

// sideload adds every collected part of the account to res; with
// variants, also the variants the line items name.
func (p *orderParts) sideload(t *txn, res *readResult, account int64, variants bool) error {
	vids, err := t.sideloadLineItems(res, account, p.items.ids)
	if err != nil {
		return err
	}
	contacts, err := t.sideloadOrders(res, account, p.orders.ids)
	if err != nil {
		return err
	}
	for _, c := range contacts {
		p.contacts.add(c)
	}
	if err := t.sideloadAddresses(res, account, p.addrs.ids); err != nil {
		return err
	}
	if err := t.sideloadContacts(res, account, p.contacts.ids); err != nil {
		return err
	}
	if !variants {
		return nil
	}
	return t.sideloadVariants(res, vids)
}

// sideloadLineItems adds the line items of ids that the account holds:
// lines of its orders (as packing slips name them, with their price) and
// lines of its fulfillments. It returns the variants they name.
func (t *txn) sideloadLineItems(res *readResult, account int64, ids []int64) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	variants, err := t.sideloadOrderLines(res, wire.LineItems, account, ids)
	if err != nil {
		return nil, err
	}
	more, err := t.sideloadFulfillmentLines(res, account, ids)
	return append(variants, more...), err
}

// sideloadOrderLines adds, under resource, the lines of the account's
// orders among ids (with their price), and returns the variants they name.
func (t *txn) sideloadOrderLines(res *readResult, resource string, account int64, ids []int64) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var variants uniq
	err := t.eachRow(`SELECT l.id, l.order_id, l.variant_id, l.sku, l.quantity, l.price, l.description
		FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.account_id = ? AND l.id IN `+inIDs,
		[]any{account, idList(ids)}, func(rows *row) error {
			var id, order, v, q int64
			var sku, desc string
			var price *string
			if err := rows.Scan(&id, &order, &v, &sku, &q, &price, &desc); err != nil {
				return err
			}
			variants.add(v)
			res.add(resource, itoa(id), map[string]any{"id": itoa(id), "sku": sku, "variant_id": itoa(v),
				"quantity": itoa(q), "price": nullable(price), "description": desc, "deleted": "0",
				wire.KeyLinks: map[string]any{wire.SalesOrders: idLinks([]int64{order}), wire.Variants: idLinks([]int64{v})}})
			return nil
		})
	return variants.ids, err
}

// sideloadFulfillmentLines adds the line items of the account's
// fulfillments among ids, and returns the variants they name.
func (t *txn) sideloadFulfillmentLines(res *readResult, account int64, ids []int64) ([]int64, error) {
	var variants uniq
	err := t.eachRow(`SELECT li.id, li.fulfillment_id, li.variant_id, li.sku, li.quantity, li.shipped_quantity
		FROM line_items li JOIN fulfillments f ON f.id = li.fulfillment_id WHERE f.account_id = ? AND li.id IN `+inIDs,
		[]any{account, idList(ids)}, func(rows *row) error {
			var id, f, v, q, shipped int64
			var sku string
			if err := rows.Scan(&id, &f, &v, &sku, &q, &shipped); err != nil {
				return err
			}
			variants.add(v)
			res.add(wire.LineItems, itoa(id), map[string]any{"id": itoa(id), "sku": sku, "variant_id": itoa(v),
				"quantity": itoa(q), "shipped_quantity": itoa(shipped),
				wire.KeyLinks: map[string]any{wire.Fulfillments: idLinks([]int64{f}), wire.Variants: idLinks([]int64{v})}})
			return nil
		})
	return variants.ids, err
}

// sideloadOrders adds the sales orders of ids that the account holds, with
// their totals from their lines. It returns the contacts they link.
func (t *txn) sideloadOrders(res *readResult, account int64, ids []int64) ([]int64, error) {
	recs, contacts, err := t.orderRecords(account, ids)
	for _, id := range ids {
		if r, ok := recs[id]; ok {
			res.add(wire.SalesOrders, itoa(id), r)
		}
	}
	return contacts, err
}

// orderRecords renders the sales orders of ids that the account holds,
// with their totals from their lines and their links [A.3]. It returns the
// contacts they link.
func (t *txn) orderRecords(account int64, ids []int64) (map[int64]map[string]any, []int64, error) {
	recs := map[int64]map[string]any{}
	if len(ids) == 0 {
		return recs, nil, nil
	}
	held, err := t.orderLinks(ids)
	if err != nil {
		return nil, nil, err
	}
	var contacts []int64
	err = t.eachRow(`SELECT o.id, o.local_id, o.state, o.po_num, COALESCE(o.order_date, o.created_at), o.currency_iso,
		o.address_id, o.contact_id, o.created_at, o.updated_at,
		(SELECT COALESCE(SUM(CAST(l.price AS REAL) * l.quantity), 0) FROM order_lines l WHERE l.order_id = o.id)
		FROM orders o WHERE o.account_id = ? AND o.id IN `+inIDs, []any{account, idList(ids)}, func(rows *row) error {
		var id int64
		var local, state, po, date, currency, created, updated string
		var addr, contact *int64
		var subtotal float64
		if err := rows.Scan(&id, &local, &state, &po, &date, &currency, &addr, &contact, &created, &updated, &subtotal); err != nil {
			return err
		}
		links := map[string]any{wire.Addresses: []any{}, wire.Contacts: []any{}}
		if addr != nil {
			links[wire.Addresses] = []any{map[string]any{"id": itoa(*addr), "type": "shipping"}}
		}
		if contact != nil {
			links[wire.Contacts] = idLinks([]int64{*contact})
			contacts = append(contacts, *contact)
		}
		money := fmt.Sprintf("%.2f", subtotal)
		recs[id] = map[string]any{"id": itoa(id), "local_id": local, "po_num": po,
			"order_date": date, "ship_date": nil, "currency_iso": currency, "subtotal": money, "tax_total": "0.00",
			"discount": "0.00", "total": money, "notes": "", "archived": "0", "complete": boolStr(state == "complete"),
			"void": "0", "draft": "0", "deleted": "0", "created_at": created, "updated_at": updated, wire.KeyLinks: withLinks(links, held[id])}
		return nil
	})
	return recs, contacts, err
}

// sideloadAddresses adds the addresses of ids that the account holds.
func (t *txn) sideloadAddresses(res *readResult, account int64, ids []int64) error {
	return t.sideloadData(res, wire.Addresses, `SELECT id, '', data, created_at, updated_at FROM addresses
		WHERE account_id = ? AND id IN `+inIDs, account, ids, func(rec map[string]any, _ string) {
		rec["type"] = "shipping"
	})
}

// sideloadContacts adds the contacts of ids that the account holds.
func (t *txn) sideloadContacts(res *readResult, account int64, ids []int64) error {
	return t.sideloadData(res, wire.Contacts, `SELECT id, local_id, data, created_at, updated_at FROM contacts
		WHERE account_id = ? AND id IN `+inIDs, account, ids, func(rec map[string]any, local string) {
		rec["local_id"], rec["archived"] = local, "0"
		for _, k := range []string{"name", "notes"} {
			if _, ok := rec[k]; !ok {
				rec[k] = ""
			}
		}
	})
}

// sideloadData adds records kept as a JSON object of fields (addresses,
// contacts): q selects id, local_id, data, created_at and updated_at;
// finish completes each record.
func (t *txn) sideloadData(res *readResult, resource, q string, account int64, ids []int64, finish func(rec map[string]any, local string)) error {
	if len(ids) == 0 {
		return nil
	}
	return t.eachRow(q, []any{account, idList(ids)}, func(rows *row) error {
		var id int64
		var local, data, created, updated string
		if err := rows.Scan(&id, &local, &data, &created, &updated); err != nil {
			return err
		}
		var fields map[string]string
		if err := json.Unmarshal([]byte(data), &fields); err != nil {
			return fmt.Errorf("sandbox: %s %d: %w", resource, id, err)
		}
		rec := make(map[string]any, len(fields)+6)
		for k, v := range fields {
			rec[k] = v
		}
		rec["id"], rec["deleted"], rec["created_at"], rec["updated_at"] = itoa(id), "0", created, updated
		rec[wire.KeyLinks] = []any{}
		finish(rec, local)
		res.add(resource, itoa(id), rec)
		return nil
	})
}
