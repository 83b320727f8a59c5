package exporter

import (
	"context"
	"errors"
	"iter"
	"slices"
	"testing"

	"lading/api"
)

// fakeListing yields pages 1 to last, noting the reads ahead it was asked
// for, and fails at page failAt (0: never).
type fakeListing struct {
	last, failAt int
	ahead        int
}

func (f *fakeListing) list(_ context.Context, o *api.ListOptions) iter.Seq2[int, error] {
	f.ahead = o.Ahead
	return func(yield func(int, error) bool) {
		for n := 1; n <= f.last; n++ {
			if n == f.failAt {
				yield(0, errors.New("boom"))
				return
			}
			if !yield(n, nil) {
				return
			}
		}
	}
}

// readPages emits every page in order, reading ahead as many pages as the
// export reads at once (one at least).
func TestReadPagesInOrder(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ last, limit, ahead int }{{1, 4, 4}, {2, 1, 1}, {37, 4, 4}, {5, 0, 1}} {
		f := &fakeListing{last: tt.last}
		var got []int
		n, err := readPages(context.Background(), f.list, &api.ListOptions{}, tt.limit, func(p int) error {
			got = append(got, p)
			return nil
		})
		if err != nil || n != tt.last || f.ahead != tt.ahead {
			t.Fatalf("last %d, limit %d: %d pages, %v, %d read ahead; want %d pages, %d ahead", tt.last, tt.limit, n, err, f.ahead, tt.last, tt.ahead)
		}
		var want []int
		for p := 1; p <= tt.last; p++ {
			want = append(want, p)
		}
		if !slices.Equal(got, want) {
			t.Errorf("last %d: pages emitted %v, want %v", tt.last, got, want)
		}
	}
}

// readPages stops at a listing's error, and at emit's, with the pages
// emitted before it.
func TestReadPagesStopsAtAnError(t *testing.T) {
	t.Parallel()
	emitErr := errors.New("disk full")
	for _, tt := range []struct {
		name          string
		failAt, emitN int // the page the listing fails at; the page emit fails at
		pages         int
		err           string
	}{
		{"the listing", 9, 0, 8, "boom"},
		{"emit", 0, 3, 2, "disk full"},
	} {
		f := &fakeListing{last: 50, failAt: tt.failAt}
		var got []int
		n, err := readPages(context.Background(), f.list, &api.ListOptions{}, 4, func(p int) error {
			if p == tt.emitN {
				return emitErr
			}
			got = append(got, p)
			return nil
		})
		if err == nil || err.Error() != tt.err || n != tt.pages || len(got) != tt.pages {
			t.Errorf("%s failing: %d pages (%v emitted), %v; want %d and %s", tt.name, n, got, err, tt.pages, tt.err)
		}
	}
}
