package sandbox

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"lading/api/wire"
)

var testClient = Client{ID: "cli", Secret: "s3cret-value", RedirectURI: "https://app.example/callback"}

// setClock replaces the clock codes expire by.
func (o *oauthState) setClock(now func() time.Time) {
	o.mu.Lock()
	o.now = now
	o.mu.Unlock()
}

// authorize runs step 1 and returns the redirect target.
func authorize(t *testing.T, e *env, q url.Values) *http.Response {
	t.Helper()
	c := *e.ts.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := c.Get(e.ts.URL + wire.AuthorizePath + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

func authQuery() url.Values {
	return url.Values{"response_type": {"code"}, "scope": {""}, "client_id": {testClient.ID},
		"redirect_uri": {testClient.RedirectURI}, "state": {"a b&c=1/é"}}
}

func codeOf(t *testing.T, res *http.Response) string {
	t.Helper()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("authorize status %d", res.StatusCode)
	}
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return loc.Query().Get("code")
}

func tokenParams(code string) url.Values {
	return url.Values{"client_id": {testClient.ID}, "client_secret": {testClient.Secret}, "code": {code},
		"grant_type": {"authorization_code"}, "redirect_uri": {testClient.RedirectURI}, "scope": {""}}
}

func exchangeForm(t *testing.T, e *env, p url.Values) resp {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+wire.TokenPath, strings.NewReader(p.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return e.do(req)
}

func exchangeQuery(t *testing.T, e *env, p url.Values) resp {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+wire.TokenPath+"?"+p.Encode(), nil)
	return e.do(req)
}

func TestAuthorizeRedirect(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Clients: []Client{testClient}})
	res := authorize(t, e, authQuery())
	loc, _ := url.Parse(res.Header.Get("Location"))
	if got := loc.Scheme + "://" + loc.Host + loc.Path; got != testClient.RedirectURI {
		t.Errorf("redirected to %s", got)
	}
	if loc.Query().Get("state") != "a b&c=1/é" || loc.Query().Get("code") == "" {
		t.Errorf("redirect query %v", loc.Query())
	}
	bad := []func(url.Values){
		func(q url.Values) { q.Set("redirect_uri", testClient.RedirectURI+"/x") },
		func(q url.Values) { q.Set("client_id", "nobody") },
		func(q url.Values) { q.Set("response_type", "token") },
		func(q url.Values) { q.Del("scope") },
	}
	for i, mutate := range bad {
		q := authQuery()
		mutate(q)
		if res := authorize(t, e, q); res.StatusCode != http.StatusBadRequest {
			t.Errorf("bad authorize %d: status %d", i, res.StatusCode)
		}
	}
}

func TestTokenExchange(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Clients: []Client{testClient}, Logger: nil})
	code := codeOf(t, authorize(t, e, authQuery()))
	// Wrong redirect URI is refused (and burns the code).
	p := tokenParams(code)
	p.Set("redirect_uri", "https://app.example/other")
	exchangeForm(t, e, p).expect(t, 400)

	code = codeOf(t, authorize(t, e, authQuery()))
	r := exchangeQuery(t, e, tokenParams(code)).expect(t, 200)
	tok, _ := r.body["access_token"].(string)
	if tok == "" || r.body["token_type"] != "bearer" {
		t.Fatalf("token response %s", r.raw)
	}
	if strings.Contains(string(r.raw), testClient.Secret) {
		t.Error("token response leaks the client secret")
	}
	// Single use.
	if r := exchangeForm(t, e, tokenParams(code)); r.status != 400 || !strings.Contains(r.message(), "already used") {
		t.Errorf("reused code: %d %s", r.status, r.raw)
	}
	// The token works, with its own warehouse.
	e.postToken(tok, wire.ListPath(wire.Products), map[string]any{"action": "read"}).expect(t, 200)
	e.token = tok
	e.mustIDs(wire.Products, product("P", "oauth-sku"))
	_, vr := e.variantBySKU("oauth-sku")
	addrs := vr.body[wire.AccountAddresses].(map[string]any)
	if len(addrs) != 1 {
		t.Fatalf("warehouses %v", addrs)
	}
	for _, a := range addrs {
		if a.(map[string]any)["warehouse"] != "1" {
			t.Errorf("address %v", a)
		}
	}
	// Once per account: a second authentication of the client is refused.
	code = codeOf(t, authorize(t, e, authQuery()))
	r = exchangeForm(t, e, tokenParams(code)).expect(t, 400)
	if !strings.Contains(r.message(), "already authenticated") {
		t.Errorf("second auth message %q", r.message())
	}
	// Wrong secret.
	code = codeOf(t, authorize(t, e, authQuery()))
	p = tokenParams(code)
	p.Set("client_secret", "nope")
	if r := exchangeForm(t, e, p).expect(t, 401); strings.Contains(string(r.raw), "nope") {
		t.Error("error echoes the secret")
	}
}

func TestCodeExpires(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Clients: []Client{testClient}})
	code := codeOf(t, authorize(t, e, authQuery()))
	e.srv.oauth.setClock(func() time.Time { return time.Now().Add(codeTTL + time.Second) })
	if r := exchangeForm(t, e, tokenParams(code)).expect(t, 400); !strings.Contains(r.message(), "expired") {
		t.Errorf("message %q", r.message())
	}
	e.srv.oauth.setClock(time.Now)
	code = codeOf(t, authorize(t, e, authQuery()))
	p := tokenParams(code)
	p.Del("scope")
	exchangeForm(t, e, p).expect(t, 400)
}

// Codes that are never exchanged are dropped once expired, so repeated
// authorizations do not grow the server's memory without bound.
func TestUnexchangedCodesDropped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Clients: []Client{testClient}})
	for range 5 {
		codeOf(t, authorize(t, e, authQuery()))
	}
	e.srv.oauth.setClock(func() time.Time { return time.Now().Add(codeTTL + time.Second) })
	code := codeOf(t, authorize(t, e, authQuery()))
	e.srv.oauth.mu.Lock()
	n := len(e.srv.oauth.codes)
	e.srv.oauth.mu.Unlock()
	if n != 1 {
		t.Errorf("%d codes kept after the others expired, want 1 (the new one)", n)
	}
	exchangeForm(t, e, tokenParams(code)).expect(t, 200)
}
