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
	read := func(ctx context.Context, n int) (P, error) {
		po := *o
		po.Page, po.MaxPages = n, 1
		for p, err := range list(ctx, &po) {
			return p, err
		}
		var zero P
		return zero, fmt.Errorf("page %d: the service answered nothing", n)
	}
	first, err := read(ctx, 1)
	if err != nil {
		return 0, err
	}
	if err := emit(first); err != nil {
		return 1, err
	}
	last := meta(first).LastPage
	if last <= 1 {
		return 1, nil
	}
	g, gctx := errgroup.WithContext(ctx)
	window := 2 * limit
	slots := make([]chan P, window) // page n waits in slots[n % window]
	for i := range slots {
		slots[i] = make(chan P, 1)
	}
	free := make(chan struct{}, window) // a token per page that may be read ahead
	for range window {
		free <- struct{}{}
	}
	sem := make(chan struct{}, limit)
	g.Go(func() error {
		for n := 2; n <= last; n++ {
			select {
			case <-free:
			case <-gctx.Done():
				return gctx.Err()
			}
			select {
			case sem <- struct{}{}:
			case <-gctx.Done():
				return gctx.Err()
			}
			g.Go(func() error {
				defer func() { <-sem }()
				p, err := read(gctx, n)
				if err != nil {
					return err
				}
				slots[n%window] <- p
				return nil
			})
		}
		return nil
	})
	emitted := 1
	g.Go(func() error {
		for n := 2; n <= last; n++ {
			select {
			case p := <-slots[n%window]:
				if err := emit(p); err != nil {
					return err
				}
				emitted++
				free <- struct{}{}
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	err = g.Wait()
	return emitted, err
}
