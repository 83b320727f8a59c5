package api

import (
	"context"
	"fmt"
	"io"
	"iter"

	"lading/api/wire"
)

// listPages pages through a listing of records T from opts.Page to the
// last page (or opts.MaxPages), decoding each answer into a new page. It
// stops when the consumer stops, on the first error (yielded once), at the
// last page, and at an empty page. With opts.Ahead, the pages after the
// one the consumer works on are read meanwhile (see readAhead).
func listPages[T record](ctx context.Context, c *Client, opts *ListOptions) iter.Seq2[*Page[T], error] {
	var t T
	resource := t.resource()
	return func(yield func(*Page[T], error) bool) {
		if err := opts.Validate(resource); err != nil {
			yield(nil, err)
			return
		}
		var mem *pageMem
		if opts != nil && opts.Reuse {
			mem = newPageMem()
		}
		if opts != nil && opts.Ahead > 0 {
			readAhead(ctx, c, opts, resource, mem, yield)
			return
		}
		eachListPage(ctx, c, opts, resource, mem, yield)
	}
}

// eachListPage reads the pages of listing opts of resource one at a time,
// in order, each into mem (nil: memory of its own), and gives each to
// yield, until yield returns false, an error (yielded once), the last
// page or an empty one.
func eachListPage[T record](ctx context.Context, c *Client, opts *ListOptions, resource string, mem *pageMem,
	yield func(*Page[T], error) bool) {
	for num := opts.firstPage(); opts.within(num); num++ {
		p, err := readListPage[T](ctx, c, opts, resource, num, mem)
		if err != nil {
			yield(nil, err)
			return
		}
		if !yield(p, nil) || lastPage(ctx, opts, p, num) {
			return
		}
	}
}

// readListPage reads page num of listing opts of resource into mem (nil:
// memory of its own).
func readListPage[T record](ctx context.Context, c *Client, opts *ListOptions, resource string, num int, mem *pageMem) (*Page[T], error) {
	body, err := opts.body(resource, num)
	if err != nil {
		return nil, err
	}
	p, err := readPage[T](ctx, c, wire.ListPath(resource), body, mem)
	if err != nil {
		return nil, fmt.Errorf("%w (page %d)", err, num)
	}
	return p, nil
}

// lastPage says p, page num of a listing, is its last: empty, the last its
// meta counts, or full no longer when the answer has no paging block.
func lastPage[T record](ctx context.Context, opts *ListOptions, p *Page[T], num int) bool {
	m, got := p.Meta, len(p.Records)
	if got == 0 || ctx.Err() != nil {
		return true
	}
	if m == (Meta{}) {
		// No paging block: go on while pages come back full.
		return got < opts.pageSize()
	}
	// The page asked for bounds the loop too, should an answer's
	// current_page not follow page_num.
	return m.CurrentPage >= m.LastPage || num >= m.LastPage
}

// readAhead gives yield the pages of listing opts of resource in order,
// reading up to opts.Ahead of the pages after the one yield works on, each
// on a goroutine of its own. A page is read only once the meta of the
// pages before says it is there (the first page is read alone), so a
// listing read to its end sends the requests it would one page at a time.
// With mem, the pages take turns in opts.Ahead+1 memories, a page's memory
// read into again only once yield is done with it.
func readAhead[T record](ctx context.Context, c *Client, opts *ListOptions, resource string, mem *pageMem,
	yield func(*Page[T], error) bool) {
	ctx, cancel := context.WithCancel(ctx)
	free := make(chan *pageMem, opts.Ahead+1) // nil ones count too
	for range opts.Ahead + 1 {
		free <- mem
		if mem != nil {
			mem = newPageMem()
		}
	}
	var queue []chan pageRead[T] // the reads under way, in page order
	defer func() {
		cancel()
		for _, r := range queue {
			<-r
		}
	}()
	next := opts.firstPage()
	bound := next // the last page known to be there
	fill := func() {
		for len(queue) < opts.Ahead && next <= bound && opts.within(next) {
			queue = append(queue, readPageAhead[T](ctx, c, opts, resource, next, <-free))
			next++
		}
	}
	for fill(); len(queue) > 0; fill() {
		r := <-queue[0]
		queue = queue[1:]
		if r.err != nil {
			yield(nil, r.err)
			return
		}
		last := lastPage(ctx, opts, r.p, r.num)
		if !last {
			bound = r.num + 1 // a full page without a paging block: the next
			if m := r.p.Meta; m != (Meta{}) {
				bound = m.LastPage
			}
			fill() // the pages after this one are read while the consumer works on it
		}
		if !yield(r.p, nil) || last || ctx.Err() != nil {
			return
		}
		free <- r.mem
	}
}

