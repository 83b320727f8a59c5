package api

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

func TestRetryAfterBlocksEveryClientOfTheLimiter(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var throttledAt time.Time
	arrivals := map[string][]time.Time{}
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		mu.Lock()
		defer mu.Unlock()
		arrivals[r.URL.Path] = append(arrivals[r.URL.Path], time.Now())
		if throttledAt.IsZero() {
			throttledAt = time.Now()
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Write([]byte(`{"meta":{"current_page":"1","last_page":"1"}}`))
	})
	shared := NewLimiter(100, 10)
	a := newTestClient(t, srv.URL+"/a", WithLimiter(shared))
	b := newTestClient(t, srv.URL+"/b", WithLimiter(shared))
	ctx := context.Background()

	done := make(chan error, 1)
	go func() { _, err := a.Variants.Get(ctx, "1"); done <- err }()
	for deadline := time.Now().Add(5 * time.Second); shared.Rate() == 100; {
		if time.Now().After(deadline) {
			t.Fatal("client a was never throttled")
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := b.Variants.Get(ctx, "1"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	bAt := arrivals["/b/v2/Variants/detail"]
	aAt := arrivals["/a/v2/Variants/detail"]
	if len(bAt) != 1 || len(aAt) != 2 {
		t.Fatalf("arrivals a=%d b=%d", len(aAt), len(bAt))
	}
	if d := bAt[0].Sub(throttledAt); d < 900*time.Millisecond {
		t.Errorf("client b sent %s after the Retry-After: 1 answer to client a", d)
	}
	if d := aAt[1].Sub(throttledAt); d < 900*time.Millisecond {
		t.Errorf("client a retried after %s", d)
	}
	if s := a.Stats(); s.Throttled != 1 || s.Retries != 1 || s.Requests != 2 || s.Writes != 0 {
		t.Errorf("stats = %+v; want 2 reads, one of them throttled", s)
	}
}

func TestForbiddenThrottlingIsRetried(t *testing.T) {
	t.Parallel()
	n := 0
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		n++
		if n == 1 {
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`{"message":"Throttling due to too many requests"}`))
			return
		}
		writeAnswer(w, body)
	})
	c := newTestClient(t, srv.URL)
	res, err := c.Products.Delete(context.Background(), "1")
	if err != nil || res.IDs[0] == "" {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if s := c.Stats(); s.Requests != 2 || s.Writes != 2 || s.Throttled != 1 || s.Retries != 1 || s.Rate >= 1000 {
		t.Errorf("stats = %+v; want 2 writes, one of them throttled", s)
	}
}

func TestForbiddenPermissionIsNotRetried(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`{"message":"third-party stock control is off"}`))
	})
	c := newTestClient(t, srv.URL)
	_, err := c.Products.Delete(context.Background(), "1")
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 403 || ae.Message != "third-party stock control is off" || Classify(err) != Rejected {
		t.Errorf("err = %v", err)
	}
	if len(srv.requests()) != 1 {
		t.Errorf("requests = %d", len(srv.requests()))
	}
}

func TestThrottlingExhaustsRetries(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.WriteHeader(http.StatusTooManyRequests)
	})
	c := newTestClient(t, srv.URL, WithRetries(2))
	_, err := c.Variants.Write(context.Background(), []VariantWrite{{ID: "1"}})
	var rl *RateLimitError
	if !errors.As(err, &rl) || rl.Attempts != 3 || Classify(err) != Retryable {
		t.Errorf("err = %v", err)
	}
	if len(srv.requests()) != 3 {
		t.Errorf("requests = %d, want 3", len(srv.requests()))
	}
}

func TestLimiterAIMD(t *testing.T) {
	t.Parallel()
	l := NewLimiter(100, 10)
	gen := func() uint64 { l.mu.Lock(); defer l.mu.Unlock(); return l.gen }
	g0, err := l.acquire(context.Background())
	if err != nil || g0 != gen() {
		t.Fatalf("acquire = %d, %v", g0, err)
	}
	l.throttled(g0, 0)
	if l.Rate() != 50 || l.lim.Burst() != 1 {
		t.Fatalf("rate %v burst %d after a throttle, want 50 and 1", l.Rate(), l.lim.Burst())
	}
	l.throttled(g0, 0) // a request sent before the decrease: no second cut
	if l.Rate() != 50 {
		t.Fatalf("stale throttle lowered the rate to %v", l.Rate())
	}
	l.throttled(gen(), 0)
	if l.Rate() != 25 {
		t.Fatalf("rate = %v, want 25", l.Rate())
	}
	for range 20 {
		l.throttled(gen(), 0)
	}
	if l.Rate() != MinRate {
		t.Fatalf("rate = %v, want the floor %v", l.Rate(), MinRate)
	}
	prev := l.Rate()
	l.succeeded()
	if up := l.Rate() - prev; up <= 0 || up > 100 {
		t.Fatalf("a success raised the rate by %v", up)
	}
	for range 10000 {
		l.succeeded()
	}
	if l.Rate() != 100 || l.lim.Burst() != 9 || float64(l.lim.Limit()) != 100 {
		t.Fatalf("rate %v burst %d, want the ceiling 100 and burst 9 (10 less the reserve) back", l.Rate(), l.lim.Burst())
	}
}

