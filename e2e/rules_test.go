package e2e

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/sandbox"
)

// listRequests is how many listing requests of resource the sandbox saw.
func (e *env) listRequests(resource string) int64 {
	return e.srv.Counters().Requests[wire.ListPath(resource)]
}

// TestFilterConditionals: a filter holds at most two conditionals. The
// client refuses a third before sending; the sandbox answers a raw one 400
// and still serves two.
func TestFilterConditionals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandboxOpts(), wire.APIPrefix)
	e.createProduct(shirt("A"))

	three := api.And(api.Where("bundle", "", "0"), api.Or(api.Where("sku", "", "A-RED-S")), api.Or(api.Where("sku", "", "A-BLUE-M")))
	_, err := collectErr(e.c.Variants.List(t.Context(), &api.ListOptions{Filter: three}))
	var qe *api.QueryError
	if !errors.As(err, &qe) || qe.Rule != api.RuleConditionals {
		t.Fatalf("three conditionals: %v, want a QueryError with rule %q", err, api.RuleConditionals)
	}
	if api.Classify(err) != api.Rejected {
		t.Errorf("Classify = %v, want rejected", api.Classify(err))
	}
	if n := e.listRequests(wire.Variants); n != 0 {
		t.Errorf("the client sent %d requests for a refused filter", n)
	}

	two := map[string]any{"and": []any{map[string]any{"bundle": "0"}}, "or": []any{map[string]any{"sku": "A-RED-S"}, map[string]any{"sku": "A-BLUE-M"}}}
	if st, _, body := e.raw(wire.ListPath(wire.Variants), map[string]any{"action": "read", "filter": two}); st != http.StatusOK || !strings.Contains(string(body), "A-BLUE-M") {
		t.Errorf("raw two-conditional filter: %d %s", st, body)
	}
	nested := map[string]any{"and": []any{map[string]any{"bundle": "0"}, map[string]any{"or": []any{map[string]any{"sku": "A-RED-S"}}}},
		"or": []any{map[string]any{"sku": "A-BLUE-M"}}}
	if st, _, body := e.raw(wire.ListPath(wire.Variants), map[string]any{"action": "read", "filter": nested}); st != http.StatusBadRequest {
		t.Errorf("raw three-conditional filter: %d %s, want 400", st, body)
	}
}

// TestPageSizeLimit: page_size 251 is refused by the client before sending
// and by the sandbox; 250 is served.
func TestPageSizeLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandboxOpts(), "")
	_, err := collectErr(e.c.Products.List(t.Context(), &api.ListOptions{PageSize: wire.MaxPageSize + 1}))
	var qe *api.QueryError
	if !errors.As(err, &qe) || qe.Rule != api.RulePageSize {
		t.Fatalf("page size 251: %v, want a QueryError with rule %q", err, api.RulePageSize)
	}
	if n := e.listRequests(wire.Products); n != 0 {
		t.Errorf("the client sent %d requests for a refused page size", n)
	}
	if _, err := collectErr(e.c.Products.List(t.Context(), &api.ListOptions{PageSize: wire.MaxPageSize})); err != nil {
		t.Errorf("page size 250: %v", err)
	}
	for size, want := range map[int]int{wire.MaxPageSize: http.StatusOK, wire.MaxPageSize + 1: http.StatusBadRequest} {
		if st, _, body := e.raw(wire.ListPath(wire.Products), map[string]any{"action": "read", "page_size": size}); st != want {
			t.Errorf("raw page_size %d: %d %s, want %d", size, st, body, want)
		}
	}
}

// TestWriteBatchLimit: a write of 101 records is refused by the client
// before sending and by the sandbox, which applies none of them; 100 pass.
func TestWriteBatchLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandboxOpts(), "")
	names := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprint("t", i)
		}
		return out
	}
	_, err := e.c.ProductTags.Create(t.Context(), names(wire.MaxWriteRecords+1)...)
	if !errors.Is(err, api.ErrInvalid) || api.Classify(err) != api.Rejected || !strings.Contains(err.Error(), "101 records") {
		t.Fatalf("101 records: %v (%v), want refused before sending", err, api.Classify(err))
	}
	if n := e.srv.Counters().Requests[wire.WritePath(wire.ProductTags)]; n != 0 {
		t.Errorf("the client sent %d requests for a refused batch", n)
	}
	recs := func(n int) []any {
		out := make([]any, n)
		for i, name := range names(n) {
			out[i] = map[string]any{"name": name}
		}
		return out
	}
	st, _, body := e.raw(wire.WritePath(wire.ProductTags), map[string]any{"action": "write", wire.ProductTags: recs(wire.MaxWriteRecords + 1)})
	if st != http.StatusBadRequest {
		t.Errorf("raw 101 records: %d %s, want 400", st, body)
	}
	if n := len(e.tagNames()); n != 0 {
		t.Errorf("%d tags created by a refused batch", n)
	}
	applied(t)(e.c.ProductTags.Create(t.Context(), names(wire.MaxWriteRecords)...))
	if n := len(e.tagNames()); n != wire.MaxWriteRecords {
		t.Errorf("%d tags after a batch of 100", n)
	}
}

