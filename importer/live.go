package importer

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unsafe"

	"lading/api"
	"lading/api/wire"
	"lading/catalog"
)

// LiveVariant is a variant as the service has it, reduced to what an import
// compares. A snapshot of a large account may hold a million of them, so
// it keeps its text apart from the answer it was read from, and what is
// compared behind a pointer. A variant the snapshot found equal to the
// file's as it read the account has none: its product keeps its id
// (LiveProduct.sameVariant).
type LiveVariant struct {
	ID api.ID
	d  *liveDetail
}

// numVariantFields is len(wire.VariantWriteFields) (a test checks it).
const numVariantFields = 9

// liveDetail is what an import compares of a live variant.
type liveDetail struct {
	productID api.ID
	sku       string
	// fields are the writable scalar fields, in the order of
	// wire.VariantWriteFields.
	fields  fieldTexts
	options []LiveOption
	// prices are its prices, by pricing tier name.
	prices []LivePrice
}

// fieldTexts are a variant's writable fields, their texts back to back in
// one string (nine string headers were 144 bytes a variant).
type fieldTexts struct {
	text string
	ends [numVariantFields]uint32
}

// at is field i.
func (f *fieldTexts) at(i int) string {
	start := uint32(0)
	if i > 0 {
		start = f.ends[i-1]
	}
	return f.text[start:f.ends[i]]
}

// appendFields appends the texts of fields to b, setting f's ends (its
// text is what b then holds from len(b) on).
func (f *fieldTexts) appendFields(b []byte, fields *[numVariantFields]string) []byte {
	from := len(b)
	for i, s := range fields {
		b = append(b, s...)
		f.ends[i] = uint32(len(b) - from)
	}
	return b
}

// liveRead is where readVariant reads a variant out of an answer, room
// reused from variant to variant: the detail, the answer's options and
// prices it is read from, and its fields' text.
type liveRead struct {
	liveDetail
	optionsRead []api.OptionValue
	pricesRead  []api.TierPrice
	fieldsRead  []byte
}

// ProductID is the id of the variant's product ("" when the snapshot
// keeps its id alone).
func (lv *LiveVariant) ProductID() api.ID {
	if lv.d == nil {
		return ""
	}
	return lv.d.productID
}

// SKU is the variant's SKU ("" when the snapshot keeps its id alone).
func (lv *LiveVariant) SKU() string {
	if lv.d == nil {
		return ""
	}
	return lv.d.sku
}

// Options are the live variant's options.
func (lv *LiveVariant) Options() []LiveOption {
	if lv.d == nil {
		return nil
	}
	return lv.d.options
}

// LiveOption is one of a live variant's options.
type LiveOption struct{ Attribute, Value string }

// LivePrice is a live variant's price in one pricing tier.
type LivePrice struct{ Tier, Value string }

// Field returns the value of the writable field name ("" if unknown).
func (lv *LiveVariant) Field(name string) string {
	if i := slices.Index(wire.VariantWriteFields, name); i >= 0 && lv.d != nil {
		return lv.d.fields.at(i)
	}
	return ""
}

// Price returns the variant's price in tier, and whether it has one.
func (lv *LiveVariant) Price(tier string) (string, bool) {
	if lv.d == nil {
		return "", false
	}
	for _, p := range lv.d.prices {
		if p.Tier == tier {
			return p.Value, true
		}
	}
	return "", false
}

// LiveProduct is a product as the service has it: its ids and files, and
// what an import compares (nil when the snapshot found it equal to the
// file's: then the ids of its variants are in same from first, by the
// file's variant number).
type LiveProduct struct {
	ID api.ID
	*LiveText
	// FileIDs are the ids of its product files, when FilesKnown: the
	// record read had links [A.3] (a stub made for a variant whose product
	// was not sideloaded has none).
	FileIDs    []api.ID
	FilesKnown bool
	Archived   bool
	first      int32
	same       *sameIDs
}

// LiveText is what an import compares of a live product, with its
// variants.
type LiveText struct {
	Name        string
	Description string
	Notes       string
	Tags        []string // sorted
	Variants    []*LiveVariant
}

