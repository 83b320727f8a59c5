package sandbox

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"lading/api/wire"
)

// CreateSlip makes a packing slip of an order and its shipments, as the
// account's staff would when they pack and ship it.
func (s *Server) CreateSlip(ctx context.Context, spec SlipSpec) (SlipResult, error) {
	a, err := s.resolveAccount(ctx, spec.Token, spec.AccountID)
	if err != nil {
		return SlipResult{}, fmt.Errorf("sandbox: create packing slip: %w", err)
	}
	var out SlipResult
	err = s.st.do(ctx, func(t *txn) error {
		order, err := strconv.ParseInt(strings.TrimSpace(spec.Order), 10, 64)
		if err != nil {
			return fmt.Errorf("order %q is not an id: give the id the order was created with", spec.Order)
		}
		out, err = t.createSlip(a.account, order, spec)
		return err
	})
	if err != nil {
		return SlipResult{}, fmt.Errorf("sandbox: create packing slip: %w", err)
	}
	return out, nil
}

// slipLine is a line of an order a slip packs, with the units packed.
type slipLine struct {
	id, quantity int64
}

// createSlip stores the slip, its links and its shipments.
func (t *txn) createSlip(account, order int64, spec SlipSpec) (SlipResult, error) {
	var addr, contact *int64
	found, err := t.row(`SELECT address_id, contact_id FROM orders WHERE id = ? AND account_id = ?`, []any{order, account}, &addr, &contact)
	if err != nil {
		return SlipResult{}, err
	}
	if !found {
		return SlipResult{}, fmt.Errorf("no order with id %d in account %d", order, account)
	}
	lines, err := t.slipLines(order, spec.Lines)
	if err != nil {
		return SlipResult{}, err
	}
	date := t.now
	if spec.Date != "" {
		if date, err = normalizeTime(spec.Date, "packing_slip_date"); err != nil {
			return SlipResult{}, err
		}
	}
	local, err := t.nextLocalID(account)
	if err != nil {
		return SlipResult{}, err
	}
	slip := t.newID()
	if _, err := t.exec(`INSERT INTO packing_slips(id, account_id, local_id, packing_slip_date, status, notes, created_at, updated_at)
		VALUES(?,?,?,?,?,?,?,?)`, slip, account, "PS"+local, date, spec.Status, spec.Notes, t.now, t.now); err != nil {
		return SlipResult{}, err
	}
	if err := t.linkSlip(slip, order, addr, contact, lines); err != nil {
		return SlipResult{}, err
	}
	out := SlipResult{ID: itoa(slip), Packages: []string{}}
	for i, p := range spec.Packages {
		id, err := t.createPackage(account, slip, order, date, p)
		if err != nil {
			return SlipResult{}, fmt.Errorf("package %d: %w", i, err)
		}
		out.Packages = append(out.Packages, itoa(id))
	}
	_, err = t.exec(`UPDATE packing_slips SET ship_date = (SELECT MIN(p.ship_date) FROM packages p JOIN record_links l
		ON l.owner_id = p.id AND l.resource = ? WHERE l.target_id = ?) WHERE id = ?`, wire.PackingSlips, slip, slip)
	return out, err
}

// linkSlip links a new slip to its order, the order's address and
// contact when it has them, and the lines it packs.
func (t *txn) linkSlip(slip, order int64, addr, contact *int64, lines []slipLine) error {
	links := []struct {
		resource string
		id       *int64
	}{{wire.Addresses, addr}, {wire.Contacts, contact}, {wire.SalesOrders, &order}}
	for _, l := range links {
		if l.id != nil {
			if err := t.insertLink(slip, l.resource, *l.id, nil, 0); err != nil {
				return err
			}
		}
	}
	for i, l := range lines {
		if err := t.insertLink(slip, wire.LineItems, l.id, itoa(l.quantity), i); err != nil {
			return err
		}
	}
	return nil
}

