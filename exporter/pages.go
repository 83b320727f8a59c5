package exporter

import (
	"context"
	"fmt"
	"iter"

	"golang.org/x/sync/errgroup"

	"lading/api"
)

// lister reads pages of a listing, like api.VariantsService.ListPages.
type lister[P any] func(ctx context.Context, o *api.ListOptions) iter.Seq2[P, error]

// readPages reads every page of a listing and hands each to emit, in
// order: the first page tells how many there are, and the others are read
// concurrently, at most limit at once (the client's limiter paces them),
// and never more than 2 × limit pages ahead of the one emitted, so memory
// stays bounded however long the listing. meta gives a page's paging block.
// It returns the number of pages read.
func readPages[P any](ctx context.Context, list lister[P], o *api.ListOptions, meta func(P) api.Meta, limit int, emit func(P) error) (int, error) {
	limit = max(limit, 1)
	r := &pageReader[P]{list: list, o: o, emit: emit}
	first, err := r.read(ctx, 1)
	if err != nil {
		return 0, err
	}
	if err := emit(first); err != nil {
		return 1, err
	}
	r.last = meta(first).LastPage
	if r.last <= 1 {
		return 1, nil
	}
	r.window(limit)
	r.emitted = 1
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return r.readAhead(gctx, g) })
	g.Go(func() error { return r.emitInOrder(gctx) })
	err = g.Wait()
	return r.emitted, err
}

// pageReader holds what readPages' reader and emitter share: pages 2 to
// last are read ahead into slots and emitted from them in order.
type pageReader[P any] struct {
	list    lister[P]
	o       *api.ListOptions
	emit    func(P) error
	last    int
	slots   []chan P      // page n waits in slots[n % len(slots)]
	free    chan struct{} // a token per page that may be read ahead
	sem     chan struct{} // a token per page being read
	emitted int
}

// read reads page n alone.
func (r *pageReader[P]) read(ctx context.Context, n int) (P, error) {
	po := *r.o
	po.Page, po.MaxPages = n, 1
	for p, err := range r.list(ctx, &po) {
		return p, err
	}
	var zero P
	return zero, fmt.Errorf("page %d: the service answered nothing", n)
}

// window makes room for 2 × limit pages read ahead, at most limit of them
// being read at once.
func (r *pageReader[P]) window(limit int) {
	window := 2 * limit
	r.slots = make([]chan P, window)
	for i := range r.slots {
		r.slots[i] = make(chan P, 1)
	}
	r.free = make(chan struct{}, window)
	for range window {
		r.free <- struct{}{}
	}
	r.sem = make(chan struct{}, limit)
}

// readAhead starts a read in g of each page from 2 to last, each once its
// slot is free and fewer than limit reads are under way.
func (r *pageReader[P]) readAhead(ctx context.Context, g *errgroup.Group) error {
	for n := 2; n <= r.last; n++ {
		select {
		case <-r.free:
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case r.sem <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		g.Go(func() error {
			defer func() { <-r.sem }()
			p, err := r.read(ctx, n)
			if err != nil {
				return err
			}
			r.slots[n%len(r.slots)] <- p
			return nil
		})
	}
	return nil
}

// emitInOrder emits pages 2 to last as they arrive, in order, freeing
// each one's slot for a page further on.
func (r *pageReader[P]) emitInOrder(ctx context.Context) error {
	for n := 2; n <= r.last; n++ {
		select {
		case p := <-r.slots[n%len(r.slots)]:
			if err := r.emit(p); err != nil {
				return err
			}
			r.emitted++
			r.free <- struct{}{}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