// TestUnauthorized: a wrong token is a typed 401 that proves nothing was
// applied and does not repeat the token.
func TestUnauthorized(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandboxOpts(), wire.APIPrefix)
	const bad = "not-the-token-91f2"
	c := e.client(bad)
	_, err := collectErr(c.Variants.List(t.Context(), nil))
	var ae *api.APIError
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusUnauthorized {
		t.Fatalf("read with a bad token: %v, want *api.APIError 401", err)
	}
	if api.Classify(err) != api.Rejected || !errors.Is(err, api.ErrAccessDenied) {
		t.Errorf("Classify = %v, want rejected, access denied", api.Classify(err))
	}
	_, err = c.ProductTags.Create(t.Context(), "x")
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusUnauthorized || api.Classify(err) != api.Rejected || !errors.Is(err, api.ErrAccessDenied) {
		t.Errorf("write with a bad token: %v (%v), want a 401 rejected, access denied", err, api.Classify(err))
	}
	if strings.Contains(err.Error(), bad) {
		t.Errorf("the error repeats the token: %v", err)
	}
	if n := e.srv.Counters().Unauthorized; n != 2 {
		t.Errorf("sandbox counted %d unauthorized calls, want 2", n)
	}
	if n := len(e.tagNames()); n != 0 {
		t.Errorf("the unauthorized write created %d tags", n)
	}
}

// TestThrottling429: the sandbox throttles the token with 429 and
// Retry-After; the client honours it and every read succeeds.
func TestThrottling429(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{Rate: 4, Burst: 2}, wire.APIPrefix)
	st, h, _ := e.readUntilRefused()
	if st != http.StatusTooManyRequests {
		t.Fatalf("status %d once the bucket is empty, want 429", st)
	}
	if ra, err := strconv.Atoi(h.Get(wire.HeaderRetryAfter)); err != nil || ra < 1 {
		t.Errorf("Retry-After %q, want whole seconds >= 1", h.Get(wire.HeaderRetryAfter))
	}
	readsThrottled(t, e)
}

// TestThrottling403: the gateway's 403 "Throttling due to too many
// requests" is throttling, not a permission error.
func TestThrottling403(t *testing.T) {
	t.Parallel()
	// Without Retry-After the client relies on its backoff and on halving
	// its rate at each throttled answer: from 8/s it drops below the
	// sandbox's 4/s after one, so it cannot exhaust its retries.
	e := newEnv(t, sandbox.Options{Rate: 4, Burst: 2, ThrottleStatus: http.StatusForbidden}, "",
		api.WithRate(8, 1), api.WithBackoff(100*time.Millisecond, time.Second))
	st, _, body := e.readUntilRefused()
	if st != http.StatusForbidden || !wire.IsThrottleBody(body) {
		t.Fatalf("throttled answer %d %s, want 403 with %q", st, body, wire.ThrottleText)
	}
	readsThrottled(t, e)
}

// readUntilRefused sends raw product reads to a sandbox that throttles at
// 4/s with a burst of 2 until one is not answered 200, and returns that
// answer. A hundred reads take far less than the 25 s the bucket would need
// to serve them all, so a sandbox that never refuses one fails the test.
func (e *env) readUntilRefused() (int, http.Header, []byte) {
	e.t.Helper()
	const reads = 100
	for range reads {
		st, h, body := e.raw(wire.ListPath(wire.Products), map[string]any{"action": "read"})
		if st != http.StatusOK {
			return st, h, body
		}
	}
	e.t.Fatalf("the sandbox answered %d reads in a row with 200: it never throttled", reads)
	return 0, nil, nil
}

// readsThrottled makes 4 reads as fast as the client allows against a
// throttling sandbox and checks that all succeed after being throttled.
func readsThrottled(t *testing.T, e *env) {
	t.Helper()
	before := e.srv.Counters().Throttled
	for i := 0; i < 4; i++ {
		if _, err := collectErr(e.c.Products.List(t.Context(), nil)); err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
	}
	if n := e.srv.Counters().Throttled - before; n == 0 {
		t.Error("the sandbox throttled nothing")
	}
	if s := e.c.Stats(); s.Throttled == 0 || s.Retries == 0 {
		t.Errorf("client stats %+v: want throttled and retried calls", s)
	}
}

// TestThrottledOut: a client that may not retry gives up with a
// RateLimitError, which proves nothing was applied.
func TestThrottledOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{Rate: 0.5, Burst: 1}, "", api.WithRetries(0))
	applied(t)(e.c.ProductTags.Create(t.Context(), "first"))
	_, err := e.c.ProductTags.Create(t.Context(), "second")
	var rl *api.RateLimitError
	if !errors.As(err, &rl) || api.Classify(err) != api.Retryable {
		t.Fatalf("throttled write without retries: %v (%v), want *api.RateLimitError, retryable", err, api.Classify(err))
	}
	if rl.RetryAfter <= 0 {
		t.Errorf("RetryAfter %v, want the sandbox's Retry-After", rl.RetryAfter)
	}
}

// collectErr drains a listing and returns the first error.
func collectErr[T any](seq func(func(T, error) bool)) (int, error) {
	n := 0
	for _, err := range seq {
		if err != nil {
			return n, err
		}
		if n == maxListed {
			return n, errEndless
		}
		n++
	}
	return n, nil
}
