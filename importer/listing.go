package importer

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"lading/api"
	"lading/api/wire"
	"lading/catalog"
)

// A job that needs the whole live catalog reads it in the fewest pages:
// the Variants listing takes one page for wire.MaxPageSize variants; the
// Products listing, which brings each product's variants with it (see
// wire.Sideloads), one for up to wire.MaxPageSize products. A catalog of
// products of four variants reads in half the pages that way. The
// products of a page are as many as bring about pageVariants variants, so
// that a catalog of products of many variants does not come in answers of
// tens of megabytes.

// pageVariants is about how many variants a page of the Products listing
// brings: two pages' worth of the Variants listing. The scan reads the
// listing while it holds the file's rows, near the memory limit (a 1M
// re-import: 165 MiB live of 208); pages of 1,000 variants (5.9 MiB read,
// 1.8 MiB for 250) peaked 4–6 MiB higher in RSS than pages of 250 or 500.
const pageVariants = 2 * wire.MaxPageSize

// wholeRead is how to read the whole live catalog: pages reads of the
// Products listing, perPage products a page, or of the Variants listing
// when perPage is 0.
type wholeRead struct {
	pages, perPage int
}

// readOf is the cheaper of the two listings of a catalog of variants
// live variants in products live products.
func readOf(variants, products int) wholeRead {
	byVariants := wholeRead{pages: pages(variants)}
	if products <= 0 || variants <= 0 {
		return byVariants
	}
	perPage := api.ProductPageSize(pageVariants, variants, products)
	byProducts := wholeRead{pages: (products + perPage - 1) / perPage, perPage: perPage}
	if byProducts.pages < byVariants.pages {
		return byProducts
	}
	return byVariants
}

// planWholeRead says how to read the whole catalog of variants live
// variants (found by variantTotal) in the fewest pages, when that is to be
// compared with budget, the reads of another way. It reads how many
// products the account holds (reads is 1) unless no listing of products
// could take fewer than budget pages: one takes at least a page for
// pageVariants variants, but for products of more than that many
// variants on average, which are left to the other way.
func planWholeRead(ctx context.Context, c *api.Client, variants, budget int) (r wholeRead, reads int, err error) {
	if (variants+pageVariants-1)/pageVariants >= budget {
		return readOf(variants, 0), 0, nil
	}
	products, err := productTotal(ctx, c)
	if err != nil {
		return wholeRead{}, 1, err
	}
	return readOf(variants, products), 1, nil
}

// productTotal reads how many live products the account holds.
func productTotal(ctx context.Context, c *api.Client) (int, error) {
	return sized(c.Products.Total(ctx, nil))
}

// variantTotal reads how many live variants the account holds.
func variantTotal(ctx context.Context, c *api.Client) (int, error) {
	return sized(c.Variants.Total(ctx, nil))
}

// sizing is variantTotal read ahead, beside an import's local work
// between reading its file and reading the account: the service's answer
// is not waited for.
type sizing struct {
	done   chan struct{}
	n      int
	err    error
	cancel context.CancelFunc
}

// startSizing starts reading how many variants the account holds, when
// FetchLive will need it for products: when one of them, valid, has a SKU
// or a name to look it up by (see Want.anyKey; an id remembered is not
// known yet); else nil.
func startSizing(ctx context.Context, c *api.Client, products []*catalog.Product) *sizing {
	if !(Want{Products: products}).anyKey() {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &sizing{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(s.done)
		s.n, s.err = variantTotal(ctx, c)
	}()
	return s
}

// total is the count read ahead, or, when none was (s is nil), read now.
func (s *sizing) total(ctx context.Context, c *api.Client) (int, error) {
	if s == nil {
		return variantTotal(ctx, c)
	}
	<-s.done
	return s.n, s.err
}

// stop gives up the read if it is still under way; nil does nothing.
func (s *sizing) stop() {
	if s != nil {
		s.cancel()
		<-s.done
	}
}

// sized is the size of the live catalog read, or what its read failed of.
func sized(n int, err error) (int, error) {
	if err != nil {
		return 0, fmt.Errorf("reading the size of the live catalog: %w", err)
	}
	return n, nil
}

// readAllVariants reads the whole Variants listing with its products.
func readAllVariants(ctx context.Context, c *api.Client) (*Live, error) {
	l := newLive()
	if err := eachWholePage(ctx, c, wholeRead{}, false, &l.Requests, nil, l.addVariantPage); err != nil {
		return nil, err
	}
	return l, nil
}

// errVariantsLeftOut says the Products listing left out variants: a page
// linked variants it did not carry, or the listing carried fewer than the
// account counts (had it left out archived products, say). A variant not
// carried is not one the account lacks: a scan then reads the catalog
// again without the Products listing.
var errVariantsLeftOut = errors.New("the service's product listing left out variants of its products, " +
	"so lading cannot tell from it what the account holds")

// carriedVariants are the links to the variants of product p, which pg
// carries every one of (else errVariantsLeftOut).
func carriedVariants(pg *api.ProductPage, p *api.Product) ([]api.Link, error) {
	links := p.Links.Of(wire.Variants)
	for _, link := range links {
		if pg.Sideloads.Variants[link.ID] == nil {
			return nil, fmt.Errorf("%w (product %s, variant %s)", errVariantsLeftOut, p.ID, link.ID)
		}
	}
	return links, nil
}

// listAhead is how many pages of the whole catalog are read while the scan
// compares the one before (api.ListOptions.Ahead): the service answers two
// side by side, and lading decodes one while it compares another. A
// re-import of 1,000,000 rows comparing the whole account took 32.6 s
// where it took 53 s reading one page at a time, the sandbox and lading
// sharing two cores; more pages at once would hold more pages' memory
// for little more.
const listAhead = 2

// eachWholePage reads the whole live catalog as r says, page after page,
// and gives each page to products or variants, by the listing it is of
// (products may be nil for the Variants listing), counting the reads in
// requests. With reuse, each page is read into the
// memory of the one before (see api.ListOptions.Reuse).
func eachWholePage(ctx context.Context, c *api.Client, r wholeRead, reuse bool, requests *int,
	products func(*api.ProductPage) error, variants func(*api.VariantPage)) error {
	if r.perPage > 0 {
		return eachPage(c.Products.ListPages(ctx, &api.ListOptions{PageSize: r.perPage, Reuse: reuse, Ahead: listAhead}), requests, products)
	}
	return eachPage(c.Variants.ListPages(ctx, &api.ListOptions{PageSize: wire.MaxPageSize, Reuse: reuse, Ahead: listAhead}), requests,
		func(pg *api.VariantPage) error { variants(pg); return nil })
}

// eachPage gives each page of pages to fn, counting them in requests,
// until fn fails.
func eachPage[P any](pages iter.Seq2[P, error], requests *int, fn func(P) error) error {
	for pg, err := range pages {
		*requests++
		if err != nil {
			return fmt.Errorf("reading the live catalog: %w", err)
		}
		if err := fn(pg); err != nil {
			return err
		}
	}
	return nil
}
