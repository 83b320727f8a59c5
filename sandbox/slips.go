package sandbox

import (
	"fmt"

	"lading/api/wire"
)

func packingSlipSpec() *listSpec {
	return &listSpec{
		resource: wire.PackingSlips, table: "packing_slips", base: "deleted = 0",
		cols: withCommon(map[string]column{
			"local_id":          {"local_id", kText},
			"packing_slip_date": {"packing_slip_date", kDate},
			"ship_date":         {"ship_date", kDate},
			"status":            {"status", kText},
			"void":              {"void", kInt},
		}),
		render: renderPackingSlips,
	}
}

// slipLinks are the written links of a packing slip; LineItems carry a
// quantity. A slip read adds links.Packages (wire.SlipReadLinks).
var slipLinks = []string{wire.Addresses, wire.Contacts, wire.LineItems, wire.SalesOrders}

// packageLinks are the links of a shipment (package).
var packageLinks = []string{wire.PackingSlips, wire.PackageCarrierTypes, wire.SalesOrders}

func renderPackingSlips(t *txn, c *call, ids []int64, res *readResult) error {
	recs := map[int64]map[string]any{}
	if err := t.eachRow(`SELECT id, local_id, packing_slip_date, ship_date, status, void, notes, deleted, created_at, updated_at
		FROM packing_slips WHERE id IN `+inIDs, []any{idList(ids)}, func(rows *row) error {
		var id int64
		var localID, status, notes, created, updated string
		var psDate, shipDate *string
		var void, deleted bool
		if err := rows.Scan(&id, &localID, &psDate, &shipDate, &status, &void, &notes, &deleted, &created, &updated); err != nil {
			return err
		}
		recs[id] = map[string]any{
			"id": itoa(id), "local_id": localID, "packing_slip_date": nullable(psDate), "ship_date": nullable(shipDate),
			"status": status, "void": boolStr(void), "notes": notes, "deleted": boolStr(deleted),
			"created_at": created, "updated_at": updated,
		}
		return nil
	}); err != nil {
		return err
	}
	links, err := t.loadLinks(ids, slipLinks)
	if err != nil {
		return err
	}
	packages, err := t.slipPackages(ids)
	if err != nil {
		return err
	}
	var parts orderParts
	for _, id := range ids {
		r, ok := recs[id]
		if !ok {
			continue
		}
		l := links[id]
		l.value[wire.Packages] = idLinks(packages[id])
		r[wire.KeyLinks] = l.value
		parts.link(l.ids)
		res.records = append(res.records, r)
	}
	if err := parts.sideload(t, res, c.acc.account, false); err != nil {
		return err
	}
	var all []int64
	for _, id := range ids {
		all = append(all, packages[id]...)
	}
	return t.sideloadPackages(res, c.acc.account, all)
}

// slipPackages returns, per slip, the live shipments that link it, in id
// order. [B.6, assumed] links.Packages of a slip read
func (t *txn) slipPackages(slips []int64) (map[int64][]int64, error) {
	return t.groupIDs(`SELECT l.target_id, p.id FROM record_links l JOIN packages p ON p.id = l.owner_id
		WHERE l.resource = ? AND p.deleted = 0 AND l.target_id IN `+inIDs+` ORDER BY l.target_id, p.id`, wire.PackingSlips, idList(slips))
}

// sideloadPackages adds the shipments of ids and the carrier types they
// link.
func (t *txn) sideloadPackages(res *readResult, account int64, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	links, err := t.loadLinks(ids, packageLinks)
	if err != nil {
		return err
	}
	var carriers uniq
	if err := t.eachRow(`SELECT id, ship_date, notes, tracking_link, tracking_number, cost, delivered, deleted, created_at, updated_at
		FROM packages WHERE id IN `+inIDs, []any{idList(ids)}, func(rows *row) error {
		var id int64
		var notes, link, number, delivered, created, updated string
		var shipDate, cost *string
		var deleted bool
		if err := rows.Scan(&id, &shipDate, &notes, &link, &number, &cost, &delivered, &deleted, &created, &updated); err != nil {
			return err
		}
		for _, c := range links[id].ids[wire.PackageCarrierTypes] {
			carriers.add(c)
		}
		res.add(wire.Packages, itoa(id), map[string]any{"id": itoa(id), "ship_date": nullable(shipDate), "notes": notes,
			"tracking_link": link, "tracking_number": number, "cost": nullable(cost), "delivered": delivered,
			"deleted": boolStr(deleted), "created_at": created, "updated_at": updated, wire.KeyLinks: links[id].value})
		return nil
	}); err != nil {
		return err
	}
	if len(carriers.ids) == 0 {
		return nil
	}
	return t.eachRow(`SELECT id, name, created_at, updated_at FROM package_carrier_types WHERE account_id = ? AND id IN `+inIDs,
		[]any{account, idList(carriers.ids)}, func(rows *row) error {
			var id int64
			var name, created, updated string
			if err := rows.Scan(&id, &name, &created, &updated); err != nil {
				return err
			}
			res.add(wire.PackageCarrierTypes, itoa(id), map[string]any{"id": itoa(id), "name": name, "deleted": "0",
				"created_at": created, "updated_at": updated, wire.KeyLinks: []any{}})
			return nil
		})
}

