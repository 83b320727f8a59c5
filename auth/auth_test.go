package auth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStorePermissionsAndOverwrite(t *testing.T) {
	t.Parallel()
	s := &Store{Path: filepath.Join(t.TempDir(), "cfg", "credentials.json")}
	c := Credential{BaseURL: "http://x/api2/", Token: "tok-secret-123456", ClientID: "c"}
	if err := s.Put(c, false); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v, want 0600", fi.Mode().Perm())
	}
	got, ok, err := s.Get("http://x/api2")
	if err != nil || !ok || got.Token != c.Token {
		t.Fatalf("Get = %+v %v %v", got, ok, err)
	}
	if err := s.Put(Credential{BaseURL: "http://x/api2", Token: "other"}, false); !errors.Is(err, ErrAlreadyStored) {
		t.Fatalf("second Put without overwrite: %v, want ErrAlreadyStored", err)
	}
	if err := s.Put(Credential{BaseURL: "http://x/api2", Token: "other"}, true); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := s.Get("http://x/api2"); got.Token != "other" {
		t.Fatalf("overwrite did not take: %q", got.Token)
	}
	if ok, err := s.Delete("http://x/api2/"); !ok || err != nil {
		t.Fatalf("Delete = %v %v", ok, err)
	}
	if _, ok, _ := s.Get("http://x/api2"); ok {
		t.Fatal("token still stored after Delete")
	}
}

// Two merchants' accounts on one base URL keep their tokens apart in the
// store, by name, beside the token of the base URL itself.
func TestStoreKeepsAccountsApart(t *testing.T) {
	t.Parallel()
	s := &Store{Path: filepath.Join(t.TempDir(), "credentials.json")}
	base := "https://host/api2"
	for _, c := range []Credential{{BaseURL: base, Token: "plain"}, {Account: "acme", BaseURL: base, Token: "acme-token"},
		{Account: "globex", BaseURL: base + "/", Token: "globex-token"}} {
		if err := s.Put(c, false); err != nil {
			t.Fatalf("Put %v: %v", c, err)
		}
	}
	if err := s.Put(Credential{Account: "acme", BaseURL: base, Token: "again"}, false); !errors.Is(err, ErrAlreadyStored) {
		t.Errorf("a second token for acme: %v, want ErrAlreadyStored", err)
	}
	for name, want := range map[string]string{"acme": "acme-token", "globex": "globex-token"} {
		if c, ok, err := s.GetAccount(name); err != nil || !ok || c.Token != want || c.BaseURL != base {
			t.Errorf("GetAccount(%s) = %+v %v %v, want token %s", name, c, ok, err, want)
		}
	}
	if c, ok, _ := s.Get(base); !ok || c.Token != "plain" {
		t.Errorf("the base URL's own token: %+v %v", c, ok)
	}
	if ok, err := s.DeleteAccount("acme"); !ok || err != nil {
		t.Fatalf("DeleteAccount = %v %v", ok, err)
	}
	if _, ok, _ := s.GetAccount("acme"); ok {
		t.Error("acme's token is still stored")
	}
	if all, _ := s.List(); len(all) != 2 {
		t.Errorf("List after deleting acme: %v, want the base URL's and globex's", all)
	}
	if got := fmt.Sprint(Credential{Account: "globex", BaseURL: base, Token: "globex-token-0123456789"}); strings.Contains(got, "globex-token-0123456789") {
		t.Errorf("a credential prints its token: %s", got)
	}
}

