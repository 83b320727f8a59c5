package catalog

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"sync"

	"lading/mapping"
)

// Finish groups what Add collected and validates across rows: parents
// referred to by alias, children claimed by product rows, option names
// carried from other rows, options for attributes a product does not
// declare, duplicate option combinations within a product, products
// without a name, variants whose product never appears, and duplicate
// SKUs in the input (every row involved is named). Call it once.
func (g *Grouper) Finish() *Result {
	g.resolveAliases()
	g.claimChildren()
	for i, p := range g.products {
		mt := g.metaAt(int32(i))
		if mt.removed {
			continue
		}
		aloneVariant(p, mt)
		g.resolveSlots(p, mt)
		g.checkDefined(p, mt)
		g.attributes(p, mt)
		checkCombinations(p)
	}
	g.duplicateSKUs()

	res := &Result{Skipped: g.skipped, Errors: g.orphans, Rows: g.rows}
	res.Products = make([]*Product, 0, len(g.products))
	for i, p := range g.products {
		if g.metaAt(int32(i)).removed {
			continue
		}
		if errs := p.Errs(); len(errs) > 1 {
			slices.SortStableFunc(errs, func(a, b RowError) int { return compareRef(a.Row, b.Row) })
		}
		if images := p.Images(); len(images) > 1 {
			slices.SortStableFunc(images, func(a, b Image) int { return compareRef(a.Row, b.Row) })
		}
		res.Products = append(res.Products, p)
	}
	g.products, g.metas, g.byKey, g.aliases = nil, nil, nil, nil
	return res
}

// aloneVariant makes the variant of p's own row (join.alone, or a
// "product_or_both" row) its one variant when no other row is one of its
// variants, valid or not: the row is then a variant row.
func aloneVariant(p *Product, mt *meta) {
	if mt.x == nil || (mt.x.alone == nil && len(mt.x.aloneErrs) == 0) {
		return
	}
	if mt.variantRows || len(p.Variants) > 0 {
		mt.x.alone, mt.x.aloneErrs = nil, nil
		return
	}
	p.addErrs(mt.x.aloneErrs...)
	if v := mt.x.alone; v != nil {
		p.Variants = append(p.Variants, *v)
		if p.x != nil {
			p.x.productRows = slices.DeleteFunc(p.x.productRows, func(r RowRef) bool { return r == v.Row() })
		}
	}
	mt.x.alone, mt.x.aloneErrs = nil, nil
}

// merge moves the rows of product j into product i.
func (g *Grouper) merge(i, j int32) {
	p, q := g.products[i], g.products[j]
	p.Variants = append(p.Variants, q.Variants...)
	if q.x != nil {
		x := p.more()
		x.productRows = append(x.productRows, q.x.productRows...)
		x.errs = append(x.errs, q.x.errs...)
		x.images = append(x.images, q.x.images...)
	}
	mi, mj := g.metaAt(i), g.metaAt(j)
	// Attribute names given on j's rows name i's options too (pairs
	// whose name is given on one row only).
	for s := 1; s <= mj.slotCount(); s++ {
		if id, ok := mj.slotID(s); ok {
			mi.setSlot(s, id)
		}
	}
	if mj.unresolved {
		mi.unresolved = true
		if mj.x != nil {
			x := mi.extra()
			for k, c := range mj.x.slotCols {
				for len(x.slotCols) <= k {
					x.slotCols = append(x.slotCols, "")
				}
				if x.slotCols[k] == "" {
					x.slotCols[k] = c
				}
			}
		}
	}
	mj.removed = true
	q.Variants, q.x = nil, nil
}

// resolveAliases merges products known only through a reference (a
// variant's parent) into the product that has that reference as alias.
func (g *Grouper) resolveAliases() {
	for i, p := range g.products {
		if mt := g.metaAt(int32(i)); mt.defined || mt.removed {
			continue
		}
		if j, ok := g.aliases[p.Key]; ok && j != int32(i) {
			g.merge(j, int32(i))
		}
	}
}

