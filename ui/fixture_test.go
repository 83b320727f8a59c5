package ui_test

import (
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"lading/api"
	"lading/samples"
	"lading/sandbox"
	"lading/ui"
)

// token is the account's token in the tests: no page may show it.
const token = "ui-test-token-5e1f0c"

// fixture is a sandbox account, and lading ui serving it on a loopback
// port, with the sample catalog written to dir.
type fixture struct {
	sb      *sandbox.Server
	base    string // the sandbox's URL
	srv     *ui.Server
	url     string // the page's URL
	state   string
	dir     string // the samples: catalog.csv, images/
	catalog string
}

// newFixture starts a sandbox (with opts) and the page for its account.
func newFixture(t *testing.T, opts sandbox.Options, cfg ui.Config) *fixture {
	t.Helper()
	sb, base := newSandbox(t, opts)
	fx := &fixture{sb: sb, base: base, dir: t.TempDir()}
	if _, err := samples.WriteTo(fx.dir); err != nil {
		t.Fatal(err)
	}
	fx.catalog = filepath.Join(fx.dir, "catalog.csv")
	fx.state = filepath.Join(t.TempDir(), "state.db")
	client, err := api.NewClient(fx.base, token, api.WithRate(500, 50))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Client, cfg.Scope, cfg.Account, cfg.State, cfg.ImagesDir = client, scope(fx.base), fx.base, fx.state, fx.dir
	cfg.Rate = 500
	fx.srv, err = ui.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	page := httptest.NewUnstartedServer(fx.srv)
	page.Start()
	t.Cleanup(func() {
		page.Close()
		fx.srv.Close()
	})
	fx.srv.Allow(page.Listener.Addr().(*net.TCPAddr), page.Listener.Addr().String())
	fx.url = page.URL
	return fx
}

// newSandbox serves a sandbox (with opts) holding the account of token
// until the test ends, and returns it with its URL.
func newSandbox(t *testing.T, opts sandbox.Options) (*sandbox.Server, string) {
	t.Helper()
	sb, err := sandbox.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	if _, err := sb.RegisterToken(token); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(sb)
	t.Cleanup(hs.Close)
	return sb, hs.URL
}

// scope is the state's scope of the test account, as the command line
// names it (base URL and a hash of the token).
func scope(base string) string { return base + "#test" }

// client is an HTTP client with a session of its own.
type client struct {
	t    *testing.T
	c    *http.Client
	base string
	csrf string
}

func (fx *fixture) client(t *testing.T) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: t, base: fx.url, c: &http.Client{Jar: jar, Timeout: time.Minute,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

var csrfField = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"|csrf=([0-9a-f]+)`)

// get gets path, keeping the page's form token; it fails the test on a
// page that shows the account's token.
func (b *client) get(path string) (int, string) {
	b.t.Helper()
	res, err := b.c.Get(b.base + path)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.read(res)
}

func (b *client) read(res *http.Response) (int, string) {
	b.t.Helper()
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	if strings.Contains(string(body), token) {
		b.t.Fatalf("%s shows the account's token", res.Request.URL)
	}
	if m := csrfField.FindStringSubmatch(string(body)); m != nil {
		b.csrf = m[1] + m[2]
	}
	if loc := res.Header.Get("Location"); loc != "" {
		return res.StatusCode, loc
	}
	return res.StatusCode, string(body)
}

// post posts form to path, with the session's token unless form has one.
func (b *client) post(path string, form url.Values) (int, string) {
	b.t.Helper()
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", b.csrf)
	}
	res, err := b.c.PostForm(b.base+path, form)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.read(res)
}

// copyFile copies a file into dir under name.
func copyFile(t *testing.T, from, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(dir, name)
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return to
}
