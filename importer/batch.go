package importer

import (
	"lading/api"
	"lading/catalog"
	"lading/engine"
	"lading/state"
)

// Batch kinds, as recorded in the state's intents.
const (
	KindProductCreate  = "products.create"
	KindProductUpdate  = "products.update"
	KindVariantCreate  = "variants.create"
	KindVariantUpdate  = "variants.update"
	KindProductArchive = "products.archive"
	KindProductDelete  = "products.delete"
	KindVariantDelete  = "variants.delete"
)

// writeKind is a batch kind, small enough for every record to carry.
type writeKind uint8

const (
	kindProductCreate writeKind = iota
	kindProductUpdate
	kindVariantCreate
	kindVariantUpdate
	kindProductArchive
	kindProductDelete
	kindVariantDelete
)

// String is the kind as the state's intents record it.
func (k writeKind) String() string {
	return [...]string{KindProductCreate, KindProductUpdate, KindVariantCreate, KindVariantUpdate,
		KindProductArchive, KindProductDelete, KindVariantDelete}[k]
}

// Kinds of batches that mix records of several kinds (a batch of one
// kind is named by it), and classes of batches: the records of one class
// go in the same request.
const (
	KindProductWrite = "products.write"
	KindVariantWrite = "variants.write"
)

type writeClass uint8

const (
	classProducts writeClass = iota // Products writes: creates, edits, deletes
	classArchive                    // one bulk archive of products
	classVariants                   // Variants writes: creates, edits, deletes
)

// class is the class of the kind's records.
func (k writeKind) class() writeClass {
	switch k {
	case kindProductArchive:
		return classArchive
	case kindVariantCreate, kindVariantUpdate, kindVariantDelete:
		return classVariants
	}
	return classProducts
}

// kindOf is the kind of a record of a batch of kind (the state's intent's
// kind), by what its change did (op) to what (resource): a mixed batch
// says it of each record.
func kindOf(kind string, c *state.Change) string {
	if kind != KindProductWrite && kind != KindVariantWrite || c == nil {
		return kind
	}
	what := "products."
	if c.Resource == state.ResourceVariant {
		what = "variants."
	}
	return what + string(c.Op)
}

// record is one entry of a write array, with the plan it carries out. A
// round holds one for each write of a million-row import: it is small.
type record struct {
	kind    writeKind
	settled bool // its batch was sent and answered, or set aside
	pp      *ProductPlan
	vp      *VariantPlan // nil for product records
	// The body, while its batch is sent (see build).
	product *api.ProductWrite
	variant *api.VariantWrite
}

// key is what the state's intents know the record by: its variant's key,
// or its product's.
func (r *record) key() string {
	if r.vp != nil {
		return r.vp.Key()
	}
	return r.pp.P.Key
}

// batch is one write request: records of one class.
type batch struct {
	class   writeClass
	records []*record
}

// kind is the batch's kind in the state: its records' kind when they
// share one, else what they are (KindProductWrite, KindVariantWrite).
func (b *batch) kind() string {
	k := b.records[0].kind
	for _, r := range b.records[1:] {
		if r.kind != k {
			if b.class == classVariants {
				return KindVariantWrite
			}
			return KindProductWrite
		}
	}
	return k.String()
}

func (b *batch) keys() []string {
	ks := make([]string, len(b.records))
	for i, r := range b.records {
		ks[i] = r.key()
	}
	return ks
}

// eachWrite calls fn for each record that carries out the plan, with its
// kind: a product create (with its variants, attributes, tiers and tags)
// for each new product; for existing products an archive, a delete, or
// an edit of what changed with variant creates, edits and deletes. vp is
// nil for product records.
func (p *Plan) eachWrite(fn func(kind writeKind, pp *ProductPlan, vp *VariantPlan)) {
	for _, pp := range p.Products {
		switch {
		case pp.Action == engine.Archived:
			fn(kindProductArchive, pp, nil)
		case pp.Action == engine.Deleted:
			fn(kindProductDelete, pp, nil)
		case pp.Action == engine.Created && pp.Live == nil:
			fn(kindProductCreate, pp, nil)
		case pp.Live != nil && pp.Action != engine.Failed && pp.Action != engine.Skipped:
			if len(pp.Changes()) > 0 {
				fn(kindProductUpdate, pp, nil)
			}
			// A product found equal, without plans of its own, writes none.
			vps := pp.vps
			if pp.plain != 0 && statuses[pp.plain-1] != engine.Unchanged {
				vps = pp.variants()
			}
			for _, vp := range vps {
				switch vp.Action() {
				case engine.Created:
					fn(kindVariantCreate, pp, vp)
				case engine.Updated:
					fn(kindVariantUpdate, pp, vp)
				case engine.Deleted:
					fn(kindVariantDelete, pp, vp)
				}
			}
		}
	}
}

// records lists the write records that carry out the plan. Their bodies
// are built by build when their batch is sent, and dropped after, so that
// only the batches in flight hold them (a million rows' bodies at once
// would take gigabytes).
func (p *Plan) records() []*record {
	var out []*record
	p.eachWrite(func(kind writeKind, pp *ProductPlan, vp *VariantPlan) {
		out = append(out, &record{kind: kind, pp: pp, vp: vp})
	})
	return out
}