// claimChildren makes the rows listed by a product row its variants.
func (g *Grouper) claimChildren() {
	claimedBy := map[int32]int32{}
	for i := range g.products {
		mt := g.metaAt(int32(i))
		if mt.removed || mt.x == nil || len(mt.x.children) == 0 {
			continue
		}
		p := g.products[i]
		for _, c := range mt.x.children {
			j := g.byKey.Find(c)
			ok := j >= 0
			if !ok {
				j, ok = g.aliases[c]
			}
			switch {
			case !ok || (g.metaAt(j).removed && claimedBy[j] == 0):
				p.addErrs(RowError{Row: mt.x.childRow, Column: mt.x.childCol, Value: c, Target: "group.children",
					Rule: fmt.Sprintf("lists %q, but no row has that key", c)})
			case j == int32(i):
			case g.metaAt(j).removed:
				by := g.products[claimedBy[j]-1]
				p.addErrs(RowError{Row: mt.x.childRow, Column: mt.x.childCol, Value: c, Target: "group.children",
					Rule: fmt.Sprintf("lists %q, which %s (product %q) lists too; a variant belongs to one product", c, by.First(), by.Key)})
			default:
				claimedBy[j] = int32(i) + 1
				g.merge(int32(i), j)
			}
		}
	}
}

// resolveSlots names options whose row gave no attribute name, from the
// names other rows of the product gave for the same pair.
func (g *Grouper) resolveSlots(p *Product, mt *meta) {
	if !mt.unresolved {
		return
	}
	type opt struct {
		id  uint32
		val string
	}
	for k := range p.Variants {
		v := &p.Variants[k]
		var opts []opt
		var rest []byte
		changed := false
		v.each(func(kind byte, id uint32, val string) bool {
			switch kind {
			case kOption:
				opts = append(opts, opt{id, val})
			case kSlot:
				slot := int(id)
				if id, ok := mt.slotID(slot); ok {
					opts = append(opts, opt{id, val})
					changed = true
					return true
				}
				col := ""
				if mt.x != nil && slot <= len(mt.x.slotCols) {
					col = mt.x.slotCols[slot-1]
				}
				p.addErrs(RowError{Row: v.Row(), Column: col, Value: val, Target: fmt.Sprintf("option %d", slot),
					Rule: fmt.Sprintf("has a value but no row of product %q names attribute %d; give the attribute name on the product's first row", p.Key, slot)})
			default:
				rest = appendEntry(rest, kind, id, val)
			}
			return true
		})
		if !changed {
			continue
		}
		slices.SortStableFunc(opts, func(a, b opt) int { return int(a.id) - int(b.id) })
		var b []byte
		for _, o := range opts {
			b = appendEntry(b, kOption, o.id, o.val)
		}
		v.setData(append(b, rest...))
	}
}

// checkDefined reports variants whose product never appears, and
// products without a name.
func (g *Grouper) checkDefined(p *Product, mt *meta) {
	if !mt.defined {
		if len(p.Variants) == 0 {
			return // only invalid rows, reported already
		}
		col := ""
		if g.m != nil {
			if g.m.Join != nil {
				col = g.m.Join.Key.Describe()
			} else {
				col = g.m.Group.Parent.Describe()
			}
		}
		for k := range p.Variants {
			p.addErrs(RowError{Row: p.Variants[k].Row(), Column: col, Value: p.Key, Target: "parent",
				Rule: fmt.Sprintf("names product %q, but no product row has that key", p.Key)})
		}
		return
	}
	if !p.Name().Set {
		col := ""
		if g.m != nil {
			col = g.m.Product.Name.Describe()
		}
		p.addErrs(RowError{Row: p.First(), Column: col, Target: "product.name",
			Rule: fmt.Sprintf("required: product %q has no name on any of its rows", p.Key)})
	}
}

