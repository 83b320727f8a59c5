package importer

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"iter"
	"slices"
	"strings"

	"lading/api"
	"lading/api/wire"
	"lading/catalog"
)

// settleMarked takes the file's products whose marks hold their content
// for equal to the account's (see Marks), then reads what changed in the
// account since the earliest of those marks, and leaves the products the
// changes touch to be compared as any are. It gives every mark up when
// the account changed in a way its listings do not show.
func (s *scan) settleMarked(ctx context.Context, c *api.Client, total int) error {
	m := s.w.Marks
	if m == nil {
		return nil
	}
	earliest, err := s.loadMarks(ctx, m)
	var why string
	switch {
	case err != nil: // a cache: the whole file is compared, and the marks written again
		why = fmt.Sprintf("the marks of the last incremental import could not be read (%v)", err)
	case m.Settled == 0:
		s.dated = nil
		return nil
	default:
		s.takeHints(earliest)
		if why, err = s.readChanges(ctx, c, m, earliest, total); err != nil {
			return err
		}
	}
	if why != "" {
		for i := range s.found {
			s.unsettle(int32(i))
		}
		s.hints, s.dated = nil, nil
		m.GaveUp = why
	}
	// The names of settled products without SKUs are not looked up.
	s.names = make(map[string]bool)
	for _, name := range s.w.names(s.found) {
		s.names[name] = false
	}
	return nil
}

// loadMarks settles the products whose marks hold their content, keeps
// the marks of products not in the file, and returns the day of the
// earliest mark taken. The marks come in the order the last import wrote
// them, the file's: each is looked for at the file's next products
// before it is looked up by its key.
func (s *scan) loadMarks(ctx context.Context, m *Marks) (earliest uint64, err error) {
	m.Settled, m.settledFiles, m.Since, m.GaveUp, m.kept, m.loaded = 0, 0, "", "", nil, true
	s.marked = markedIDs{numbers: make([]markedID, 0, len(s.w.Products))} // a mark a product at most
	next := 0
	var byKey map[string]int32
	err = m.db.EachEntry(ctx, m.scope, func(k, v []byte) {
		i := -1
		for j := next; j < min(next+markLookAhead, len(s.w.Products)); j++ {
			if s.w.Products[j].Key == string(k) {
				i, next = j, j+1
				break
			}
		}
		if i < 0 {
			if byKey == nil {
				byKey = keysOf(s.w.Products)
			}
			j, ok := byKey[string(k)]
			if !ok {
				m.kept = append(m.kept, [2][]byte{bytes.Clone(k), bytes.Clone(v)})
				return
			}
			i = int(j)
		}
		if day, ok := s.settleByMark(int32(i), v); ok && (earliest == 0 || day < earliest) {
			earliest = day
		}
	})
	s.marked.sort()
	return earliest, err
}

// markLookAhead is how many of the file's next products a mark is looked
// for at before it is looked up by its key.
const markLookAhead = 8

// keysOf are the numbers of products by their keys.
func keysOf(products []*catalog.Product) map[string]int32 {
	byKey := make(map[string]int32, len(products))
	for i, p := range products {
		byKey[p.Key] = int32(i)
	}
	return byKey
}

// settleByMark settles product i by its mark v, when v is a mark of its
// content of a day from dayZero to today, and returns the mark's day.
func (s *scan) settleByMark(i int32, v []byte) (day uint64, ok bool) {
	m := s.w.Marks
	sum := m.sum(i)
	if sum == (contentSum{}) {
		return 0, false
	}
	mk, ok := parseMark(v)
	if !ok || mk.day > dayNumber(m.day) {
		return 0, false
	}
	if !bytes.Equal(mk.sum, sum[:]) || !s.settle(i, mk) {
		s.dated = append(s.dated, datedHint{i: i, id: s.ids.addPacked(mk.product), day: mk.day})
		return 0, false
	}
	return mk.day, true
}

