package sandbox

import (
	"database/sql"

	"lading/api/wire"
)

func productSpec() *listSpec {
	return &listSpec{
		resource: wire.Products, table: "products", base: "deleted = 0",
		cols: withCommon(map[string]column{
			"archived": {"archived", kInt},
			"local_id": {"local_id", kText},
			"name":     {"name", kText},
			"notes":    {"notes", kText},
		}),
		render: renderProducts,
	}
}

func variantSpec() *listSpec {
	return &listSpec{
		resource: wire.Variants, table: "variants", base: "deleted = 0",
		cols: withCommon(map[string]column{
			"auto_description":                  {"auto_description", kText},
			"auto_description_with_option_type": {"auto_description_with_option_type", kText},
			"available":                         {"(stock - committed_stock)", kInt},
			"average_cost":                      {"average_cost", kNum},
			"bundle":                            {"bundle", kInt},
			"component":                         {"component", kInt},
			"consignment":                       {"consignment", kText},
			"description":                       {"description", kText},
			"local_id":                          {"local_id", kText},
			"location_1":                        {"location_1", kText},
			"low_stock_alert":                   {"low_stock_alert", kNum},
			"notes":                             {"notes", kText},
			"sku":                               {"sku", kText},
			"sort_order":                        {"sort_order", kInt},
			"stock":                             {"stock", kInt},
			"supplier_cost":                     {"supplier_cost", kNum},
			"supplier_id":                       {"supplier_id", kText},
			"upc":                               {"upc", kText},
			"weight":                            {"weight", kNum},
		}),
		render: renderVariants,
	}
}

// renderVariants renders variants with the sideloads of a variant read.
// [A.3] fixtures/wire/variant_find_variant.json
func renderVariants(t *txn, c *call, ids []int64, res *readResult) error {
	vs, err := t.loadVariantSet(ids)
	if err != nil {
		return err
	}
	for _, id := range vs.order {
		res.records = append(res.records, vs.recs[id])
	}
	prods, err := t.productRecords(vs.productIDs)
	if err != nil {
		return err
	}
	for _, p := range prods.order {
		res.add(wire.Products, itoa(p), prods.recs[p])
	}
	if err := t.sideloadOptions(res, vs.optionIDs); err != nil {
		return err
	}
	if err := t.sideloadPrices(res, vs.prices); err != nil {
		return err
	}
	if err := t.sideloadTags(res, prods.tagIDs); err != nil {
		return err
	}
	return t.sideloadLevels(res, vs.levels)
}

// renderProducts renders products with their variants, attributes,
// options, prices and tags sideloaded.
func renderProducts(t *txn, c *call, ids []int64, res *readResult) error {
	prods, err := t.productRecords(ids)
	if err != nil {
		return err
	}
	for _, id := range prods.order {
		res.records = append(res.records, prods.recs[id])
	}
	vs, err := t.loadVariantSet(prods.variantIDs)
	if err != nil {
		return err
	}
	for _, id := range vs.order {
		res.add(wire.Variants, itoa(id), vs.recs[id])
	}
	if err := t.sideloadOptions(res, vs.optionIDs); err != nil {
		return err
	}
	if err := t.sideloadPrices(res, vs.prices); err != nil {
		return err
	}
	return t.sideloadTags(res, prods.tagIDs)
}

// uniq collects ids once each, in first-seen order.
type uniq struct {
	seen map[int64]bool
	ids  []int64
}

func (u *uniq) add(id int64) {
	if u.seen == nil {
		u.seen = map[int64]bool{}
	}
	if !u.seen[id] {
		u.seen[id] = true
		u.ids = append(u.ids, id)
	}
}

type priceRow struct {
	id, variant, tier int64
	price, created    string
	updated           string
}

type levelRow struct {
	id, variant, address, stock, committed int64
	created, updated                       string
}

// variantSet is a batch of rendered variants and what they link to.
type variantSet struct {
	order      []int64
	recs       map[int64]map[string]any
	productIDs []int64
	optionIDs  []int64
	prices     []priceRow
	levels     []levelRow
	// components are the component variants of the bundles of the set.
	components []int64
}

