package catalog

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"lading/internal/arena"
	"lading/internal/strindex"
	"lading/mapping"
)

// Grouper collects evaluated rows into products. Feed it every row with
// Add (in file order, main file first, then a joined file), then call
// Finish once. It is not safe for concurrent use.
type Grouper struct {
	m        *mapping.Mapping
	nm       *names
	products []*Product
	metas    [][]meta        // by product index, metaChunk a chunk (metaAt)
	byKey    *strindex.Index // the products by key
	aliases  map[string]int32
	files    map[string]uint32 // index in nm.files
	skipped  []Skipped
	orphans  []RowError
	buf      []byte
	rows     int
	last     int32 // index of the product of the previous row, or -1
	slab     []Product
	tags     map[string]string
	// attrLists are the numbers of the attribute lists of products in
	// nm.lists plus 1, by their name ids; tagLists those of their tag
	// lists, by the tags.
	attrLists, tagLists map[string]uint32
	arena               arena.Arena
	// data holds the variants' SKUs and packed data, apart from the
	// keys and texts a job keeps to its end: once an import let go of
	// the data of the products it writes nothing of (their SKUs copied
	// out), its chunks can be freed (see Product.ReleaseData).
	data   arena.Arena
	packed []byte    // where a variant's SKU and data are put together
	vchunk []Variant // where products' variant lists are carved from
	// Names seen at each position of a row's fields and tiers: rows
	// mostly repeat them, so most lookups are one string comparison.
	fieldIDs, tierIDs [16]nameID
}

type nameID struct {
	name string
	id   uint32
}

// meta is what the grouper needs about a product until Finish.
type meta struct {
	defined    bool // a product or both row was seen
	unresolved bool // some variant has an option whose name is not known yet
	removed    bool // merged into another product
	// variantRows: a variant or both row was seen, valid or not; the
	// variant of the product's own row (x.alone) is then none of its.
	variantRows bool
	lines       [5]int32  // rows that gave name, description, notes, tags, command
	slots       [3]uint32 // name id + 1 of option pairs 1-3, from rows giving them
	x           *metaExtra
}

// metaExtra holds what few products need.
type metaExtra struct {
	moreSlots []uint32 // name id + 1 of option pairs 4 and on
	declared  []mapping.Attribute
	declRow   RowRef
	slotCols  []string
	children  []string
	childRow  RowRef
	childCol  string
	// alone is the variant of the product's row (join.alone), its if no
	// joined row names the product; aloneErrs are its invalid values.
	alone     *Variant
	aloneErrs []RowError
}

// Result is what Finish returns.
type Result struct {
	// Products in order of first appearance. Those with Errs must not be
	// written; the others go ahead.
	Products []*Product
	// Skipped are the rows skip rules matched.
	Skipped []Skipped
	// Errors are invalid rows that belong to no product (no key).
	Errors []RowError
	// Rows is the number of rows added.
	Rows int
}

// NewGrouper returns a grouper for rows evaluated with programs compiled
// from m (used to name columns in messages; nil is allowed).
func NewGrouper(m *mapping.Mapping) *Grouper {
	g := &Grouper{
		m:       m,
		nm:      newNames(),
		aliases: map[string]int32{},
		files:   map[string]uint32{},
		last:    -1,
	}
	g.byKey = strindex.New(0, func(i int32) string { return g.products[i].Key })
	return g
}

// file interns the file name f and returns it with its index in
// g.nm.files.
func (g *Grouper) file(f string) (string, uint32) {
	if i, ok := g.files[f]; ok {
		return g.nm.files[i], i
	}
	s := strings.Clone(f)
	i := uint32(len(g.nm.files))
	g.nm.files = append(g.nm.files, s)
	g.files[s] = i
	return s, i
}

