package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"lading/api/wire"
	"lading/plural"
)

// attrRef is an attribute of a product.
type attrRef struct {
	id   int64
	name string
}

// chosenOption is one attribute option of a variant.
type chosenOption struct {
	attr    attrRef
	option  int64
	value   string
	attrOrd int64
}

// tierPrice is a resolved pricing tier entry.
type tierPrice struct {
	tier  int64
	value string
}

// productRef is what variant creation needs of its product.
type productRef struct {
	id   int64
	name string
}

// The scalar fields a variant write may set, by their place in
// variantFields.
const (
	fieldSKU = iota
	fieldDescription
	fieldNotes
	fieldWeight
	fieldCost
	fieldUPC
	fieldLocation
	fieldLowStock
	fieldSupplierCost
	fieldSupplierID
	fieldLocalID
	variantFieldCount
)

// variantField is a scalar field of a variant write: its key, which is
// its column, and its kind.
type variantField struct {
	col      string
	numeric  bool
	nullable bool
}

var variantFields = [variantFieldCount]variantField{
	fieldSKU:          {"sku", false, false},
	fieldDescription:  {"description", false, false},
	fieldNotes:        {"notes", false, false},
	fieldWeight:       {"weight", true, true},
	fieldCost:         {"cost", true, true},
	fieldUPC:          {"upc", false, true},
	fieldLocation:     {"location_1", false, false},
	fieldLowStock:     {"low_stock_alert", true, true},
	fieldSupplierCost: {"supplier_cost", true, false},
	fieldSupplierID:   {"supplier_id", false, false},
	fieldLocalID:      {"local_id", false, false},
}

// fieldVals are the variant fields a record gives, by their place in
// variantFields: they are read for every variant a catalog write makes,
// and a map of them was an eighth of what applying its records allocated.
type fieldVals struct {
	val     [variantFieldCount]string
	present [variantFieldCount]bool
}

// get is field f and whether the record gives it.
func (v *fieldVals) get(f int) (string, bool) { return v.val[f], v.present[f] }

// set gives field f the value s.
func (v *fieldVals) set(f int, s string) { v.val[f], v.present[f] = s, true }

// orNull is field f, or nil when the record gives it empty or not at all,
// so that its column reads back as null.
func (v *fieldVals) orNull(f int) any {
	if v.val[f] == "" {
		return nil
	}
	return v.val[f]
}

// variantValues reads the variant fields present in rec.
func variantValues(rec record, path string) (vals fieldVals, err error) {
	for i, f := range variantFields {
		var s string
		var present bool
		if f.numeric {
			s, present, err = numericField(rec, f.col, path)
		} else {
			s, present, err = strField(rec, f.col, path)
		}
		if err != nil {
			return vals, err
		}
		if present {
			vals.set(i, s)
		}
	}
	return vals, nil
}

// checkSKU refuses a SKU another live variant of the account uses: one
// held back or one in the database.
func (t *txn) checkSKU(account int64, sku string, self int64, path string) error {
	if sku == "" {
		return nil
	}
	other, found := t.heldSKU(sku)
	found = found && other != self
	if id, looked := t.pend.looked[sku]; !found && looked && self == 0 {
		other, found = id, id != 0
	} else if !found {
		var err error
		found, err = t.rowBeside(`SELECT id FROM variants WHERE account_id = ? AND sku = ? AND deleted = 0 AND id <> ? LIMIT 1`,
			[]any{account, sku, self}, &other)
		if err != nil {
			return err
		}
	}
	if found {
		return fieldErr(path+"sku", "SKU %q is already used by variant %d; SKUs are unique in an account", sku, other)
	}
	return nil
}

// lookAhead looks up at once, the first time a write creates variants of
// a product, the SKUs of the new variants of all its product records, for
// checkSKU: which of them a live variant of the account has.
func (t *txn) lookAhead(c *call) error {
	if t.pend.lookedAhead {
		return nil
	}
	t.pend.lookedAhead = true
	recs, _ := c.env[wire.Products].([]any)
	var skus []string
	for _, p := range recs {
		links, _ := p.(map[string]any)[wire.KeyLinks].(map[string]any)
		vs, _ := links[wire.Variants].([]any)
		for _, v := range vs {
			v, _ := v.(map[string]any)
			if s, ok := v["sku"].(string); ok && s != "" && v["id"] == nil {
				skus = append(skus, s)
			}
		}
	}
	if len(skus) < 2 {
		return nil
	}
	return t.lookUpSKUs(c.acc.account, skus)
}