// A client given the service's own rate and burst is never throttled,
// although its requests reach the service with up to an eighth of the
// rate's interval of jitter (as on a busy machine): one request of the
// service's burst is kept in reserve. The reserve also absorbs the pauses
// of a machine running other tests (up to one interval, 100 ms).
func TestPacedAtTheServiceRateIsNotThrottled(t *testing.T) {
	t.Parallel()
	const perSecond, burst = 10, 4
	server := rate.NewLimiter(perSecond, burst)
	var n atomic.Int64
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		// Transit: 0 to 12 ms, varying from request to request.
		time.Sleep(time.Duration(n.Add(1)*5%13) * time.Millisecond)
		if !server.Allow() {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Write([]byte(`{"meta":{"current_page":"1","last_page":"1"}}`))
	})
	c := newTestClient(t, srv.URL, WithRate(perSecond, burst))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 8 {
				if _, err := c.Variants.Get(context.Background(), "1"); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if s := c.Stats(); s.Throttled != 0 {
		t.Errorf("%d of %d requests throttled at the service's own rate", s.Throttled, s.Requests)
	}
}

// TestAIMDConverges runs a client configured ten times too fast against a
// server that throttles above 40 requests a second: every call must
// succeed, the rate must come down, and most requests must not be
// throttled.
func TestAIMDConverges(t *testing.T) {
	t.Parallel()
	server := rate.NewLimiter(40, 2)
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if !server.Allow() {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Write([]byte(`{"meta":{"current_page":"1","last_page":"1"}}`))
	})
	c := newTestClient(t, srv.URL, WithRate(400, 10), WithRetries(20))
	const workers, each = 4, 20
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if _, err := c.Variants.Get(context.Background(), "1"); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	s := c.Stats()
	t.Logf("stats: %+v", s)
	if s.Throttled == 0 || s.Rate >= 400 {
		t.Errorf("the rate never came down: %+v", s)
	}
	if s.Throttled > workers*each/2 {
		t.Errorf("%d of %d requests throttled: the rate did not converge", s.Throttled, s.Requests)
	}
}

func TestWaitsRespectContext(t *testing.T) {
	t.Parallel()
	t.Run("retry-after", func(t *testing.T) {
		srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusTooManyRequests)
		})
		c := newTestClient(t, srv.URL)
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := c.Variants.Get(ctx, "1")
		if time.Since(start) > 5*time.Second || !errors.Is(err, context.DeadlineExceeded) || Classify(err) != Retryable {
			t.Errorf("after %s: %v", time.Since(start), err)
		}
	})
	t.Run("backoff", func(t *testing.T) {
		srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
			w.WriteHeader(http.StatusBadGateway)
		})
		c := newTestClient(t, srv.URL, WithBackoff(time.Minute, time.Minute))
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := c.Products.Get(ctx, "1")
		if time.Since(start) > 5*time.Second || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("after %s: %v", time.Since(start), err)
		}
	})
	t.Run("limiter", func(t *testing.T) {
		l := NewLimiter(0.01, 1)
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		defer cancel()
		if err := l.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := l.Wait(ctx); err == nil || time.Since(start) > 5*time.Second {
			t.Errorf("second wait: %v after %s", err, time.Since(start))
		}
	})
}

func TestRetryAfterParsing(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"2", 2 * time.Second},
		{"0.5", 500 * time.Millisecond},
		{"-1", 0},
		{"soon", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{"86400", maxRetryAfter},
		{"1e20", maxRetryAfter}, // overflows a Duration
		{"+Inf", maxRetryAfter},
		{"NaN", 0},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.in, now); got != tt.want {
			t.Errorf("retryAfter(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