// recordLinks are the stored links of one record.
type recordLinks struct {
	value map[string]any
	ids   map[string][]int64
}

// loadLinks reads record_links of owners for the given resources; every
// resource is present, empty when there is no link.
func (t *txn) loadLinks(owners []int64, resources []string) (map[int64]recordLinks, error) {
	out := make(map[int64]recordLinks, len(owners))
	for _, o := range owners {
		l := recordLinks{value: map[string]any{}, ids: map[string][]int64{}}
		for _, r := range resources {
			l.value[r] = []any{}
		}
		out[o] = l
	}
	if err := t.eachRow(`SELECT owner_id, resource, target_id, quantity FROM record_links WHERE owner_id IN `+inIDs+
		` ORDER BY owner_id, resource, position`, []any{idList(owners)}, func(rows *row) error {
		var owner, target int64
		var resource string
		var qty *string
		if err := rows.Scan(&owner, &resource, &target, &qty); err != nil {
			return err
		}
		l := out[owner]
		entry := map[string]any{"id": itoa(target)}
		if qty != nil {
			entry["quantity"] = *qty
		}
		arr, _ := l.value[resource].([]any)
		l.value[resource] = append(arr, entry)
		l.ids[resource] = append(l.ids[resource], target)
		return nil
	}); err != nil {
		return nil, err
	}
	return out, nil
}

// writeLinks replaces, for each resource given non-empty in links, the
// owner's links to it. LineItems entries carry a quantity.
func (t *txn) writeLinks(owner int64, links linkSet, resources []string, check func(resource string, id int64, path string) error) error {
	for _, res := range resources {
		recs := links.of(res)
		if len(recs) == 0 {
			continue
		}
		path := "links." + res
		ids, err := linkIDs(recs, path)
		if err != nil {
			return err
		}
		if _, err := t.exec(`DELETE FROM record_links WHERE owner_id = ? AND resource = ?`, owner, res); err != nil {
			return err
		}
		for i, id := range ids {
			p := fmt.Sprintf("%s[%d].", path, i)
			if check != nil {
				if err := check(res, id, p); err != nil {
					return err
				}
			}
			var qty any
			if res == wire.LineItems {
				n, present, err := intField(recs[i], "quantity", p)
				if err != nil {
					return err
				}
				if !present || n <= 0 {
					return fieldErr(p+"quantity", "%squantity is required and must be at least 1", p)
				}
				qty = itoa(n)
			}
			if _, err := t.exec(`INSERT INTO record_links(owner_id, resource, target_id, quantity, position) VALUES(?,?,?,?,?)`,
				owner, res, id, qty, i); err != nil {
				return err
			}
		}
	}
	return nil
}

func packingSlipWriter() *writer {
	return &writer{resource: wire.PackingSlips, apply: applyPackingSlip}
}

// slipFields are the writable scalars of a packing slip.
var slipFields = []struct {
	key     string
	dateish bool
}{{"local_id", false}, {"packing_slip_date", true}, {"ship_date", true}, {"status", false}, {"notes", false}}

// recordOf finds the record rec names by id, live in the account (and
// deletes it when rec says delete: then deleted is true), or makes a new
// one with create.
func (t *txn) recordOf(rec record, table, resource string, account int64, create func(id int64) error) (id int64, deleted bool, err error) {
	id, hasID, err := idField(rec, "")
	if err != nil {
		return 0, false, err
	}
	if !hasID {
		id = t.newID()
		if err := create(id); err != nil {
			return 0, false, err
		}
		return id, false, nil
	}
	if err := t.live(table, resource, id, account); err != nil {
		return 0, false, err
	}
	if flag(rec["delete"]) {
		_, err := t.markDeleted(table, id)
		return id, true, err
	}
	return id, false, nil
}

