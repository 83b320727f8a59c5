package sandbox

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"lading/api/wire"
)

func productWriter() *writer {
	return &writer{resource: wire.Products, apply: applyProduct, bulk: bulkProducts}
}

// applyProduct creates (no id), edits, archives or deletes one product.
func applyProduct(t *txn, c *call, i int, rec record) (int64, error) {
	id, hasID, err := idField(rec, "")
	if err != nil {
		return 0, err
	}
	if !hasID {
		return t.createProduct(c, rec)
	}
	return id, t.editProduct(c, id, rec)
}

// productFields are the product's writable scalars. [lading]
var productFields = []string{"name", "description", "notes", "local_id"}

func (t *txn) createProduct(c *call, rec record) (int64, error) {
	account := c.acc.account
	vals := map[string]string{}
	for _, f := range productFields {
		s, present, err := strField(rec, f, "")
		if err != nil {
			return 0, err
		}
		if present {
			vals[f] = s
		}
	}
	if strings.TrimSpace(vals["name"]) == "" {
		return 0, fieldErr("name", "name is required to create a product")
	}
	links, err := linksOf(rec, "")
	if err != nil {
		return 0, err
	}
	if vals["local_id"] == "" {
		if vals["local_id"], err = t.nextLocalID(account); err != nil {
			return 0, err
		}
	}
	id := t.newID()
	t.memo.make(id)
	t.insert(insertProducts, id, account, vals["name"], vals["description"], vals["notes"], vals["local_id"],
		flag(rec["archive"]))
	if err := t.writeProductLinks(c, productRef{id: id, name: vals["name"]}, links, true); err != nil {
		return 0, err
	}
	return id, nil
}

// writeProductLinks applies the Attributes, ProductTags, PricingTiers and
// Variants links of a product write.
func (t *txn) writeProductLinks(c *call, p productRef, links linkSet, create bool) error {
	account := c.acc.account
	if err := t.writeProductAttributes(account, p, links.of(wire.Attributes)); err != nil {
		return err
	}
	if tags := links.of(wire.ProductTags); len(tags) > 0 {
		if err := t.replaceProductTags(account, p, tags, create); err != nil {
			return err
		}
	}
	tiers, err := t.resolveTiers(account, links.of(wire.PricingTiers), "")
	if err != nil {
		return err
	}
	return t.writeProductVariants(c, p, tiers, links.of(wire.Variants))
}

// writeProductAttributes finds or creates the product's attributes named
// by the links.Attributes records, at their order (else their place).
func (t *txn) writeProductAttributes(account int64, p productRef, attrs []record) error {
	seen := map[string]bool{}
	for i, a := range attrs {
		path := "links.Attributes[" + strconv.Itoa(i) + "]."
		name, present, err := strField(a, "name", path)
		if err != nil {
			return err
		}
		if !present || strings.TrimSpace(name) == "" {
			return fieldErr(path+"name", "%sname is required", path)
		}
		if seen[name] {
			return fieldErr(path+"name", "%sname %q is given twice; attribute names of a product are distinct", path, name)
		}
		seen[name] = true
		ord, hasOrd, err := intField(a, "order", path)
		if err != nil {
			return err
		}
		if !hasOrd {
			ord = int64(i)
		}
		if _, err := t.attributeByName(account, p.id, name, &ord); err != nil {
			return err
		}
	}
	return nil
}

// replaceProductTags makes the tags of the links.ProductTags records the
// product's tag set. [lading]
func (t *txn) replaceProductTags(account int64, p productRef, tags []record, create bool) error {
	ids, err := t.resolveTags(account, tags, "links.ProductTags")
	if err != nil {
		return err
	}
	if !create {
		if _, err := t.exec(`DELETE FROM product_tag_links WHERE product_id = ?`, p.id); err != nil {
			return err
		}
	}
	for _, tag := range ids {
		if err := t.tagProduct(p.id, tag, true); err != nil {
			return err
		}
	}
	return nil
}

// writeProductVariants edits (with an id) or creates (without) each of the
// product's links.Variants records.
func (t *txn) writeProductVariants(c *call, p productRef, tiers []tierPrice, vrecs []record) error {
	if len(vrecs) == 0 {
		return nil
	}
	attrs, err := t.productAttributes(p.id)
	if err != nil {
		return err
	}
	if err := t.lookAhead(c); err != nil {
		return err
	}
	for i, v := range vrecs {
		path := "links.Variants[" + strconv.Itoa(i) + "]."
		vid, hasID, err := idField(v, path)
		if err != nil {
			return err
		}
		if hasID {
			if err := t.editVariant(c, vid, v, path, p.id); err != nil {
				return err
			}
			continue
		}
		if _, err := t.createVariant(c, p, attrs, tiers, v, path); err != nil {
			return err
		}
	}
	return nil
}

// liveProduct loads a product of the account that is not deleted.
func (t *txn) liveProduct(account, id int64, path string) (productRef, error) {
	p := productRef{id: id}
	found, err := t.row(`SELECT name FROM products WHERE id = ? AND account_id = ? AND deleted = 0`, []any{id, account}, &p.name)
	if err != nil {
		return p, err
	}
	if !found {
		return p, fieldErr(path+"id", "no Products record with id %d in this account (it may be deleted)", id)
	}
	return p, nil
}