// build makes r's body, sending only what changed, unless it is made;
// live gives the ids of the tags and tiers known when it was planned.
func (r *record) build(live *Live) {
	if r.product != nil || r.variant != nil {
		return
	}
	switch r.kind {
	case kindProductCreate:
		r.product = newProduct(r.pp, live)
	case kindProductUpdate:
		r.product = productEdit(r.pp, live)
	case kindVariantCreate:
		r.variant = variantWrite(r.pp.P, r.vp.V, live)
		r.variant.Links.Products = api.Refs(r.pp.Live.ID)
	case kindVariantUpdate:
		r.variant = variantUpdate(r.vp)
	case kindProductArchive:
		r.product = &api.ProductWrite{ID: r.pp.Live.ID, Archive: 1}
	case kindProductDelete:
		r.product = &api.ProductWrite{ID: r.pp.Live.ID, Delete: 1}
	case kindVariantDelete:
		r.variant = &api.VariantWrite{ID: r.vp.Live.ID, Delete: 1}
	}
}

// requests is how many write requests of at most size records carrying
// out the plan takes, counted without building the records.
func (p *Plan) requests(size int) int {
	var perClass [classVariants + 1]int
	p.eachWrite(func(kind writeKind, _ *ProductPlan, _ *VariantPlan) { perClass[kind.class()]++ })
	n := 0
	for _, k := range perClass {
		n += (k + size - 1) / size
	}
	return n
}

// batches splits records into write arrays of at most size records of one
// class, in plan order: creates, edits and deletes of variants share
// requests, as do those of products; archives go in bulk archives.
func batches(records []*record, size int) []*batch {
	byClass := map[writeClass]*batch{}
	var out []*batch
	for _, r := range records {
		c := r.kind.class()
		b := byClass[c]
		if b == nil || len(b.records) == size {
			b = &batch{class: c}
			byClass[c] = b
			out = append(out, b)
		}
		b.records = append(b.records, r)
	}
	return out
}

func strPtr(v catalog.Value) *string {
	if !v.Set {
		return nil
	}
	s := v.S
	return &s
}

func tagRefs(tags []string, live *Live) []api.TagRef {
	var refs []api.TagRef
	for _, t := range normTags(tags) {
		if id, ok := live.TagIDs[t]; ok {
			refs = append(refs, api.TagRef{ID: id})
		} else {
			refs = append(refs, api.TagRef{Name: t})
		}
	}
	return refs
}

func newProduct(pp *ProductPlan, live *Live) *api.ProductWrite {
	prod := pp.P
	w := &api.ProductWrite{Name: strPtr(prod.Name()), Description: strPtr(prod.Description()), Notes: strPtr(prod.Notes()),
		Links: &api.ProductLinks{}}
	for i, a := range prod.Attributes() {
		w.Links.Attributes = append(w.Links.Attributes, api.AttributeRef{Name: a, Order: i})
	}
	for i := range prod.Variants { // from the rows: a created product's variants have no plans of their own
		if v := &prod.Variants[i]; !v.Delete() { // its row deletes it: it is not created
			w.Links.Variants = append(w.Links.Variants, *variantWrite(prod, v, live))
		}
	}
	if prod.TagsSet() {
		w.Links.ProductTags = tagRefs(prod.Tags(), live)
	}
	return w
}

func productEdit(pp *ProductPlan, live *Live) *api.ProductWrite {
	w := &api.ProductWrite{ID: pp.Live.ID}
	for _, c := range pp.Changes() {
		_ = w.Set(c.Field, c.To) // "tags" is not a field: it goes in links
	}
	if pp.TagsChanged() {
		w.Links = &api.ProductLinks{ProductTags: tagRefs(pp.P.Tags(), live)}
	}
	return w
}

// variantWrite is the full record of a new variant: fields, opening stock,
// options (each naming its attribute) and tier prices.
func variantWrite(prod *catalog.Product, v *catalog.Variant, live *Live) *api.VariantWrite {
	w := &api.VariantWrite{Links: &api.VariantLinks{}}
	if sku := v.SKU(); sku != "" {
		w.SKU = &sku
	}
	for _, f := range v.Fields() {
		// The mapping only produces writable fields; an unknown one is
		// dropped rather than sent.
		_ = w.Set(f.Name, f.Value)
	}
	if st := v.Stock(); st.Set && st.S != "" {
		q := st.S
		w.Quantity = &q
	}
	values := prod.OptionValues(v)
	for i, a := range prod.Attributes() {
		if i < len(values) && values[i] != "" {
			w.Links.AttributeOptions = append(w.Links.AttributeOptions, api.OptionRef{Value: values[i], Attribute: a})
		}
	}
	for _, t := range v.Tiers() {
		tv := api.TierValue{Name: t.Name, Value: t.Value}
		if id, ok := live.TierIDs[t.Name]; ok {
			tv = api.TierValue{ID: id, Value: t.Value}
		}
		w.Links.PricingTiers = append(w.Links.PricingTiers, tv)
	}
	return w
}

func variantUpdate(vp *VariantPlan) *api.VariantWrite {
	w := &api.VariantWrite{ID: vp.Live.ID}
	for _, c := range vp.Changes() {
		_ = w.Set(c.Field, c.To) // tier changes ("tier X") are not fields
	}
	if tiers := vp.Tiers(); len(tiers) > 0 {
		w.Links = &api.VariantLinks{PricingTiers: tiers}
	}
	return w
}