// Live is a snapshot of the part of the live catalog an import touches.
type Live struct {
	Products map[api.ID]*LiveProduct
	BySKU    map[string]*LiveVariant
	byName   map[string][]*LiveProduct
	// TierIDs and TagIDs map names to ids of tiers and tags seen.
	TierIDs map[string]api.ID
	TagIDs  map[string]api.ID
	// Remembered are the ids remembered for the products none of whose
	// SKUs was found (see Want.Remember), by key: what the plan finds
	// such a product by.
	Remembered map[string]string
	// Requests is the number of reads the snapshot took.
	Requests int
	// Total is how many variants the account holds, -1 when the snapshot
	// did not need to know.
	Total int
	// same holds, by number in wanted (the products the snapshot was read
	// for), the live products found equal to the file's (see
	// sameProduct).
	wanted []*catalog.Product
	same   []*LiveProduct
	// read is where addVariant reads a variant before it keeps it.
	read liveRead
}

func newLive() *Live {
	return &Live{
		Products: map[api.ID]*LiveProduct{},
		BySKU:    map[string]*LiveVariant{},
		byName:   map[string][]*LiveProduct{},
		TierIDs:  map[string]api.ID{},
		TagIDs:   map[string]api.ID{},
		Total:    -1,
	}
}

// restart empties l for a read of the catalog again, keeping the count
// of its reads and the size of the catalog.
func (l *Live) restart() *Live {
	requests, total := l.Requests, l.Total
	*l = *newLive()
	l.Requests, l.Total = requests, total
	return l
}

// ByName returns the live products with exactly that name.
func (l *Live) ByName(name string) []*LiveProduct { return l.byName[name] }

// variantFields reads the writable scalar fields of v, in the order of
// wire.VariantWriteFields.
func variantFields(v *api.Variant) (f [numVariantFields]string) {
	for i, name := range wire.VariantWriteFields {
		f[i] = v.WriteField(name)
	}
	return f
}

// liveProduct is p as a snapshot keeps it: its text copied out of the
// answer, which can then be let go.
func liveProduct(p *api.Product, s *api.Sideloads) *LiveProduct {
	lp := &LiveProduct{ID: clone(p.ID), LiveText: &LiveText{Name: strings.Clone(string(p.Name)),
		Description: strings.Clone(string(p.Description)), Notes: strings.Clone(string(p.Notes))},
		FilesKnown: p.Links != nil, Archived: p.Archived.Bool()}
	for _, t := range s.Tags(p) {
		lp.Tags = append(lp.Tags, strings.Clone(t))
	}
	for _, id := range p.Links.IDs(wire.ProductFiles) {
		lp.FileIDs = append(lp.FileIDs, clone(id))
	}
	return lp
}

// readVariant fills lv, with the detail in r, from v, a variant of product
// pid; its text stays the answer's (see keep).
func readVariant(lv *LiveVariant, r *liveRead, v *api.Variant, pid api.ID, s *api.Sideloads) {
	d := &r.liveDetail
	fields := variantFields(v)
	// The fields' text is r's, as the rest is the answer's, until the
	// next read.
	r.fieldsRead = d.fields.appendFields(r.fieldsRead[:0], &fields)
	d.fields.text = unsafe.String(unsafe.SliceData(r.fieldsRead), len(r.fieldsRead))
	d.options, d.prices = d.options[:0], d.prices[:0]
	r.pricesRead = s.AppendPrices(r.pricesRead[:0], v)
	for _, p := range r.pricesRead {
		d.prices = append(d.prices, LivePrice{Tier: p.Tier, Value: string(p.Price)})
	}
	r.optionsRead = s.AppendOptions(r.optionsRead[:0], v)
	for _, o := range r.optionsRead {
		d.options = append(d.options, LiveOption{Attribute: o.Attribute, Value: o.Value})
	}
	d.productID, d.sku = pid, string(v.SKU)
	*lv = LiveVariant{ID: v.ID, d: d}
}

// keptVariant is a live variant and its detail, kept in one allocation.
type keptVariant struct {
	LiveVariant
	detail liveDetail
}