// lookUpSKUs looks up which of skus a live variant of the account has.
func (t *txn) lookUpSKUs(account int64, skus []string) error {
	list, err := json.Marshal(skus)
	if err != nil {
		return err
	}
	var found string
	if _, err := t.rowBeside(`SELECT json_group_object(sku, id) FROM (SELECT sku, MIN(id) AS id FROM variants
		WHERE account_id = ? AND sku IN `+inIDs+` AND deleted = 0 GROUP BY sku)`, []any{account, string(list)}, &found); err != nil {
		return err
	}
	looked := make(map[string]int64, len(skus))
	if err := json.Unmarshal([]byte(found), &looked); err != nil {
		return fmt.Errorf("sandbox: the SKUs looked up: %w", err)
	}
	for _, s := range skus {
		if _, ok := looked[s]; !ok {
			looked[s] = 0
		}
	}
	t.pend.looked = looked
	return nil
}

// productAttributes lists a product's attributes in order.
func (t *txn) productAttributes(product int64) ([]attrRef, error) {
	if out, known := t.memo.attributes(product); known {
		return out, nil
	}
	var out []attrRef
	if err := t.eachRow(`SELECT id, name FROM attributes WHERE product_id = ? ORDER BY ord, id`, []any{product}, func(rows *row) error {
		var a attrRef
		if err := rows.Scan(&a.id, &a.name); err != nil {
			return err
		}
		out = append(out, a)
		return nil
	}); err != nil {
		return nil, err
	}
	return out, nil
}

// attributeByName finds the product's attribute of that name, creating it
// (last in order) when it is new.
func (t *txn) attributeByName(account, product int64, name string, ord *int64) (attrRef, error) {
	a := attrRef{name: name}
	var err error
	found := false
	if a.id, found = lookup(t.memo.attrs, product, name); !found && !t.memo.made[product] {
		if found, err = t.row(`SELECT id FROM attributes WHERE product_id = ? AND name = ?`, []any{product, name}, &a.id); err != nil {
			return a, err
		}
	}
	if found {
		remember(&t.memo.attrs, product, name, a.id)
		if ord != nil {
			t.memo.editing(product)
			_, err = t.exec(`UPDATE attributes SET ord = ?, updated_at = ? WHERE id = ?`, *ord, t.now, a.id)
		}
		return a, err
	}
	var o int64
	if ord != nil {
		o = *ord
	} else if _, err := t.row(`SELECT COALESCE(MAX(ord) + 1, 0) FROM attributes WHERE product_id = ?`, []any{product}, &o); err != nil {
		return a, err
	}
	a.id = t.newID()
	remember(&t.memo.attrs, product, name, a.id)
	t.memo.make(a.id)
	t.memo.addAttribute(product, a, o)
	t.insert(insertAttributes, a.id, account, product, name, o)
	return a, nil
}

// optionOf finds or creates the option value of an attribute.
func (t *txn) optionOf(account, attr int64, value string, ord int64) (int64, error) {
	if id, ok := lookup(t.memo.options, attr, value); ok {
		return id, nil
	}
	var id int64
	found := false
	if !t.memo.made[attr] {
		var err error
		if found, err = t.row(`SELECT id FROM attribute_options WHERE attribute_id = ? AND name = ?`, []any{attr, value}, &id); err != nil {
			return id, err
		}
	}
	if !found {
		id = t.newID()
	}
	remember(&t.memo.options, attr, value, id)
	if found {
		return id, nil
	}
	t.insert(insertOptions, id, account, attr, value, ord)
	return id, nil
}

// resolveOptions turns a variant's links.AttributeOptions into options.
// [lading] AttributeOptions[i] without links.Attributes belongs to the
// product's i-th attribute; with links.Attributes [{name}] to the attribute
// of that name, created on the product if new.
func (t *txn) resolveOptions(account int64, product int64, productAttrs []attrRef, recs []record, path string) ([]chosenOption, error) {
	out := make([]chosenOption, 0, len(recs))
	for i, r := range recs {
		o, err := readOption(r)
		if err != nil {
			return nil, under(optionPath(path, i), err)
		}
		var attr attrRef
		if o.attr != "" {
			if attr, err = t.attributeByName(account, product, o.attr, nil); err != nil {
				return nil, err
			}
		} else {
			if i >= len(productAttrs) {
				p := optionPath(path, i)
				return nil, fieldErr(p+"links.Attributes",
					"%s names no attribute and the product has only %s: add links.Attributes [{\"name\": ...}]", strings.TrimSuffix(p, "."), plural.Count(len(productAttrs), "attribute"))
			}
			attr = productAttrs[i]
		}
		for _, prev := range out { // a variant has a few options: no map
			if prev.attr.id == attr.id {
				p := optionPath(path, i)
				return nil, fieldErr(p+"value", "%s gives attribute %q a second option (%q after %q); a variant has one option per attribute",
					strings.TrimSuffix(p, "."), attr.name, o.value, prev.value)
			}
		}
		opt, err := t.optionOf(account, attr.id, o.value, o.order)
		if err != nil {
			return nil, err
		}
		out = append(out, chosenOption{attr: attr, option: opt, value: o.value, attrOrd: int64(i)})
	}
	return out, nil
}

