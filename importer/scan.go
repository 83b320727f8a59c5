package importer

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"

	"lading/api"
	"lading/api/wire"
	"lading/catalog"
	"lading/internal/arena"
	"lading/internal/strindex"
	"lading/mapping"
)

// scan compares the live catalog with the file's products as its pages
// come, so that a snapshot of a large account need not hold it whole: a
// variant found by its SKU and equal to the file's (options, fields, tier
// prices, and its product's fields and tags) leaves its id alone; the
// live product of a product of the file with something that differs is
// kept in full from the page of the Products listing that carries it, or
// read again in full at the end (found through look-ups, or in more than
// one live product), for the plan to say what differs field by field.
// Everything is kept by the file's product and variant numbers, in
// arrays: no map holds a million entries.
type scan struct {
	w     Want
	live  *Live
	index *strindex.Index // the SKUs of the file: their variants' numbers
	first []int32         // a product's number: its first variant's
	found []scanFound     // by product number
	// same are, by variant number, the numbers in ids of the ids of the
	// live variants found equal (0: none): the products found equal keep
	// them (Live.sameIDs).
	same []uint32
	// ids holds the ids of the variants found equal, and of the live
	// products the file's were found in.
	ids *idPack
	// files are the ids of the product files of the live products found
	// (few have some), by the file's product number.
	files map[int32][]api.ID
	// full are the live products to read in full.
	full map[api.ID]bool
	// names are the names of the file's products without SKUs: true once
	// a live product of that name is found.
	names map[string]bool
	// kept holds the ids of product files.
	kept arena.Arena
	// next is the number of the file's variant after the one last found:
	// an account that took the file in its order lists its variants in
	// that order, and looking there first spares a look-up in the table.
	next int32
	// hint is the number of the product productOf found last.
	hint int32
	// touched are the numbers of the file's products compared with the
	// variants of the live product productPage reads (see readWhole):
	// room reused from product to product.
	touched []int32
	// carried counts the variants the pages of the Products listing
	// carried: fewer than the account counts, and the listing did not show
	// them all (see readNeeded).
	carried int
	// read is where a live variant is read to be compared.
	read   LiveVariant
	detail liveRead
	// marked are the numbers of the products marks settled, by the id of
	// their live product.
	marked markedIDs
	// hints are, by product number, the live products to read the file's
	// products their marks did not settle as (numbers in ids; see
	// readHinted); dated are those of marks not yet known to be recent.
	hints map[int32]uint32
	dated []datedHint
}

// scanFound is what the scan found of a product of the file: 16 bytes,
// for a LiveProduct is made only of those found equal, at the end.
type scanFound struct {
	// id is the number in scan.ids of the id of the live product its SKUs
	// were first found in (0: none yet).
	id uint32
	// equal counts its variants found equal to the account's.
	equal int32
	// differs says it must be read in full: something of it differs, or
	// its SKUs are in more than one live product.
	differs bool
	// filesKnown and archived are the live product's (LiveProduct's).
	filesKnown, archived bool
	// settled says its mark found it equal (see Marks): the account's
	// listings leave it alone.
	settled bool
	// located says it was read by the id its mark gave it, and every SKU
	// of it found there (see readHinted): its SKUs are not looked up.
	located bool
}

// lookedUp says the product's SKUs are to be looked up: neither its mark
// settled it, nor did a read by its mark's id locate it.
func (f *scanFound) lookedUp() bool { return !f.settled && !f.located }

// allEqual says the live product was found, and equal to p in every variant.
func (f *scanFound) allEqual(p *catalog.Product) bool {
	return f.id != 0 && !f.differs && int(f.equal) == len(p.Variants)
}

func newScan(w Want, names []string, l *Live) *scan {
	first, n := make([]int32, len(w.Products)), 0
	for i, p := range w.Products {
		first[i], n = int32(n), n+len(p.Variants)
	}
	s := &scan{w: w, live: l, first: first, found: make([]scanFound, len(w.Products)),
		same: make([]uint32, n), ids: &idPack{}, files: map[int32][]api.ID{}, full: map[api.ID]bool{}, names: make(map[string]bool, len(names))}
	for _, name := range names {
		s.names[name] = false
	}
	return s
}

