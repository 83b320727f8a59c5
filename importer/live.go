package importer

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"lading/api"
	"lading/api/wire"
)

// LiveVariant is a variant as the service has it, reduced to what an import
// compares. A snapshot of a large account holds a million of them, so it
// is kept flat: no maps.
type LiveVariant struct {
	ID        api.ID
	ProductID api.ID
	SKU       string
	// fields holds the writable scalar fields, in the order of
	// wire.VariantWriteFields.
	fields  [numVariantFields]string
	Options []LiveOption
	// Prices are its prices, by pricing tier name.
	Prices []LivePrice
}

// numVariantFields is len(wire.VariantWriteFields) (a test checks it).
const numVariantFields = 9

// LiveOption is one of a live variant's options.
type LiveOption struct{ Attribute, Value string }

// LivePrice is a live variant's price in one pricing tier.
type LivePrice struct{ Tier, Value string }

// Field returns the value of the writable field name ("" if unknown).
func (lv *LiveVariant) Field(name string) string {
	if i := slices.Index(wire.VariantWriteFields, name); i >= 0 {
		return lv.fields[i]
	}
	return ""
}

// Price returns the variant's price in tier, and whether it has one.
func (lv *LiveVariant) Price(tier string) (string, bool) {
	for _, p := range lv.Prices {
		if p.Tier == tier {
			return p.Value, true
		}
	}
	return "", false
}

// LiveProduct is a product as the service has it.
type LiveProduct struct {
	ID          api.ID
	Name        string
	Description string
	Notes       string
	Tags        []string // sorted
	Archived    bool
	Variants    []*LiveVariant
	// FileIDs are the ids of its product files, when FilesKnown: the
	// record read had links [A.3] (a stub made for a variant whose product
	// was not sideloaded has none).
	FileIDs    []api.ID
	FilesKnown bool
}