func ns(n sql.NullString) any {
	if !n.Valid {
		return nil
	}
	return n.String
}

// loadVariantSet renders the variants of ids (in that order) with their
// links, in a fixed number of queries.
func (t *txn) loadVariantSet(ids []int64) (*variantSet, error) {
	vs := &variantSet{recs: make(map[int64]map[string]any, len(ids))}
	if len(ids) == 0 {
		return vs, nil
	}
	list := idList(ids)
	products := &uniq{}
	links := map[int64]map[string]any{}
	bundles := []int64{}
	err := t.each(`SELECT id, product_id, sku, description, notes, weight, cost, average_cost, upc, location_1,
		low_stock_alert, supplier_cost, supplier_id, consignment, local_id, sort_order, bundle, component, stock,
		committed_stock, auto_description, auto_description_with_option_type, deleted, created_at, updated_at
		FROM variants WHERE id IN `+inIDs, []any{list}, func(rows *sql.Rows) error {
		var (
			id, product, sortOrder, stock, committed       int64
			sku, desc, notes, avgCost, loc, supCost, supID string
			localID, auto, autoType, created, updated      string
			weight, cost, upc, lowStock, consignment       sql.NullString
			bundle, component, deleted                     bool
		)
		if err := rows.Scan(&id, &product, &sku, &desc, &notes, &weight, &cost, &avgCost, &upc, &loc,
			&lowStock, &supCost, &supID, &consignment, &localID, &sortOrder, &bundle, &component, &stock,
			&committed, &auto, &autoType, &deleted, &created, &updated); err != nil {
			return err
		}
		products.add(product)
		l := map[string]any{
			wire.AttributeOptions:     []any{},
			wire.Products:             idLinks([]int64{product}),
			wire.VariantPrices:        []any{},
			wire.WarehouseStockLevels: []any{},
		}
		links[id] = l
		if bundle {
			bundles = append(bundles, id)
		}
		vs.recs[id] = map[string]any{
			"id": itoa(id), "sku": sku, "description": desc, "notes": notes,
			"weight": ns(weight), "cost": ns(cost), "average_cost": avgCost, "upc": ns(upc),
			"location_1": loc, "low_stock_alert": ns(lowStock), "supplier_cost": supCost,
			"supplier_id": supID, "consignment": ns(consignment), "local_id": localID,
			"sort_order": itoa(sortOrder), "bundle": boolStr(bundle), "component": boolStr(component),
			"stock": itoa(stock), "committed_stock": itoa(committed), "available": itoa(stock - committed),
			"auto_description": auto, "auto_description_with_option_type": autoType,
			"deleted": boolStr(deleted), "created_at": created, "updated_at": updated,
			wire.KeyLinks: l,
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, ok := vs.recs[id]; ok {
			vs.order = append(vs.order, id)
		}
	}
	vs.productIDs = products.ids
	if err := t.renderBundles(vs, links, bundles); err != nil {
		return nil, err
	}

	options := &uniq{}
	err = t.each(`SELECT variant_id, option_id FROM variant_options WHERE variant_id IN `+inIDs+` ORDER BY variant_id, position`,
		[]any{list}, func(rows *sql.Rows) error {
			var v, o int64
			if err := rows.Scan(&v, &o); err != nil {
				return err
			}
			options.add(o)
			appendLink(links[v], wire.AttributeOptions, o)
			return nil
		})
	if err != nil {
		return nil, err
	}
	vs.optionIDs = options.ids

	err = t.each(`SELECT id, variant_id, tier_id, price, created_at, updated_at FROM variant_prices
		WHERE variant_id IN `+inIDs+` ORDER BY id`, []any{list}, func(rows *sql.Rows) error {
		var p priceRow
		if err := rows.Scan(&p.id, &p.variant, &p.tier, &p.price, &p.created, &p.updated); err != nil {
			return err
		}
		vs.prices = append(vs.prices, p)
		appendLink(links[p.variant], wire.VariantPrices, p.id)
		return nil
	})
	if err != nil {
		return nil, err
	}

	err = t.each(`SELECT id, variant_id, address_id, stock, committed, created_at, updated_at FROM stock_levels
		WHERE variant_id IN `+inIDs+` ORDER BY id`, []any{list}, func(rows *sql.Rows) error {
		var l levelRow
		if err := rows.Scan(&l.id, &l.variant, &l.address, &l.stock, &l.committed, &l.created, &l.updated); err != nil {
			return err
		}
		vs.levels = append(vs.levels, l)
		appendLink(links[l.variant], wire.WarehouseStockLevels, l.id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return vs, nil
}

// renderBundles gives each bundle of the set its availability (from its
// components) and links its components with the units of each in one
// bundle. [B.7, assumed] wire.BundleComponents
func (t *txn) renderBundles(vs *variantSet, links map[int64]map[string]any, bundles []int64) error {
	if len(bundles) == 0 {
		return nil
	}
	var comps uniq
	for _, b := range bundles {
		avail, err := t.bundleAvailable(b)
		if err != nil {
			return err
		}
		vs.recs[b]["available"] = itoa(avail)
		links[b][wire.BundleComponents] = []any{}
	}
	err := t.each(`SELECT bundle_id, component_id, quantity FROM bundle_components WHERE bundle_id IN `+inIDs+
		` ORDER BY bundle_id, component_id`, []any{idList(bundles)}, func(rows *sql.Rows) error {
		var b, c, q int64
		if err := rows.Scan(&b, &c, &q); err != nil {
			return err
		}
		comps.add(c)
		arr, _ := links[b][wire.BundleComponents].([]any)
		links[b][wire.BundleComponents] = append(arr, map[string]any{"id": itoa(c), "quantity": itoa(q)})
		return nil
	})
	vs.components = comps.ids
	return err
}

// sideloadVariants adds the variants of ids and the components of the
// bundles among them, without their own sideloads.
func (t *txn) sideloadVariants(res *readResult, ids []int64) error {
	vs, err := t.loadVariantSet(ids)
	if err != nil {
		return err
	}
	addVariants(res, vs)
	var more []int64
	for _, c := range vs.components {
		if _, ok := vs.recs[c]; !ok {
			more = append(more, c)
		}
	}
	if len(more) == 0 {
		return nil
	}
	comps, err := t.loadVariantSet(more)
	if err != nil {
		return err
	}
	addVariants(res, comps)
	return nil
}

func addVariants(res *readResult, vs *variantSet) {
	for _, id := range vs.order {
		res.add(wire.Variants, itoa(id), vs.recs[id])
	}
}

func appendLink(l map[string]any, resource string, id int64) {
	if l == nil {
		return
	}
	arr, _ := l[resource].([]any)
	l[resource] = append(arr, map[string]any{"id": itoa(id)})
}

// productSet is a batch of rendered products and what they link to.
type productSet struct {
	order      []int64
	recs       map[int64]map[string]any
	variantIDs []int64
	tagIDs     []int64
}

// productRecords renders the products of ids with their links.
func (t *txn) productRecords(ids []int64) (*productSet, error) {
	ps := &productSet{recs: make(map[int64]map[string]any, len(ids))}
	if len(ids) == 0 {
		return ps, nil
	}
	list := idList(ids)
	links := map[int64]map[string]any{}
	if err := t.each(`SELECT id, name, description, notes, local_id, archived, deleted, created_at, updated_at
		FROM products WHERE id IN `+inIDs, []any{list}, func(rows *sql.Rows) error {
		var id int64
		var name, desc, notes, localID, created, updated string
		var archived, deleted bool
		if err := rows.Scan(&id, &name, &desc, &notes, &localID, &archived, &deleted, &created, &updated); err != nil {
			return err
		}
		l := map[string]any{wire.Attributes: []any{}, wire.ProductFiles: []any{}, wire.ProductTags: []any{}, wire.Variants: []any{}}
		links[id] = l
		ps.recs[id] = map[string]any{
			"id": itoa(id), "name": name, "description": desc, "notes": notes, "local_id": localID,
			"archived": boolStr(archived), "deleted": boolStr(deleted), "created_at": created, "updated_at": updated,
			wire.KeyLinks: l,
		}
		return nil
	}); err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, ok := ps.recs[id]; ok {
			ps.order = append(ps.order, id)
		}
	}
	collect := func(q, resource string, u *uniq) error {
		return t.each(q, []any{list}, func(rows *sql.Rows) error {
			var p, id int64
			if err := rows.Scan(&p, &id); err != nil {
				return err
			}
			appendLink(links[p], resource, id)
			if u != nil {
				u.add(id)
			}
			return nil
		})
	}
	variants, tags := &uniq{}, &uniq{}
	if err := collect(`SELECT product_id, id FROM attributes WHERE product_id IN `+inIDs+` ORDER BY product_id, ord, id`, wire.Attributes, nil); err != nil {
		return nil, err
	}
	if err := collect(`SELECT product_id, id FROM variants WHERE deleted = 0 AND product_id IN `+inIDs+` ORDER BY product_id, id`, wire.Variants, variants); err != nil {
		return nil, err
	}
	if err := collect(`SELECT l.product_id, l.tag_id FROM product_tag_links l JOIN product_tags g ON g.id = l.tag_id
		WHERE g.deleted = 0 AND l.product_id IN `+inIDs+` ORDER BY l.product_id, l.tag_id`, wire.ProductTags, tags); err != nil {
		return nil, err
	}
	if err := collect(`SELECT product_id, id FROM product_files WHERE deleted = 0 AND product_id IN `+inIDs+` ORDER BY product_id, id`, wire.ProductFiles, nil); err != nil {
		return nil, err
	}
	ps.variantIDs, ps.tagIDs = variants.ids, tags.ids
	return ps, nil
}

// sideloadOptions adds AttributeOptions and their Attributes.
func (t *txn) sideloadOptions(res *readResult, optionIDs []int64) error {
	if len(optionIDs) == 0 {
		return nil
	}
	list := idList(optionIDs)
	attrs := &uniq{}
	optLinks := map[int64]map[string]any{}
	if err := t.each(`SELECT id, attribute_id, name, ord, created_at, updated_at FROM attribute_options WHERE id IN `+inIDs, []any{list}, func(rows *sql.Rows) error {
		var id, attr, ord int64
		var name, created, updated string
		if err := rows.Scan(&id, &attr, &name, &ord, &created, &updated); err != nil {
			return err
		}
		attrs.add(attr)
		l := map[string]any{wire.Attributes: idLinks([]int64{attr}), wire.Variants: []any{}}
		optLinks[id] = l
		res.add(wire.AttributeOptions, itoa(id), map[string]any{
			"id": itoa(id), "name": name, "order": itoa(ord), "deleted": "0",
			"created_at": created, "updated_at": updated, wire.KeyLinks: l,
		})
		return nil
	}); err != nil {
		return err
	}
	if err := t.each(`SELECT vo.option_id, vo.variant_id FROM variant_options vo JOIN variants v ON v.id = vo.variant_id
		WHERE v.deleted = 0 AND vo.option_id IN `+inIDs+` ORDER BY vo.option_id, vo.variant_id`, []any{list}, func(rows *sql.Rows) error {
		var o, v int64
		if err := rows.Scan(&o, &v); err != nil {
			return err
		}
		appendLink(optLinks[o], wire.Variants, v)
		return nil
	}); err != nil {
		return err
	}

	alist := idList(attrs.ids)
	attrLinks := map[int64]map[string]any{}
	if err := t.each(`SELECT id, product_id, name, ord, created_at, updated_at FROM attributes WHERE id IN `+inIDs, []any{alist}, func(rows *sql.Rows) error {
		var id, product, ord int64
		var name, created, updated string
		if err := rows.Scan(&id, &product, &name, &ord, &created, &updated); err != nil {
			return err
		}
		l := map[string]any{wire.AttributeOptions: []any{}, wire.Products: idLinks([]int64{product})}
		attrLinks[id] = l
		res.add(wire.Attributes, itoa(id), map[string]any{
			"id": itoa(id), "name": name, "order": itoa(ord), "deleted": "0",
			"created_at": created, "updated_at": updated, wire.KeyLinks: l,
		})
		return nil
	}); err != nil {
		return err
	}
	return t.each(`SELECT attribute_id, id FROM attribute_options WHERE attribute_id IN `+inIDs+` ORDER BY attribute_id, ord, id`, []any{alist}, func(rows *sql.Rows) error {
		var a, o int64
		if err := rows.Scan(&a, &o); err != nil {
			return err
		}
		appendLink(attrLinks[a], wire.AttributeOptions, o)
		return nil
	})
}

// sideloadPrices adds VariantPrices and their PricingTiers; a tier links
// the prices of this answer.
func (t *txn) sideloadPrices(res *readResult, prices []priceRow) error {
	if len(prices) == 0 {
		return nil
	}
	tiers := &uniq{}
	tierPrices := map[int64][]int64{}
	for _, p := range prices {
		tiers.add(p.tier)
		tierPrices[p.tier] = append(tierPrices[p.tier], p.id)
		res.add(wire.VariantPrices, itoa(p.id), map[string]any{
			"id": itoa(p.id), "price": p.price, "deleted": "0", "created_at": p.created, "updated_at": p.updated,
			wire.KeyLinks: map[string]any{wire.PricingTiers: idLinks([]int64{p.tier}), wire.Variants: idLinks([]int64{p.variant})},
		})
	}
	return t.each(`SELECT id, name, created_at, updated_at FROM pricing_tiers WHERE id IN `+inIDs, []any{idList(tiers.ids)}, func(rows *sql.Rows) error {
		var id int64
		var name, created, updated string
		if err := rows.Scan(&id, &name, &created, &updated); err != nil {
			return err
		}
		res.add(wire.PricingTiers, itoa(id), map[string]any{
			"id": itoa(id), "name": name, "caption": "", "deleted": "0", "created_at": created, "updated_at": updated,
			wire.KeyLinks: map[string]any{wire.VariantPrices: idLinks(tierPrices[id])},
		})
		return nil
	})
}

// sideloadLevels adds WarehouseStockLevels and their AccountAddresses.
func (t *txn) sideloadLevels(res *readResult, levels []levelRow) error {
	if len(levels) == 0 {
		return nil
	}
	addrs := &uniq{}
	addrLevels := map[int64][]int64{}
	for _, l := range levels {
		addrs.add(l.address)
		addrLevels[l.address] = append(addrLevels[l.address], l.id)
		res.add(wire.WarehouseStockLevels, itoa(l.id), map[string]any{
			"id": itoa(l.id), "account_address_id": itoa(l.address), "stock": itoa(l.stock),
			"available": itoa(l.stock - l.committed), "low_stock_alert": nil, "deleted": "0", "updated_at": l.updated,
			wire.KeyLinks: map[string]any{
				wire.AccountAddresses: []any{map[string]any{"id": itoa(l.address), "type": "account_address"}},
				wire.Variants:         idLinks([]int64{l.variant}),
			},
		})
	}
	return t.each(`SELECT id, label, warehouse, deleted, created_at, updated_at FROM account_addresses WHERE id IN `+inIDs, []any{idList(addrs.ids)}, func(rows *sql.Rows) error {
		var id int64
		var label, created, updated string
		var warehouse, deleted bool
		if err := rows.Scan(&id, &label, &warehouse, &deleted, &created, &updated); err != nil {
			return err
		}
		res.add(wire.AccountAddresses, itoa(id), map[string]any{
			"id": itoa(id), "label": label, "warehouse": boolStr(warehouse), "default_warehouse": "0",
			"billing": "0", "shipping": "0", "channel_warehouse": "0", "deleted": boolStr(deleted),
			"city": nil, "company": nil, "country": nil, "country_iso": nil, "phone": nil, "state": nil,
			"street1": nil, "street2": nil, "zip": nil, "created_at": created, "updated_at": updated,
			wire.KeyLinks: map[string]any{wire.WarehouseStockLevels: idLinks(addrLevels[id])},
		})
		return nil
	})
}

// sideloadTags adds ProductTags.
func (t *txn) sideloadTags(res *readResult, tagIDs []int64) error {
	if len(tagIDs) == 0 {
		return nil
	}
	recs, err := t.tagRecords(tagIDs)
	if err != nil {
		return err
	}
	for _, id := range tagIDs {
		if r, ok := recs[id]; ok {
			res.add(wire.ProductTags, itoa(id), r)
		}
	}
	return nil
}
