package exporter

import (
	"context"
	"iter"

	"lading/api"
)

// lister reads pages of a listing, like api.VariantsService.ListPages.
type lister[P any] func(ctx context.Context, o *api.ListOptions) iter.Seq2[P, error]

// readPages reads every page of listing o and hands each to emit, in
// order, the pages after it read meanwhile, at most limit at once
// (api.ListOptions.Ahead; the client's limiter paces them), so memory
// stays bounded however long the listing. It returns the number of pages
// emitted.
func readPages[P any](ctx context.Context, list lister[P], o *api.ListOptions, limit int, emit func(P) error) (int, error) {
	lo := *o
	lo.Ahead = max(limit, 1)
	n := 0
	for p, err := range list(ctx, &lo) {
		if err != nil {
			return n, err
		}
		if err := emit(p); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