// keep copies lv and its detail out of the answer they were read from:
// the variant and its detail in one allocation, their text in one string
// (a million variants of the account read whole were 14 million
// allocations). The product's id is the snapshot's already.
func (lv *LiveVariant) keep() *LiveVariant {
	src := lv.d
	var buf []byte
	add := func(s string) { buf = append(buf, s...) }
	n := len(lv.ID) + len(src.sku) + len(src.fields.text)
	for _, o := range src.options {
		n += len(o.Attribute) + len(o.Value)
	}
	for _, p := range src.prices {
		n += len(p.Tier) + len(p.Value)
	}
	buf = make([]byte, 0, n)
	add(string(lv.ID))
	add(src.sku)
	add(src.fields.text)
	for _, o := range src.options {
		add(o.Attribute)
		add(o.Value)
	}
	for _, p := range src.prices {
		add(p.Tier)
		add(p.Value)
	}
	text := unsafe.String(unsafe.SliceData(buf), len(buf)) // buf is not written again
	cut := func(s string) string {
		t := text[:len(s)]
		text = text[len(s):]
		return t
	}
	k := &keptVariant{}
	k.ID, k.d = api.ID(cut(string(lv.ID))), &k.detail
	d := &k.detail
	d.productID, d.sku = src.productID, cut(src.sku)
	d.fields = fieldTexts{text: cut(src.fields.text), ends: src.fields.ends}
	if len(src.options) > 0 {
		d.options = make([]LiveOption, len(src.options))
		for i, o := range src.options {
			d.options[i] = LiveOption{cut(o.Attribute), cut(o.Value)}
		}
	}
	if len(src.prices) > 0 {
		d.prices = make([]LivePrice, len(src.prices))
		for i, p := range src.prices {
			d.prices[i] = LivePrice{cut(p.Tier), cut(p.Value)}
		}
	}
	return &k.LiveVariant
}

// addProduct records p and those of its variants the sideloads carry.
func (l *Live) addProduct(p *api.Product, s *api.Sideloads, variants []*api.Variant) {
	if p == nil || p.Deleted.Bool() {
		return
	}
	lp := l.Products[p.ID]
	if lp == nil {
		lp = liveProduct(p, s)
		l.Products[lp.ID] = lp
		l.byName[lp.Name] = append(l.byName[lp.Name], lp)
	}
	for _, v := range variants {
		l.addVariant(lp, v, s)
	}
	l.addIDs(s)
}

// addIDs records the ids of the tags and pricing tiers of s.
func (l *Live) addIDs(s *api.Sideloads) {
	for id, t := range s.ProductTags {
		if have, ok := l.TagIDs[string(t.Name)]; !ok || have != id {
			l.TagIDs[strings.Clone(string(t.Name))] = clone(id)
		}
	}
	for id, t := range s.PricingTiers {
		if have, ok := l.TierIDs[string(t.Name)]; !ok || have != id {
			l.TierIDs[strings.Clone(string(t.Name))] = clone(id)
		}
	}
}

func (l *Live) addVariant(lp *LiveProduct, v *api.Variant, s *api.Sideloads) {
	if v.Deleted.Bool() {
		return
	}
	for _, have := range lp.Variants {
		if have.ID == v.ID {
			return
		}
	}
	var read LiveVariant
	readVariant(&read, &l.read, v, lp.ID, s)
	lv := read.keep()
	lp.Variants = append(lp.Variants, lv)
	if sku := lv.SKU(); sku != "" {
		l.BySKU[sku] = lv
	}
}

// addVariantPage records the variants of a listing page with their products.
func (l *Live) addVariantPage(pg *api.VariantPage) {
	byProduct := map[api.ID][]*api.Variant{}
	for _, v := range pg.Records {
		byProduct[v.ProductID()] = append(byProduct[v.ProductID()], v)
	}
	for pid, vs := range byProduct {
		p := pg.Sideloads.Products[pid]
		if p == nil {
			p = &api.Product{ID: pid}
		}
		l.addProduct(p, &pg.Sideloads, vs)
	}
}

// addProductPage records products with all their sideloaded variants;
// errVariantsLeftOut if the page left some out.
func (l *Live) addProductPage(pg *api.ProductPage) error {
	for _, p := range pg.Records {
		if _, err := carriedVariants(pg, p); err != nil {
			return err
		}
		l.addProduct(p, &pg.Sideloads, pg.Sideloads.VariantsOf(p))
	}
	return nil
}

