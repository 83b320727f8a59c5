package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"lading/api/wire"
)

// setRates changes the fault rates of a running server.
func (f *faults) setRates(fail, drop float64) {
	f.mu.Lock()
	f.failRate, f.dropRate = fail, drop
	f.mu.Unlock()
}

func TestThrottle429(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Rate: 0.5, Burst: 2})
	for i := 0; i < 2; i++ {
		e.read(wire.ListPath(wire.Products), nil).expect(t, 200)
	}
	r := e.read(wire.ListPath(wire.Products), nil).expect(t, 429)
	ra, err := strconv.Atoi(r.header.Get(wire.HeaderRetryAfter))
	if err != nil || ra < 1 || ra > 2 {
		t.Errorf("Retry-After %q", r.header.Get(wire.HeaderRetryAfter))
	}
	if r.message() == "" {
		t.Error("429 without message")
	}
	// Buckets are per token.
	if _, err := e.srv.RegisterToken("other"); err != nil {
		t.Fatal(err)
	}
	e.postToken("other", wire.ListPath(wire.Products), map[string]any{"action": "read"}).expect(t, 200)
	if c := e.srv.Counters(); c.Throttled != 1 {
		t.Errorf("throttled counter %d", c.Throttled)
	}
}

func TestThrottle403(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Rate: 0.1, Burst: 1, ThrottleStatus: 403})
	e.read(wire.ListPath(wire.Products), nil).expect(t, 200)
	r := e.read(wire.ListPath(wire.Products), nil).expect(t, 403)
	if !wire.IsThrottleBody(r.raw) {
		t.Errorf("403 body %s", r.raw)
	}
}

func TestFailRate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{FailRate: 1, Seed: 1})
	r := e.write(wire.Products, product("F", "f1")).expect(t, 500)
	if r.message() == "" {
		t.Error("500 without message")
	}
	e.srv.faults.setRates(0, 0)
	if n := e.read(wire.ListPath(wire.Products), nil).expect(t, 200).meta()["total"]; n != "0" {
		t.Errorf("a failed call applied its write: %v", n)
	}
	if c := e.srv.Counters(); c.Faults["fail"] != 1 {
		t.Errorf("fail counter %v", c.Faults)
	}
}

func TestFailRateSeeded(t *testing.T) {
	t.Parallel()
	pattern := func() []int {
		e := newEnv(t, Options{FailRate: 0.5, Seed: 42})
		var out []int
		for i := 0; i < 20; i++ {
			out = append(out, e.read(wire.ListPath(wire.Products), nil).status)
		}
		return out
	}
	a, b := pattern(), pattern()
	fails := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different faults: %v vs %v", a, b)
		}
		if a[i] == 500 {
			fails++
		}
	}
	if fails == 0 || fails == 20 {
		t.Errorf("fail rate 0.5 gave %d of 20", fails)
	}
}

// ThrottleRate answers a share of calls as throttled, seeded, with
// Retry-After, whatever the configured rate.
func TestThrottleRate(t *testing.T) {
	t.Parallel()
	pattern := func() []int {
		e := newEnv(t, Options{ThrottleRate: 0.5, Seed: 7})
		var out []int
		for range 20 {
			out = append(out, e.read(wire.ListPath(wire.Products), nil).status)
		}
		if c := e.srv.Counters(); c.Throttled != int64(countOf(out, http.StatusTooManyRequests)) {
			t.Errorf("throttled counter %d for %v", c.Throttled, out)
		}
		return out
	}
	a, b := pattern(), pattern()
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("same seed, different throttling: %v vs %v", a, b)
	}
	if n := countOf(a, http.StatusTooManyRequests); n == 0 || n == 20 || n+countOf(a, 200) != 20 {
		t.Errorf("throttle rate 0.5 gave %v", a)
	}
}

// NoRetryAfter leaves Retry-After out of the throttles of ThrottleRate
// only: those of the token's bucket still say how long to wait.
func TestNoRetryAfter(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{ThrottleRate: 1, Seed: 7, NoRetryAfter: true})
	r := e.read(wire.ListPath(wire.Products), nil).expect(t, http.StatusTooManyRequests)
	if ra, ok := r.header[wire.HeaderRetryAfter]; ok {
		t.Errorf("an injected throttle with NoRetryAfter has Retry-After %q", ra)
	}
	if r.message() == "" {
		t.Error("429 without message")
	}
	e = newEnv(t, Options{Rate: 0.5, Burst: 1, NoRetryAfter: true})
	e.read(wire.ListPath(wire.Products), nil).expect(t, 200)
	r = e.read(wire.ListPath(wire.Products), nil).expect(t, http.StatusTooManyRequests)
	if ra, err := strconv.Atoi(r.header.Get(wire.HeaderRetryAfter)); err != nil || ra < 1 || ra > 2 {
		t.Errorf("a throttle of the rate with NoRetryAfter: Retry-After %q; want its wait", r.header.Get(wire.HeaderRetryAfter))
	}
}

func countOf(xs []int, x int) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}

func TestDropRate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{DropRate: 1, Seed: 3})
	// Reads are never dropped.
	e.read(wire.ListPath(wire.Products), nil).expect(t, 200)
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+wire.WritePath(wire.Products),
		jsonBody(t, map[string]any{"action": "write", "Products": []any{product("D", "d1")}}))
	req.Header.Set(wire.HeaderToken, e.token)
	res, err := e.ts.Client().Do(req)
	if err == nil {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		t.Fatalf("dropped write answered %d", res.StatusCode)
	}
	if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Logf("drop error: %v", err)
	}
	e.srv.faults.setRates(0, 0)
	if n := e.read(wire.ListPath(wire.Products), nil).expect(t, 200).meta()["total"]; n != "1" {
		t.Errorf("dropped write was not applied: total %v", n)
	}
	if c := e.srv.Counters(); c.Faults["drop"] != 1 {
		t.Errorf("drop counter %v", c.Faults)
	}
}

func TestLatency(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Latency: 50 * time.Millisecond})
	start := time.Now()
	e.read(wire.ListPath(wire.Products), nil).expect(t, 200)
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("answered after %s, latency 50ms", d)
	}
	if c := e.srv.Counters(); c.Faults["latency"] != 1 || c.Requests[wire.ListPath(wire.Products)] != 1 {
		t.Errorf("counters %+v", c)
	}
}

// A call is in flight from its arrival to its answer, even when its
// client is gone before the answer: a write may still be applied.
func TestInFlight(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Latency: time.Second})
	ctx, cancel := context.WithCancel(t.Context())
	body := map[string]any{"action": "write", wire.Products: []any{map[string]any{"name": "Late"}}}
	raw, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.ts.URL+wire.WritePath(wire.Products), bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(wire.HeaderToken, testToken)
	done := make(chan error, 1)
	go func() {
		res, err := e.ts.Client().Do(req)
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	waitFor(t, "the call in flight", func() bool { return e.srv.Counters().InFlight == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the call ended with %v, want it cancelled", err)
	}
	if n := e.srv.Counters().InFlight; n != 1 {
		t.Errorf("%d calls in flight once the client is gone, want the write still counted", n)
	}
	waitFor(t, "no call in flight", func() bool { return e.srv.Counters().InFlight == 0 })
	r := e.read(wire.ListPath(wire.Products), nil).expect(t, 200)
	if recs, _ := r.body[wire.Products].([]any); len(recs) != 1 {
		t.Errorf("the account holds %v, want the product of the write its client gave up", r.body[wire.Products])
	}
}

// waitFor waits up to a minute for cond, looking every few milliseconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