// product returns the index of the product with key, creating it.
func (g *Grouper) product(key string, ref RowRef, file uint32) int32 {
	if g.last >= 0 && g.products[g.last].Key == key {
		return g.last // rows of a product usually come together
	}
	if i := g.byKey.Find(key); i >= 0 {
		g.last = i
		return i
	}
	key = g.arena.Clone(key)
	i := int32(len(g.products))
	if len(g.slab) == cap(g.slab) {
		g.slab = make([]Product, 0, 1024) // fewer, larger allocations
	}
	g.slab = append(g.slab, Product{Key: key, nm: g.nm, firstLine: int32(ref.Line), firstFile: file})
	g.products = append(g.products, &g.slab[len(g.slab)-1])
	if int(i)%metaChunk == 0 {
		g.metas = append(g.metas, make([]meta, metaChunk))
	}
	g.byKey.Add(i)
	g.last = i
	return i
}

// Add takes one evaluated row. It copies what it keeps: r and its strings
// may be reused by the caller afterwards.
func (g *Grouper) Add(ref RowRef, r *mapping.Row) {
	g.rows++
	var file uint32
	ref.File, file = g.file(ref.File)
	if r.Skip {
		g.skipped = append(g.skipped, Skipped{Row: ref, Reason: strings.Clone(r.SkipReason)})
		return
	}
	key := r.GroupKey
	if r.Role == mapping.RoleVariant && r.ParentRef != "" {
		key = r.ParentRef
	}
	if len(r.Errors) > 0 {
		g.addErrors(ref, file, key, r)
		return
	}
	i := g.product(key, ref, file)
	p, mt := g.products[i], g.metaAt(i)
	g.images(p, ref, r)
	if r.Role != mapping.RoleVariant {
		g.define(i, ref, r)
	}
	if r.Role == mapping.RoleProduct {
		x := p.more()
		x.productRows = append(x.productRows, ref)
		if r.Alone {
			g.alone(p, mt, ref, file, r)
		}
		if len(r.Declared) > 0 && (mt.x == nil || mt.x.declared == nil) {
			g.declare(mt, ref, r)
		}
		g.children(mt, ref, r)
		return
	}
	mt.variantRows = true
	g.addVariant(p, mt, ref, file, r)
}

// addErrors takes a row with errors: they go to its product (or, with
// no key, to the orphans), and a product or both row still says the
// product exists, how it is known and which rows are its variants (they
// must not be written on their own); its valid product values keep other
// messages accurate.
func (g *Grouper) addErrors(ref RowRef, file uint32, key string, r *mapping.Row) {
	errs := make([]RowError, len(r.Errors))
	sku := ""
	if r.Role != mapping.RoleProduct {
		sku = strings.Clone(r.Variant.SKU)
	}
	for i, e := range r.Errors {
		errs[i] = RowError{Row: ref, Column: strings.Clone(e.Column), Value: strings.Clone(e.Value), Target: e.Target, Rule: strings.Clone(e.Rule), SKU: sku}
	}
	if key == "" {
		g.orphans = append(g.orphans, errs...)
		return
	}
	i := g.product(key, ref, file)
	g.products[i].addErrs(errs...)
	if r.Role != mapping.RoleProduct {
		g.metaAt(i).variantRows = true
	}
	if r.Role != mapping.RoleVariant {
		g.define(i, ref, r)
		g.children(g.metaAt(i), ref, r)
	}
}

// declare keeps the attributes and values a product row declares.
func (g *Grouper) declare(mt *meta, ref RowRef, r *mapping.Row) {
	x := mt.extra()
	x.declRow = ref
	for _, a := range r.Declared {
		vals := make([]string, len(a.Values))
		for k, v := range a.Values {
			vals[k] = strings.Clone(v)
		}
		x.declared = append(x.declared, mapping.Attribute{Name: g.nm.list[g.nm.id(a.Name)], Values: vals, Column: strings.Clone(a.Column)})
	}
}

// images adds the images row ref names to p's; those of its variant
// (Image.Variant) carry the variant's SKU.
func (g *Grouper) images(p *Product, ref RowRef, r *mapping.Row) {
	for _, im := range r.Images {
		ci := Image{Source: strings.Clone(im.Source), Row: ref, Column: strings.Clone(im.Column), Alt: strings.Clone(im.Alt),
			Position: im.Position, Err: strings.Clone(im.Err)}
		if im.Variant {
			ci.Variant = strings.Clone(r.Variant.SKU)
		}
		x := p.more()
		x.images = append(x.images, ci)
	}
}