// indexSKUs makes the table of the SKUs of the file's valid products to
// compare with the account's, those its marks did not settle.
func (s *scan) indexSKUs() {
	n := 0
	for i, p := range s.w.Products {
		if p.Valid() && !s.found[i].settled {
			n += len(p.Variants)
		}
	}
	s.index = strindex.New(n, s.sku) // s.sku finds a variant's product in s.first
	for i, p := range s.w.Products {
		if !p.Valid() || s.found[i].settled {
			continue
		}
		for j := range p.Variants {
			if p.Variants[j].SKU() != "" {
				s.index.Add(s.first[i] + int32(j))
			}
		}
	}
}

// readNeeded reads what the keys of s.w (its SKUs, and the names of its
// products without SKUs) need of a live catalog of total variants, the
// cheaper way: the whole catalog (the Products listing only if
// byProducts; see planWholeRead), or lookups of the keys. The Variants
// listing does not show products without variants: the names no product
// it showed has are looked up after it, as they are when the account
// holds no variants but has products.
func (s *scan) readNeeded(ctx context.Context, c *api.Client, total int, byProducts bool) error {
	s.indexSKUs()
	names := s.unseen() // all of them, before any read
	if total == 0 {
		n, err := productTotal(ctx, c)
		s.live.Requests++
		if err != nil || n == 0 {
			return err
		}
		return s.lookUpNames(ctx, c, names)
	}
	skus := s.w.skus(s.found) // let go of before the listing: 16 MB a million
	budget := chunks(len(skus)) + chunks(len(names))
	r := readOf(total, 0)
	if byProducts {
		var reads int
		var err error
		r, reads, err = planWholeRead(ctx, c, total, budget)
		if s.live.Requests += reads; err != nil {
			return err
		}
	}
	if r.pages > budget {
		if len(s.hints) > 0 {
			if err := s.readHinted(ctx, c); err != nil {
				return err
			}
			skus = s.w.skus(s.found)
		}
		return s.lookUp(ctx, c, skus, names)
	}
	if err := s.readListing(ctx, c, r); err != nil {
		return err
	}
	if r.perPage > 0 {
		if s.carried < total {
			return fmt.Errorf("%w: %d variants of the %d the account counts", errVariantsLeftOut, s.carried, total)
		}
		return nil
	}
	return s.lookUpNames(ctx, c, s.unseen())
}

// readListing reads the whole catalog as r says, page after page, each
// read into the memory of the one before (the pages' readers copy what
// they keep).
func (s *scan) readListing(ctx context.Context, c *api.Client, r wholeRead) error {
	return eachWholePage(ctx, c, r, true, &s.live.Requests, s.productPage, s.page)
}

// lookUp looks the variants of skus up, and the products named names.
func (s *scan) lookUp(ctx context.Context, c *api.Client, skus, names []string) error {
	if err := s.lookUpSKUs(ctx, c, skus); err != nil {
		return err
	}
	return s.lookUpNames(ctx, c, names)
}

// lookUpSKUs looks the variants of skus up.
func (s *scan) lookUpSKUs(ctx context.Context, c *api.Client, skus []string) error {
	for part := range slices.Chunk(skus, lookupChunk) {
		opts := anyOf("sku", part)
		opts.Reuse = true
		for pg, err := range c.Variants.ListPages(ctx, opts) {
			s.live.Requests++
			if err != nil {
				return fmt.Errorf("looking SKUs up: %w", err)
			}
			s.page(pg)
		}
	}
	return nil
}

// lookUpNames looks the products named names up.
func (s *scan) lookUpNames(ctx context.Context, c *api.Client, names []string) error {
	for part := range slices.Chunk(names, lookupChunk) {
		for pg, err := range c.Products.ListPages(ctx, anyOf("name", part)) {
			s.live.Requests++
			if err != nil {
				return fmt.Errorf("looking products up by name: %w", err)
			}
			for _, p := range pg.Records {
				s.full[clone(p.ID)] = true
			}
		}
	}
	return nil
}