// lookupChunk is how many conditions one `or` filter carries: as many as
// one page of wire.MaxPageSize holds, so that a lookup of unique keys
// (SKUs, ids) takes one request.
const lookupChunk = wire.MaxPageSize

// Want says what an import needs to know of the live catalog: its
// products, in the order they are planned, and the ids earlier runs gave
// them, by product key.
type Want struct {
	Products []*catalog.Product
	// Remembered are ids earlier runs gave products, by key; Remember,
	// when set, reads more (from the state), for the products the
	// snapshot needs them for alone: those none of whose SKUs is found in
	// the account (a million-row re-import's 250,000 keys need none).
	Remembered map[string]string
	Remember   func(ctx context.Context, keys []string) (map[string]string, error)
	// ReleaseEqual lets go of the rows' variant data of the products
	// found equal to the account's as soon as the snapshot has found them
	// (catalog.Product.ReleaseData): what an import's plan lets go of
	// anyway (Planner.Keep), before the snapshot's records of them and
	// the plans take their room. A million rows' data is some 40 MB.
	ReleaseEqual bool
	// Marks, when set, are what the last incremental import found of
	// the products (see Marks): those it settles are not read.
	Marks *Marks
	// Sized, when set, is the read of the account's size started ahead
	// (see startSizing), for the products to be looked up.
	Sized *sizing
}

// skus are what the valid products of w with SKUs are looked up by, each
// once, but for those found needing no look-up (by product number: see
// scanFound.lookedUp).
// A million SKUs cost one list of them, which a listing of the whole
// catalog should not hold while it reads (see scan.readNeeded).
func (w Want) skus(found []scanFound) []string {
	n := 0
	for i, p := range w.Products {
		if p.Valid() && found[i].lookedUp() {
			n += len(p.Variants)
		}
	}
	skus := make([]string, 0, n)
	for i, p := range w.Products {
		if !p.Valid() || !found[i].lookedUp() {
			continue
		}
		for i := range p.Variants {
			if s := p.Variants[i].SKU(); s != "" {
				skus = append(skus, s)
			}
		}
	}
	return dedupeOwned(skus)
}

// names are what the valid products of w without SKUs are looked up by:
// their names, each once; but for those found settled by their marks
// (by product number; nil: none are).
func (w Want) names(found []scanFound) []string {
	var names []string
	for i, p := range w.Products {
		if found != nil && found[i].settled {
			continue
		}
		if p.Valid() && p.Name().Set && !slices.ContainsFunc(p.Variants, func(v catalog.Variant) bool { return v.SKU() != "" }) {
			names = append(names, p.Name().S)
		}
	}
	return dedupeOwned(names)
}

// keyless is w with the ids remembered for all its valid products read,
// when none has a SKU or a name to look it up by: those ids are the only
// keys it has.
func (w Want) keyless(ctx context.Context) (Want, error) {
	if w.Remember == nil || (Want{Products: w.Products}).anyKey() {
		return w, nil
	}
	var keys []string
	for _, p := range w.Products {
		if p.Valid() {
			keys = append(keys, p.Key)
		}
	}
	read, err := w.Remember(ctx, keys)
	w.Remembered = joined(w.Remembered, read)
	return w, err
}

// joined is a map of a's entries and b's.
func joined(a, b map[string]string) map[string]string {
	out := make(map[string]string, len(a)+len(b))
	maps.Copy(out, a)
	maps.Copy(out, b)
	return out
}

// anyKey says some valid product of w can be looked up: by a SKU, a name
// (for a product without SKUs), or an id remembered for it (see keys).
func (w Want) anyKey() bool {
	for _, p := range w.Products {
		if !p.Valid() {
			continue
		}
		skus := false
		for i := range p.Variants {
			if s := p.Variants[i].SKU(); s != "" {
				skus = true
				if strings.TrimSpace(s) != "" {
					return true
				}
			}
		}
		if !skus && p.Name().Set && strings.TrimSpace(p.Name().S) != "" {
			return true
		}
		if id, ok := w.Remembered[p.Key]; ok && strings.TrimSpace(id) != "" {
			return true
		}
	}
	return false
}