// children records the keys of the variant rows a product row lists.
func (g *Grouper) children(mt *meta, ref RowRef, r *mapping.Row) {
	if len(r.ChildKeys) == 0 {
		return
	}
	x := mt.extra()
	for _, c := range r.ChildKeys {
		x.children = append(x.children, strings.Clone(c))
	}
	x.childRow, x.childCol = ref, strings.Clone(r.ChildColumn)
}

// define records a product or both row's product values, command and
// alias.
func (g *Grouper) define(i int32, ref RowRef, r *mapping.Row) {
	mt := g.metaAt(i)
	mt.defined = true
	g.productFields(g.products[i], mt, ref, r)
	g.command(g.products[i], mt, ref, r)
	if r.Alias != "" {
		if _, ok := g.aliases[r.Alias]; !ok {
			g.aliases[strings.Clone(r.Alias)] = i
		}
	}
}

// nameAt returns the id of name, given at position k of a row.
func (g *Grouper) nameAt(cache []nameID, k int, name string) uint32 {
	if k < len(cache) {
		if c := &cache[k]; c.name == name && name != "" {
			return c.id
		}
		id := g.nm.id(name)
		cache[k] = nameID{g.nm.list[id], id}
		return id
	}
	return g.nm.id(name)
}

// variantChunk is how many variants one chunk holds.
const variantChunk = 4096

// metaChunk is how many products' metas a chunk holds: a slice of a
// quarter of a million growing by appends would allocate five times its
// size as it went, and hold the old and the new at once.
const metaChunk = 1024

// metaAt is the meta of product i.
func (g *Grouper) metaAt(i int32) *meta { return &g.metas[i/metaChunk][i%metaChunk] }

// appendVariant appends v to p.Variants. Variant lists are carved from
// large chunks; the list of the product whose rows are being read (rows
// of a product usually come together) grows in place at the chunk's end,
// so most products cost no allocation of their own.
func (g *Grouper) appendVariant(p *Product, v Variant) {
	n := len(p.Variants)
	if n < cap(p.Variants) {
		p.Variants = append(p.Variants, v)
		return
	}
	c := g.vchunk
	if n > 0 && len(c) > 0 && len(c) < cap(c) && &c[len(c)-1] == &p.Variants[n-1] {
		c = append(c, v) // the list ends where the chunk's used part ends
		g.vchunk = c
		p.Variants = c[len(c)-n-1 : len(c) : len(c)]
		return
	}
	if n+1 > variantChunk/4 {
		p.Variants = append(p.Variants, v) // big lists live on their own
		return
	}
	if cap(c)-len(c) < n+1 {
		c = make([]Variant, 0, variantChunk)
	}
	start := len(c)
	c = append(c, p.Variants...)
	c = append(c, v)
	g.vchunk = c
	p.Variants = c[start:len(c):len(c)]
}

// slotID returns the attribute name id given for option pair slot
// (1-based), if a row gave one.
func (mt *meta) slotID(slot int) (uint32, bool) {
	var v uint32
	switch {
	case slot < 1:
	case slot <= len(mt.slots):
		v = mt.slots[slot-1]
	case mt.x != nil && slot-len(mt.slots) <= len(mt.x.moreSlots):
		v = mt.x.moreSlots[slot-len(mt.slots)-1]
	}
	return v - 1, v != 0
}

// setSlot records the name id of option pair slot unless one is known.
func (mt *meta) setSlot(slot int, id uint32) {
	if _, ok := mt.slotID(slot); ok {
		return
	}
	if slot <= len(mt.slots) {
		mt.slots[slot-1] = id + 1
		return
	}
	x := mt.extra()
	for len(x.moreSlots) < slot-len(mt.slots) {
		x.moreSlots = append(x.moreSlots, 0)
	}
	x.moreSlots[slot-len(mt.slots)-1] = id + 1
}

// slotCount is the number of option pair slots mt has room for.
func (mt *meta) slotCount() int {
	n := len(mt.slots)
	if mt.x != nil {
		n += len(mt.x.moreSlots)
	}
	return n
}