// TestMaskShowsLittle: a short token is masked whole; a long one shows at
// most a quarter of itself, at its ends, to tell two apart.
func TestMaskShowsLittle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ token, want string }{
		{"", ""},
		{"a", "********"},
		{"abcdefghi", "********"},
		{"abcdefghijklmno", "********"},
		{"abcdefghijklmnop", "ab********op"},
		{"abcdefghijklmnopqrstuvwx", "abc********vwx"},
		{"0123456789abcdef0123456789abcdef", "0123********cdef"},
		{"0123456789abcdef0123456789abcdef0123456789", "0123********6789"},
	} {
		got := Mask(tc.token)
		if got != tc.want {
			t.Errorf("Mask(%q) = %q, want %q", tc.token, got, tc.want)
		}
		if shown := len(strings.ReplaceAll(got, "*", "")); shown > len(tc.token)/4 {
			t.Errorf("Mask(%q) = %q shows %d of its %d characters", tc.token, got, shown, len(tc.token))
		}
	}
}

func TestMaskNeverShowsWholeToken(t *testing.T) {
	t.Parallel()
	for _, tok := range []string{"", "abc", "12345678", "abcdefghijklmnop"} {
		m := Mask(tok)
		if tok != "" && strings.Contains(m, tok) {
			t.Errorf("Mask(%q) = %q shows the token", tok, m)
		}
	}
	if s := fmt.Sprint(Credential{BaseURL: "u", Token: "abcdefghijklmnop"}); strings.Contains(s, "abcdefghijklmnop") {
		t.Errorf("Credential prints its token: %s", s)
	}
}