// FetchLive reads the part of the live catalog an import touches, in
// bounded memory. It looks variants up by SKU and products by name, each
// through `or` filters of lookupChunk conditions, unless reading the whole
// catalog takes fewer requests (see scan.readNeeded), and compares each
// page with the file's products as it comes (see scan): a product whose
// every variant is found equal to the account's keeps its ids alone. A
// page of the Products listing that leaves out variants has the catalog
// read again without that listing. Then it reads in full
// (all its variants, options, prices and tags) each product that differs,
// or that the file may name otherwise: by name, or by an id remembered
// for a product none of whose SKUs were found.
func FetchLive(ctx context.Context, c *api.Client, w Want) (*Live, error) {
	l := newLive()
	w, err := w.keyless(ctx)
	if err != nil || !w.anyKey() {
		return l, err
	}
	// One small read tells how large the whole listing is.
	total, err := w.Sized.total(ctx, c)
	l.Requests++
	if err != nil {
		return nil, err
	}
	l.Total = total
	names := w.names(nil)
	if total == 0 && len(names) == 0 {
		return l, nil
	}
	s := newScan(w, names, l)
	if err = s.settleMarked(ctx, c, total); err == nil {
		err = s.readNeeded(ctx, c, total, true)
	}
	if errors.Is(err, errVariantsLeftOut) { // all again, without the Products listing
		s = newScan(w, names, l.restart())
		if err = s.settleMarked(ctx, c, total); err == nil {
			err = s.readNeeded(ctx, c, total, false)
		}
	}
	if err != nil {
		return nil, err
	}
	return l, s.finish(ctx, c)
}

// FetchProducts reads the products ids in full (every variant, option,
// price and tag), through `or` filters of lookupChunk ids, or the whole
// Variants listing when that takes fewer requests. (The Products listing
// never does: a page of it carries no more products than a lookup.)
func FetchProducts(ctx context.Context, c *api.Client, pids []api.ID) (*Live, error) {
	ids := distinct(pids)
	if len(ids) == 0 {
		return newLive(), nil
	}
	total, err := variantTotal(ctx, c)
	if err != nil {
		return nil, err
	}
	l := newLive()
	if total > 0 {
		if pages(total) <= chunks(len(ids)) {
			l, err = readAllVariants(ctx, c)
		} else {
			l, err = fetchProducts(ctx, c, ids)
		}
		if err != nil {
			return nil, err
		}
	}
	l.Requests++
	l.Total = total
	return l, nil
}

// fetchProducts reads products by id in full: every variant, option, price
// and tag, through `or` filters of lookupChunk ids.
func fetchProducts(ctx context.Context, c *api.Client, ids distinctIDs) (*Live, error) {
	l := newLive()
	for part := range slices.Chunk(ids, lookupChunk) {
		for pg, err := range c.Products.ListPages(ctx, anyOf("id", part)) {
			l.Requests++
			if err == nil {
				err = l.addProductPage(pg)
			}
			if err != nil {
				return nil, fmt.Errorf("reading products: %w", err)
			}
		}
	}
	return l, nil
}

// distinctIDs are ids without blanks and repeats, sorted.
type distinctIDs []string

// distinct is pids as distinctIDs.
func distinct(pids []api.ID) distinctIDs {
	ids := make([]string, len(pids))
	for i, id := range pids {
		ids[i] = string(id)
	}
	return dedupeOwned(ids)
}

// anyOf lists the records whose field has any of values (an `or` of
// equal conditions).
func anyOf(field string, values []string) *api.ListOptions {
	conds := make([]api.Cond, len(values))
	for i, v := range values {
		conds[i] = api.Where(field, "", v)
	}
	return &api.ListOptions{Filter: api.Or(conds...)}
}

// chunks is how many lookups of lookupChunk keys n keys take.
func chunks(n int) int { return (n + lookupChunk - 1) / lookupChunk }

// pages is how many pages of wire.MaxPageSize a listing of n records takes.
func pages(n int) int { return (n + wire.MaxPageSize - 1) / wire.MaxPageSize }

// dedupe returns xs trimmed, without blanks and repeats, sorted; xs is
// left as it is.
func dedupe(xs []string) []string { return dedupeOwned(append([]string{}, xs...)) }

// dedupeOwned is dedupe in place, for a list the caller gives up: a
// million SKUs cost no map.
func dedupeOwned(xs []string) []string {
	out := xs[:0]
	for _, x := range xs {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
