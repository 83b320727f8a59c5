package importer_test

import (
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"lading/api"
	"lading/engine"
	"lading/importer"
	"lading/mapping"
	"lading/sandbox"
	"lading/state"
	"lading/templates"
)

// catalogs holds real public catalog exports (see testdata/README.md).
const catalogs = "../testdata/catalogs"

// env is a sandbox, a client of it and a state file.
type env struct {
	t     *testing.T
	srv   *sandbox.Server
	url   string
	c     *api.Client
	state *state.DB
	dir   string
}

// fastClient paces far above anything the tests send, and backs off in
// milliseconds, so that only the sandbox's own faults slow a test.
var fastClient = []api.Option{api.WithRate(1000, 100), api.WithBackoff(time.Millisecond, 10*time.Millisecond)}

func newEnv(t *testing.T, opts sandbox.Options) *env {
	t.Helper()
	return newServedEnv(t, opts, func(srv *sandbox.Server) http.Handler { return srv })
}

// newServedEnv is newEnv whose sandbox is served through the handler
// serve makes of it.
func newServedEnv(t *testing.T, opts sandbox.Options, serve func(*sandbox.Server) http.Handler) *env {
	t.Helper()
	srv, err := sandbox.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if _, err := srv.RegisterToken("tok"); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(serve(srv))
	t.Cleanup(hs.Close)
	c, err := api.NewClient(hs.URL+"/api2", "tok", fastClient...)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st, err := state.Open(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &env{t: t, srv: srv, url: hs.URL, c: c, state: st, dir: dir}
}

func catalogFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(catalogs, name)
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// copyTo copies src into the env's directory (results are written beside it).
func (e *env) copyTo(src string, edit func(string) string) string {
	b, err := os.ReadFile(src)
	if err != nil {
		e.t.Fatal(err)
	}
	s := string(b)
	if edit != nil {
		s = edit(s)
	}
	dst := filepath.Join(e.dir, filepath.Base(src))
	if err := os.WriteFile(dst, []byte(s), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return dst
}

func (e *env) importFile(ctx context.Context, template, input string, mod func(*importer.Options)) (*importer.Report, error) {
	text, err := templates.Get(template)
	if err != nil {
		e.t.Fatal(err)
	}
	m, err := mapping.Parse(template+".yaml", text)
	if err != nil {
		e.t.Fatal(err)
	}
	// Images are left out unless a test takes them in (imagesOf).
	o := importer.Options{Options: engine.Options{Client: e.c, State: e.state, Scope: e.url, Mapping: m, Input: input}, MappingText: text, NoImages: true}
	if mod != nil {
		mod(&o)
	}
	return importer.Import(ctx, o)
}

// liveCatalog summarises the sandbox catalog: product name → sorted
// "sku[options]=price" of its variants.
func (e *env) liveCatalog() map[string][]string {
	e.t.Helper()
	out := map[string][]string{}
	for _, pg := range pages(e.t, e.c.Variants.ListPages(context.Background(), nil)) {
		for _, v := range pg.Records {
			p := pg.Sideloads.Product(v)
			var opts []string
			for _, o := range pg.Sideloads.Options(v) {
				opts = append(opts, o.Attribute+"="+o.Value)
			}
			prices := pg.Sideloads.Prices(v)
			var ps []string
			for k, v := range prices {
				ps = append(ps, k+":"+string(v))
			}
			sort.Strings(ps)
			out[string(p.Name)] = append(out[string(p.Name)], string(v.SKU)+"["+strings.Join(opts, ",")+"]"+strings.Join(ps, ","))
		}
	}
	for _, vs := range out {
		sort.Strings(vs)
	}
	return out
}

func readResults(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs[1:]
}

func TestImportShopifyApparel(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	in := e.copyTo(catalogFile(t, "shopify-apparel.csv"), nil)
	rep, err := e.importFile(context.Background(), "shopify", in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Products[engine.Created] != 20 || rep.Variants[engine.Created] != 22 {
		t.Fatalf("created %v products, %v variants; want 20 and 22", rep.Products, rep.Variants)
	}
	live := e.liveCatalog()
	if len(live) != 20 {
		t.Fatalf("%d products in the sandbox, want 20", len(live))
	}
	top := live["Classic Varsity Top"]
	if len(top) != 3 || !strings.Contains(strings.Join(top, " "), "Size=Small") {
		t.Errorf("Classic Varsity Top variants = %v", top)
	}
	n := 0
	for _, vs := range live {
		for _, v := range vs {
			n++
			if !strings.Contains(v, "Price:") {
				t.Errorf("variant %s has no Price tier", v)
			}
		}
	}
	if n != 22 {
		t.Errorf("%d variants in the sandbox, want 22", n)
	}
	res := readResults(t, rep.Results)
	if len(res) != 22 {
		t.Errorf("%d result lines, want one per row (22)", len(res))
	}

	// Again: nothing to write, every row unchanged.
	before := e.srv.Counters()
	rep2, err := e.importFile(context.Background(), "shopify", in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Rows[engine.Unchanged] != 22 || rep2.RequestsPlanned != 0 {
		t.Fatalf("second run: rows %v, %d writes planned; want 22 unchanged, 0 writes", rep2.Rows, rep2.RequestsPlanned)
	}
	_ = before
}

// A mapping that reads variants from a second file joined on a key column:
// the joined file is found beside the input, and its rows get result lines
// under their own file name.
func TestImportJoinedFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	mappingText := []byte(`
source: {delimiter: ";"}
group:
  key: id
product:
  name: name
  tags: {column: tags, split: "|"}
variant:
  sku: ref
  cost: {column: cost, type: number}
options:
  list: attrs
tiers:
  columns: {Retail: price}
join:
  file: combinations.csv
  source: {delimiter: ","}
  key: product_id
`)
	os.WriteFile(filepath.Join(e.dir, "products.csv"), []byte("id;name;tags\n1;Shirt;apparel|cotton\n2;Mug;kitchen\n"), 0o644)
	os.WriteFile(filepath.Join(e.dir, "combinations.csv"), []byte(
		"product_id,ref,cost,attrs,price\n1,SH-S,3.5,Size=S,20\n2,MUG-1,2,,9.5\n1,SH-M,3.5,Size=M,21\n"), 0o644)
	m, err := mapping.Parse("join.yaml", mappingText)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := importer.Import(context.Background(), importer.Options{Options: engine.Options{Client: e.c, State: e.state, Scope: e.url, Mapping: m, Input: filepath.Join(e.dir, "products.csv")}, MappingText: mappingText})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Products[engine.Created] != 2 || rep.Variants[engine.Created] != 3 {
		t.Fatalf("created %v products, %v variants; want 2 and 3", rep.Products, rep.Variants)
	}
	live := e.liveCatalog()
	want := map[string][]string{
		"Shirt": {"SH-M[Size=M]Retail:21", "SH-S[Size=S]Retail:20"},
		"Mug":   {"MUG-1[]Retail:9.5"},
	}
	for name, vs := range want {
		if strings.Join(live[name], " ") != strings.Join(vs, " ") {
			t.Errorf("%s: %v, want %v", name, live[name], vs)
		}
	}
	files := map[string]int{}
	for _, l := range readResults(t, rep.Results) {
		files[filepath.Base(l[0])]++
	}
	if files["products.csv"] != 2 || files["combinations.csv"] != 3 {
		t.Errorf("result lines per file %v, want 2 for products.csv and 3 for combinations.csv", files)
	}
}

// loseAnswers applies writes and then loses their answers, as a dropped
// connection would: the client cannot know whether they were applied.
type loseAnswers struct{ next http.RoundTripper }

func (l loseAnswers) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(r)
	if err != nil || !isWritePath(trimAPI(r.URL.Path)) {
		return resp, err
	}
	resp.Body.Close()
	return nil, io.ErrUnexpectedEOF
}

// An update whose answer is lost is looked up, found applied, not sent
// again, and reported as updated with what changed.
func TestImportUpdateWithLostAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	in := e.copyTo("../samples/catalog.csv", nil)
	if _, err := e.importFile(context.Background(), "generic", in, nil); err != nil {
		t.Fatal(err)
	}
	changed := e.copyTo("../samples/catalog.csv", func(s string) string {
		return strings.Replace(s, ",0.22,7.5,084012300074,12,", ",0.25,7.5,084012300074,12,", 1)
	})
	c, err := api.NewClient(e.url+"/api2", "tok", api.WithRate(1000, 100), api.WithHTTPClient(&http.Client{Transport: loseAnswers{http.DefaultTransport}}))
	if err != nil {
		t.Fatal(err)
	}
	before := e.srv.Counters().Requests
	rep, err := e.importFile(context.Background(), "generic", changed, func(o *importer.Options) { o.Client = c })
	if err != nil {
		t.Fatal(err)
	}
	if w := writes(before, e.srv.Counters().Requests); w != 1 {
		t.Errorf("%d writes sent, want the update once (its answer lost, then looked up)", w)
	}
	var line []string
	for _, l := range readResults(t, rep.Results) {
		if l[3] == "TEE-BLA-S" {
			line = l
		}
	}
	if line == nil || line[4] != "updated" || !strings.Contains(line[7], `weight "0.22" → "0.25"`) {
		t.Errorf("result line of TEE-BLA-S = %q, want updated with the weight change", line)
	}
}