// Live is a snapshot of the part of the live catalog an import touches.
type Live struct {
	Products map[api.ID]*LiveProduct
	BySKU    map[string]*LiveVariant
	byName   map[string][]*LiveProduct
	// TierIDs and TagIDs map names to ids of tiers and tags seen.
	TierIDs map[string]api.ID
	TagIDs  map[string]api.ID
	// Requests is the number of reads the snapshot took.
	Requests int
	// Total is how many variants the account holds, -1 when the snapshot
	// did not need to know.
	Total int
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

// addProduct records p and those of its variants the sideloads carry.
func (l *Live) addProduct(p *api.Product, s *api.Sideloads, variants []*api.Variant) {
	if p == nil || p.Deleted.Bool() {
		return
	}
	lp := l.Products[p.ID]
	if lp == nil {
		lp = &LiveProduct{ID: p.ID, Name: string(p.Name), Description: string(p.Description),
			Notes: string(p.Notes), Tags: s.Tags(p), Archived: p.Archived.Bool(),
			FileIDs: p.Links.IDs(wire.ProductFiles), FilesKnown: p.Links != nil}
		l.Products[p.ID] = lp
		l.byName[lp.Name] = append(l.byName[lp.Name], lp)
	}
	for _, v := range variants {
		l.addVariant(lp, v, s)
	}
	for id, t := range s.ProductTags {
		l.TagIDs[string(t.Name)] = id
	}
	for id, t := range s.PricingTiers {
		l.TierIDs[string(t.Name)] = id
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
	lv := &LiveVariant{ID: v.ID, ProductID: lp.ID, SKU: string(v.SKU), fields: variantFields(v)}
	for name, p := range s.Prices(v) {
		lv.Prices = append(lv.Prices, LivePrice{Tier: name, Value: string(p)})
	}
	for _, o := range s.Options(v) {
		lv.Options = append(lv.Options, LiveOption{Attribute: o.Attribute, Value: o.Value})
	}
	lp.Variants = append(lp.Variants, lv)
	if lv.SKU != "" {
		l.BySKU[lv.SKU] = lv
	}
}

// addVariantPage records the variants of a listing page with their products.
func (l *Live) addVariantPage(pg *api.VariantPage) {
	byProduct := map[api.ID][]*api.Variant{}
	for _, v := range pg.Variants {
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

// addProductPage records products with all their sideloaded variants.
func (l *Live) addProductPage(pg *api.ProductPage) {
	for _, p := range pg.Products {
		l.addProduct(p, &pg.Sideloads, pg.Sideloads.VariantsOf(p))
	}
}

// lookupChunk is how many conditions one `or` filter carries: as many as
// one page of wire.MaxPageSize holds, so that a lookup of unique keys
// (SKUs, ids) takes one request.
const lookupChunk = wire.MaxPageSize

// Want says what an import needs to know of the live catalog.
type Want struct {
	SKUs       []string
	Names      []string
	ProductIDs []api.ID // remembered from earlier runs
}

// FetchLive reads the part of the live catalog an import touches. It looks
// variants up by SKU and products by name and remembered id, each through
// `or` filters of lookupChunk conditions, unless reading the whole variant
// listing takes fewer requests; then it reads every product found in full
// (all its variants, options, prices and tags).
func FetchLive(ctx context.Context, c *api.Client, w Want) (*Live, error) {
	l := newLive()
	lookups := chunks(len(w.SKUs)) + chunks(len(w.Names)) + chunks(len(w.ProductIDs))
	if lookups == 0 {
		return l, nil
	}
	// One small read tells how large the whole listing is.
	total, err := variantTotal(ctx, c)
	l.Requests++
	if err != nil {
		return nil, err
	}
	l.Total = total
	if total == 0 {
		return l, nil
	}
	if pages(total) <= lookups {
		all, err := readAllVariants(ctx, c)
		if err != nil {
			return nil, err
		}
		all.Requests += l.Requests
		all.Total = total
		return all, nil
	}

	// Lookups: find the products concerned, then read them in full.
	pids := map[api.ID]bool{}
	for _, id := range w.ProductIDs {
		pids[id] = true
	}
	for part := range slices.Chunk(dedupe(w.SKUs), lookupChunk) {
		conds := make([]api.Cond, len(part))
		for i, s := range part {
			conds[i] = api.Where("sku", "", s)
		}
		for pg, err := range c.Variants.ListPages(ctx, &api.ListOptions{Filter: api.Or(conds...)}) {
			l.Requests++
			if err != nil {
				return nil, fmt.Errorf("looking SKUs up: %w", err)
			}
			for _, v := range pg.Variants {
				pids[v.ProductID()] = true
			}
		}
	}
	for part := range slices.Chunk(dedupe(w.Names), lookupChunk) {
		conds := make([]api.Cond, len(part))
		for i, s := range part {
			conds[i] = api.Where("name", "", s)
		}
		for pg, err := range c.Products.ListPages(ctx, &api.ListOptions{Filter: api.Or(conds...)}) {
			l.Requests++
			if err != nil {
				return nil, fmt.Errorf("looking products up by name: %w", err)
			}
			for _, p := range pg.Products {
				pids[p.ID] = true
			}
		}
	}
	ids := make([]api.ID, 0, len(pids))
	for id := range pids {
		if id != "" {
			ids = append(ids, id)
		}
	}
	got, err := fetchProducts(ctx, c, ids)
	if err != nil {
		return nil, err
	}
	got.Requests += l.Requests
	got.Total = total
	return got, nil
}

// readAllVariants reads the whole Variants listing with its products.
func readAllVariants(ctx context.Context, c *api.Client) (*Live, error) {
	l := newLive()
	for pg, err := range c.Variants.ListPages(ctx, &api.ListOptions{PageSize: wire.MaxPageSize}) {
		l.Requests++
		if err != nil {
			return nil, fmt.Errorf("reading the live catalog: %w", err)
		}
		l.addVariantPage(pg)
	}
	return l, nil
}

// fetchProducts reads products by id in full: every variant, option, price
// and tag, through `or` filters of lookupChunk ids.
func fetchProducts(ctx context.Context, c *api.Client, pids []api.ID) (*Live, error) {
	l := newLive()
	ids := make([]string, len(pids))
	for i, id := range pids {
		ids[i] = string(id)
	}
	for part := range slices.Chunk(dedupe(ids), lookupChunk) {
		conds := make([]api.Cond, len(part))
		for i, s := range part {
			conds[i] = api.Where("id", "", s)
		}
		for pg, err := range c.Products.ListPages(ctx, &api.ListOptions{Filter: api.Or(conds...)}) {
			l.Requests++
			if err != nil {
				return nil, fmt.Errorf("reading products: %w", err)
			}
			l.addProductPage(pg)
		}
	}
	return l, nil
}

func variantTotal(ctx context.Context, c *api.Client) (int, error) {
	for pg, err := range c.Variants.ListPages(ctx, &api.ListOptions{PageSize: 1, MaxPages: 1}) {
		if err != nil {
			return 0, fmt.Errorf("reading the size of the live catalog: %w", err)
		}
		return pg.Meta.Total, nil
	}
	return 0, nil
}

// chunks is how many lookups of lookupChunk keys n keys take.
func chunks(n int) int { return (n + lookupChunk - 1) / lookupChunk }

// pages is how many pages of wire.MaxPageSize a listing of n records takes.
func pages(n int) int { return (n + wire.MaxPageSize - 1) / wire.MaxPageSize }

func dedupe(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		x = strings.TrimSpace(x)
		if x != "" && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}