// settle takes product i for equal to the account's product and variants
// its mark names, false when the mark does not name as many variants as
// the product has.
func (s *scan) settle(i int32, mk mark) bool {
	if mk.nVariants != len(s.w.Products[i].Variants) {
		return false
	}
	s.found[i] = scanFound{id: s.ids.addPacked(mk.product), equal: int32(mk.nVariants), settled: true,
		archived: mk.flags&markArchived != 0, filesKnown: mk.flags&markFilesKnown != 0}
	k := s.first[i]
	eachPackedID(mk.variants, func(raw []byte) {
		s.same[k] = s.ids.addPacked(raw)
		k++
	})
	if mk.nFiles > 0 {
		files := make([]api.ID, 0, mk.nFiles)
		eachPackedID(mk.files, func(raw []byte) {
			files = append(files, s.ids.at(s.ids.addPacked(raw)))
		})
		s.files[i] = files
	}
	s.marked.add(mk.product, i)
	s.w.Marks.Settled++
	s.w.Marks.settledFiles += mk.nFiles
	return true
}

// markedIDs are the numbers of the products marks settled, by the id of
// their live product: decimal ids sorted by number (12 bytes a product,
// where a map would take some 40), others in a map.
type markedIDs struct {
	numbers []markedID
	others  map[string]int32
}

type markedID struct {
	id uint64
	i  int32
}

// add notes product i settled under the id packed as raw.
func (ms *markedIDs) add(raw []byte, i int32) {
	if x, ok := decimalOf(raw); ok {
		ms.numbers = append(ms.numbers, markedID{x, i})
		return
	}
	if ms.others == nil {
		ms.others = map[string]int32{}
	}
	_, n := binary.Uvarint(raw)
	ms.others[string(raw[n:])] = i
}

func (ms *markedIDs) sort() {
	slices.SortFunc(ms.numbers, func(a, b markedID) int { return cmp.Compare(a.id, b.id) })
}

// find is the number of the product settled under id, -1 if none.
func (ms *markedIDs) find(id api.ID) int32 {
	if x, ok := decimalID(id); ok {
		if k, found := slices.BinarySearchFunc(ms.numbers, x, func(m markedID, x uint64) int { return cmp.Compare(m.id, x) }); found {
			return ms.numbers[k].i
		}
		return -1
	}
	if i, ok := ms.others[string(id)]; ok {
		return i
	}
	return -1
}

// unsettle leaves product i, if its mark settled it, to be compared with
// the account's as any is.
func (s *scan) unsettle(i int32) {
	f := &s.found[i]
	if !f.settled {
		return
	}
	if s.hints != nil { // the day of a mark that settled is the earliest or later
		s.hints[i] = f.id
	}
	s.w.Marks.settledFiles -= len(s.files[i])
	s.forget(i)
	s.w.Marks.Settled--
}

// forget forgets what was found of product i.
func (s *scan) forget(i int32) {
	s.found[i] = scanFound{}
	for j := range s.w.Products[i].Variants {
		s.same[s.first[i]+int32(j)] = 0
	}
	delete(s.files, i)
}

// readChanges reads what changed in the account since the day before
// earliest and unsettles the products it touches; why says why every
// mark must be given up ("" when none need be). The variants come first:
// when most changed, the rest is not read.
func (s *scan) readChanges(ctx context.Context, c *api.Client, m *Marks, earliest uint64, total int) (why string, err error) {
	why, reads, err := m.olderChanged(ctx, c, total)
	if s.live.Requests += reads; err != nil || why != "" {
		return why, err
	}
	from := dayZero.AddDate(0, 0, int(earliest)-1) // a day early, for the service's time zone
	m.Since = date(from)
	changed := api.And(api.Where(wire.UpdatedAt, ">=", from))
	changes := []func(context.Context, *api.Client, *api.Filter, int) (string, error){
		s.readChangedVariants, s.readChangedProducts, s.renamedTags,
	}
	if m.files {
		changes = append(changes, s.readChangedFiles)
	}
	for _, read := range changes {
		if why, err := read(ctx, c, changed, total); err != nil || why != "" {
			return why, err
		}
	}
	return "", nil
}

// readChangedProducts unsettles the products changed since; why is set
// when more than half of those the marks settled changed.
func (s *scan) readChangedProducts(ctx context.Context, c *api.Client, changed *api.Filter, _ int) (why string, err error) {
	return changedPages(s, c.Products.ListPages(ctx, &api.ListOptions{Filter: changed, Reuse: true}), "products", s.w.Marks.Settled,
		func(pg *api.ProductPage) {
			for _, p := range pg.Records {
				s.unsettleProduct(p.ID)
			}
		})
}