// optionPath is where a variant's AttributeOptions record i sits in a
// write, the variant at path: spelled out for an error only (a load reads
// millions).
func optionPath(path string, i int) string {
	return path + "links.AttributeOptions[" + strconv.Itoa(i) + "]."
}

// optionRecord is what a links.AttributeOptions record says: the option's
// value and order, and the name of the attribute it links (else "").
type optionRecord struct {
	value, attr string
	order       int64
}

// readOption reads an AttributeOptions record. Its errors name fields
// from the record (see under).
func readOption(r record) (o optionRecord, err error) {
	value, present, err := strField(r, "value", "")
	if err != nil {
		return o, err
	}
	if !present {
		if value, present, err = strField(r, "name", ""); err != nil {
			return o, err
		}
	}
	if !present || value == "" {
		return o, fieldErr("value", "value is required: the option of the attribute, e.g. \"Black\"")
	}
	o.value = value
	if o.order, _, err = intField(r, "order", ""); err != nil {
		return o, err
	}
	links, err := linksOf(r, "")
	if err != nil {
		return o, err
	}
	if a, ok := links.first(wire.Attributes); ok {
		name, present, err := strField(a, "name", "links.Attributes[0].")
		if err != nil {
			return o, err
		}
		if !present || name == "" {
			return o, fieldErr("links.Attributes[0].name", "links.Attributes[0].name is required")
		}
		o.attr = name
	}
	return o, nil
}

// comboKey identifies a combination of attribute options, independent of
// the order they were given in: the options' "ATTRIBUTE=OPTION" in the
// order of their text, joined by ";", as the database holds it. For up to
// comboRoom options the key is its only allocation (a load makes a
// million keys).
func comboKey(opts []chosenOption) string {
	var room [comboRoom * 41]byte
	var spanRoom [comboRoom][2]int
	b, spans := room[:0], spanRoom[:0]
	for _, o := range opts {
		start := len(b)
		b = strconv.AppendInt(b, o.attr.id, 10)
		b = append(b, '=')
		b = strconv.AppendInt(b, o.option, 10)
		spans = append(spans, [2]int{start, len(b)})
	}
	slices.SortFunc(spans, func(x, y [2]int) int { return bytes.Compare(b[x[0]:x[1]], b[y[0]:y[1]]) })
	var keyRoom [comboRoom * 42]byte
	key := keyRoom[:0]
	for i, sp := range spans {
		if i > 0 {
			key = append(key, ';')
		}
		key = append(key, b[sp[0]:sp[1]]...)
	}
	return string(key)
}

// comboRoom is how many options comboKey keys without allocating for
// them: most variants have up to three.
const comboRoom = 8

func comboText(opts []chosenOption) string {
	if len(opts) == 0 {
		return "no attribute options"
	}
	parts := make([]string, len(opts))
	for i, o := range opts {
		parts[i] = o.attr.name + ": " + o.value
	}
	return strings.Join(parts, ", ")
}

// checkCombo refuses a combination another live variant of the product has.
func (t *txn) checkCombo(product int64, opts []chosenOption, self int64, path string) (string, error) {
	key := comboKey(opts)
	if has, known := t.memo.combo(product, key); known && self == 0 && !has {
		return key, nil
	}
	var other int64
	found, err := t.row(`SELECT id FROM variants WHERE product_id = ? AND combo = ? AND deleted = 0 AND id <> ? LIMIT 1`,
		[]any{product, key, self}, &other)
	if err != nil {
		return "", err
	}
	if found {
		who := "the variant" // a Variants write's record
		if path != "" {
			who = strings.TrimSuffix(path, ".")
		}
		return "", fieldErr(path+"links.AttributeOptions",
			"%s repeats the attribute options of variant %d (%s); each variant of a product needs a distinct combination",
			who, other, comboText(opts))
	}
	return key, nil
}

