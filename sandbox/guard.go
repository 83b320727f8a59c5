package sandbox

import (
	"context"
	"maps"
	"math"
	"math/rand"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// throttler keeps one token bucket per access token.
type throttler struct {
	mu      sync.Mutex
	limit   rate.Limit
	burst   int
	buckets map[string]*rate.Limiter
}

func newThrottler(r float64, burst int) *throttler {
	if r <= 0 {
		return nil
	}
	if burst <= 0 {
		burst = max(int(math.Ceil(r)), 1)
	}
	return &throttler{limit: rate.Limit(r), burst: burst, buckets: map[string]*rate.Limiter{}}
}

// allow takes one request from key's bucket, or says how long to wait.
func (th *throttler) allow(key string) (ok bool, retryAfter time.Duration) {
	if th == nil {
		return true, 0
	}
	th.mu.Lock()
	lim := th.buckets[key]
	if lim == nil {
		lim = rate.NewLimiter(th.limit, th.burst)
		th.buckets[key] = lim
	}
	th.mu.Unlock()
	now := time.Now()
	res := lim.ReserveN(now, 1)
	if !res.OK() {
		return false, time.Second
	}
	d := res.DelayFrom(now)
	if d == 0 {
		return true, 0
	}
	res.CancelAt(now)
	return false, d
}

func (th *throttler) reset() {
	if th == nil {
		return
	}
	th.mu.Lock()
	th.buckets = map[string]*rate.Limiter{}
	th.mu.Unlock()
}

// retryAfterSeconds is the Retry-After value: the delay rounded up, at
// least one second.
func retryAfterSeconds(d time.Duration) int64 {
	return max(int64(math.Ceil(d.Seconds())), 1)
}

// faults draws the injected faults from one seeded generator so that a
// given seed and request sequence always fault the same calls.
type faults struct {
	mu           sync.Mutex
	rng          *rand.Rand
	failRate     float64
	dropRate     float64
	throttleRate float64
	latency      time.Duration
}

func newFaults(o Options) *faults {
	return &faults{rng: rand.New(rand.NewSource(o.Seed)), failRate: o.FailRate, dropRate: o.DropRate, throttleRate: o.ThrottleRate, latency: o.Latency}
}

// draw decides the faults of one call: fail (500 before applying) and drop
// (apply, then close without answering; writes only). Both numbers are
// always drawn so the sequence does not depend on the kind of call.
func (f *faults) draw(write bool) (fail, drop bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failRate <= 0 && f.dropRate <= 0 {
		return false, false
	}
	a, b := f.rng.Float64(), f.rng.Float64()
	fail = a < f.failRate
	drop = !fail && write && b < f.dropRate
	return fail, drop
}

// throttled decides whether a call is answered as throttled. It draws from
// the generator only when the rate is set, so that the sequences of the
// other faults stay as they were without it.
func (f *faults) throttled() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.throttleRate > 0 && f.rng.Float64() < f.throttleRate
}

// sleep waits the configured latency or until ctx ends.
func (f *faults) sleep(ctx context.Context) bool {
	if f.latency <= 0 {
		return false
	}
	t := time.NewTimer(f.latency)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return true
}

// counterSet is the live form of Counters.
type counterSet struct {
	mu sync.Mutex
	c  Counters
}

func newCounterSet() *counterSet {
	cs := &counterSet{}
	cs.reset()
	return cs
}

// reset zeroes the counts; the calls in flight stay counted until they
// are answered.
func (cs *counterSet) reset() {
	cs.mu.Lock()
	cs.c = Counters{Requests: map[string]int64{}, Faults: map[string]int64{}, InFlight: cs.c.InFlight}
	cs.mu.Unlock()
}

func (cs *counterSet) update(fn func(c *Counters)) {
	cs.mu.Lock()
	fn(&cs.c)
	cs.mu.Unlock()
}

func (cs *counterSet) snapshot() Counters {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	out := cs.c
	out.Requests, out.Faults = maps.Clone(cs.c.Requests), maps.Clone(cs.c.Faults)
	return out
}

// dropConnection closes the client connection without an answer.
func dropConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}
