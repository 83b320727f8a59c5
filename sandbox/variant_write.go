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
	pl := links.of(wire.Products)
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
	v, err := t.liveVariant(c.acc.account, id, path, product)
	if err != nil {
		return err
	}
	if flag(rec["delete"]) {
		_, err := t.markDeleted("variants", id)
		return err
	}
	if err := t.updateVariantFields(c.acc.account, v, rec, path); err != nil {
		return err
	}
	if err := t.editVariantLinks(c, v, rec, path); err != nil {
		return err
	}
	_, err = t.exec(`UPDATE variants SET updated_at = ? WHERE id = ?`, t.now, id)
	return err
}

// variantRef is a live variant a write edits, as it was before the write.
type variantRef struct {
	id, product int64
	sku         string
	bundle      bool
}

// liveVariant loads variant id of the account, not deleted, for an edit;
// product, when not 0, is the product it must belong to.
func (t *txn) liveVariant(account, id int64, path string, product int64) (variantRef, error) {
	v := variantRef{id: id}
	found, err := t.row(`SELECT product_id, sku, bundle FROM variants WHERE id = ? AND account_id = ? AND deleted = 0`,
		[]any{id, account}, &v.product, &v.sku, &v.bundle)
	if err != nil {
		return v, err
	}
	if !found {
		return v, fieldErr(path+"id", "no Variants record with id %d in this account (it may be deleted)", id)
	}
	t.memo.editing(v.product)
	if product != 0 && v.product != product {
		return v, fieldErr(path+"id", "variant %d belongs to product %d, not %d", id, v.product, product)
	}
	return v, nil
}

// updateVariantFields writes the fields and sort_order rec gives the
// variant, checking a new SKU first.
func (t *txn) updateVariantFields(account int64, v variantRef, rec record, path string) error {
	vals, err := variantValues(rec, path)
	if err != nil {
		return err
	}
	if s, ok := vals.get(fieldSKU); ok && s != v.sku {
		if err := t.checkSKU(account, s, v.id, path); err != nil {
			return err
		}
	}
	for i, f := range variantFields {
		if _, ok := vals.get(i); !ok {
			continue
		}
		arg := any(vals.val[i])
		if f.nullable {
			arg = vals.orNull(i)
		}
		if _, err := t.exec(`UPDATE variants SET `+f.col+` = ? WHERE id = ?`, arg, v.id); err != nil {
			return err
		}
	}
	if n, present, err := intField(rec, "sort_order", path); err != nil {
		return err
	} else if present {
		if _, err := t.exec(`UPDATE variants SET sort_order = ? WHERE id = ?`, n, v.id); err != nil {
			return err
		}
	}
	return nil
}

// editVariantLinks applies the AttributeOptions, PricingTiers and
// ReconcileInventory links rec gives the variant.
func (t *txn) editVariantLinks(c *call, v variantRef, rec record, path string) error {
	account := c.acc.account
	links, err := linksOf(rec, path)
	if err != nil {
		return err
	}
	if ol := links.of(wire.AttributeOptions); len(ol) > 0 {
		if err := t.replaceOptions(c, v.id, v.product, ol, path); err != nil {
			return err
		}
	}
	if tl := links.of(wire.PricingTiers); len(tl) > 0 {
		tiers, err := t.resolveTiers(account, tl, path)
		if err != nil {
			return err
		}
		t.setPrices(account, v.id, tiers)
	}
	if rl := links.of(wire.ReconcileInventory); len(rl) > 0 {
		if v.bundle {
			return fieldErr(path+"links.ReconcileInventory",
				"variant %d is a bundle: its availability comes from its components; set their stock instead", v.id)
		}
		if err := t.reconcile(c, v.id, rl, path); err != nil {
			return err
		}
	}
	return nil
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
	t.insertVariantOptions(id, opts)
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
		if al := links.of(wire.AccountAddresses); len(al) > 0 {
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