// autoDescriptions are the variant's generated descriptions, as the
// service shows them: "Name (Black)" and "Name (Color: Black)".
// Both are written into one allocation (a load makes a million pairs).
func autoDescriptions(productName string, opts []chosenOption) (string, string) {
	if len(opts) == 0 {
		return productName, productName
	}
	n := 2 * (len(productName) + len(" ()") + (len(opts)-1)*len(", "))
	for _, o := range opts {
		n += 2*len(o.value) + len(o.attr.name) + len(": ")
	}
	var b strings.Builder // its String is the one allocation
	b.Grow(n)
	plain := 0
	for typed := range 2 {
		b.WriteString(productName)
		b.WriteString(" (")
		for i, o := range opts {
			if i > 0 {
				b.WriteString(", ")
			}
			if typed == 1 {
				b.WriteString(o.attr.name)
				b.WriteString(": ")
			}
			b.WriteString(o.value)
		}
		b.WriteByte(')')
		if typed == 0 {
			plain = b.Len()
		}
	}
	both := b.String()
	return both[:plain], both[plain:]
}

// resolveTiers reads links.PricingTiers [{id or name, value}], creating
// tiers given by a new name.
func (t *txn) resolveTiers(account int64, recs []record, path string) ([]tierPrice, error) {
	out := make([]tierPrice, 0, len(recs))
	for i, r := range recs {
		tr, err := readTier(r)
		switch {
		case err != nil:
			return nil, under(tierPath(path, i), err)
		case tr.id == 0 && tr.name == "":
			p := tierPath(path, i)
			return nil, fieldErr(p+"name", "%s needs an id or a name", strings.TrimSuffix(p, "."))
		}
		id, err := t.tierID(account, tr)
		if err != nil {
			return nil, under(tierPath(path, i), err)
		}
		out = append(out, tierPrice{tier: id, value: tr.value})
	}
	return out, nil
}

// tierPath is where PricingTiers record i sits in a write, its owner at
// path: spelled out for an error only.
func tierPath(path string, i int) string {
	return path + "links.PricingTiers[" + strconv.Itoa(i) + "]."
}

// tierRecord is what a links.PricingTiers record says: the price, and
// the tier by its id, else by its name (neither given: both zero).
type tierRecord struct {
	value, name string
	id          int64
}

// readTier reads a PricingTiers record. Its errors name fields from the
// record (see under).
func readTier(r record) (tr tierRecord, err error) {
	value, present, err := numericField(r, "value", "")
	if err != nil {
		return tr, err
	}
	if !present || value == "" {
		if value, present, err = numericField(r, "price", ""); err != nil {
			return tr, err
		}
	}
	if !present || value == "" {
		return tr, fieldErr("value", "value is required: the price in this tier")
	}
	tr.value = value
	id, hasID, err := idField(r, "")
	if err != nil || hasID {
		tr.id = id
		return tr, err
	}
	name, present, err := strField(r, "name", "")
	if present && strings.TrimSpace(name) != "" {
		tr.name = name
	}
	return tr, err
}

// tierID is the id of the account's tier tr names: by its id, or by its
// name, a tier made for a new one.
func (t *txn) tierID(account int64, tr tierRecord) (int64, error) {
	if tr.id != 0 {
		var x int64
		found, err := t.row(`SELECT id FROM pricing_tiers WHERE id = ? AND account_id = ?`, []any{tr.id, account}, &x)
		if err != nil {
			return 0, err
		}
		if !found {
			return 0, fieldErr("id", "id: no pricing tier %d in this account; give a name to create one", tr.id)
		}
		return tr.id, nil
	}
	id, found := lookup(t.memo.tiers, account, tr.name)
	if !found {
		// The tiers held back are in the memo.
		var err error
		if found, err = t.rowBeside(`SELECT id FROM pricing_tiers WHERE account_id = ? AND name = ?`, []any{account, tr.name}, &id); err != nil {
			return 0, err
		}
	}
	if !found {
		id = t.newID()
		t.insert(insertTiers, id, account, tr.name)
	}
	remember(&t.memo.tiers, account, tr.name, id)
	return id, nil
}

// setPrices writes the variant's price in each tier.
func (t *txn) setPrices(account, variant int64, prices []tierPrice) {
	for _, p := range prices {
		t.insert(insertPrices, t.newID(), account, variant, p.tier, p.value)
	}
}