// slipLines finds the order's lines a slip packs: each SKU's line and
// units (at most those ordered), or every line in full.
func (t *txn) slipLines(order int64, want []OrderLine) ([]slipLine, error) {
	type orderLine struct {
		id, quantity int64
		sku          string
	}
	var have []orderLine
	if err := t.eachRow(`SELECT id, quantity, sku FROM order_lines WHERE order_id = ? ORDER BY id`, []any{order}, func(rows *row) error {
		var l orderLine
		if err := rows.Scan(&l.id, &l.quantity, &l.sku); err != nil {
			return err
		}
		have = append(have, l)
		return nil
	}); err != nil {
		return nil, err
	}
	var out []slipLine
	if len(want) == 0 {
		for _, l := range have {
			out = append(out, slipLine{l.id, l.quantity})
		}
		return out, nil
	}
	for i, w := range want {
		j := -1
		for k, l := range have {
			if l.sku == w.SKU {
				j = k
				break
			}
		}
		if j < 0 {
			return nil, fmt.Errorf("line %d: order %d has no line with SKU %q", i, order, w.SKU)
		}
		if w.Quantity < 1 || w.Quantity > have[j].quantity {
			return nil, fmt.Errorf("line %d (%s): quantity %d must be from 1 to the %d ordered", i, w.SKU, w.Quantity, have[j].quantity)
		}
		out = append(out, slipLine{have[j].id, w.Quantity})
	}
	return out, nil
}

// createPackage stores a shipment of slip (and order), dated at the slip's
// date unless it gives its own.
func (t *txn) createPackage(account, slip, order int64, slipDate string, p PackageSpec) (int64, error) {
	shipDate := slipDate
	if p.ShipDate != "" {
		var err error
		if shipDate, err = normalizeTime(p.ShipDate, "ship_date"); err != nil {
			return 0, err
		}
	}
	var cost any
	if c := strings.TrimSpace(p.Cost); c != "" {
		if f, err := strconv.ParseFloat(c, 64); err != nil || f < 0 {
			return 0, fmt.Errorf("cost %q is not an amount of 0 or more like 8.95", p.Cost)
		}
		cost = c
	}
	id := t.newID()
	if _, err := t.exec(`INSERT INTO packages(id, account_id, ship_date, notes, tracking_link, tracking_number, cost, delivered,
		created_at, updated_at) VALUES(?,?,?,?,?,?,?,?,?,?)`, id, account, shipDate, p.Notes, p.TrackingLink, p.TrackingNumber,
		cost, boolStr(p.Delivered), t.now, t.now); err != nil {
		return 0, err
	}
	if err := t.insertLink(id, wire.PackingSlips, slip, nil, 0); err != nil {
		return 0, err
	}
	if err := t.insertLink(id, wire.SalesOrders, order, nil, 0); err != nil {
		return 0, err
	}
	if strings.TrimSpace(p.Carrier) == "" {
		return id, nil
	}
	carrier, err := t.carrierType(account, strings.TrimSpace(p.Carrier))
	if err != nil {
		return 0, err
	}
	return id, t.insertLink(id, wire.PackageCarrierTypes, carrier, nil, 0)
}

// carrierType returns the account's carrier type of that name, creating
// it when the account has none.
func (t *txn) carrierType(account int64, name string) (int64, error) {
	var id int64
	found, err := t.row(`SELECT id FROM package_carrier_types WHERE account_id = ? AND name = ?`, []any{account, name}, &id)
	if err != nil || found {
		return id, err
	}
	id = t.newID()
	_, err = t.exec(`INSERT INTO package_carrier_types(id, account_id, name, created_at, updated_at) VALUES(?,?,?,?,?)`,
		id, account, name, t.now, t.now)
	return id, err
}

// insertLink adds one link of owner; qty is nil or the units of a line.
func (t *txn) insertLink(owner int64, resource string, target int64, qty any, position int) error {
	_, err := t.exec(`INSERT INTO record_links(owner_id, resource, target_id, quantity, position) VALUES(?,?,?,?,?)`,
		owner, resource, target, qty, position)
	return err
}
