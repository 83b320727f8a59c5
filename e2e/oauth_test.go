package e2e

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/auth"
	"lading/sandbox"
)

const clientSecret = "cl1ent-s3cret-e2e"

// freeRedirect returns a loopback redirect URI on a port that was free a
// moment ago.
func freeRedirect(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/callback"
}

// oauthEnv is a sandbox with one registered OAuth client.
type oauthEnv struct {
	srv      *sandbox.Server
	base     string
	client   sandbox.Client
	redirect string
}

func newOAuthEnv(t *testing.T, prefix string) *oauthEnv {
	t.Helper()
	redirect := freeRedirect(t)
	cl := sandbox.Client{ID: "lading-e2e", Secret: clientSecret, RedirectURI: redirect}
	srv, err := sandbox.New(sandbox.Options{Clients: []sandbox.Client{cl}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close() })
	return &oauthEnv{srv: srv, base: ts.URL + prefix, client: cl, redirect: redirect}
}

// browser is the user's browser in a test: it opens the authorization URL
// without following redirects, optionally rewrites the Location, and then
// opens the Location (the loopback callback). What it saw goes to seen.
type browser struct {
	rewrite func(loc *url.URL)
	seen    chan visit
}

// visit is what the browser saw: the authorization answer and the callback's.
type visit struct {
	authStatus     int
	authBody       string
	callbackStatus int
	err            error
}

func newBrowser() *browser { return &browser{seen: make(chan visit, 1)} }

// open is an auth.LoginConfig.OpenURL: it returns at once and browses in
// the background.
func (b *browser) open(authURL string) error {
	go func() {
		var v visit
		defer func() { b.seen <- v }()
		hc := &http.Client{Timeout: 10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := hc.Get(authURL)
		if err != nil {
			v.err = err
			return
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		v.authStatus, v.authBody = res.StatusCode, string(body)
		if res.StatusCode != http.StatusFound {
			return
		}
		loc, err := url.Parse(res.Header.Get("Location"))
		if err != nil {
			v.err = err
			return
		}
		if b.rewrite != nil {
			b.rewrite(loc)
		}
		res, err = hc.Get(loc.String())
		if err != nil {
			v.err = err
			return
		}
		res.Body.Close()
		v.callbackStatus = res.StatusCode
	}()
	return nil
}

func (o *oauthEnv) config(b *browser) auth.LoginConfig {
	return auth.LoginConfig{BaseURL: o.base, ClientID: o.client.ID, ClientSecret: clientSecret,
		RedirectURI: o.redirect, OpenURL: b.open, Timeout: 10 * time.Second}
}

// TestOAuthLogin: the authorization-code flow against the sandbox yields a
// token that works on the interface; the same client cannot authenticate a
// second time for the account.
func TestOAuthLogin(t *testing.T) {
	t.Parallel()
	for _, prefix := range prefixes {
		t.Run("base"+prefix, func(t *testing.T) {
			o := newOAuthEnv(t, prefix)
			b := newBrowser()
			token, err := auth.Login(t.Context(), o.config(b))
			if err != nil {
				t.Fatalf("login: %v", err)
			}
			if v := <-b.seen; v.authStatus != http.StatusFound || v.callbackStatus != http.StatusOK {
				t.Errorf("browser saw authorize %d, callback %d", v.authStatus, v.callbackStatus)
			}
			c, err := api.NewClient(o.base, token, fastClient...)
			if err != nil {
				t.Fatal(err)
			}
			applied(t)(c.ProductTags.Create(t.Context(), "via-oauth"))
			tags, err := collectErr(c.ProductTags.List(t.Context(), nil))
			if err != nil || tags != 1 {
				t.Errorf("reading with the OAuth token: %d tags, %v", tags, err)
			}

			b = newBrowser()
			_, err = auth.Login(t.Context(), o.config(b))
			<-b.seen
			if err == nil || !strings.Contains(err.Error(), "once per account") {
				t.Errorf("second login of the same client: %v, want a refusal saying a client authenticates once per account", err)
			}
			if err != nil && strings.Contains(err.Error(), clientSecret) {
				t.Errorf("the error shows the client secret: %v", err)
			}
		})
	}
}

// TestOAuthWrongRedirect: an authorization request whose redirect_uri is
// not the registered one is refused by the service and never reaches the
// callback; the login gives up when told to.
func TestOAuthWrongRedirect(t *testing.T) {
	t.Parallel()
	o := newOAuthEnv(t, "")
	b := newBrowser()
	cfg := o.config(b)
	cfg.RedirectURI = freeRedirect(t) // another port than registered
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { _, err := auth.Login(ctx, cfg); done <- err }()
	v := <-b.seen
	if v.authStatus != http.StatusBadRequest || !strings.Contains(v.authBody, "not the redirect URL registered") {
		t.Errorf("authorize with a wrong redirect_uri: %d %s, want 400 naming the registered redirect", v.authStatus, v.authBody)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("login after a refused authorization: %v, want it cancelled (no callback came)", err)
	}
}

// TestOAuthState: the sandbox returns state unmodified (the login checks it
// and succeeds); a callback with another state is refused as possible
// request forgery, and no token is issued.
func TestOAuthState(t *testing.T) {
	t.Parallel()
	o := newOAuthEnv(t, "")
	b := newBrowser()
	b.rewrite = func(loc *url.URL) {
		q := loc.Query()
		q.Set("state", "forged")
		loc.RawQuery = q.Encode()
	}
	_, err := auth.Login(t.Context(), o.config(b))
	if v := <-b.seen; v.callbackStatus != http.StatusBadRequest {
		t.Errorf("callback with a forged state answered %d, want 400", v.callbackStatus)
	}
	if err == nil || !strings.Contains(err.Error(), "state") {
		t.Fatalf("login with a forged state: %v, want a state mismatch", err)
	}
	if n := o.srv.Counters().Requests[wire.TokenPath]; n != 0 {
		t.Errorf("the code was exchanged %d times despite the forged state", n)
	}
	// The forged attempt spent no authentication: a real login still works.
	b = newBrowser()
	if _, err := auth.Login(t.Context(), o.config(b)); err != nil {
		t.Errorf("login after the refused one: %v", err)
	}
	<-b.seen
}

// TestOAuthWrongSecret: a wrong client secret is refused at the token
// exchange, and the error does not repeat it.
func TestOAuthWrongSecret(t *testing.T) {
	t.Parallel()
	o := newOAuthEnv(t, "")
	b := newBrowser()
	cfg := o.config(b)
	cfg.ClientSecret = "wrong-" + clientSecret
	_, err := auth.Login(t.Context(), cfg)
	<-b.seen
	if err == nil || strings.Contains(err.Error(), cfg.ClientSecret) {
		t.Errorf("login with a wrong secret: %v, want a refusal without the secret", err)
	}
}