func (t *txn) editProduct(c *call, id int64, rec record) error {
	account := c.acc.account
	p, err := t.liveProduct(account, id, "")
	if err != nil {
		return err
	}
	t.memo.editing(id)
	if flag(rec["delete"]) {
		if _, err := t.markDeleted("products", id); err != nil {
			return err
		}
		_, err := t.exec(`UPDATE variants SET deleted = 1, updated_at = ? WHERE product_id = ? AND deleted = 0`, t.now, id)
		return err
	}
	if v, has := rec["archive"]; has {
		if _, err := t.exec(`UPDATE products SET archived = ? WHERE id = ?`, flag(v), id); err != nil {
			return err
		}
	}
	renamed := false
	for _, f := range productFields {
		s, present, err := strField(rec, f, "")
		if err != nil {
			return err
		}
		if !present {
			continue
		}
		if f == "name" {
			if strings.TrimSpace(s) == "" {
				return fieldErr("name", "name cannot be empty")
			}
			renamed = s != p.name
			p.name = s
		}
		if _, err := t.exec(`UPDATE products SET `+f+` = ? WHERE id = ?`, s, id); err != nil {
			return err
		}
	}
	links, err := linksOf(rec, "")
	if err != nil {
		return err
	}
	if err := t.writeProductLinks(c, p, links, false); err != nil {
		return err
	}
	if renamed {
		if err := t.refreshAutoDescriptions(p); err != nil {
			return err
		}
	}
	_, err = t.exec(`UPDATE products SET updated_at = ? WHERE id = ?`, t.now, id)
	return err
}

// refreshAutoDescriptions recomputes the generated descriptions of the
// product's variants after a rename.
func (t *txn) refreshAutoDescriptions(p productRef) error {
	opts := map[int64][]chosenOption{}
	var order []int64
	if err := t.eachRow(`SELECT v.id, a.name, o.name FROM variants v
		LEFT JOIN variant_options vo ON vo.variant_id = v.id
		LEFT JOIN attribute_options o ON o.id = vo.option_id
		LEFT JOIN attributes a ON a.id = o.attribute_id
		WHERE v.product_id = ? ORDER BY v.id, vo.position`, []any{p.id}, func(rows *row) error {
		var v int64
		var an, on *string
		if err := rows.Scan(&v, &an, &on); err != nil {
			return err
		}
		if _, ok := opts[v]; !ok {
			order = append(order, v)
			opts[v] = nil
		}
		if an != nil && on != nil {
			opts[v] = append(opts[v], chosenOption{attr: attrRef{name: *an}, value: *on})
		}
		return nil
	}); err != nil {
		return err
	}
	for _, v := range order {
		a, at := autoDescriptions(p.name, opts[v])
		if _, err := t.exec(`UPDATE variants SET auto_description = ?, auto_description_with_option_type = ? WHERE id = ?`, a, at, v); err != nil {
			return err
		}
	}
	return nil
}

// bulkProducts applies bulk_action {archive: 1} or {Tags: [{id, assign}]}
// to the products listed by id. [Spec] bulk archive, bulk tag.
func bulkProducts(t *txn, c *call, action record, recs []record) ([]wire.WriteResult, error) {
	account := c.acc.account
	_, archive := action[wire.BulkArchive]
	tagsV, hasTags := action[wire.BulkTags]
	if !archive && !hasTags {
		return nil, badRequest("%s must hold %q or %q", wire.KeyBulkAction, wire.BulkArchive, wire.BulkTags)
	}
	var ops []tagOp
	if hasTags {
		var err error
		if ops, err = t.bulkTagOps(account, tagsV); err != nil {
			return nil, err
		}
	}
	return t.applyEach(recs, func(i int, rec record) (int64, error) {
		id, has, err := idField(rec, "")
		if err != nil {
			return 0, err
		}
		if !has {
			return 0, fieldErr("id", "a bulk action names existing products by id")
		}
		if _, err := t.liveProduct(account, id, ""); err != nil {
			return 0, err
		}
		if archive {
			if _, err := t.exec(`UPDATE products SET archived = ?, updated_at = ? WHERE id = ?`, flag(action[wire.BulkArchive]), t.now, id); err != nil {
				return 0, err
			}
		} else if len(ops) > 0 { // tags given or taken change the product (wire.UpdatedAt)
			if _, err := t.exec(`UPDATE products SET updated_at = ? WHERE id = ?`, t.now, id); err != nil {
				return 0, err
			}
		}
		for _, op := range ops {
			if err := t.tagProduct(id, op.id, op.assign); err != nil {
				return 0, err
			}
		}
		return id, nil
	})
}

// tagOp is a tag a bulk action assigns to its products or takes away.
type tagOp struct {
	id     int64
	assign bool
}

// bulkTagOps reads a bulk action's Tags: an array of {"id", "assign"}.
func (t *txn) bulkTagOps(account int64, tagsV any) ([]tagOp, error) {
	arr, ok := tagsV.([]any)
	if !ok || len(arr) == 0 {
		return nil, badRequest("%s.%s must be a non-empty array of {\"id\", %q}", wire.KeyBulkAction, wire.BulkTags, wire.BulkAssign)
	}
	ops := make([]tagOp, 0, len(arr))
	for i, e := range arr {
		obj, ok := e.(map[string]any)
		if !ok {
			return nil, badRequest("%s.Tags[%d] must be an object", wire.KeyBulkAction, i)
		}
		ids, err := t.resolveTags(account, []record{obj}, fmt.Sprintf("%s.Tags[%d]", wire.KeyBulkAction, i))
		var re *recErr
		if errors.As(err, &re) {
			return nil, badRequest("%s", re.msg)
		}
		if err != nil {
			return nil, err
		}
		assign := true
		if v, has := obj[wire.BulkAssign]; has {
			assign = flag(v)
		}
		ops = append(ops, tagOp{id: ids[0], assign: assign})
	}
	return ops, nil
}
