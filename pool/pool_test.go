package pool_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lading/pool"
)

func TestRunCallsEveryItemWithinTheLimit(t *testing.T) {
	for _, limit := range []int{0, 1, 3, 10} {
		var inFlight, most atomic.Int32
		var mu sync.Mutex
		var done []int
		items := []int{1, 2, 3, 4, 5, 6, 7, 8}
		err := pool.Run(context.Background(), items, limit, func(_ context.Context, n int) error {
			cur := inFlight.Add(1)
			for {
				m := most.Load()
				if cur <= m || most.CompareAndSwap(m, cur) {
					break
				}
			}
			time.Sleep(2 * time.Millisecond)
			inFlight.Add(-1)
			mu.Lock()
			done = append(done, n)
			mu.Unlock()
			return nil
		}, func(int) { t.Error("an item was skipped") })
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(done)
		if !slices.Equal(done, items) {
			t.Errorf("limit %d: done %v, want %v", limit, done, items)
		}
		if want := int32(max(limit, 1)); most.Load() > want {
			t.Errorf("limit %d: %d calls at once", limit, most.Load())
		}
	}
}

// After Ctrl-C the call in flight finishes with a live context, and the
// items not started are skipped.
func TestRunFinishesTheCallInFlightAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var finished []int
	var skipped []int
	err := pool.Run(ctx, []int{1, 2, 3, 4}, 1, func(c context.Context, n int) error {
		if n == 2 {
			cancel()
			time.Sleep(5 * time.Millisecond)
			if c.Err() != nil {
				t.Errorf("item %d: the call's context was cancelled with the caller's: %v", n, c.Err())
			}
		}
		finished = append(finished, n)
		return nil
	}, func(n int) { skipped = append(skipped, n) })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(finished, []int{1, 2}) || !slices.Equal(skipped, []int{3, 4}) {
		t.Errorf("finished %v, skipped %v; want [1 2] and [3 4]", finished, skipped)
	}
}

func TestRunStopsStartingAfterAnError(t *testing.T) {
	boom := errors.New("boom")
	var skipped []int
	err := pool.Run(context.Background(), []int{1, 2, 3, 4}, 1, func(_ context.Context, n int) error {
		if n == 2 {
			return boom
		}
		return nil
	}, func(n int) { skipped = append(skipped, n) })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if !slices.Equal(skipped, []int{3, 4}) {
		t.Errorf("skipped %v, want [3 4]", skipped)
	}
}

// A cancelled context before the start skips everything, without error.
func TestRunCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := 0
	err := pool.Run(ctx, []string{"a", "b"}, 2, func(context.Context, string) error {
		t.Error("a call started under a cancelled context")
		return nil
	}, func(string) { n++ })
	if err != nil || n != 2 {
		t.Errorf("err %v, %d skipped; want nil and 2", err, n)
	}
}