// readChangedFiles unsettles the products of the product files changed
// (or made) since; why is set when they are more than half as many as
// the files of the products marked.
func (s *scan) readChangedFiles(ctx context.Context, c *api.Client, changed *api.Filter, _ int) (why string, err error) {
	return changedPages(s, c.ProductFiles.ListPages(ctx, &api.ListOptions{Filter: changed, Reuse: true}), "product files", s.w.Marks.settledFiles,
		func(pg *api.ProductFilePage) {
			for _, f := range pg.Records {
				for _, p := range f.Links.Of(wire.Products) {
					s.unsettleProduct(p.ID)
				}
			}
		})
}

// readChangedVariants unsettles the products of the variants changed
// since, and the file's products with their SKUs; why is set when more
// than half the account's variants changed (a whole comparison reads
// fewer pages).
func (s *scan) readChangedVariants(ctx context.Context, c *api.Client, changed *api.Filter, total int) (why string, err error) {
	skus := map[string]api.ID{} // "": on more than one product
	why, err = changedPages(s, c.Variants.ListPages(ctx, &api.ListOptions{Filter: changed, Reuse: true}), "variants", total,
		func(pg *api.VariantPage) {
			for _, v := range pg.Records {
				pid := v.ProductID()
				s.unsettleProduct(pid)
				if v.SKU == "" {
					continue
				}
				if had, ok := skus[string(v.SKU)]; ok && had != pid {
					pid = ""
				}
				skus[strings.Clone(string(v.SKU))] = clone(pid) // the page's memory is the next one's
			}
		})
	if why == "" && err == nil {
		s.unsettleSKUs(skus)
	}
	return why, err
}

// changedPages gives each page of a listing of the records changed since
// to each, counting the reads; why is set, and no more is read, when more
// than half of limit (what of the account or of the marks they are
// compared with) changed.
func changedPages[P interface{ Total() int }](s *scan, pages iter.Seq2[P, error], what string, limit int, each func(P)) (why string, err error) {
	for pg, err := range pages {
		if s.live.Requests++; err != nil {
			return "", fmt.Errorf("reading the %s changed in the account: %w", what, err)
		}
		if n := pg.Total(); 2*n > limit {
			return fmt.Sprintf("%d %s were changed in the account since %s, more than half of %d", n, what, s.w.Marks.Since, limit), nil
		}
		each(pg)
	}
	return "", nil
}

// renamedTags says why the tags changed since must give the marks up (a
// tag renamed: one whose updated_at is not its created_at).
func (s *scan) renamedTags(ctx context.Context, c *api.Client, changed *api.Filter, _ int) (why string, err error) {
	for pg, err := range c.ProductTags.ListPages(ctx, &api.ListOptions{Filter: changed, Reuse: true}) {
		if s.live.Requests++; err != nil {
			return "", fmt.Errorf("reading the tags changed in the account: %w", err)
		}
		for _, t := range pg.Records {
			if t.UpdatedAt != t.CreatedAt {
				return fmt.Sprintf("the tag %q was changed in the account since %s, which changes none of its products' records", t.Name, s.w.Marks.Since), nil
			}
		}
	}
	return "", nil
}

// unsettleSKUs unsettles the file's products with any of skus (the
// products of variants changed in the account, by SKU): a SKU changed in
// the account may now be another product's. A product's hint is not taken
// when one of its SKUs changed on another product than the hint's.
func (s *scan) unsettleSKUs(skus map[string]api.ID) {
	if len(skus) == 0 {
		return
	}
	for i, p := range s.w.Products {
		_, hinted := s.hints[int32(i)]
		if !s.found[i].settled && !hinted {
			continue
		}
		for j := range p.Variants {
			pid, ok := skus[p.Variants[j].SKU()]
			if !ok {
				continue
			}
			s.unsettle(int32(i))
			if h, hinted := s.hints[int32(i)]; hinted && (pid == "" || s.ids.at(h) != pid) {
				delete(s.hints, int32(i))
				break
			}
		}
	}
}

// unsettleProduct unsettles the file's product its mark gave live
// product id.
func (s *scan) unsettleProduct(id api.ID) {
	if i := s.marked.find(id); i >= 0 {
		s.unsettle(i)
	}
}
