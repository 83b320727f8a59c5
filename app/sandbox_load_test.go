package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"lading/api/wire"
	"lading/images/imagestest"
	"lading/sandbox"
	"lading/templates"
)

// untilListening is stdout for a sandbox command: it keeps what is
// written and ends the command once the sandbox listens.
type untilListening struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	cancel context.CancelFunc
}

func (w *untilListening) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), "listening") {
		w.cancel()
	}
	return len(p), nil
}

// serveOnce runs lading sandbox with args until it listens, and returns
// what it wrote on stderr.
func serveOnce(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &untilListening{cancel: cancel}
	var errb bytes.Buffer
	err := Run(ctx, Env{Stdout: out, Stderr: &errb, Getenv: func(string) string { return "" }, ImageTransport: imagestest.Offline()},
		append([]string{"lading", "sandbox", "--addr", "127.0.0.1:0"}, args...))
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("sandbox %v: %v\n%s", args, err, errb.String())
	}
	if !strings.Contains(out.buf.String(), "listening") {
		t.Fatalf("sandbox %v never listened:\n%s%s", args, out.buf.String(), errb.String())
	}
	return errb.String()
}

// lading sandbox --load puts a catalog into the token's account before it
// serves, as lading import writes it: importing the same file again finds
// nothing to change. With --db, a second start finds it loaded and leaves
// it as it is.
func TestSandboxLoad(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "s.db")
	file := filepath.Join("..", "testdata", "catalogs", "shopify-apparel.csv")
	args := []string{"--db", db, "--token", "load-token", "--load", file, "--template", "shopify"}
	said := serveOnce(t, args...)
	if !strings.Contains(said, "loaded 20 products and 22 variants") || !strings.Contains(said, "read 22 rows of "+file+": 20 products\n") {
		t.Errorf("the first start says %q, want the rows read and the products and variants loaded", said)
	}

	srv, err := sandbox.New(sandbox.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	out, _, err := run(t, "--base-url", hs.URL, "--token", "load-token", "--json", "import", "--template", "shopify", "--dry-run", file)
	hs.Close()
	srv.Close()
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Rows     map[string]int `json:"rows"`
		Variants map[string]int `json:"variants"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Variants["unchanged"] != 22 || len(rep.Variants) != 1 {
		t.Errorf("a dry run of the loaded file plans %v for the variants, want 22 unchanged", rep.Variants)
	}

	said = serveOnce(t, args...)
	if !strings.Contains(said, "loaded already") || strings.Contains(said, "loading") {
		t.Errorf("the second start says %q, want the catalog found loaded", said)
	}
	// Another mapping of the same file is another load.
	text, err := templates.Get("shopify")
	if err != nil {
		t.Fatal(err)
	}
	mapping := filepath.Join(t.TempDir(), "shopify.yaml")
	if err := os.WriteFile(mapping, append(text, "\n# my own copy\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	said = serveOnce(t, "--db", db, "--token", "load-token", "--load", file, "--mapping", mapping)
	if !strings.Contains(said, "loaded 20 products and 22 variants") || !strings.Contains(said, "(0 writes); 20 products and 22 variants of them were in the account already") {
		t.Errorf("a load through another mapping says %q, want it loaded, all of it found in the account", said)
	}
}

// --load-date loads a catalog as of an earlier day, which an incremental
// import then takes for unchanged since: the second of two reads what
// changed and nothing else. A dry run of it reads the state, and makes
// none where there is none.
func TestSandboxLoadDateAndIncremental(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, st := filepath.Join(dir, "s.db"), filepath.Join(dir, "state.db")
	file := filepath.Join("..", "testdata", "catalogs", "shopify-apparel.csv")
	serveOnce(t, "--db", db, "--token", "load-token", "--load", file, "--template", "shopify", "--load-date", "2026-01-31")
	srv, err := sandbox.New(sandbox.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	type report struct {
		Reads       int `json:"reads"`
		Writes      int `json:"writes"`
		Incremental *struct {
			Marked int    `json:"marked"`
			Whole  string `json:"whole"`
		} `json:"incremental"`
	}
	imp := func(more ...string) report {
		t.Helper()
		args := append([]string{"--base-url", hs.URL, "--token", "load-token", "--json", "import", "--template", "shopify", "--incremental", "--no-images",
			"--results", filepath.Join(dir, "results.csv")}, more...)
		out, _, err := run(t, append(args, file)...)
		if err != nil {
			t.Fatal(err)
		}
		var rep report
		if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Incremental == nil {
			t.Fatalf("%v: %s", err, out)
		}
		return rep
	}
	none := filepath.Join(dir, "none", "state.db")
	if rep := imp("--dry-run", "--state", none); rep.Incremental.Marked != 0 {
		t.Errorf("a dry run without a state: %+v, want nothing marked", rep.Incremental)
	}
	if _, err := os.Stat(filepath.Dir(none)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a dry run made %s: %v", filepath.Dir(none), err)
	}
	// A state without marks (deleted, or new): the whole file is compared,
	// and nothing is written.
	if rep := imp("--state", st); rep.Writes != 0 || rep.Incremental.Marked != 0 {
		t.Errorf("an import on a new state: %d writes, %+v; want none, nothing marked", rep.Writes, rep.Incremental)
	}
	for _, more := range [][]string{{"--dry-run"}, nil} {
		rep := imp(append(more, "--state", st)...)
		if rep.Incremental.Marked != 20 || rep.Incremental.Whole != "" || rep.Reads != 6 {
			t.Errorf("%v: %+v in %d reads, want the 20 products marked, in 6", more, rep.Incremental, rep.Reads)
		}
	}
}

// --quiet keeps a load's progress off stderr, not what it loaded.
func TestSandboxLoadQuiet(t *testing.T) {
	t.Parallel()
	file := filepath.Join("..", "testdata", "catalogs", "shopify-apparel.csv")
	said := serveOnce(t, "--quiet", "--token", "load-token", "--load", file, "--template", "shopify")
	if strings.Contains(said, "read 22 rows") || !strings.Contains(said, "loaded 20 products and 22 variants") {
		t.Errorf("a quiet load says %q, want what it loaded and no progress", said)
	}
}

// A load stopped part of the way, started again, writes what is missing
// and says how much it found in the account.
func TestSandboxLoadFindsWhatIsThere(t *testing.T) {
	t.Parallel()
	file := filepath.Join("..", "testdata", "catalogs", "shopify-apparel.csv")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// The header, then ocean-blue-shirt and the three rows of
	// classic-varsity-top: 2 products, 4 variants.
	lines := strings.SplitAfter(string(text), "\n")
	part := filepath.Join(t.TempDir(), "part.csv")
	if err := os.WriteFile(part, []byte(strings.Join(lines[:5], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "s.db")
	if said := serveOnce(t, "--db", db, "--token", "load-token", "--load", part, "--template", "shopify"); !strings.Contains(said, "loaded 2 products and 4 variants") || strings.Contains(said, "already") {
		t.Fatalf("the part's load says %q, want 2 products and 4 variants loaded", said)
	}
	said := serveOnce(t, "--db", db, "--token", "load-token", "--load", file, "--template", "shopify")
	if !strings.Contains(said, "loaded 20 products and 22 variants") || !strings.Contains(said, "; 2 products and 4 variants of them were in the account already") {
		t.Errorf("the whole file's load says %q, want 2 products and 4 variants found in the account", said)
	}
}

func TestSandboxLoadUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sandbox", "--template", "shopify"}, "--load"},
		{[]string{"sandbox", "--load", "nope.csv", "--template", "shopify"}, "nope.csv"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--load", filepath.Join("..", "testdata", "catalogs", "shopify-apparel.csv")}, "--template"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--load", "a.csv", "--load", "b.csv", "--load", "c.csv", "--template", "shopify"}, "--load is given 3 times"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--load-date", "2026-01-31"}, "--load-date is the day of what --load loads: give the file with --load"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--load", filepath.Join("..", "testdata", "catalogs", "shopify-apparel.csv"), "--template", "shopify", "--load-date", "31/01/2026"},
			`--load-date "31/01/2026": give the day as YYYY-MM-DD`},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--load", filepath.Join("..", "testdata", "catalogs", "shopify-apparel.csv"),
			"--load", filepath.Join("..", "testdata", "catalogs", "prestashop-combinations_import.csv"), "--template", "shopify"}, "the mapping reads one file"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--load", filepath.Join("..", "testdata", "catalogs", "prestashop-products_import.csv"), "--template", "prestashop"},
			"combinations.csv is not there\nGive that file with a second --load"},
		{[]string{"sandbox", "--addr", "127.0.0.1:0", "--load", filepath.Join("..", "testdata", "catalogs", "prestashop-products_import.csv"), "--load", "nope.csv", "--template", "prestashop"},
			"the second --load nope.csv: there is no such file"},
	} {
		_, _, err := run(t, tc.args...)
		var u *UsageError
		if !errors.As(err, &u) || !strings.Contains(said(err), tc.want) {
			t.Errorf("%v: %v; want a usage error naming %s", tc.args, err, tc.want)
		}
	}
}

// What lading sandbox --load makes in the account is what importing the
// same files through the interface makes: the same listings, to the ids,
// but for the times of the writes; PrestaShop's two files through two
// --load flags.
func TestSandboxLoadEqualsImport(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		template string
		files    []string
		variants string // the listing's total
	}{
		{"shopify", []string{"shopify-apparel.csv"}, "22"},
		{"prestashop", []string{"prestashop-products_import.csv", "prestashop-combinations_import.csv"}, "26"},
	} {
		t.Run(tc.template, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			files := copyCatalogs(t, dir, tc.files...)
			loadedDB, importedDB := filepath.Join(dir, "loaded.db"), filepath.Join(dir, "imported.db")
			serveOnce(t, append([]string{"--db", loadedDB, "--token", "load-token", "--template", tc.template}, loadFlags(files)...)...)
			loaded := openSandbox(t, loadedDB)
			imported := openSandbox(t, importedDB)
			if _, err := imported.srv.RegisterToken("load-token"); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"--base-url", imported.URL, "--token", "load-token", "--quiet", "import", "--template", tc.template,
				"--no-images", "--batch-size", "100", "--state", filepath.Join(dir, "state.db")}, files...)
			// PrestaShop's sample has rows that fail, in the load as here.
			var partial *PartialError
			if _, errs, err := run(t, args...); err != nil && !errors.As(err, &partial) {
				t.Fatalf("import: %v\n%s", err, errs)
			}
			for _, res := range []string{wire.Products, wire.Variants, wire.ProductTags} {
				got, want := loaded.listing(t, res), imported.listing(t, res)
				if got != want {
					t.Errorf("%s after --load:\n%s\nafter an import through the interface:\n%s", res, got, want)
				}
				if res == wire.Variants && !strings.Contains(got, `"total": "`+tc.variants+`"`) {
					t.Errorf("the %s listing holds not the %s variants of the files: %s", res, tc.variants, got)
				}
			}
		})
	}
}

// A catalog of two files is loaded once for both: a second start finds it
// loaded, and one after the second file changed loads it again.
func TestSandboxLoadKnowsBothFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := copyCatalogs(t, dir, "prestashop-products_import.csv", "prestashop-combinations_import.csv")
	args := append([]string{"--db", filepath.Join(dir, "s.db"), "--token", "load-token", "--template", "prestashop"}, loadFlags(files)...)
	if said := serveOnce(t, args...); !strings.Contains(said, "loaded 7 products and 30 variants") {
		t.Fatalf("the first start says %q, want both files loaded", said)
	}
	if said := serveOnce(t, args...); !strings.Contains(said, "loaded already") {
		t.Errorf("the second start says %q, want the catalog found loaded", said)
	}
	combos, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[1], bytes.Replace(combos, []byte("RF-Nano-Blue-16GB"), []byte("RF-Nano-Blue-16G"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if said := serveOnce(t, args...); !strings.Contains(said, "loading") || !strings.Contains(said, "were in the account already") {
		t.Errorf("a start after the second file changed says %q, want it loaded again over what is there", said)
	}
}

// copyCatalogs copies the named files of testdata/catalogs into dir and
// returns their paths there.
func copyCatalogs(t *testing.T, dir string, names ...string) []string {
	t.Helper()
	var out []string
	for _, n := range names {
		src, err := os.ReadFile(filepath.Join("..", "testdata", "catalogs", n))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// loadFlags are --load flags for files, in order.
func loadFlags(files []string) []string {
	var out []string
	for _, f := range files {
		out = append(out, "--load", f)
	}
	return out
}

// testSandbox is a sandbox on a database file, served over HTTP.
type testSandbox struct {
	srv *sandbox.Server
	*httptest.Server
}

func openSandbox(t *testing.T, db string) testSandbox {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Close() })
	return testSandbox{srv, hs}
}

// listing is the first page of the listing of resource, its sideloads
// with it, in JSON without the times of the writes.
func (s testSandbox) listing(t *testing.T, resource string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.URL+wire.ListPath(resource),
		strings.NewReader(fmt.Sprintf(`{"action": "read", "page_size": %d}`, wire.MaxPageSize)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(wire.HeaderToken, "load-token")
	req.Header.Set("Content-Type", wire.ContentTypeJSON)
	res, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s listing: status %d", resource, res.StatusCode)
	}
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, writeTimes.ReplaceAll(raw, blankTime), "", " "); err != nil {
		t.Fatalf("%s listing: %v", resource, err)
	}
	return out.String()
}

// writeTimes are the times of the writes in an answer, blanked by
// ReplaceAll with blankTime.
var (
	writeTimes = regexp.MustCompile(`"(created|updated)_at": *"[^"]*"`)
	blankTime  = []byte(`"${1}_at": ""`)
)

