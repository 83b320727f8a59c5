// Package pool carries out a job's write requests a few at a time, the way
// every job of lading sends them: in order, at most a set number in flight,
// and never cut short. A request in flight when the user presses Ctrl-C (or
// when another request fails) finishes and is recorded; only the requests
// not yet started are left, for the caller to report as not sent.
package pool

import (
	"context"
	"sync"
	"sync/atomic"
)

// Run calls do for each item, in order, with at most limit calls at once
// (1 when limit < 1). The calls get a context that ctx's cancellation does
// not reach, so a request in flight is answered and recorded.
//
// Once ctx is cancelled, or a call has returned an error, no further call
// starts: each item not started is passed to skipped instead (when it is
// not nil). Run waits for the calls in flight and returns the first error
// a call returned, or nil; a cancelled ctx is not an error of Run's (the
// caller sees ctx.Err()).
func Run[T any](ctx context.Context, items []T, limit int, do func(context.Context, T) error, skipped func(T)) error {
	if limit < 1 {
		limit = 1
	}
	var (
		wg      sync.WaitGroup
		slots   = make(chan struct{}, limit)
		stop    atomic.Bool
		errOnce sync.Once
		first   error
		callCtx = context.WithoutCancel(ctx)
	)
	skip := func(it T) {
		if skipped != nil {
			skipped(it)
		}
	}
	for _, it := range items {
		if stop.Load() || ctx.Err() != nil {
			skip(it)
			continue
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			skip(it)
			continue
		}
		if stop.Load() {
			<-slots
			skip(it)
			continue
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			if err := do(callCtx, it); err != nil {
				errOnce.Do(func() { first = err })
				stop.Store(true)
			}
		}()
	}
	wg.Wait()
	return first
}
