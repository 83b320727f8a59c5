package ui_test

import (
	"bytes"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"lading/sandbox"
	"lading/ui"
)

// A request is answered only when its Host names the address the page
// listens on: a page elsewhere reaching it through a name of its own that
// points at 127.0.0.1 (DNS rebinding) is refused.
func TestHostMustBeTheListeningAddress(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, sandbox.Options{}, ui.Config{})
	for _, tc := range []struct {
		listen, asked, host string
		ok                  bool
	}{
		{"127.0.0.1:8710", "127.0.0.1:8710", "127.0.0.1:8710", true},
		{"127.0.0.1:8710", "127.0.0.1:8710", "localhost:8710", true},
		{"127.0.0.1:8710", "127.0.0.1:8710", "LOCALHOST:8710", true},
		{"127.0.0.1:8710", "127.0.0.1:8710", "evil.example:8710", false},
		{"127.0.0.1:8710", "127.0.0.1:8710", "127.0.0.1:8711", false},
		{"127.0.0.1:8710", "127.0.0.1:8710", "127.0.0.2:8710", false},
		{"127.0.0.1:8710", "127.0.0.1:8710", "127.0.0.1", false},
		{"127.0.0.1:8710", "127.0.0.1:8710", "", false},
		{"[::1]:8710", "[::1]:8710", "[::1]:8710", true},
		{"[::1]:8710", "[::1]:8710", "localhost:8710", true},
		{"0.0.0.0:8710", "0.0.0.0:8710", "192.0.2.7:8710", true},
		{"0.0.0.0:8710", "0.0.0.0:8710", "localhost:8710", false},
		{"0.0.0.0:8710", "0.0.0.0:8710", "evil.example:8710", false},
		{"0.0.0.0:8710", "shop-pc:8710", "shop-pc:8710", true},
		{"192.0.2.7:8710", "192.0.2.7:8710", "localhost:8710", false},
	} {
		a, err := net.ResolveTCPAddr("tcp", tc.listen)
		if err != nil {
			t.Fatal(err)
		}
		fx.srv.Allow(a, tc.asked)
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Host = tc.host
		rec := httptest.NewRecorder()
		fx.srv.ServeHTTP(rec, req)
		if got := rec.Code == http.StatusOK; got != tc.ok {
			t.Errorf("listening on %s (%s), Host %q: %d", tc.listen, tc.asked, tc.host, rec.Code)
		}
		if !tc.ok && rec.Code != http.StatusMisdirectedRequest {
			t.Errorf("Host %q refused with %d, want 421", tc.host, rec.Code)
		}
	}
}

// A request that changes anything is refused without the session's
// token, with another session's, or from another origin; the same request
// with it goes through.
func TestFormsNeedTheSessionsToken(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, sandbox.Options{}, ui.Config{})
	mine, other := fx.client(t), fx.client(t)
	mine.get("/export")
	other.get("/export")
	if mine.csrf == "" || other.csrf == "" || mine.csrf == other.csrf {
		t.Fatalf("tokens %q and %q: want one per session", mine.csrf, other.csrf)
	}
	form := func(csrf string) url.Values {
		return url.Values{"csrf": {csrf}, "resource": {"products"}, "add": {"1"}}
	}
	for _, tc := range []struct {
		what string
		f    url.Values
	}{{"no token", url.Values{"csrf": {""}, "resource": {"products"}, "add": {"1"}}}, {"another session's token", form(other.csrf)}, {"a made-up token", form(strings.Repeat("0", 32))}} {
		if code, _ := mine.post("/export", tc.f); code != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", tc.what, code)
		}
	}
	if code, _ := mine.post("/tasks/x/stop", url.Values{"csrf": {""}}); code != http.StatusForbidden {
		t.Errorf("stopping a task without a token: %d, want 403", code)
	}
	req, _ := http.NewRequest(http.MethodPost, fx.url+"/export", strings.NewReader(form(mine.csrf).Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://evil.example")
	res, err := mine.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := mine.read(res); code != http.StatusForbidden {
		t.Errorf("a form from another origin: %d, want 403", code)
	}
	if code, body := mine.post("/export", form(mine.csrf)); code != http.StatusOK || !strings.Contains(body, "Add a condition") {
		t.Errorf("with the session's token: %d\n%s", code, body)
	}
}

// An upload over the limit is refused, saying the limit, and leaves
// nothing behind; the folder of uploads is private and removed by Close.
func TestUploadsAreLimitedAndPrivate(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, sandbox.Options{}, ui.Config{MaxUpload: 1 << 10})
	b := fx.client(t)
	b.get("/stock")
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "stock.csv")
	fw.Write([]byte("sku,quantity\n" + strings.Repeat("TEE-BLA-S,1\n", 200)))
	mw.Close()
	res, err := b.c.Post(fx.url+"/stock?csrf="+b.csrf, mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	code, page := b.read(res)
	if code != http.StatusBadRequest || !strings.Contains(page, "larger than 1 KiB") {
		t.Errorf("a 2 KiB upload with a 1 KiB limit: %d\n%s", code, page)
	}
	fi, err := os.Stat(fx.srv.Dir())
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("folder of uploads %s: %v, %v", fx.srv.Dir(), fi.Mode(), err)
	}
	if es, _ := os.ReadDir(fx.srv.Dir()); len(es) != 0 {
		t.Errorf("the refused upload left %v", es)
	}
	fx.srv.Close()
	if _, err := os.Stat(fx.srv.Dir()); !os.IsNotExist(err) {
		t.Errorf("after Close the folder of uploads is still there (%v)", err)
	}
}