// slotIDs returns the name ids of the option pairs, in pair order.
func (mt *meta) slotIDs() []uint32 {
	var out []uint32
	for s := 1; s <= mt.slotCount(); s++ {
		if id, ok := mt.slotID(s); ok {
			out = append(out, id)
		}
	}
	return out
}

// tag interns a tag: many products share their tags.
func (g *Grouper) tag(t string) string {
	if s, ok := g.tags[t]; ok {
		return s
	}
	if g.tags == nil {
		g.tags = map[string]string{}
	}
	s := g.arena.Clone(t)
	g.tags[s] = s
	return s
}

// tagList interns tags and their list, and returns the list's number in
// g.nm.lists plus 1: products often share both. Lists are shared, of
// exactly their length: appending to one copies it.
func (g *Grouper) tagList(tags []string) uint32 {
	key := g.buf[:0]
	for _, t := range tags {
		key = binary.AppendUvarint(key, uint64(len(t)))
		key = append(key, t...)
	}
	g.buf = key
	if n, ok := g.tagLists[string(key)]; ok {
		return n
	}
	l := make([]string, len(tags))
	for k, t := range tags {
		l[k] = g.tag(t)
	}
	if g.tagLists == nil {
		g.tagLists = map[string]uint32{}
	}
	n := g.nm.addList(l)
	g.tagLists[string(key)] = n
	return n
}

func (mt *meta) extra() *metaExtra {
	if mt.x == nil {
		mt.x = &metaExtra{}
	}
	return mt.x
}

func (g *Grouper) productFields(p *Product, mt *meta, ref RowRef, r *mapping.Row) {
	var ps mapping.ProductSpec
	if g.m != nil {
		ps = g.m.Product
	}
	g.productTexts(p, mt, ref, r, &ps)
	if r.Product.TagsSet {
		if !p.tagsSet {
			p.tagsSet = true
			mt.lines[3] = int32(ref.Line)
			if len(r.Product.Tags) > 0 {
				p.tags = g.tagList(r.Product.Tags)
			}
		} else if !slices.Equal(p.Tags(), r.Product.Tags) {
			p.addErrs(RowError{Row: ref, Column: ps.Tags.Describe(), Value: strings.Join(r.Product.Tags, ","), Target: "product.tags",
				Rule: fmt.Sprintf("differ from %q given on row %d for the same product", strings.Join(p.Tags(), ","), mt.lines[3])})
		}
	}
}

// productTexts records the name, description and notes the row gives p,
// packed anew when the row gives one p did not have: most products have
// them from one row.
func (g *Grouper) productTexts(p *Product, mt *meta, ref RowRef, r *mapping.Row, ps *mapping.ProductSpec) {
	cur := unpackTexts(p.text)
	given := [3]Value{r.Product.Name, r.Product.Description, r.Product.Notes}
	targets := [3]string{"product.name", "product.description", "product.notes"}
	specs := [3]*mapping.ValueSpec{ps.Name, ps.Description, ps.Notes}
	changed := false
	for k, v := range given {
		switch {
		case !v.Set:
		case !cur[k].Set:
			cur[k], mt.lines[k], changed = v, int32(ref.Line), true
		case cur[k].S != v.S:
			p.addErrs(RowError{Row: ref, Column: specs[k].Describe(), Value: strings.Clone(v.S), Target: targets[k],
				Rule: fmt.Sprintf("differs from %q given on row %d for the same product; give it once or the same on every row", clip(cur[k].S), mt.lines[k])})
		}
	}
	if changed {
		g.buf = appendTexts(g.buf[:0], cur)
		p.text = g.arena.String(g.buf)
	}
}

// maxOptions is the most attribute options a variant may have.
const maxOptions = 8

// addVariant adds the row's variant to p (a variant row's, or a both
// row's), marked to delete when the row says delete.
func (g *Grouper) addVariant(p *Product, mt *meta, ref RowRef, file uint32, r *mapping.Row) {
	if v, ok := g.packVariant(p, mt, ref, file, r); ok {
		if r.Command == mapping.CommandDelete {
			v.file |= deleteBit
		}
		g.appendVariant(p, v)
	}
}