// lading sandbox gives up lading's soft memory limit before it loads a
// catalog (Env.Serving), and takes a server's pace once it listens, the
// catalog loaded (Env.Listening): each once, in that order.
func TestSandboxServingHooks(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &untilListening{cancel: cancel}
	var errb bytes.Buffer // written by the command's goroutine, which calls the hooks too
	var calls []string
	env := Env{Stdout: out, Stderr: &errb, Getenv: func(string) string { return "" }, ImageTransport: imagestest.Offline(),
		Serving: func() {
			calls = append(calls, fmt.Sprintf("serving, loaded: %v", strings.Contains(errb.String(), "loaded")))
		},
		Listening: func() {
			calls = append(calls, fmt.Sprintf("listening, loaded: %v", strings.Contains(errb.String(), "loaded")))
		},
	}
	file := filepath.Join("..", "testdata", "catalogs", "shopify-apparel.csv")
	err := Run(ctx, env, []string{"lading", "sandbox", "--addr", "127.0.0.1:0", "--token", "t", "--load", file, "--template", "shopify"})
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("sandbox: %v\n%s", err, errb.String())
	}
	want := []string{"serving, loaded: false", "listening, loaded: true"}
	if !slices.Equal(calls, want) {
		t.Errorf("hooks called %q, want %q", calls, want)
	}
}