// attributes sets p.Attributes and checks the variants' options against
// the attributes the product row declares.
func (g *Grouper) attributes(p *Product, mt *meta) {
	var declared []mapping.Attribute
	if mt.x != nil {
		declared = mt.x.declared
	}
	if len(declared) > 0 {
		ids := make([]uint32, len(declared))
		for k, a := range declared {
			ids[k] = g.nm.id(a.Name)
		}
		p.attrs = g.attributeList(ids)
		g.checkDeclared(p, mt, declared)
		return
	}
	// Attribute order: the option pairs' order, then first appearance.
	var ids []uint32
	for _, id := range mt.slotIDs() {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for k := range p.Variants {
		for d := p.Variants[k].data(); len(d) > 0 && entryKind(d) == kOption; {
			var id uint32
			_, id, _, d = nextEntry(d)
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	if len(ids) > 0 {
		p.attrs = g.attributeList(ids)
	}
}

// attributeList returns the number plus 1 in g.nm.lists of the list of
// the names of ids. Products with the same attributes (most products of a
// catalog have the same few) share one list, of exactly its length:
// appending to it copies.
func (g *Grouper) attributeList(ids []uint32) uint32 {
	key := g.buf[:0]
	for _, id := range ids {
		key = binary.AppendUvarint(key, uint64(id))
	}
	g.buf = key
	if n, ok := g.attrLists[string(key)]; ok {
		return n
	}
	l := make([]string, len(ids))
	for k, id := range ids {
		l[k] = g.nm.list[id]
	}
	if g.attrLists == nil {
		g.attrLists = map[string]uint32{}
	}
	n := g.nm.addList(l)
	g.attrLists[string(key)] = n
	return n
}

func (g *Grouper) checkDeclared(p *Product, mt *meta, declared []mapping.Attribute) {
	for k := range p.Variants {
		v := &p.Variants[k]
		for d := v.data(); len(d) > 0 && entryKind(d) == kOption; {
			var id uint32
			var val string
			_, id, val, d = nextEntry(d)
			name := g.nm.list[id]
			i := slices.IndexFunc(declared, func(a mapping.Attribute) bool { return a.Name == name })
			if i < 0 {
				i = slices.IndexFunc(declared, func(a mapping.Attribute) bool { return strings.EqualFold(a.Name, name) })
			}
			if i < 0 {
				p.addErrs(RowError{Row: v.Row(), Value: val, Target: "option " + name,
					Rule: fmt.Sprintf("names an attribute the product does not have; its attributes (declared on %s): %s", mt.x.declRow, quoted(p.Attributes()))})
				continue
			}
			a := declared[i]
			if len(a.Values) > 0 && !slices.ContainsFunc(a.Values, func(s string) bool { return strings.EqualFold(s, val) }) {
				p.addErrs(RowError{Row: v.Row(), Column: a.Column, Value: val, Target: "option " + name,
					Rule: fmt.Sprintf("is not among the values of %q declared on %s: %s", a.Name, mt.x.declRow, quoted(a.Values))})
			}
		}
	}
}

func quoted(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// checkCombinations reports variants of one product with the same options.
func checkCombinations(p *Product) {
	n := len(p.Variants)
	if n < 2 {
		return
	}
	// The prefixes of a product of few variants, each read once.
	var few [8]string
	dupOf := func(k int) int { // index of an earlier variant with the same options, or -1
		few[k] = p.Variants[k].optionPrefix()
		for j := 0; j < k; j++ {
			if few[j] == few[k] {
				return j
			}
		}
		return -1
	}
	if n > len(few) {
		seen := make(map[string]int, n)
		dupOf = func(k int) int {
			pre := p.Variants[k].optionPrefix()
			if j, ok := seen[pre]; ok {
				return j
			}
			seen[pre] = k
			return -1
		}
	}
	for k := range p.Variants {
		j := dupOf(k)
		if j < 0 {
			continue
		}
		v := &p.Variants[k]
		what := "no options"
		var vals []string
		if opts := v.Options(); len(opts) > 0 {
			var parts []string
			for _, o := range opts {
				parts = append(parts, o.Name+"="+o.Value)
				vals = append(vals, o.Value)
			}
			what = "options " + strings.Join(parts, ", ")
		}
		p.addErrs(RowError{Row: v.Row(), Value: strings.Join(vals, ", "), Target: "options",
			Rule: fmt.Sprintf("duplicate option combination in product %q: %s as on %s; each variant needs its own combination", p.Key, what, p.Variants[j].Row())})
	}
}

// maxListedRows is how many other rows a duplicate-SKU message names.
const maxListedRows = 10

// skuAt is a variant with a SKU: the SKU's hash, the product's index and
// the variant's.
type skuAt struct {
	h    uint64
	p, v int32
}

func (g *Grouper) variantAt(r skuAt) *Variant { return &g.products[r.p].Variants[r.v] }

// duplicateSKUs reports every row whose SKU another row has too, naming up
// to maxListedRows of the others.
func (g *Grouper) duplicateSKUs() {
	col := ""
	if g.m != nil {
		col = g.m.Variant.SKU.Describe()
	}
	all := g.sortedSKUs()
	for lo := 0; lo < len(all); {
		hi := lo + 1
		for hi < len(all) && all[hi].h == all[lo].h && g.variantAt(all[hi]).SKU() == g.variantAt(all[lo]).SKU() {
			hi++
		}
		if run := all[lo:hi]; len(run) > 1 {
			g.reportDuplicates(run, col)
		}
		lo = hi
	}
}

// sortedSKUs lists the variants with a SKU of the products not removed
// whose SKU's hash another's has too, equal SKUs next to each other in the
// order of their rows. It sorts the bare hashes (cheaper than a map of a
// million strings, or sorting the variants by them), then gathers and
// sorts only the variants of hashes seen twice, comparing their strings.
func (g *Grouper) sortedSKUs() []skuAt {
	total := 0
	for _, p := range g.products {
		total += len(p.Variants)
	}
	seed := maphash.MakeSeed()
	hashes := make([]uint64, 0, total)
	g.eachSKU(func(s string, _, _ int32) { hashes = append(hashes, maphash.String(seed, s)) })
	sortHashes(hashes)
	twice := map[uint64]bool{}
	for i := 1; i < len(hashes); i++ {
		if hashes[i] == hashes[i-1] {
			twice[hashes[i]] = true
		}
	}
	if len(twice) == 0 {
		return nil
	}
	var all []skuAt
	g.eachSKU(func(s string, p, v int32) {
		if h := maphash.String(seed, s); twice[h] {
			all = append(all, skuAt{h, p, v})
		}
	})
	slices.SortFunc(all, func(a, b skuAt) int {
		if a.h != b.h {
			return cmp.Compare(a.h, b.h)
		}
		if c := strings.Compare(g.variantAt(a).SKU(), g.variantAt(b).SKU()); c != 0 {
			return c
		}
		if a.p != b.p {
			return cmp.Compare(a.p, b.p)
		}
		return cmp.Compare(a.v, b.v)
	})
	return all
}

// sortHashes sorts hashes, on two cores when there are many: those below
// 1<<63 are moved before the others, and each part is sorted on its own.
func sortHashes(hashes []uint64) {
	if len(hashes) < 1<<16 {
		slices.Sort(hashes)
		return
	}
	low := 0
	for i, h := range hashes {
		if h < 1<<63 {
			hashes[low], hashes[i] = h, hashes[low]
			low++
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() { slices.Sort(hashes[:low]) })
	slices.Sort(hashes[low:])
	wg.Wait()
}

// eachSKU calls fn with the SKU of every variant that has one, of the
// products not removed, with the indexes of its product and itself.
func (g *Grouper) eachSKU(fn func(sku string, p, v int32)) {
	for i, p := range g.products {
		if g.metaAt(int32(i)).removed {
			continue
		}
		for k := range p.Variants {
			if s := p.Variants[k].SKU(); s != "" {
				fn(s, int32(i), int32(k))
			}
		}
	}
}

// reportDuplicates gives each row of a run of one SKU an error naming the
// run's first other rows.
func (g *Grouper) reportDuplicates(run []skuAt, col string) {
	for k, r := range run {
		var others []string
		for j, o := range run[:min(len(run), maxListedRows+1)] {
			if j != k && len(others) < maxListedRows {
				others = append(others, g.variantAt(o).Row().String())
			}
		}
		rule := "duplicate SKU: also on " + strings.Join(others, ", ")
		if more := len(run) - 1 - len(others); more > 0 {
			rule += fmt.Sprintf(" and %d more rows", more)
		}
		v := g.variantAt(r)
		p := g.products[r.p]
		p.addErrs(RowError{Row: v.Row(), Column: col, Value: v.SKU(), Target: "variant.sku", Rule: rule})
	}
}