// page compares the variants of a page with the file's. What it keeps of
// the page it copies: the page's memory is the next one's.
func (s *scan) page(pg *api.VariantPage) {
	s.live.addIDs(&pg.Sideloads)
	for _, v := range pg.Records {
		if v.Deleted.Bool() {
			continue
		}
		pid := v.ProductID()
		p := pg.Sideloads.Products[pid]
		if p != nil && p.Deleted.Bool() {
			continue
		}
		if p != nil {
			s.named(p)
		}
		s.variant(v, pid, p, &pg.Sideloads)
	}
}

// productPage is page for a page of the Products listing: its products,
// each with its variants; errVariantsLeftOut if it left some out. A live
// product the plan is to read in full (one a product of the file was
// found differing from) is kept from the page, all its variants with it:
// it is not read again.
func (s *scan) productPage(pg *api.ProductPage) error {
	s.live.addIDs(&pg.Sideloads)
	for _, p := range pg.Records {
		if p.Deleted.Bool() {
			continue
		}
		links, err := carriedVariants(pg, p)
		if err != nil {
			return err
		}
		s.named(p)
		s.carried += len(links)
		s.touched = s.touched[:0]
		for _, link := range links {
			i := s.variant(pg.Sideloads.Variants[link.ID], p.ID, p, &pg.Sideloads)
			if n := len(s.touched); i >= 0 && (n == 0 || s.touched[n-1] != i) {
				s.touched = append(s.touched, i)
			}
		}
		if s.readWhole(p.ID) {
			s.live.addProduct(p, &pg.Sideloads, pg.Sideloads.VariantsOf(p))
		}
	}
	return nil
}

// readWhole says live product pid, whose variants the file's products
// touched were just compared with, is to be read in full: a product of
// the file found in it differs, or it is wanted whole already.
func (s *scan) readWhole(pid api.ID) bool {
	if s.full[pid] {
		return true
	}
	for _, i := range s.touched {
		if f := &s.found[i]; f.differs && !f.settled && s.ids.is(f.id, pid) {
			return true
		}
	}
	return false
}

// named notes live product p for a full read if the file has a product
// without SKUs of its name.
func (s *scan) named(p *api.Product) {
	seen, ok := s.names[string(p.Name)]
	if !ok {
		return
	}
	if !seen { // a copy: the map keeps the key it is given, and p's is the page's memory
		s.names[strings.Clone(string(p.Name))] = true
	}
	s.full[clone(p.ID)] = true
}