// pageRead is page num of a listing, read into mem, or the error reading it.
type pageRead[T record] struct {
	p   *Page[T]
	err error
	num int
	mem *pageMem
}

// readPageAhead reads page num of listing opts of resource into mem on a
// goroutine of its own, and gives it on the channel it returns.
func readPageAhead[T record](ctx context.Context, c *Client, opts *ListOptions, resource string, num int, mem *pageMem) chan pageRead[T] {
	out := make(chan pageRead[T], 1)
	go func() {
		p, err := readListPage[T](ctx, c, opts, resource, num, mem)
		out <- pageRead[T]{p: p, err: err, num: num, mem: mem}
	}()
	return out
}

// readPage sends one read and decodes its answer straight from the
// response body.
// With mem, the page is read into it, recycled first: the page before
// it, or an attempt before that failed, is done with.
func readPage[T record](ctx context.Context, c *Client, path string, body []byte, mem *pageMem) (*Page[T], error) {
	var p *Page[T]
	_, err := c.do(ctx, call{path: path, body: body, decode: func(r io.Reader) error {
		p = new(Page[T]) // each attempt reads a page of its own
		if mem != nil {
			mem.recycle()
			p.mem = mem
		}
		return p.readFrom(r)
	}})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// getPage reads records T by id (the detail read). A detail answer has a
// listing's shape, meta included [A.5]; one that says more pages follow is
// an error rather than records silently left out.
func getPage[T record](ctx context.Context, c *Client, ids []ID) (*Page[T], error) {
	var t T
	resource := t.resource()
	if len(ids) == 0 {
		return nil, fmt.Errorf("api: %s detail read: %w: no ids given", resource, ErrInvalid)
	}
	if len(ids) > wire.MaxPageSize {
		return nil, fmt.Errorf("api: %s detail read: %w: %d ids; at most %d per read, split them", resource, ErrInvalid, len(ids), wire.MaxPageSize)
	}
	refs := make([]Ref, len(ids))
	for i, id := range ids {
		if id == "" {
			return nil, fmt.Errorf("api: %s detail read: %w: id %d is empty", resource, ErrInvalid, i)
		}
		refs[i] = Ref{ID: id}
	}
	body, err := marshal(map[string]any{wire.KeyAction: wire.ActionRead, resource: refs})
	if err != nil {
		return nil, err
	}
	p, err := readPage[T](ctx, c, wire.DetailPath(resource), body, nil)
	if err != nil {
		return nil, err
	}
	if m := p.Meta; m.HasMore() {
		return nil, fmt.Errorf("api: %s detail read of %d ids: %w: the service answered page %d of %d (%d records); ask for at most %d ids per read",
			resource, len(ids), ErrInvalid, m.CurrentPage, m.LastPage, len(p.Records), max(len(p.Records), 1))
	}
	return p, nil
}

// ProductPageSize is the page size of the Products listing, whose pages
// carry their products' variants, that keeps its pages near pageVariants
// variants, for products of variants/products variants on average:
// between 1 and wire.MaxPageSize. (A page of 250 products of 100 variants
// each would be 40 MB of JSON.)
func ProductPageSize(pageVariants, variants, products int) int {
	if variants <= 0 || products <= 0 {
		return wire.MaxPageSize
	}
	return min(wire.MaxPageSize, max(1, int(int64(pageVariants)*int64(products)/int64(variants))))
}

// total reads how many records T match opts (nil: all) from the meta of
// one page of one record; opts' paging is left aside.
func total[T record](ctx context.Context, c *Client, opts *ListOptions) (int, error) {
	var o ListOptions
	if opts != nil {
		o = *opts
	}
	o.Page, o.PageSize, o.MaxPages, o.Reuse, o.Ahead = 1, 1, 1, false, 0
	for pg, err := range listPages[T](ctx, c, &o) {
		if err != nil {
			return 0, err
		}
		return pg.Meta.Total, nil
	}
	return 0, nil
}

// records flattens a page iterator into its records.
func records[T record](pages iter.Seq2[*Page[T], error]) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		for p, err := range pages {
			if err != nil {
				yield(nil, err)
				return
			}
			for _, r := range p.Records {
				if !yield(r, nil) {
					return
				}
			}
		}
	}
}

// Ref points at a record by id, as in links arrays.
type Ref struct {
	ID ID `json:"id"`
}

// Refs returns one Ref per id.
func Refs(ids ...ID) []Ref {
	out := make([]Ref, len(ids))
	for i, id := range ids {
		out[i] = Ref{ID: id}
	}
	return out
}
