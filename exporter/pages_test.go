package exporter

import (
	"context"
	"errors"
	"iter"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lading/api"
)

type fakePage struct {
	n, last int
}

// fakeListing serves last pages, each after a random pause, counting the
// reads in flight.
type fakeListing struct {
	last           int
	failAt         int
	inFlight, most atomic.Int32
	mu             sync.Mutex
	rng            *rand.Rand
}

func (f *fakeListing) list(ctx context.Context, o *api.ListOptions) iter.Seq2[fakePage, error] {
	return func(yield func(fakePage, error) bool) {
		cur := f.inFlight.Add(1)
		defer f.inFlight.Add(-1)
		for m := f.most.Load(); cur > m && !f.most.CompareAndSwap(m, cur); m = f.most.Load() {
		}
		f.mu.Lock()
		d := time.Duration(f.rng.IntN(3000)) * time.Microsecond
		f.mu.Unlock()
		time.Sleep(d)
		n := max(o.Page, 1)
		if n == f.failAt {
			yield(fakePage{}, errors.New("boom"))
			return
		}
		yield(fakePage{n: n, last: f.last}, nil)
	}
}

func fakeMeta(p fakePage) api.Meta { return api.Meta{CurrentPage: p.n, LastPage: p.last} }

func TestReadPagesInOrder(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ last, limit int }{{1, 4}, {2, 1}, {37, 4}, {100, 3}} {
		f := &fakeListing{last: tt.last, rng: rand.New(rand.NewPCG(1, uint64(tt.last)))}
		var got []int
		n, err := readPages(context.Background(), f.list, &api.ListOptions{}, fakeMeta, tt.limit, func(p fakePage) error {
			got = append(got, p.n)
			return nil
		})
		if err != nil || n != tt.last {
			t.Fatalf("last %d: %d pages, %v", tt.last, n, err)
		}
		for i, p := range got {
			if p != i+1 {
				t.Fatalf("last %d: pages emitted %v, not in order", tt.last, got)
			}
		}
		if m := f.most.Load(); m > int32(tt.limit) {
			t.Errorf("last %d: %d reads at once, limit %d", tt.last, m, tt.limit)
		}
	}
}

func TestReadPagesStopsAtAnError(t *testing.T) {
	t.Parallel()
	f := &fakeListing{last: 50, failAt: 9, rng: rand.New(rand.NewPCG(2, 2))}
	var got []int
	_, err := readPages(context.Background(), f.list, &api.ListOptions{}, fakeMeta, 4, func(p fakePage) error {
		got = append(got, p.n)
		return nil
	})
	if err == nil || err.Error() != "boom" {
		t.Fatalf("err = %v, want boom", err)
	}
	if len(got) > 8 {
		t.Errorf("pages after the failed one were emitted: %v", got)
	}
}
