package stock

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"lading/api"
	"lading/api/wire"
)

// facts are what a push knows of the account: from the state's memory,
// then from what its reads showed.
type facts struct {
	// ids are the SKU ids reads showed (those the state remembers are on
	// the rows); listedAll is set once the whole listing was read: ids
	// holds every SKU of the account.
	ids        map[string]api.ID // SKU → variant id
	listedAll  bool
	warehouses map[api.ID]string // warehouse id → label
	// stored are the warehouses as the state held them (see remember).
	stored map[string]string
	// live holds the available units of variants in warehouses, and read
	// the variants whose levels were read: those of the file's SKUs (want:
	// the level before a push goes in the run's history), or every one
	// when keepLevels (a verifying push, a check of writes that got no
	// answer).
	live       map[levelKey]float64
	read       map[api.ID]bool
	lines      []Line              // the file's rows: their SKUs are wanted
	want       map[string]struct{} // the file's SKUs, made at the first read
	keepLevels bool
	// onSKU, when set, is told each SKU a page shows.
	onSKU func(sku string)
	// firstPage is set once the first page of the whole listing was read.
	firstPage bool
}

type levelKey struct{ variant, warehouse api.ID }

func newFacts() *facts {
	return &facts{ids: map[string]api.ID{}, warehouses: map[api.ID]string{}, live: map[levelKey]float64{}, read: map[api.ID]bool{}}
}

// digest learns what a page of variants shows: SKU ids, warehouses and,
// when kept, levels.
func (f *facts) digest(p *api.VariantPage) {
	for id, a := range p.AccountAddresses {
		if a.IsWarehouse() && !a.Deleted.Bool() {
			f.warehouses[id] = strings.TrimSpace(string(a.Label))
		}
	}
	for _, v := range p.Records {
		if v.Deleted.Bool() {
			continue
		}
		if sku := string(v.SKU); sku != "" {
			f.ids[sku] = v.ID
			if f.onSKU != nil {
				f.onSKU(sku)
			}
		}
		if !f.keepLevels && !f.wants(string(v.SKU)) {
			continue
		}
		f.read[v.ID] = true
		for wh, n := range p.Available(v) {
			f.live[levelKey{v.ID, wh}] = n
		}
	}
}

// wants reports whether sku is one of the file's.
func (f *facts) wants(sku string) bool {
	if f.want == nil {
		f.want = make(map[string]struct{}, len(f.lines))
		for i := range f.lines {
			if l := &f.lines[i]; l.Pending() && l.SKU != "" {
				f.want[l.SKU] = struct{}{}
			}
		}
	}
	_, ok := f.want[sku]
	return ok
}

// liveLevel is the available units of variant in warehouse as read; ok is
// false when the variant was not read. A variant read without a level in
// the warehouse has none there: 0.
func (f *facts) liveLevel(variant, warehouse api.ID) (units float64, ok bool) {
	if !f.read[variant] {
		return 0, false
	}
	return f.live[levelKey{variant, warehouse}], true
}

// warehouseNamed finds the warehouse a row names: by id, else by label
// in any case.
func (f *facts) warehouseNamed(name string) (api.ID, bool) {
	if _, ok := f.warehouses[api.ID(name)]; ok {
		return api.ID(name), true
	}
	for id, label := range f.warehouses {
		if label != "" && strings.EqualFold(label, name) {
			return id, true
		}
	}
	return "", false
}

// warehouseList names the known warehouses for a message: 11 "Main", ...
func (f *facts) warehouseList() string {
	ids := make([]api.ID, 0, len(f.warehouses))
	for id := range f.warehouses {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b api.ID) int {
		return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b))
	})
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("%s %q", id, f.warehouses[id])
	}
	if len(parts) == 0 {
		return "none known"
	}
	return strings.Join(parts, ", ")
}

// pages is how many pages of the largest size n records take.
func pages(n int) int { return (n + wire.MaxPageSize - 1) / wire.MaxPageSize }

// reader reads the account for a push, with the fewest requests.
type reader struct {
	c *api.Client
	f *facts
}

// listAll reads the whole Variants listing.
func (r *reader) listAll(ctx context.Context) error {
	_, err := r.listing(ctx, -1)
	return err
}

// listing reads the Variants listing to its end, unless its first page
// shows more than budget pages (budget < 0: no limit); done says whether
// it read to the end.
func (r *reader) listing(ctx context.Context, budget int) (done bool, err error) {
	first := true
	for p, err := range r.c.Variants.ListPages(ctx, nil) {
		if err != nil {
			return false, fmt.Errorf("reading the account's variants: %w", err)
		}
		r.f.digest(p)
		r.f.firstPage = true
		if first && budget >= 0 && p.Meta.LastPage > budget {
			return false, nil
		}
		first = false
	}
	return true, nil
}

// lookUp finds the variants of the unknown SKUs, and of the probes (known
// SKUs, whose levels name the token's warehouse): by `or` filters of up
// to 250 SKUs, or by the whole listing when it takes no more pages, which
// its first page tells (when there are more SKUs than a page holds: one
// read spent to learn it when the listing is longer; that page names the
// warehouses, and the probes are not needed).
func (r *reader) lookUp(ctx context.Context, unknown, probes []string) error {
	skus := append(slices.Clip(unknown), probes...)
	if len(skus) == 0 {
		return nil
	}
	if need := pages(len(skus)); need > 1 && !r.f.firstPage {
		done, err := r.listing(ctx, need)
		if done || err != nil {
			return err
		}
		skus = slices.DeleteFunc(unknown, func(s string) bool { return r.f.ids[s] != "" })
	}
	for p, err := range r.c.Variants.BySKUPages(ctx, skus) {
		if err != nil {
			return err
		}
		r.f.digest(p)
	}
	return nil
}

// firstListingPage reads the first page of the listing, for the
// warehouses its stock levels name.
func (r *reader) firstListingPage(ctx context.Context) error {
	if r.f.firstPage {
		return nil
	}
	_, err := r.listing(ctx, 0)
	return err
}

// check reads variants by id, 250 a read, for their live levels.
func (r *reader) check(ctx context.Context, ids []api.ID) error {
	r.f.keepLevels = true
	for chunk := range slices.Chunk(ids, wire.MaxPageSize) {
		p, err := r.c.Variants.Get(ctx, chunk...)
		if err != nil {
			return fmt.Errorf("reading the live levels of %d variants: %w", len(chunk), err)
		}
		r.f.digest(p)
	}
	return nil
}
