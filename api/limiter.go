package api

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limiter paces every request made with one access token, across
// goroutines and clients. It is given the service's rate and burst, and
// sends at most burst−1 requests at once: one request of the service's
// bucket stays in reserve, so that requests sent on time but bunched in
// transit (a busy machine, a slow connection) still find it there instead
// of a 429. That costs one request's interval at the start of a run, and
// is what lets a run at the service's rate go without throttling.
//
// It wraps a rate.Limiter and adapts it (AIMD):
// a throttled answer halves the rate, once per round of requests, down to a
// floor; successes raise it back by a twentieth of the configured ceiling
// per second of throttle-free traffic, up to the ceiling; a Retry-After
// blocks every caller until it has passed.
type Limiter struct {
	lim *rate.Limiter

	mu      sync.Mutex
	ceiling float64
	floor   float64
	step    float64 // increase per second of success, per second
	burst   int
	current float64
	gen     uint64    // bumped at each decrease
	until   time.Time // no request before this (Retry-After)
}

// Default pacing.
const (
	DefaultRate  = 5.0
	DefaultBurst = 5
	// MinRate is the floor the adaptive rate never drops below.
	MinRate = 0.2
)

// NewLimiter returns a limiter allowing perSecond requests with the given
// burst. perSecond <= 0 means DefaultRate; burst < 1 means 1.
func NewLimiter(perSecond float64, burst int) *Limiter {
	if perSecond <= 0 {
		perSecond = DefaultRate
	}
	if burst < 1 {
		burst = 1
	}
	floor := MinRate
	if perSecond < floor {
		floor = perSecond
	}
	if burst > 1 {
		burst-- // the reserve
	}
	return &Limiter{
		lim:     rate.NewLimiter(rate.Limit(perSecond), burst),
		ceiling: perSecond,
		floor:   floor,
		step:    perSecond / 20,
		burst:   burst,
		current: perSecond,
	}
}

// Wait blocks until a request may be sent, or ctx is done.
func (l *Limiter) Wait(ctx context.Context) error {
	_, err := l.acquire(ctx)
	return err
}

// Rate returns the current allowed rate, per second.
func (l *Limiter) Rate() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.current
}

// Ceiling returns the configured rate, per second.
func (l *Limiter) Ceiling() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ceiling
}

// acquire waits for a token and returns the generation the request is sent
// under, so that throttles of requests sent before a decrease do not
// decrease the rate again.
func (l *Limiter) acquire(ctx context.Context) (uint64, error) {
	for {
		l.mu.Lock()
		wait := time.Until(l.until)
		l.mu.Unlock()
		if wait > 0 {
			if err := sleep(ctx, wait); err != nil {
				return 0, err
			}
			continue
		}
		if err := l.lim.Wait(ctx); err != nil {
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			return 0, err
		}
		l.mu.Lock()
		blocked := time.Now().Before(l.until)
		gen := l.gen
		l.mu.Unlock()
		if !blocked {
			return gen, nil
		}
	}
}

// throttled records a throttled answer to a request sent under gen: it
// blocks everyone for retryAfter (if > 0) and, unless the rate was already
// lowered since that request was sent, halves the rate.
func (l *Limiter) throttled(gen uint64, retryAfter time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if retryAfter > 0 {
		if t := time.Now().Add(retryAfter); t.After(l.until) {
			l.until = t
		}
	}
	if gen != l.gen {
		return
	}
	l.gen++
	l.current /= 2
	if l.current < l.floor {
		l.current = l.floor
	}
	l.lim.SetLimit(rate.Limit(l.current))
	l.lim.SetBurst(1)
}

// succeeded records a success: the rate grows by one step up to the
// ceiling, where the configured burst is restored.
func (l *Limiter) succeeded() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.current >= l.ceiling {
		return
	}
	// One success per 1/current seconds: the rate grows by step per second
	// of throttle-free traffic, whatever the current rate (additive).
	l.current += l.step / l.current
	if l.current >= l.ceiling {
		l.current = l.ceiling
		l.lim.SetBurst(l.burst)
	}
	l.lim.SetLimit(rate.Limit(l.current))
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
