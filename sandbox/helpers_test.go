package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"testing"

	"lading/api/wire"
)

const testToken = "test-token-secret"

// env is a started sandbox with a registered token.
type env struct {
	t     *testing.T
	srv   *Server
	ts    *httptest.Server
	token string
	acct  Account
}

func newEnv(t *testing.T, opts Options) *env {
	t.Helper()
	srv, acct := tokenServer(t, opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &env{t: t, srv: srv, ts: ts, token: testToken, acct: acct}
}

// tokenServer is a sandbox with testToken registered, closed when tb ends.
func tokenServer(tb testing.TB, opts Options) (*Server, Account) {
	tb.Helper()
	srv, err := New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { srv.Close() })
	acct, err := srv.RegisterToken(testToken)
	if err != nil {
		tb.Fatal(err)
	}
	return srv, acct
}

// resp is a decoded answer.
type resp struct {
	status int
	header http.Header
	body   map[string]any
	raw    []byte
}

func (e *env) postToken(token, path string, body any) resp {
	e.t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		e.t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", wire.ContentTypeJSON)
	if token != "" {
		req.Header.Set(wire.HeaderToken, token)
	}
	return e.do(req)
}

func (e *env) do(req *http.Request) resp {
	e.t.Helper()
	res, err := e.ts.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := resp{status: res.StatusCode, header: res.Header, raw: raw}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &r.body); err != nil {
			e.t.Fatalf("%s: body is not a JSON object: %v\n%s", req.URL.Path, err, raw)
		}
	}
	return r
}

func (e *env) post(path string, body any) resp { e.t.Helper(); return e.postToken(e.token, path, body) }

// read posts a read envelope.
func (e *env) read(path string, fields map[string]any) resp {
	e.t.Helper()
	body := map[string]any{"action": "read"}
	maps.Copy(body, fields)
	return e.post(path, body)
}

// write posts a write envelope of records.
func (e *env) write(resource string, recs ...any) resp {
	e.t.Helper()
	return e.post(wire.WritePath(resource), map[string]any{"action": "write", resource: recs})
}

// mustIDs writes and expects every record to succeed, returning the ids.
func (e *env) mustIDs(resource string, recs ...any) []string {
	e.t.Helper()
	r := e.write(resource, recs...)
	if r.status != 200 {
		e.t.Fatalf("write %s: status %d: %s", resource, r.status, r.raw)
	}
	var ids []string
	for i, x := range r.body[resource].([]any) {
		m := x.(map[string]any)
		if m["error"] != nil {
			e.t.Fatalf("write %s record %d failed: %v", resource, i, m["error"])
		}
		ids = append(ids, m["id"].(string))
	}
	return ids
}

func (r resp) expect(t *testing.T, status int) resp {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.raw)
	}
	return r
}

func (r resp) message() string {
	s, _ := r.body["message"].(string)
	return s
}

// records is the resource array of a read answer.
func (r resp) records(resource string) []map[string]any {
	arr, _ := r.body[resource].([]any)
	out := make([]map[string]any, len(arr))
	for i, x := range arr {
		out[i] = x.(map[string]any)
	}
	return out
}

func (r resp) meta() map[string]any {
	m, _ := r.body["meta"].(map[string]any)
	return m
}

func (r resp) side(resource, id string) map[string]any {
	m, _ := r.body[resource].(map[string]any)
	rec, _ := m[id].(map[string]any)
	return rec
}

// recordError returns the error of record i of a write answer, or nil.
func (r resp) recordError(resource string, i int) map[string]any {
	arr, _ := r.body[resource].([]any)
	if i >= len(arr) {
		return nil
	}
	e, _ := arr[i].(map[string]any)["error"].(map[string]any)
	return e
}

func linkIDsOf(rec map[string]any, resource string) []string {
	l, _ := rec["links"].(map[string]any)
	arr, _ := l[resource].([]any)
	var out []string
	for _, x := range arr {
		out = append(out, x.(map[string]any)["id"].(string))
	}
	return out
}

// product builds a product record with one variant per SKU, each with the
// option "Size" given.
func product(name string, skus ...string) map[string]any {
	var vs []any
	for i, s := range skus {
		vs = append(vs, map[string]any{"sku": s, "quantity": "0",
			"links": map[string]any{"AttributeOptions": []any{map[string]any{"value": fmt.Sprintf("S%d", i)}}}})
	}
	return map[string]any{"name": name, "links": map[string]any{
		"Attributes": []any{map[string]any{"name": "Size", "order": 0}},
		"Variants":   vs,
	}}
}

// variantBySKU reads one variant by SKU through a filtered listing.
func (e *env) variantBySKU(sku string) (map[string]any, resp) {
	e.t.Helper()
	r := e.read(wire.ListPath(wire.Variants), map[string]any{"filter": map[string]any{"and": []any{map[string]any{"sku": sku}}}}).expect(e.t, 200)
	recs := r.records(wire.Variants)
	if len(recs) != 1 {
		e.t.Fatalf("variant %s: %d records", sku, len(recs))
	}
	return recs[0], r
}

func (e *env) setAvailable(variantID string, units any) resp {
	e.t.Helper()
	return e.write(wire.Variants, map[string]any{"id": variantID, "links": map[string]any{
		"ReconcileInventory": []any{map[string]any{"change": "set_available", "units": units,
			"links": map[string]any{"AccountAddresses": []any{map[string]any{"id": e.acct.WarehouseID}}}}}}})
}

func newTestHTTP(h http.Handler) *httptest.Server { return httptest.NewServer(h) }

func jsonBody(t *testing.T, v any) io.Reader {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b)
}