func TestValidateRedirect(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in      string
		wantErr string
	}{
		{"http://127.0.0.1:8765/callback", ""},
		{"http://localhost:8765/cb", ""},
		{"http://[::1]:8765/cb", ""},
		{"https://127.0.0.1:8765/cb", "is not http://"},
		{"http://127.0.0.1/cb", "no port"},
		{"http://example.com:80/cb", "is not on a loopback address"},
		{"not a url", "not a URL"},
	} {
		_, err := ValidateRedirect(tc.in)
		if tc.wantErr == "" && err != nil {
			t.Errorf("%s: %v", tc.in, err)
		}
		if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.in, err, tc.wantErr)
		}
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// fakeProvider answers the token exchange and records what it was sent.
func fakeProvider(t *testing.T, got *url.Values) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api2/oauth/token" {
			http.NotFound(w, r)
			return
		}
		r.ParseForm()
		*got = r.Form
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"access_token":"perm-token-xyz","token_type":"bearer","scope":""}`)
	}))
}

func TestLoginFlow(t *testing.T) {
	t.Parallel()
	var sent url.Values
	prov := fakeProvider(t, &sent)
	defer prov.Close()
	redirect := fmt.Sprintf("http://127.0.0.1:%d/callback", freePort(t))

	var authURL *url.URL
	open := func(u string) error {
		var err error
		authURL, err = url.Parse(u)
		if err != nil {
			return err
		}
		// Play the browser: the provider redirects back with code and state.
		go func() {
			cb := redirect + "?code=the-code&state=" + url.QueryEscape(authURL.Query().Get("state"))
			resp, err := http.Get(cb)
			if err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}
	tok, err := Login(context.Background(), LoginConfig{
		BaseURL: prov.URL + "/api2", ClientID: "cid", ClientSecret: "shh", RedirectURI: redirect,
		OpenURL: open, Timeout: 10 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if tok != "perm-token-xyz" {
		t.Fatalf("token = %q", tok)
	}
	q := authURL.Query()
	if authURL.Path != "/api2/authorize" || q.Get("response_type") != "code" || q.Get("client_id") != "cid" ||
		q.Get("redirect_uri") != redirect || q.Get("state") == "" || !q.Has("scope") {
		t.Errorf("authorization URL %s lacks a required parameter", authURL)
	}
	for k, v := range map[string]string{"code": "the-code", "grant_type": "authorization_code", "client_id": "cid",
		"client_secret": "shh", "redirect_uri": redirect} {
		if sent.Get(k) != v {
			t.Errorf("token request %s = %q, want %q", k, sent.Get(k), v)
		}
	}
	if !sent.Has("scope") {
		t.Error("token request has no scope parameter; the service requires it even empty")
	}
}

func TestLoginRejectsForeignState(t *testing.T) {
	t.Parallel()
	var sent url.Values
	prov := fakeProvider(t, &sent)
	defer prov.Close()
	redirect := fmt.Sprintf("http://127.0.0.1:%d/callback", freePort(t))
	open := func(u string) error {
		go func() {
			resp, err := http.Get(redirect + "?code=c&state=forged")
			if err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}
	_, err := Login(context.Background(), LoginConfig{
		BaseURL: prov.URL + "/api2", ClientID: "cid", ClientSecret: "shh", RedirectURI: redirect,
		OpenURL: open, Timeout: 10 * time.Second,
	})
	if err == nil || !strings.Contains(err.Error(), "state") {
		t.Fatalf("err = %v, want a state mismatch", err)
	}
	if sent != nil {
		t.Fatal("the code was exchanged despite the forged state")
	}
}

func TestLoginHonoursContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	redirect := fmt.Sprintf("http://127.0.0.1:%d/callback", freePort(t))
	done := make(chan error, 1)
	go func() {
		_, err := Login(ctx, LoginConfig{BaseURL: "http://127.0.0.1:1", ClientID: "c", ClientSecret: "s",
			RedirectURI: redirect, OpenURL: func(string) error { return nil }})
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Login did not return after cancel")
	}
}

// TestLoginNeverShowsTheSecret has the token endpoint echo the client secret
// in its error answer, raw and form-encoded as the request carried it.
func TestLoginNeverShowsTheSecret(t *testing.T) {
	t.Parallel()
	const secret = "s3/cr+t&x=y"
	for name, echo := range map[string]string{
		"raw":          secret,
		"form-encoded": url.QueryEscape(secret),
		"path-escaped": url.PathEscape(secret),
	} {
		t.Run(name, func(t *testing.T) {
			prov := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "bad request: client_secret="+echo+" is not valid", http.StatusBadRequest)
			}))
			defer prov.Close()
			redirect := fmt.Sprintf("http://127.0.0.1:%d/callback", freePort(t))
			_, err := Login(context.Background(), LoginConfig{
				BaseURL: prov.URL, ClientID: "cid", ClientSecret: secret, RedirectURI: redirect,
				OpenURL: approve(redirect), Timeout: 10 * time.Second,
			})
			if err == nil {
				t.Fatal("want the token exchange to fail")
			}
			if strings.Contains(err.Error(), echo) || !strings.Contains(err.Error(), "[REDACTED]") {
				t.Errorf("error does not hide the secret: %v", err)
			}
		})
	}
}

// TestLoginDoesNotFollowATokenRedirect: a token endpoint that redirects
// (307 keeps the body) must not get the client secret sent elsewhere.
func TestLoginDoesNotFollowATokenRedirect(t *testing.T) {
	t.Parallel()
	var leaked url.Values
	elsewhere := fakeProvider(t, &leaked)
	defer elsewhere.Close()
	prov := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/api2/oauth/token", http.StatusTemporaryRedirect)
	}))
	defer prov.Close()
	redirect := fmt.Sprintf("http://127.0.0.1:%d/callback", freePort(t))
	_, err := Login(context.Background(), LoginConfig{
		BaseURL: prov.URL, ClientID: "cid", ClientSecret: "shh", RedirectURI: redirect,
		OpenURL: approve(redirect), Timeout: 10 * time.Second,
	})
	if err == nil {
		t.Error("login succeeded through a redirect")
	}
	if leaked != nil {
		t.Errorf("the redirect was followed: client_secret %q sent to %s", leaked.Get("client_secret"), elsewhere.URL)
	}
}

// approve plays the browser of a user who approves: it calls redirect back
// with code "c" and the authorization URL's state.
func approve(redirect string) func(authURL string) error {
	return func(u string) error {
		au, err := url.Parse(u)
		if err != nil {
			return err
		}
		go func() {
			resp, err := http.Get(redirect + "?code=c&state=" + url.QueryEscape(au.Query().Get("state")))
			if err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}
}