// unseen are the names of the file's products without SKUs no live
// product was found with.
func (s *scan) unseen() []string {
	var out []string
	for name, seen := range s.names {
		if !seen {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// variant compares live variant v, of product pid (p, nil when not
// sideloaded), with the file's variant of its SKU, if any, and returns
// the number of that variant's product (-1: none).
func (s *scan) variant(v *api.Variant, pid api.ID, p *api.Product, sl *api.Sideloads) int32 {
	if v.Deleted.Bool() || v.SKU == "" {
		return -1
	}
	k := s.find(string(v.SKU))
	if k < 0 {
		return -1
	}
	i := s.productOf(k)
	s.compare(k, i, v, pid, p, sl)
	return i
}

// compare compares live variant v, of product pid (p, nil when not
// sideloaded), with the file's variant number k, of product i.
func (s *scan) compare(k, i int32, v *api.Variant, pid api.ID, p *api.Product, sl *api.Sideloads) {
	f, fp := &s.found[i], s.w.Products[i]
	switch {
	case f.settled:
		return
	case f.id == 0:
		f.id = s.ids.add(pid)
		if p == nil || !updatesOnly(fp) {
			f.differs = true
			break
		}
		f.filesKnown, f.archived = p.Links != nil, p.Archived.Bool()
		for _, id := range p.Links.IDs(wire.ProductFiles) {
			s.files[i] = append(s.files[i], api.ID(s.kept.Clone(string(id))))
		}
		read := LiveText{Name: string(p.Name), Description: string(p.Description), Notes: string(p.Notes), Tags: sl.Tags(p)}
		if changes, _ := productChanges(fp, &read); len(changes) > 0 {
			f.differs = true
		}
	case !s.ids.is(f.id, pid):
		f.differs = true
		s.full[clone(pid)] = true
	}
	if f.differs || s.same[k] != 0 {
		// A SKU found twice is left to the plan, which reads it in full.
		f.differs = true
		return
	}
	readVariant(&s.read, &s.detail, v, pid, sl)
	if differ, changes, _ := compareVariant(fp, &fp.Variants[k-s.first[i]], &s.read, nil); differ != "" || len(changes) > 0 {
		f.differs = true
		return
	}
	s.same[k] = s.ids.add(v.ID)
	f.equal++
}

// updatesOnly says p's rows create, update or leave its product and
// variants, which a product found equal to the account's leaves as they
// are: they neither archive nor delete (planned against the whole
// product), nor skip it.
func updatesOnly(p *catalog.Product) bool {
	switch p.Command() {
	case mapping.CommandSkip, mapping.CommandArchive, mapping.CommandDelete:
		return false
	}
	for i := range p.Variants {
		if p.Variants[i].Delete() {
			return false
		}
	}
	return true
}

// finish reads in full the live products the plan needs whole: those of
// the file's products that differ, and those remembered for products none
// of whose SKUs were found; it gives the products found equal their ids.
func (s *scan) finish(ctx context.Context, c *api.Client) error {
	l := s.live
	// What found the file's variants is done with: 10 bytes a variant;
	// and the last variant read, which holds parts of the last page read
	// (with the Products listing, a megabyte and more).
	s.index = nil
	s.read, s.detail = LiveVariant{}, liveRead{}
	if err := s.remember(ctx); err != nil {
		return err
	}
	s.releaseEqual()
	var slab []LiveProduct // the products found equal, in one allocation
	same := &sameIDs{refs: s.same, ids: s.ids}
	for i, p := range s.w.Products {
		f := &s.found[i]
		switch {
		case f.id == 0:
			if id, ok := l.Remembered[p.Key]; ok {
				s.full[api.ID(id)] = true
			}
		case f.allEqual(p):
			if l.same == nil {
				l.wanted, l.same = s.w.Products, make([]*LiveProduct, len(s.w.Products))
				slab = make([]LiveProduct, s.countSame(i))
			}
			lp := &slab[0]
			slab = slab[1:]
			*lp = LiveProduct{ID: s.ids.at(f.id), FileIDs: s.files[int32(i)], FilesKnown: f.filesKnown, Archived: f.archived, first: s.first[i], same: same}
			l.same[i] = lp
		default:
			s.full[s.ids.at(f.id)] = true
		}
	}
	ids := make([]api.ID, 0, len(s.full))
	for id := range s.full {
		if l.Products[id] == nil { // not read in full by its id already (readHinted)
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	got, err := fetchProducts(ctx, c, distinct(ids))
	if err != nil {
		return err
	}
	l.merge(got)
	return nil
}

// releaseEqual lets go of the rows' variant data of the products found
// equal, when s.w.ReleaseEqual, a part of them on each core.
func (s *scan) releaseEqual() {
	if !s.w.ReleaseEqual {
		return
	}
	s.w.Marks.summedAll()
	var wg sync.WaitGroup
	part := (len(s.w.Products) + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0)
	for start := 0; start < len(s.w.Products); start += part {
		wg.Go(func() {
			var skus arena.Arena // their SKUs, copied out of their data's chunks
			for i := start; i < min(start+part, len(s.w.Products)); i++ {
				if p := s.w.Products[i]; s.found[i].allEqual(p) {
					p.ReleaseData(&skus)
				}
			}
		})
	}
	wg.Wait()
}

// merge adds the products got read to l's.
func (l *Live) merge(got *Live) {
	maps.Copy(l.Products, got.Products)
	maps.Copy(l.BySKU, got.BySKU)
	for name, lps := range got.byName {
		l.byName[name] = append(l.byName[name], lps...)
	}
	maps.Copy(l.TagIDs, got.TagIDs)
	maps.Copy(l.TierIDs, got.TierIDs)
	l.Requests += got.Requests
}

// remember gives the live snapshot the ids remembered for the file's
// valid products none of whose SKUs was found: w.Remembered's, and those
// w.Remember reads.
func (s *scan) remember(ctx context.Context) error {
	var keys []string
	for i, p := range s.w.Products {
		if s.found[i].id == 0 && p.Valid() {
			keys = append(keys, p.Key)
		}
	}
	ids := map[string]string{}
	if s.w.Remember != nil && len(keys) > 0 {
		var err error
		if ids, err = s.w.Remember(ctx, keys); err != nil {
			return err
		}
	}
	s.live.Remembered = make(map[string]string, len(ids))
	for _, k := range keys {
		if id, ok := s.w.Remembered[k]; ok {
			s.live.Remembered[k] = id
		} else if id, ok := ids[k]; ok {
			s.live.Remembered[k] = id
		}
	}
	return nil
}

// countSame counts the file's products from number i on found equal.
func (s *scan) countSame(i int) int {
	n := 0
	for j, p := range s.w.Products[i:] {
		if s.found[i+j].allEqual(p) {
			n++
		}
	}
	return n
}

// sameIDs are the ids of the live variants found equal to the file's,
// by the number of the file's variant.
type sameIDs struct {
	refs []uint32 // numbers in ids; 0: not found equal
	ids  *idPack
}

// sameProduct is the live product of p, product number i of the products
// the snapshot was read for, when the snapshot found it equal to the
// file's (its variants' ids are its sameVariant's); else nil.
func (l *Live) sameProduct(i int, p *catalog.Product) *LiveProduct {
	if i >= len(l.same) || l.wanted[i] != p {
		return nil
	}
	return l.same[i]
}

// sameVariant is the id of the live variant found equal to the file's
// variant j, when the snapshot found lp equal to the file's product
// (sameProduct); made in a when a is not nil (idPack.atIn).
func (lp *LiveProduct) sameVariant(j int, a *arena.Arena) (api.ID, bool) {
	if lp.same == nil {
		return "", false
	}
	return lp.same.ids.atIn(lp.same.refs[int(lp.first)+j], a), true
}

// clone copies an id out of the answer it was read from.
func clone(id api.ID) api.ID { return api.ID(strings.Clone(string(id))) }

// find is the number of the file's variant with sku, -1 if none: the one
// after the last found, if it has it, else the table's.
func (s *scan) find(sku string) int32 {
	k := s.next
	if int(k) >= len(s.same) || !s.holds(k, sku) {
		if k = s.index.Find(sku); k < 0 {
			return -1
		}
	}
	s.next = k + 1
	return k
}

// sku is the SKU of the file's variant number k.
func (s *scan) sku(k int32) string {
	_, v := s.variantAt(k)
	return v.SKU()
}

// holds says the file's variant number k has sku, and its product is
// valid: the variants the table holds.
func (s *scan) holds(k int32, sku string) bool {
	p, v := s.variantAt(k)
	return v.SKU() == sku && p.Valid()
}

// variantAt is the file's variant number k and its product.
func (s *scan) variantAt(k int32) (*catalog.Product, *catalog.Variant) {
	i := s.productOf(k)
	p := s.w.Products[i]
	return p, &p.Variants[k-s.first[i]]
}

// productOf is the number of the file's product of its variant number k:
// the product found last, or its next, as the account's listing mostly
// follows the file; else the last product whose first variant is k or
// before it (s.first is in order; a product of no variants has none).
func (s *scan) productOf(k int32) int32 {
	for i := s.hint; i < s.hint+2 && int(i) < len(s.first); i++ {
		if s.first[i] <= k && (int(i)+1 == len(s.first) || k < s.first[i+1]) {
			s.hint = i
			return i
		}
	}
	i, _ := slices.BinarySearch(s.first, k+1) // the first product past k
	s.hint = int32(i) - 1
	return s.hint
}
