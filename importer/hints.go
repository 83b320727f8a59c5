package importer

import (
	"context"
	"errors"
	"iter"
	"slices"

	"lading/api"
)

// A product of the file its mark did not settle (its rows changed since,
// or its live product did) is read by the id its mark gave it, where
// looking its SKUs up would take four reads for each it takes (a product
// of four variants): one read of 250 products by id, compared as they
// come, keeps in full those that differ. The read is taken for where the
// product's SKUs are when it finds every one of them in the product; a
// SKU not there, on another product or in none, has the product looked
// up as any is. A SKU on the product is on no other: the variants changed
// in the account since the marks' day (readChanges) would show one given
// another product since, and hints whose mark is older than that day are
// not taken.

// datedHint is the live product a mark that did not settle product i
// gave it (its number in scan.ids), and the mark's day.
type datedHint struct {
	i   int32
	id  uint32
	day uint64
}

// takeHints keeps the hints of marks from day earliest on (those whose
// changes readChanges reads).
func (s *scan) takeHints(earliest uint64) {
	s.hints = make(map[int32]uint32, len(s.dated))
	for _, h := range s.dated {
		if h.day >= earliest {
			s.hints[h.i] = h.id
		}
	}
	s.dated = nil
}

// readHinted reads the hinted products by their ids and compares them
// with the file's (see hintedPage); the file's products every SKU of
// which is in its own need no look-up (scanFound.located), the others
// are left to be looked up.
func (s *scan) readHinted(ctx context.Context, c *api.Client) error {
	if len(s.hints) == 0 {
		return nil
	}
	byID := make(map[api.ID]int32, len(s.hints))
	for i, n := range s.hints {
		byID[s.ids.at(n)] = i
	}
	defer func() { s.hints = nil }()
	for part := range s.hintReads(byID) {
		opts := anyOf("id", part)
		opts.Reuse = true
		err := eachPage(c.Products.ListPages(ctx, opts), &s.live.Requests, func(pg *api.ProductPage) error { return s.hintedPage(pg, byID) })
		if err != nil && !errors.Is(err, errVariantsLeftOut) { // left out: the products' SKUs are looked up
			return err
		}
	}
	for i := range s.hints {
		if s.located(i) {
			s.found[i].located = true
		} else {
			s.forget(i)
		}
	}
	return nil
}

// hintVariants is about how many variants a read by ids brings at most:
// as many as the four look-ups of SKUs it spares for products of four.
const hintVariants = 4 * lookupChunk

// hintReads are the ids of byID in sorted parts, each of at most
// lookupChunk products and about hintVariants variants (the file's).
func (s *scan) hintReads(byID map[api.ID]int32) iter.Seq[[]string] {
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, string(id))
	}
	slices.Sort(ids)
	return func(yield func([]string) bool) {
		start, variants := 0, 0
		for k, id := range ids {
			n := len(s.w.Products[byID[api.ID(id)]].Variants)
			if k > start && (k-start == lookupChunk || variants+n > hintVariants) {
				if !yield(ids[start:k]) {
					return
				}
				start, variants = k, 0
			}
			variants += n
		}
		if start < len(ids) {
			yield(ids[start:])
		}
	}
}

// hintedPage compares the products of a page read by their ids with the
// file's products their hints name (only by those products' SKUs: a SKU
// of another file's product is looked up as any), and keeps in full those
// that differ; errVariantsLeftOut if the page left out variants of one.
func (s *scan) hintedPage(pg *api.ProductPage, byID map[api.ID]int32) error {
	s.live.addIDs(&pg.Sideloads)
	for _, p := range pg.Records {
		i, ok := byID[p.ID]
		if !ok || p.Deleted.Bool() {
			continue
		}
		links, err := carriedVariants(pg, p)
		if err != nil {
			return err
		}
		for _, link := range links {
			v := pg.Sideloads.Variants[link.ID]
			if v.Deleted.Bool() || v.SKU == "" {
				continue
			}
			if k := s.find(string(v.SKU)); k >= 0 && s.productOf(k) == i {
				s.compare(k, i, v, p.ID, p, &pg.Sideloads)
			}
		}
		if !s.found[i].allEqual(s.w.Products[i]) {
			s.live.addProduct(p, &pg.Sideloads, pg.Sideloads.VariantsOf(p))
		}
	}
	return nil
}

// located says the read by id found every SKU of the file's product i in
// the live product it was read as: equal, or kept in full.
func (s *scan) located(i int32) bool {
	f, p := &s.found[i], s.w.Products[i]
	switch {
	case f.id == 0:
		return false
	case f.allEqual(p):
		return true
	}
	id := s.ids.at(f.id)
	if s.live.Products[id] == nil {
		return false
	}
	for j := range p.Variants {
		sku := p.Variants[j].SKU()
		if lv := s.live.BySKU[sku]; sku != "" && (lv == nil || lv.ProductID() != id) {
			return false
		}
	}
	return true
}
