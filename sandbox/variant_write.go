package sandbox

import (
	"fmt"

	"lading/api/wire"
)

func variantWriter() *writer {
	return &writer{resource: wire.Variants, apply: applyVariant}
}

// applyVariant creates (no id, under links.Products), edits, deletes or
// reconciles the stock of one variant.
func applyVariant(t *txn, c *call, i int, rec record) (int64, error) {
	id, hasID, err := idField(rec, "")
	if err != nil {
		return 0, err
	}
	if hasID {
		return id, t.editVariant(c, id, rec, "", 0)
	}
	links, err := linksOf(rec, "")
	if err != nil {
		return 0, err
	}
	pl := links[wire.Products]
	if len(pl) != 1 {
		return 0, fieldErr("links.Products", "a new variant needs links.Products with exactly one product {\"id\": ...}, got %d", len(pl))
	}
	pids, err := linkIDs(pl, "links.Products")
	if err != nil {
		return 0, err
	}
	p, err := t.liveProduct(c.acc.account, pids[0], "links.Products[0].")
	if err != nil {
		return 0, err
	}
	attrs, err := t.productAttributes(p.id)
	if err != nil {
		return 0, err
	}
	id, err = t.createVariant(c, p, attrs, nil, rec, "")
	if err != nil {
		return 0, err
	}
	_, err = t.exec(`UPDATE products SET updated_at = ? WHERE id = ?`, t.now, p.id)
	return id, err
}

// editVariant edits, deletes or reconciles variant id. product, when not
// 0, is the product the variant must belong to (edits inside a product
// write).
func (t *txn) editVariant(c *call, id int64, rec record, path string, product int64) error {
	account := c.acc.account
	var productID int64
	var sku string
	var bundle bool
	found, err := t.row(`SELECT product_id, sku, bundle FROM variants WHERE id = ? AND account_id = ? AND deleted = 0`,
		[]any{id, account}, &productID, &sku, &bundle)
	if err != nil {
		return err
	}
	if !found {
		return fieldErr(path+"id", "no Variants record with id %d in this account (it may be deleted)", id)
	}
	t.memo.editing(productID)
	if product != 0 && productID != product {
		return fieldErr(path+"id", "variant %d belongs to product %d, not %d", id, productID, product)
	}
	if flag(rec["delete"]) {
		_, err := t.markDeleted("variants", id)
		return err
	}
	vals, err := variantValues(rec, path)
	if err != nil {
		return err
	}
	if s, ok := vals["sku"]; ok && s != sku {
		if err := t.checkSKU(account, s, id, path); err != nil {
			return err
		}
	}
	for _, f := range variantFields {
		v, ok := vals[f.col]
		if !ok {
			continue
		}
		var arg any = v
		if f.nullable && v == "" {
			arg = nil
		}
		if _, err := t.exec(`UPDATE variants SET `+f.col+` = ? WHERE id = ?`, arg, id); err != nil {
			return err
		}
	}
	if n, present, err := intField(rec, "sort_order", path); err != nil {
		return err
	} else if present {
		if _, err := t.exec(`UPDATE variants SET sort_order = ? WHERE id = ?`, n, id); err != nil {
			return err
		}
	}
	links, err := linksOf(rec, path)
	if err != nil {
		return err
	}
	if ol := links[wire.AttributeOptions]; len(ol) > 0 {
		if err := t.replaceOptions(c, id, productID, ol, path); err != nil {
			return err
		}
	}
	if tl := links[wire.PricingTiers]; len(tl) > 0 {
		tiers, err := t.resolveTiers(account, tl, path)
		if err != nil {
			return err
		}
		if err := t.setPrices(account, id, tiers); err != nil {
			return err
		}
	}
	if rl := links[wire.ReconcileInventory]; len(rl) > 0 {
		if bundle {
			return fieldErr(path+"links.ReconcileInventory",
				"variant %d is a bundle: its availability comes from its components; set their stock instead", id)
		}
		if err := t.reconcile(c, id, rl, path); err != nil {
			return err
		}
	}
	_, err = t.exec(`UPDATE variants SET updated_at = ? WHERE id = ?`, t.now, id)
	return err
}

// replaceOptions gives a variant a new set of attribute options, keeping
// combinations distinct within the product.
func (t *txn) replaceOptions(c *call, id, product int64, recs []record, path string) error {
	attrs, err := t.productAttributes(product)
	if err != nil {
		return err
	}
	opts, err := t.resolveOptions(c.acc.account, product, attrs, recs, path)
	if err != nil {
		return err
	}
	combo, err := t.checkCombo(product, opts, id, path)
	if err != nil {
		return err
	}
	var name string
	if _, err := t.row(`SELECT name FROM products WHERE id = ?`, []any{product}, &name); err != nil {
		return err
	}
	if _, err := t.exec(`DELETE FROM variant_options WHERE variant_id = ?`, id); err != nil {
		return err
	}
	if err := t.insertVariantOptions(id, opts); err != nil {
		return err
	}
	auto, autoTyped := autoDescriptions(name, opts)
	_, err = t.exec(`UPDATE variants SET combo = ?, auto_description = ?, auto_description_with_option_type = ? WHERE id = ?`,
		combo, auto, autoTyped, id)
	return err
}

// reconcile applies ReconcileInventory entries: set_available sets the
// available units of the variant in the token's warehouse. [A.7]
func (t *txn) reconcile(c *call, variant int64, recs []record, path string) error {
	for i, r := range recs {
		p := fmt.Sprintf("%slinks.ReconcileInventory[%d].", path, i)
		change, _, err := strField(r, "change", p)
		if err != nil {
			return err
		}
		if change != wire.ChangeSetAvailable {
			return fieldErr(p+"change", "%schange %q is not supported; use %q", p, change, wire.ChangeSetAvailable)
		}
		units, present, err := intField(r, "units", p)
		if err != nil {
			return err
		}
		if !present {
			return fieldErr(p+"units", "%sunits is required", p)
		}
		if units < 0 {
			return fieldErr(p+"units", "%sunits %d is negative", p, units)
		}
		links, err := linksOf(r, p)
		if err != nil {
			return err
		}
		warehouse := c.acc.warehouse
		if al := links[wire.AccountAddresses]; len(al) > 0 {
			ids, err := linkIDs(al, p+"links.AccountAddresses")
			if err != nil {
				return err
			}
			if ids[0] != c.acc.warehouse {
				return fieldErr(p+"links.AccountAddresses",
					"%swarehouse %d is not the warehouse of this access token (%d); stock is set only in the token's warehouse",
					p, ids[0], c.acc.warehouse)
			}
			warehouse = ids[0]
		}
		if err := t.setAvailable(c.acc.account, variant, warehouse, units); err != nil {
			return err
		}
	}
	return nil
}
