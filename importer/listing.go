package importer

import (
	"context"
	"fmt"

	"lading/api"
	"lading/api/wire"
)

// A job that needs the whole live catalog reads it in the fewest pages:
// the Variants listing takes one page for wire.MaxPageSize variants; the
// Products listing, which brings each product's variants with it (see
// wire.Sideloads), takes one for wire.MaxPageSize products. A catalog of
// products of four variants reads in a quarter of the pages that way. The
// products of a page are as many as bring about variantsPerPage variants,
// so that a catalog of products of many variants does not come in answers
// of tens of megabytes.

// variantsPerPage is about how many variants a page of the Products
// listing brings, on average: four pages of the Variants listing.
const variantsPerPage = 4 * wire.MaxPageSize

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
	perPage := min(wire.MaxPageSize, max(1, int(int64(variantsPerPage)*int64(products)/int64(variants))))
	byProducts := wholeRead{pages: (products + perPage - 1) / perPage, perPage: perPage}
	if byProducts.pages < byVariants.pages {
		return byProducts
	}
	return byVariants
}

// planWholeRead says how to read the whole catalog of variants live
// variants (found by variantTotal), if that takes no more reads than
// budget, the reads of the other way (ok false when it takes more). It
// reads how many products the account holds (reads is 1) unless no
// listing of products could take fewer than budget pages: one takes at
// least a page for variantsPerPage variants, but for products of more
// than that many variants on average, which are left to the other way.
func planWholeRead(ctx context.Context, c *api.Client, variants, budget int) (r wholeRead, reads int, ok bool, err error) {
	if (variants+variantsPerPage-1)/variantsPerPage >= budget {
		r = readOf(variants, 0)
		return r, 0, r.pages <= budget, nil
	}
	products, err := productTotal(ctx, c)
	if err != nil {
		return wholeRead{}, 1, false, err
	}
	r = readOf(variants, products)
	return r, 1, r.pages <= budget, nil
}

// productTotal reads how many live products the account holds.
func productTotal(ctx context.Context, c *api.Client) (int, error) {
	for pg, err := range c.Products.ListPages(ctx, &api.ListOptions{PageSize: 1, MaxPages: 1}) {
		if err != nil {
			return 0, fmt.Errorf("reading the size of the live catalog: %w", err)
		}
		return pg.Meta.Total, nil
	}
	return 0, nil
}

// readWhole reads the whole live catalog as r says, every product with
// all its variants.
func readWhole(ctx context.Context, c *api.Client, r wholeRead) (*Live, error) {
	if r.perPage == 0 {
		return readAllVariants(ctx, c)
	}
	l := newLive()
	for pg, err := range c.Products.ListPages(ctx, &api.ListOptions{PageSize: r.perPage}) {
		l.Requests++
		if err != nil {
			return nil, fmt.Errorf("reading the live catalog: %w", err)
		}
		l.addProductPage(pg)
	}
	return l, nil
}