// setSlipFields writes the slip's scalars rec gives.
func (t *txn) setSlipFields(id int64, rec record) error {
	for _, f := range slipFields {
		s, present, err := strField(rec, f.key, "")
		if err != nil {
			return err
		}
		if !present {
			continue
		}
		var arg any = s
		if f.dateish {
			if s == "" {
				arg = nil
			} else if arg, err = normalizeTime(s, f.key); err != nil {
				return err
			}
		}
		if _, err := t.exec(`UPDATE packing_slips SET `+f.key+` = ? WHERE id = ?`, arg, id); err != nil {
			return err
		}
	}
	if v, has := rec["void"]; has {
		if _, err := t.exec(`UPDATE packing_slips SET void = ? WHERE id = ?`, flag(v), id); err != nil {
			return err
		}
	}
	return nil
}

func applyPackingSlip(t *txn, c *call, i int, rec record) (int64, error) {
	account := c.acc.account
	id, deleted, err := t.recordOf(rec, "packing_slips", "PackingSlips", account, func(id int64) error {
		localID, err := t.nextLocalID(account)
		if err != nil {
			return err
		}
		_, err = t.exec(`INSERT INTO packing_slips(id, account_id, local_id, created_at, updated_at) VALUES(?,?,?,?,?)`,
			id, account, "PS"+localID, t.now, t.now)
		return err
	})
	if err != nil || deleted {
		return id, err
	}
	if err := t.setSlipFields(id, rec); err != nil {
		return 0, err
	}
	links, err := linksOf(rec, "")
	if err != nil {
		return 0, err
	}
	if err := t.writeLinks(id, links, slipLinks, t.checkSlipOrder(account)); err != nil {
		return 0, err
	}
	if links.has(wire.LineItems) || links.has(wire.SalesOrders) {
		if err := t.checkPacking(id); err != nil {
			return 0, err
		}
	}
	_, err = t.exec(`UPDATE packing_slips SET updated_at = ? WHERE id = ?`, t.now, id)
	return id, err
}

// packageField is the column value of a package's field rec gives.
func packageField(rec record, key string) (arg any, present bool, err error) {
	var s string
	if key == "cost" {
		s, present, err = numericField(rec, key, "")
	} else {
		s, present, err = strField(rec, key, "")
	}
	if err != nil || !present {
		return nil, present, err
	}
	switch {
	case (key == "cost" || key == "ship_date") && s == "":
		return nil, true, nil
	case key == "ship_date":
		arg, err = normalizeTime(s, key)
		return arg, true, err
	case key == "delivered":
		return boolStr(flag(s)), true, nil
	}
	return s, true, nil
}

func packageWriter() *writer {
	return &writer{resource: wire.Packages, apply: applyPackage}
}

// applyPackage creates, edits or deletes a shipment (package). Linked
// packing slips must be live records of the account.
func applyPackage(t *txn, c *call, i int, rec record) (int64, error) {
	account := c.acc.account
	id, deleted, err := t.recordOf(rec, "packages", "Packages", account, func(id int64) error {
		_, err := t.exec(`INSERT INTO packages(id, account_id, created_at, updated_at) VALUES(?,?,?,?)`, id, account, t.now, t.now)
		return err
	})
	if err != nil || deleted {
		return id, err
	}
	for _, key := range []string{"ship_date", "notes", "tracking_link", "tracking_number", "cost", "delivered"} {
		arg, present, err := packageField(rec, key)
		if err != nil {
			return 0, err
		}
		if !present {
			continue
		}
		if _, err := t.exec(`UPDATE packages SET `+key+` = ? WHERE id = ?`, arg, id); err != nil {
			return 0, err
		}
	}
	links, err := linksOf(rec, "")
	if err != nil {
		return 0, err
	}
	check := func(resource string, target int64, path string) error {
		if resource != wire.PackingSlips {
			return nil
		}
		var x int64
		found, err := t.row(`SELECT id FROM packing_slips WHERE id = ? AND account_id = ? AND deleted = 0`, []any{target, account}, &x)
		if err != nil {
			return err
		}
		if !found {
			return fieldErr(path+"id", "%sid: no PackingSlips record with id %d in this account", path, target)
		}
		return nil
	}
	if err := t.writeLinks(id, links, packageLinks, check); err != nil {
		return 0, err
	}
	_, err = t.exec(`UPDATE packages SET updated_at = ? WHERE id = ?`, t.now, id)
	return id, err
}