// packVariant packs the row's variant into one string.
func (g *Grouper) packVariant(p *Product, mt *meta, ref RowRef, file uint32, r *mapping.Row) (Variant, bool) {
	b := g.buf[:0]
	// Options are packed sorted by name id (slot options, whose name is
	// not known yet, after them), so that equal combinations pack equally.
	var ids [maxOptions]uint32
	opts := r.Options
	if len(opts) > maxOptions {
		p.addErrs(RowError{Row: ref, Target: "options", Value: fmt.Sprint(len(opts)),
			Rule: fmt.Sprintf("a variant may have at most %d attribute options", maxOptions)})
		return Variant{}, false
	}
	for k, o := range opts {
		ids[k] = ^uint32(0)
		if o.Name != "" {
			id := g.nm.id(o.Name)
			if o.Slot > 0 {
				mt.setSlot(o.Slot, id)
			}
			ids[k] = id
		} else if id, ok := mt.slotID(o.Slot); ok {
			ids[k] = id
		}
	}
	order := [maxOptions]int{0, 1, 2, 3, 4, 5, 6, 7}
	for a := 1; a < len(opts); a++ {
		for c := a; c > 0 && ids[order[c]] < ids[order[c-1]]; c-- {
			order[c], order[c-1] = order[c-1], order[c]
		}
	}
	for _, k := range order[:len(opts)] {
		o := opts[k]
		if ids[k] != ^uint32(0) {
			b = appendEntry(b, kOption, ids[k], o.Value)
			continue
		}
		mt.unresolved = true
		x := mt.extra()
		for len(x.slotCols) < o.Slot {
			x.slotCols = append(x.slotCols, "")
		}
		if x.slotCols[o.Slot-1] == "" {
			x.slotCols[o.Slot-1] = strings.Clone(o.Column)
		}
		b = appendEntry(b, kSlot, uint32(o.Slot), o.Value)
	}
	for k, f := range r.Variant.Fields {
		b = appendEntry(b, kField, g.nameAt(g.fieldIDs[:], k, f.Name), f.Value)
	}
	if r.Variant.Stock.Set {
		b = appendEntry(b, kStock, 0, r.Variant.Stock.S)
	}
	for k, t := range r.Tiers {
		b = appendEntry(b, kTier, g.nameAt(g.tierIDs[:], k, t.Name), t.Value)
	}
	g.buf = b
	g.packed = packVariantText(g.packed[:0], r.Variant.SKU, b)
	return Variant{s: g.data.String(g.packed), nm: g.nm, line: int32(ref.Line), file: file}, true
}

// command records the command a product row, or a row that is both, gives
// its product: rows that give one give the same. A delete on a row that is
// both is its variant's (packVariant).
func (g *Grouper) command(p *Product, mt *meta, ref RowRef, r *mapping.Row) {
	c := r.Command
	if c == mapping.CommandNone || (c == mapping.CommandDelete && r.Role == mapping.RoleBoth) {
		return
	}
	if p.Command() == mapping.CommandNone {
		p.command, mt.lines[4] = uint8(slices.Index(mapping.Commands, c)+1), int32(ref.Line)
		return
	}
	if p.Command() != c {
		var spec *mapping.ValueSpec
		if g.m != nil {
			spec = g.m.Command
		}
		p.addErrs(RowError{Row: ref, Column: spec.Describe(), Value: string(c), Target: "command",
			Rule: fmt.Sprintf("differs from %q given on row %d for the same product; give it once or the same on every row", p.Command(), mt.lines[4])})
	}
}

// alone keeps the variant a product row gives for a product that no
// joined row names (join.alone), with the errors of its values.
func (g *Grouper) alone(p *Product, mt *meta, ref RowRef, file uint32, r *mapping.Row) {
	if mt.x != nil && mt.x.alone != nil {
		return // the product's first row gives it
	}
	x := mt.extra()
	if v, ok := g.packVariant(p, mt, ref, file, r); ok {
		x.alone = &v
	}
	for _, e := range r.AloneErrors {
		x.aloneErrs = append(x.aloneErrs, RowError{Row: ref, Column: strings.Clone(e.Column), Value: strings.Clone(e.Value),
			Target: e.Target, Rule: strings.Clone(e.Rule), SKU: strings.Clone(r.Variant.SKU)})
	}
}