// createVariant creates one variant of product from rec. path prefixes
// field names in errors ("" for a Variants write, "links.Variants[2]." in
// a product write). defaultTiers apply unless the variant gives its own.
func (t *txn) createVariant(c *call, product productRef, productAttrs []attrRef, defaultTiers []tierPrice, rec record, path string) (int64, error) {
	nv, err := t.readNewVariant(c.acc.account, product, productAttrs, defaultTiers, rec, path)
	if err != nil {
		return 0, err
	}
	return t.insertVariant(c, product, nv)
}

// newVariant is a variant to create, read and checked from its record.
type newVariant struct {
	vals           fieldVals // the fields written
	qty, sortOrder int64     // opening stock and sort_order
	opts           []chosenOption
	combo          string // the options' combination, distinct in the product
	tiers          []tierPrice
}

// readNewVariant reads and checks the variant of rec: its fields, opening
// stock, options and prices (creating the attributes, options and tiers it
// names that are new), and takes a local_id when rec gives none.
func (t *txn) readNewVariant(account int64, product productRef, productAttrs []attrRef, defaultTiers []tierPrice, rec record, path string) (*newVariant, error) {
	vals, err := variantValues(rec, path)
	if err != nil {
		return nil, err
	}
	if err := t.checkSKU(account, vals.val[fieldSKU], 0, path); err != nil {
		return nil, err
	}
	nv := &newVariant{vals: vals}
	if nv.qty, nv.sortOrder, err = openingCounts(rec, path); err != nil {
		return nil, err
	}
	links, err := linksOf(rec, path)
	if err != nil {
		return nil, err
	}
	if nv.opts, err = t.resolveOptions(account, product.id, productAttrs, links.of(wire.AttributeOptions), path); err != nil {
		return nil, err
	}
	if nv.combo, err = t.checkCombo(product.id, nv.opts, 0, path); err != nil {
		return nil, err
	}
	nv.tiers = defaultTiers
	if links.has(wire.PricingTiers) {
		if nv.tiers, err = t.resolveTiers(account, links.of(wire.PricingTiers), path); err != nil {
			return nil, err
		}
	}
	if nv.vals.val[fieldLocalID] == "" {
		local, err := t.nextLocalID(account)
		if err != nil {
			return nil, err
		}
		nv.vals.set(fieldLocalID, local)
	}
	return nv, nil
}

// openingCounts reads a new variant's quantity (its opening stock, not
// negative) and sort_order.
func openingCounts(rec record, path string) (qty, sortOrder int64, err error) {
	qty, _, err = intField(rec, "quantity", path)
	if err != nil {
		return 0, 0, err
	}
	if qty < 0 {
		return 0, 0, fieldErr(path+"quantity", "%squantity %d is negative; opening stock must be 0 or more", path, qty)
	}
	sortOrder, _, err = intField(rec, "sort_order", path)
	if err != nil {
		return 0, 0, err
	}
	return qty, sortOrder, nil
}

// insertVariant writes nv as a new variant of product with its options,
// its opening stock in the token's warehouse and its prices.
func (t *txn) insertVariant(c *call, product productRef, nv *newVariant) (int64, error) {
	account, vals := c.acc.account, &nv.vals
	avgCost := "0.0000"
	if cost := vals.val[fieldCost]; cost != "" {
		avgCost = cost
	}
	auto, autoTyped := autoDescriptions(product.name, nv.opts)
	id := t.newID()
	t.insert(insertVariants, id, account, product.id, vals.val[fieldSKU], vals.val[fieldDescription], vals.val[fieldNotes],
		vals.orNull(fieldWeight), vals.orNull(fieldCost), avgCost, vals.orNull(fieldUPC), vals.val[fieldLocation],
		vals.orNull(fieldLowStock), vals.orNull(fieldSupplierCost), vals.val[fieldSupplierID], vals.val[fieldLocalID],
		nv.sortOrder, nv.qty, nv.combo, auto, autoTyped)
	t.memo.addCombo(product.id, nv.combo)
	t.insertVariantOptions(id, nv.opts)
	// [lading] quantity is the opening stock in the token's warehouse.
	t.insert(insertLevels, t.newID(), account, id, c.acc.warehouse, nv.qty)
	if nv.qty > 0 {
		t.stockChanged = true
	}
	t.setPrices(account, id, nv.tiers)
	return id, nil
}

// insertVariantOptions links the variant to opts, in their order.
func (t *txn) insertVariantOptions(variant int64, opts []chosenOption) {
	for i, o := range opts {
		t.insert(insertVariantOpts, variant, o.option, i)
	}
}
