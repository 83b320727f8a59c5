package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/sandbox"
)

// testToken is the access token every env registers; tests assert that it
// never shows up in errors or output.
const testToken = "e2e-token-5ecret-7c1d"

// prefixes are the base URL path prefixes the sandbox answers: none, and the
// real deployments' /api2. [A.1]
var prefixes = []string{"", wire.APIPrefix}

// env is a sandbox served over real HTTP with a registered token, and a
// client of it.
type env struct {
	t    *testing.T
	srv  *sandbox.Server
	ts   *httptest.Server
	acct sandbox.Account
	base string // ts.URL + prefix
	c    *api.Client
}

// fastClient paces far above anything the tests send, and backs off in
// milliseconds, so that only the sandbox's own throttling slows a test.
var fastClient = []api.Option{api.WithRate(1000, 100), api.WithBackoff(time.Millisecond, 10*time.Millisecond)}

// newEnv starts a sandbox with opts and returns a client of it at the base
// URL ts.URL+prefix. copts are applied after fastClient.
func newEnv(t *testing.T, opts sandbox.Options, prefix string, copts ...api.Option) *env {
	t.Helper()
	srv, err := sandbox.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close() })
	acct, err := srv.RegisterToken(testToken)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, srv: srv, ts: ts, acct: acct, base: ts.URL + prefix}
	e.c = e.client(testToken, copts...)
	return e
}

// client returns another client of the env's sandbox.
func (e *env) client(token string, copts ...api.Option) *api.Client {
	e.t.Helper()
	c, err := api.NewClient(e.base, token, append(slices.Clone(fastClient), copts...)...)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// raw posts body (marshalled to JSON) to path under the env's base URL with
// the token, bypassing the client, and returns the status and body.
func (e *env) raw(path string, body any) (int, http.Header, []byte) {
	e.t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		e.t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, e.base+path, bytes.NewReader(b))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", wire.ContentTypeJSON)
	req.Header.Set(wire.HeaderToken, testToken)
	res, err := e.ts.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return res.StatusCode, res.Header, out
}

// applied returns a check that every record of a write was applied, which
// returns their ids: applied(t)(c.Products.Write(ctx, recs)).
func applied(t *testing.T) func(*api.WriteResult, error) []api.ID {
	return func(res *api.WriteResult, err error) []api.ID {
		t.Helper()
		return writeIDs(t, res, err)
	}
}

func writeIDs(t *testing.T, res *api.WriteResult, err error) []api.ID {
	t.Helper()
	if err != nil {
		t.Fatalf("write: %v", err)
	}
	if len(res.Failed) > 0 {
		t.Fatalf("write: records rejected: %v", res.Failed)
	}
	for i, id := range res.IDs {
		if id == "" {
			t.Fatalf("write: record %d has no id", i)
		}
	}
	return res.IDs
}

// rejected returns a check that the service refused every record of a
// write one by one: a result naming each record in Failed, and no error:
// rejected(t, "what")(c.Products.Write(ctx, recs)).
func rejected(t *testing.T, what string) func(*api.WriteResult, error) {
	return func(res *api.WriteResult, err error) {
		t.Helper()
		if err != nil || res == nil || len(res.Failed) == 0 || len(res.Failed) != len(res.IDs) {
			t.Errorf("%s: result %+v, error %v; want every record rejected in the result", what, res, err)
		}
	}
}

// maxListed bounds every listing a test drains: no test creates that many
// records, so a listing that yields more has stopped following last_page
// and would otherwise run until the test binary times out.
const maxListed = 10_000

// errEndless is the error of a listing that yields more than maxListed
// records.
var errEndless = fmt.Errorf("the listing yielded more than %d records: it never ended", maxListed)

// collect drains a listing iterator, failing the test on error.
func collect[T any](t *testing.T, seq func(func(T, error) bool)) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		if err != nil {
			t.Fatalf("listing: %v", err)
		}
		if len(out) == maxListed {
			t.Fatal(errEndless)
		}
		out = append(out, v)
	}
	return out
}

// sandboxOpts are the options of a plain sandbox: in memory, no throttling,
// no faults.
func sandboxOpts() sandbox.Options { return sandbox.Options{} }

// order enters an order of lines with a shipping address at street, for the
// token's warehouse, and returns its id.
func (e *env) order(t *testing.T, street string, lines ...sandbox.OrderLine) string {
	t.Helper()
	id, err := e.srv.CreateOrder(t.Context(), sandbox.OrderSpec{Token: testToken,
		ShippingAddress: map[string]string{"contact": "Ada", "street1": street, "city": "Springfield"}, Lines: lines})
	if err != nil {
		t.Fatalf("creating an order: %v", err)
	}
	return id
}
