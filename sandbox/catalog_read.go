package sandbox

import (
	"cmp"
	"database/sql"
	"maps"
	"slices"
	"strconv"
	"sync"

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
		res.addRaw(wire.Products, itoa(p), prods.recs[p])
	}
	if err := t.sideloadOptions(res, vs, prods.attributes); err != nil {
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
	vs.whole = true
	addVariants(res, vs)
	if err := t.sideloadOptions(res, vs, prods.attributes); err != nil {
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

// variantRow is a variant read from its table, with what it links.
type variantRow struct {
	id, product, sortOrder, stock, committed, available int64
	sku, desc, notes, avgCost, loc, supCost, supID      string
	localID, auto, autoType, created, updated           string
	weight, cost, upc, lowStock, consignment            sql.NullString
	bundle, component, deleted                          bool
	options, prices, levels                             []int64
	components                                          []component // of a bundle
}

// variantSet is a batch of rendered variants and what they link to.
type variantSet struct {
	order      []int64
	recs       map[int64]rawJSON
	deleted    map[int64]bool // the variants of recs marked deleted
	productIDs []int64
	optionIDs  []int64
	prices     []priceRow
	levels     []levelRow
	// components are the component variants of the bundles of the set.
	components []int64
	// held are the options of the variants, each with its variant.
	held []optionHold
	// whole says the set holds every live variant of its products, and
	// with them every live variant that has one of their options (a
	// variant has options of its product's attributes only).
	whole bool
}

// optionHold is an option a variant has.
type optionHold struct{ option, variant int64 }

// variantRowPool keeps the rows loadVariantSet reads, done with once it has
// written them, for the next.
var variantRowPool sync.Pool

// takeVariantRows is an empty slice of room for n rows, of variantRowPool.
func takeVariantRows(n int) *[]variantRow {
	p, _ := variantRowPool.Get().(*[]variantRow)
	if p == nil || cap(*p) < n {
		rows := make([]variantRow, 0, n)
		return &rows
	}
	return p
}

// putVariantRows gives back a slice of takeVariantRows, its rows cleared.
func putVariantRows(p *[]variantRow) {
	clear((*p)[:cap(*p)])
	*p = (*p)[:0]
	variantRowPool.Put(p)
}

// variantColumns are the columns variantRow.scan reads.
const variantColumns = `id, product_id, sku, description, notes, weight, cost, average_cost, upc, location_1,
	low_stock_alert, supplier_cost, supplier_id, consignment, local_id, sort_order, bundle, component, stock,
	committed_stock, auto_description, auto_description_with_option_type, deleted, created_at, updated_at`

func (v *variantRow) scan(r *row) {
	v.id, v.product, v.sku, v.desc, v.notes = r.int(0), r.int(1), r.str(2), r.str(3), r.str(4)
	v.weight, v.cost, v.avgCost, v.upc, v.loc = r.null(5), r.null(6), r.str(7), r.null(8), r.str(9)
	v.lowStock, v.supCost, v.supID, v.consignment, v.localID = r.null(10), r.str(11), r.str(12), r.null(13), r.str(14)
	v.sortOrder, v.bundle, v.component, v.stock = r.int(15), r.flag(16), r.flag(17), r.int(18)
	v.committed, v.auto, v.autoType, v.deleted = r.int(19), r.str(20), r.str(21), r.flag(22)
	v.created, v.updated = r.str(23), r.str(24)
	v.available = v.stock - v.committed
}

// write writes the variant as the service does, its keys in order.
func (v *variantRow) write(w *jw) {
	w.open()
	w.str("auto_description", v.auto)
	w.str("auto_description_with_option_type", v.autoType)
	w.int("available", v.available)
	w.str("average_cost", v.avgCost)
	w.flag("bundle", v.bundle)
	w.int("committed_stock", v.committed)
	w.flag("component", v.component)
	w.null("consignment", v.consignment)
	w.null("cost", v.cost)
	w.str("created_at", v.created)
	w.flag("deleted", v.deleted)
	w.str("description", v.desc)
	w.int("id", v.id)
	w.key(wire.KeyLinks)
	w.open()
	w.links(wire.AttributeOptions, v.options)
	if v.bundle {
		w.key(wire.BundleComponents)
		w.b = append(w.b, '[')
		for i, c := range v.components {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.first = true
			w.open()
			w.int("id", c.variant)
			w.int("quantity", c.quantity)
			w.close()
		}
		w.b = append(w.b, ']')
	}
	w.links(wire.Products, []int64{v.product})
	w.links(wire.VariantPrices, v.prices)
	w.links(wire.WarehouseStockLevels, v.levels)
	w.close()
	w.str("local_id", v.localID)
	w.str("location_1", v.loc)
	w.null("low_stock_alert", v.lowStock)
	w.str("notes", v.notes)
	w.str("sku", v.sku)
	w.int("sort_order", v.sortOrder)
	w.int("stock", v.stock)
	w.str("supplier_cost", v.supCost)
	w.str("supplier_id", v.supID)
	w.null("upc", v.upc)
	w.str("updated_at", v.updated)
	w.null("weight", v.weight)
	w.close()
}

// loadVariantSet renders the variants of ids (in that order) with their
// links, in a fixed number of queries.
func (t *txn) loadVariantSet(ids []int64) (*variantSet, error) {
	vs := &variantSet{recs: make(map[int64]rawJSON, len(ids))}
	if len(ids) == 0 {
		return vs, nil
	}
	in, err := t.idsIn("variants", ids)
	if err != nil {
		return nil, err
	}
	held := takeVariantRows(len(ids))
	defer putVariantRows(held)
	rows, bundles, err := t.variantRows(vs, ids, in, *held)
	if err != nil {
		return nil, err
	}
	if err := t.loadBundles(vs, bundles); err != nil {
		return nil, err
	}
	if err := t.loadVariantLinks(vs, rows, in); err != nil {
		return nil, err
	}
	renderRows(t, vs.order, rows, vs.recs)
	return vs, nil
}

// renderRows writes the rows of order, in that order, as records of recs.
func renderRows[R interface{ write(w *jw) }](t *txn, order []int64, rows map[int64]R, recs map[int64]rawJSON) {
	w := t.writer()
	w.expect(len(order))
	for _, id := range order {
		from := len(w.b)
		rows[id].write(&w)
		recs[id] = w.done(from)
	}
}

// variantRows reads the variants of ids (picked by in) into all (room for
// them) and gives vs their order and products: the rows by id, and the
// bundles among them.
func (t *txn) variantRows(vs *variantSet, ids []int64, in idSet, all []variantRow) (map[int64]*variantRow, []*variantRow, error) {
	rows := make(map[int64]*variantRow, len(ids))
	for _, id := range ids {
		rows[id] = nil
	}
	products := &uniq{}
	var bundles []*variantRow
	err := t.eachRow(`SELECT `+variantColumns+` FROM variants WHERE id `+in.cond, in.args, func(r *row) error {
		if len(all) == len(ids) {
			return nil // every row asked is read: none more can be
		}
		if _, asked := rows[r.int(0)]; !asked { // in the range, not asked for
			return nil
		}
		all = append(all, variantRow{})
		v := &all[len(all)-1]
		v.scan(r)
		rows[v.id] = v
		if v.deleted {
			if vs.deleted == nil {
				vs.deleted = map[int64]bool{}
			}
			vs.deleted[v.id] = true
		}
		products.add(v.product)
		if v.bundle {
			bundles = append(bundles, v)
		}
		return nil
	})
	for _, id := range ids {
		if rows[id] != nil {
			vs.order = append(vs.order, id)
		}
	}
	vs.productIDs = products.ids
	return rows, bundles, err
}

// idSet is the SQL that picks a set of ids (see txn.idsIn).
type idSet struct {
	cond string
	args []any
}

// idsIn is the SQL that picks the records of table whose ids are ids, by
// id or by a column of their ids: "BETWEEN lo AND hi" when the range
// holds few of table's records besides, which reads an index's range
// once; else IN the list, which seeks each. The range holds few when it
// is short (denseSpan: the records of a page in id order are close
// together), or when a count finds few there, of any account or deleted
// (the products of a page in id order, and their attributes, are spread
// among their variants and the rest). Rows of other records are for the
// caller to leave out.
func (t *txn) idsIn(table string, ids []int64) (idSet, error) {
	lo, hi := slices.Min(ids), slices.Max(ids)
	between := idSet{"BETWEEN ? AND ?", []any{lo, hi}}
	if hi-lo <= int64(denseSpan*len(ids)) {
		return between, nil
	}
	few := 2 * len(ids)
	var n int
	// Counted as far as few and one more: the range of scattered ids
	// may hold the whole table.
	if _, err := t.row(`SELECT count(*) FROM (SELECT 1 FROM `+table+` WHERE id BETWEEN ? AND ? LIMIT ?)`, []any{lo, hi, few + 1},
		&n); err != nil {
		return idSet{}, err
	}
	if n <= few {
		return between, nil
	}
	return idSet{"IN " + inIDs, []any{idList(ids)}}, nil
}

// denseSpan is how far apart the ids of a set may be, on average, for a
// range to read them uncounted: the ids between a variant's and the next
// one's are mostly its own stock level, prices and options.
const denseSpan = 8

// loadVariantLinks reads the prices and levels of the variants of rows
// (picked by in).
func (t *txn) loadVariantLinks(vs *variantSet, rows map[int64]*variantRow, in idSet) error {
	if err := t.loadVariantOptions(vs, rows, in); err != nil {
		return err
	}
	vs.prices = make([]priceRow, 0, 2*len(vs.order))
	err := t.eachRow(`SELECT id, variant_id, tier_id, price, created_at, updated_at FROM variant_prices WHERE variant_id `+in.cond,
		in.args, func(r *row) error {
			if rows[r.int(1)] != nil {
				vs.prices = append(vs.prices, priceRow{id: r.int(0), variant: r.int(1), tier: r.int(2), price: r.str(3),
					created: r.str(4), updated: r.str(5)})
			}
			return nil
		})
	if err != nil {
		return err
	}
	slices.SortFunc(vs.prices, func(a, b priceRow) int { return cmp.Compare(a.id, b.id) })
	linkRuns(vs.prices, func(p *priceRow) (int64, int64, int64) { return p.variant, p.id, p.id }, rows,
		func(v *variantRow) *[]int64 { return &v.prices })
	vs.levels = make([]levelRow, 0, len(vs.order))
	err = t.eachRow(`SELECT id, variant_id, address_id, stock, committed, created_at, updated_at FROM stock_levels WHERE variant_id `+in.cond,
		in.args, func(r *row) error {
			if rows[r.int(1)] != nil {
				vs.levels = append(vs.levels, levelRow{id: r.int(0), variant: r.int(1), address: r.int(2), stock: r.int(3),
					committed: r.int(4), created: r.str(5), updated: r.str(6)})
			}
			return nil
		})
	slices.SortFunc(vs.levels, func(a, b levelRow) int { return cmp.Compare(a.id, b.id) })
	linkRuns(vs.levels, func(l *levelRow) (int64, int64, int64) { return l.variant, l.id, l.id }, rows,
		func(v *variantRow) *[]int64 { return &v.levels })
	return err
}

// loadVariantOptions gives the variants of rows (picked by in) their
// options, in their order, and vs the options of them all, each once in
// id order (their sideloads are written in id order whatever order they
// are read in).
func (t *txn) loadVariantOptions(vs *variantSet, rows map[int64]*variantRow, in idSet) error {
	type chosen struct{ variant, option, position int64 }
	opts := make([]chosen, 0, len(vs.order))
	err := t.eachRow(`SELECT variant_id, option_id, position FROM variant_options WHERE variant_id `+in.cond, in.args, func(r *row) error {
		if rows[r.int(0)] != nil {
			opts = append(opts, chosen{variant: r.int(0), option: r.int(1), position: r.int(2)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	linkRuns(opts, func(c *chosen) (int64, int64, int64) { return c.variant, c.position, c.option }, rows,
		func(v *variantRow) *[]int64 { return &v.options })
	ids := make([]int64, len(opts))
	vs.held = make([]optionHold, len(opts))
	for i, c := range opts {
		ids[i] = c.option
		vs.held[i] = optionHold{option: c.option, variant: c.variant}
	}
	slices.Sort(ids)
	vs.optionIDs = slices.Compact(ids)
	return nil
}

// linkRuns gives each variant of rows the ids of its links, ordered by
// the key's order, all in one array; links stay in the order they are.
func linkRuns[T any](links []T, key func(*T) (variant, order, id int64), rows map[int64]*variantRow, to func(*variantRow) *[]int64) {
	type link struct{ variant, order, id int64 }
	all := make([]link, len(links))
	for i := range links {
		all[i].variant, all[i].order, all[i].id = key(&links[i])
	}
	slices.SortFunc(all, func(a, b link) int { return cmp.Or(cmp.Compare(a.variant, b.variant), cmp.Compare(a.order, b.order)) })
	ids := make([]int64, len(all))
	for i := 0; i < len(all); {
		j := i
		for ; j < len(all) && all[j].variant == all[i].variant; j++ {
			ids[j] = all[j].id
		}
		*to(rows[all[i].variant]) = ids[i:j:j]
		i = j
	}
}

// loadBundles gives each bundle of the set its availability (from its
// components) and its components with the units of each in one bundle.
// [B.7, assumed] wire.BundleComponents
func (t *txn) loadBundles(vs *variantSet, bundles []*variantRow) error {
	var comps uniq
	for _, b := range bundles {
		avail, err := t.bundleAvailable(b.id)
		if err != nil {
			return err
		}
		if b.components, err = t.components(b.id); err != nil {
			return err
		}
		b.available = avail
		for _, c := range b.components {
			comps.add(c.variant)
		}
	}
	vs.components = comps.ids
	return nil
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
	res.expectSide(wire.Variants, len(vs.order))
	for _, id := range vs.order {
		res.addRaw(wire.Variants, itoa(id), vs.recs[id])
	}
}

// productSet is a batch of rendered products and what they link to.
type productSet struct {
	order      []int64
	recs       map[int64]rawJSON
	variantIDs []int64
	tagIDs     []int64
	// attributes are the products' attributes, by id, for the sideload
	// of their variants' options (see sideloadOptions).
	attributes map[int64]*namedRow
}

// productRow is a product read from its table, with what it links.
type productRow struct {
	id                                           int64
	name, desc, notes, localID, created, updated string
	archived, deleted                            bool
	attributes, files, tags, variants            []int64
}

func (p *productRow) write(w *jw) {
	w.open()
	w.flag("archived", p.archived)
	w.str("created_at", p.created)
	w.flag("deleted", p.deleted)
	w.str("description", p.desc)
	w.int("id", p.id)
	w.key(wire.KeyLinks)
	w.open()
	w.links(wire.Attributes, p.attributes)
	w.links(wire.ProductFiles, p.files)
	w.links(wire.ProductTags, p.tags)
	w.links(wire.Variants, p.variants)
	w.close()
	w.str("local_id", p.localID)
	w.str("name", p.name)
	w.str("notes", p.notes)
	w.str("updated_at", p.updated)
	w.close()
}

// productRecords renders the products of ids with their links.
func (t *txn) productRecords(ids []int64) (*productSet, error) {
	ps := &productSet{recs: make(map[int64]rawJSON, len(ids))}
	if len(ids) == 0 {
		return ps, nil
	}
	in, err := t.idsIn("products", ids)
	if err != nil {
		return nil, err
	}
	rows, err := t.productRows(in, ids)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, ok := rows[id]; ok {
			ps.order = append(ps.order, id)
		}
	}
	if err := t.productLinks(ps, rows, in); err != nil {
		return nil, err
	}
	renderRows(t, ps.order, rows, ps.recs)
	return ps, nil
}

// productRows reads the products of ids (picked by in) by id.
func (t *txn) productRows(in idSet, ids []int64) (map[int64]*productRow, error) {
	rows := make(map[int64]*productRow, len(ids))
	for _, id := range ids {
		rows[id] = nil
	}
	if err := t.eachRow(`SELECT id, name, description, notes, local_id, archived, deleted, created_at, updated_at
		FROM products WHERE id `+in.cond, in.args, func(r *row) error {
		if _, asked := rows[r.int(0)]; asked {
			rows[r.int(0)] = &productRow{id: r.int(0), name: r.str(1), desc: r.str(2), notes: r.str(3), localID: r.str(4),
				archived: r.flag(5), deleted: r.flag(6), created: r.str(7), updated: r.str(8)}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	maps.DeleteFunc(rows, func(_ int64, p *productRow) bool { return p == nil })
	return rows, nil
}

// productLinks gives the products of rows (picked by in) their
// attributes, variants, tags and files, and ps the attributes, and the
// variants and tags they link, each once: a row a product and a link
// (an attribute, a row of its own).
func (t *txn) productLinks(ps *productSet, rows map[int64]*productRow, in idSet) error {
	if err := t.attributeLinks(ps, rows, in); err != nil {
		return err
	}
	variants, tags := &uniq{}, &uniq{}
	for _, l := range []productLinkQuery{
		{`SELECT product_id, id FROM variants WHERE deleted = 0 AND product_id ` + in.cond,
			func(p *productRow) *[]int64 { return &p.variants }, variants},
		{`SELECT l.product_id, l.tag_id FROM product_tag_links l JOIN product_tags g ON g.id = l.tag_id
		WHERE g.deleted = 0 AND l.product_id ` + in.cond,
			func(p *productRow) *[]int64 { return &p.tags }, tags},
		{`SELECT product_id, id FROM product_files WHERE deleted = 0 AND product_id ` + in.cond,
			func(p *productRow) *[]int64 { return &p.files }, nil},
	} {
		if err := t.productLink(rows, in, l); err != nil {
			return err
		}
	}
	ps.variantIDs, ps.tagIDs = variants.ids, tags.ids
	return nil
}

// attributeLinks gives the products of rows (picked by in) their
// attributes, in their order (then by id), and ps the attributes read
// whole: the sideload of the options' attributes takes them from there.
func (t *txn) attributeLinks(ps *productSet, rows map[int64]*productRow, in idSet) error {
	var all []namedRow
	err := t.eachRow(productAttributes+in.cond, in.args, func(r *row) error {
		if rows[r.int(1)] != nil {
			all = append(all, scanNamed(r))
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(all, func(a, b namedRow) int {
		return cmp.Or(cmp.Compare(a.owner, b.owner), cmp.Compare(a.ord, b.ord), cmp.Compare(a.id, b.id))
	})
	ps.attributes = make(map[int64]*namedRow, len(all))
	for i := range all {
		a := &all[i]
		p := rows[a.owner]
		p.attributes = append(p.attributes, a.id)
		ps.attributes[a.id] = a
	}
	return nil
}

// productLinkQuery reads a link of products, a (product, id) row a
// link; the list that to picks of a product's row takes them in id
// order, and u when there is one, product by product in id order.
type productLinkQuery struct {
	q  string
	to func(p *productRow) *[]int64
	u  *uniq
}

// productLink reads l for the products of rows (picked by in): the rows
// as they come (an index's order), sorted here, which takes less than
// SQLite's grouping and sorting them.
func (t *txn) productLink(rows map[int64]*productRow, in idSet, l productLinkQuery) error {
	var links [][2]int64
	err := t.eachRow(l.q, in.args, func(r *row) error {
		if rows[r.int(0)] != nil {
			links = append(links, [2]int64{r.int(0), r.int(1)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(links, func(a, b [2]int64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	for _, k := range links {
		ids := l.to(rows[k[0]])
		*ids = append(*ids, k[1])
		if l.u != nil {
			l.u.add(k[1])
		}
	}
	return nil
}

// namedRow is an attribute or an option: a name in an order, linked to
// its owner (product or attribute) and to what it holds.
type namedRow struct {
	id, owner, ord   int64
	name             string
	created, updated string
	holds            []int64
}

// write writes the attribute or option: its owner linked under owner, what
// it holds under holds, the links in key order (ownerFirst).
func (n *namedRow) write(w *jw, owner, holds string, ownerFirst bool) {
	w.open()
	w.str("created_at", n.created)
	w.str("deleted", "0")
	w.int("id", n.id)
	w.key(wire.KeyLinks)
	w.open()
	if ownerFirst {
		w.links(owner, []int64{n.owner})
		w.links(holds, n.holds)
	} else {
		w.links(holds, n.holds)
		w.links(owner, []int64{n.owner})
	}
	w.close()
	w.str("name", n.name)
	w.int("order", n.ord)
	w.str("updated_at", n.updated)
	w.close()
}

// named reads the attributes or options of ids, picked by in, with q
// (id, owner, name, ord, created, updated); what each holds is for the
// caller to read.
func (t *txn) named(q string, in idSet, ids []int64) (map[int64]*namedRow, []int64, error) {
	out := make(map[int64]*namedRow, len(ids))
	for _, id := range ids {
		out[id] = nil
	}
	all := make([]namedRow, 0, len(ids))
	err := t.eachRow(q, in.args, func(r *row) error {
		if len(all) == len(ids) {
			return nil // every row asked is read: none more can be
		}
		if _, asked := out[r.int(0)]; !asked {
			return nil
		}
		all = append(all, scanNamed(r))
		out[r.int(0)] = &all[len(all)-1]
		return nil
	})
	var order []int64
	for _, id := range ids {
		if out[id] != nil {
			order = append(order, id)
		}
	}
	return out, order, err
}

// scanNamed reads an attribute or an option from a row of the columns
// (id, owner, name, ord, created, updated).
func scanNamed(r *row) namedRow {
	return namedRow{id: r.int(0), owner: r.int(1), name: r.str(2), ord: r.int(3), created: r.str(4), updated: r.str(5)}
}

// The SQL of named for options (their holders read by optionHolders)
// and for attributes (their options by attributeOptions), and of the
// attributes of products (attributeLinks): the columns scanNamed reads.
var (
	optionsNamed      = `SELECT id, attribute_id, name, ord, created_at, updated_at FROM attribute_options WHERE id `
	attributesWhere   = `SELECT id, product_id, name, ord, created_at, updated_at FROM attributes WHERE `
	attributesNamed   = attributesWhere + `id `
	productAttributes = attributesWhere + `product_id `
)

// sideloadOptions adds the AttributeOptions of vs and their Attributes,
// those of known as they are (read with their products), others read.
func (t *txn) sideloadOptions(res *readResult, vs *variantSet, known map[int64]*namedRow) error {
	if len(vs.optionIDs) == 0 {
		return nil
	}
	in, err := t.idsIn("attribute_options", vs.optionIDs)
	if err != nil {
		return err
	}
	opts, optOrder, err := t.named(optionsNamed+in.cond, in, vs.optionIDs)
	if err != nil {
		return err
	}
	attrs := &uniq{}
	for _, id := range optOrder {
		attrs.add(opts[id].owner)
	}
	if err := t.optionHolders(opts, in, vs); err != nil {
		return err
	}
	attributes, attrOrder, err := t.attributesOf(attrs.ids, known)
	if err != nil {
		return err
	}
	if len(attrOrder) > 0 {
		ain, err := t.idsIn("attributes", attrOrder)
		if err == nil {
			err = t.attributeOptions(attributes, ain)
		}
		if err != nil {
			return err
		}
	}
	w := t.writer()
	w.expect(len(optOrder))
	res.expectSide(wire.AttributeOptions, len(optOrder))
	for _, id := range optOrder {
		from := len(w.b)
		opts[id].write(&w, wire.Attributes, wire.Variants, true)
		res.addRaw(wire.AttributeOptions, itoa(id), w.done(from))
	}
	w.expect(len(attrOrder))
	for _, id := range attrOrder {
		from := len(w.b)
		attributes[id].write(&w, wire.Products, wire.AttributeOptions, false)
		res.addRaw(wire.Attributes, itoa(id), w.done(from))
	}
	return nil
}

// attributesOf are the attributes of ids that exist, by id and in the
// order of ids: those of known, or when some are not, all read.
func (t *txn) attributesOf(ids []int64, known map[int64]*namedRow) (map[int64]*namedRow, []int64, error) {
	out := make(map[int64]*namedRow, len(ids))
	for _, id := range ids {
		a := known[id]
		if a == nil {
			in, err := t.idsIn("attributes", ids)
			if err != nil {
				return nil, nil, err
			}
			return t.named(attributesNamed+in.cond, in, ids)
		}
		out[id] = a
	}
	return out, ids, nil
}

// sideloadPrices adds VariantPrices and their PricingTiers; a tier links
// the prices of this answer.
func (t *txn) sideloadPrices(res *readResult, prices []priceRow) error {
	if len(prices) == 0 {
		return nil
	}
	tiers := &uniq{}
	tierPrices := map[int64][]int64{}
	w := t.writer()
	w.expect(len(prices))
	res.expectSide(wire.VariantPrices, len(prices))
	for _, p := range prices {
		tiers.add(p.tier)
		tierPrices[p.tier] = append(tierPrices[p.tier], p.id)
		from := len(w.b)
		w.open()
		w.str("created_at", p.created)
		w.str("deleted", "0")
		w.int("id", p.id)
		w.key(wire.KeyLinks)
		w.open()
		w.links(wire.PricingTiers, []int64{p.tier})
		w.links(wire.Variants, []int64{p.variant})
		w.close()
		w.str("price", p.price)
		w.str("updated_at", p.updated)
		w.close()
		res.addRaw(wire.VariantPrices, itoa(p.id), w.done(from))
	}
	return t.eachRow(`SELECT id, name, created_at, updated_at FROM pricing_tiers WHERE id IN `+inIDs, []any{idList(tiers.ids)}, func(r *row) error {
		id, name, created, updated := r.int(0), r.str(1), r.str(2), r.str(3)
		from := len(w.b)
		w.open()
		w.str("caption", "")
		w.str("created_at", created)
		w.str("deleted", "0")
		w.int("id", id)
		w.key(wire.KeyLinks)
		w.open()
		w.links(wire.VariantPrices, tierPrices[id])
		w.close()
		w.str("name", name)
		w.str("updated_at", updated)
		w.close()
		res.addRaw(wire.PricingTiers, itoa(id), w.done(from))
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
	w := t.writer()
	w.expect(len(levels))
	res.expectSide(wire.WarehouseStockLevels, len(levels))
	for _, l := range levels {
		addrs.add(l.address)
		addrLevels[l.address] = append(addrLevels[l.address], l.id)
		from := len(w.b)
		w.open()
		w.int("account_address_id", l.address)
		w.int("available", l.stock-l.committed)
		w.str("deleted", "0")
		w.int("id", l.id)
		w.key(wire.KeyLinks)
		w.open()
		w.key(wire.AccountAddresses)
		w.b = append(w.b, `[{"id":"`...)
		w.b = strconv.AppendInt(w.b, l.address, 10)
		w.b = append(w.b, `","type":"account_address"}]`...)
		w.links(wire.Variants, []int64{l.variant})
		w.close()
		w.nul("low_stock_alert")
		w.int("stock", l.stock)
		w.str("updated_at", l.updated)
		w.close()
		res.addRaw(wire.WarehouseStockLevels, itoa(l.id), w.done(from))
	}
	return t.eachRow(`SELECT id, label, warehouse, deleted, created_at, updated_at FROM account_addresses WHERE id IN `+inIDs, []any{idList(addrs.ids)}, func(r *row) error {
		id := r.int(0)
		from := len(w.b)
		writeAddress(&w, id, r.str(1), r.flag(2), r.flag(3), r.str(4), r.str(5), addrLevels[id])
		res.addRaw(wire.AccountAddresses, itoa(id), w.done(from))
		return nil
	})
}

// writeAddress writes an account address (a warehouse) with the stock
// levels of the answer at it.
func writeAddress(w *jw, id int64, label string, warehouse, deleted bool, created, updated string, levels []int64) {
	w.open()
	w.str("billing", "0")
	w.str("channel_warehouse", "0")
	w.nul("city", "company", "country", "country_iso")
	w.str("created_at", created)
	w.str("default_warehouse", "0")
	w.flag("deleted", deleted)
	w.int("id", id)
	w.str("label", label)
	w.key(wire.KeyLinks)
	w.open()
	w.links(wire.WarehouseStockLevels, levels)
	w.close()
	w.nul("phone")
	w.str("shipping", "0")
	w.nul("state", "street1", "street2")
	w.str("updated_at", updated)
	w.flag("warehouse", warehouse)
	w.nul("zip")
	w.close()
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

// liveVariants is which variants of ids exist and are not deleted.
func (t *txn) liveVariants(ids []int64) (map[int64]bool, error) {
	live := make(map[int64]bool, len(ids))
	return live, t.eachRow(`SELECT id FROM variants WHERE deleted = 0 AND id IN `+inIDs, []any{idList(ids)}, func(r *row) error {
		live[r.int(0)] = true
		return nil
	})
}

// optionHolders links each option of opts (picked by in) to the live
// variants that have it, in id order: when vs holds whole products, its
// own (see variantSet.whole), else read (see readHolders).
func (t *txn) optionHolders(opts map[int64]*namedRow, in idSet, vs *variantSet) error {
	holds := vs.held
	if !vs.whole {
		var err error
		if holds, err = t.readHolders(opts, in, vs); err != nil {
			return err
		}
	}
	slices.SortFunc(holds, func(a, b optionHold) int {
		return cmp.Or(cmp.Compare(a.option, b.option), cmp.Compare(a.variant, b.variant))
	})
	for _, h := range holds {
		if o := opts[h.option]; o != nil && !vs.deleted[h.variant] {
			o.holds = append(o.holds, h.variant)
		}
	}
	return nil
}

// readHolders reads which live variants have the options of opts (picked
// by in). Whether a variant of vs is live is known (most holders are: the
// variants that have an option are mostly of one product, read
// together); the others are looked up, after.
func (t *txn) readHolders(opts map[int64]*namedRow, in idSet, vs *variantSet) ([]optionHold, error) {
	var holds []optionHold
	var others uniq
	if err := t.eachRow(`SELECT option_id, variant_id FROM variant_options WHERE option_id `+in.cond, in.args, func(r *row) error {
		h := optionHold{option: r.int(0), variant: r.int(1)}
		if opts[h.option] == nil {
			return nil
		}
		if _, read := vs.recs[h.variant]; !read {
			others.add(h.variant)
		} else if vs.deleted[h.variant] {
			return nil
		}
		holds = append(holds, h)
		return nil
	}); err != nil {
		return nil, err
	}
	if len(others.ids) == 0 {
		return holds, nil
	}
	live, err := t.liveVariants(others.ids)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(holds, func(h optionHold) bool { return others.seen[h.variant] && !live[h.variant] }), nil
}

// attributeOptions gives each attribute of attrs (picked by in) its
// options, in their order (then by id): read as they are and sorted here,
// which takes less than SQLite's sorting each attribute's in a table of
// its own.
func (t *txn) attributeOptions(attrs map[int64]*namedRow, in idSet) error {
	type held struct{ attribute, ord, option int64 }
	var all []held
	err := t.eachRow(`SELECT attribute_id, ord, id FROM attribute_options WHERE attribute_id `+in.cond, in.args, func(r *row) error {
		if a := r.int(0); attrs[a] != nil {
			all = append(all, held{attribute: a, ord: r.int(1), option: r.int(2)})
		}
		return nil
	})
	slices.SortFunc(all, func(a, b held) int {
		return cmp.Or(cmp.Compare(a.attribute, b.attribute), cmp.Compare(a.ord, b.ord), cmp.Compare(a.option, b.option))
	})
	for _, h := range all {
		a := attrs[h.attribute]
		a.holds = append(a.holds, h.option)
	}
	return err
}
