package importer_test

import (
	"context"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"lading/api"
	"lading/api/wire"
	"lading/source/sourcetest"
)

// liveVariant is a variant as read back from the sandbox, reduced to what
// the end-to-end tests compare.
type liveVariant struct {
	Product string // product name
	SKU     string
	Options string // "attr=value,..." sorted
	Prices  string // "tier:price,..." sorted
	Stock   string
	Weight  string
}

func (v liveVariant) String() string {
	return fmt.Sprintf("%s|%s[%s]%s stock=%s weight=%s", v.Product, v.SKU, v.Options, v.Prices, v.Stock, v.Weight)
}

// snapshot is the whole sandbox catalog read through the api client.
type snapshot struct {
	// Products counts live products by name (a count above one is a
	// duplicate).
	Products map[string]int
	Variants []liveVariant
}

// maxPages bounds every listing a test reads: at the client's page size of
// 250 no test creates that many records, so a listing that goes on has
// stopped following last_page and would otherwise hang the test.
const maxPages = 1000

// pages drains a paged listing, failing the test on an error or when it
// does not end within maxPages.
func pages[P any](t testing.TB, seq iter.Seq2[P, error]) []P {
	t.Helper()
	var out []P
	for pg, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		if len(out) == maxPages {
			t.Fatalf("the listing went on past %d pages: it never ended", maxPages)
		}
		out = append(out, pg)
	}
	return out
}

// read lists every product of the sandbox and its variants, which a
// listing of products sideloads with their options and prices (one
// listing: the variants' own would render them all a second time).
func (e *env) read() snapshot {
	e.t.Helper()
	ctx := context.Background()
	s := snapshot{Products: map[string]int{}}
	for _, pg := range pages(e.t, e.c.Products.ListPages(ctx, nil)) {
		for _, p := range pg.Records {
			if !p.Deleted.Bool() {
				s.Products[string(p.Name)]++
			}
			for _, v := range pg.Sideloads.VariantsOf(p) {
				if !v.Deleted.Bool() {
					s.Variants = append(s.Variants, live(&pg.Sideloads, string(p.Name), v))
				}
			}
		}
	}
	sort.Slice(s.Variants, func(i, j int) bool { return s.Variants[i].String() < s.Variants[j].String() })
	return s
}

// live is variant v of the product named product, as read compares it.
func live(side *api.Sideloads, product string, v *api.Variant) liveVariant {
	var opts, ps []string
	for _, o := range side.Options(v) {
		opts = append(opts, o.Attribute+"="+o.Value)
	}
	for k, p := range side.Prices(v) {
		ps = append(ps, k+":"+normNum(string(p)))
	}
	sort.Strings(opts)
	sort.Strings(ps)
	return liveVariant{Product: product, SKU: string(v.SKU), Options: strings.Join(opts, ","), Prices: strings.Join(ps, ","),
		Stock: normNum(string(v.Stock)), Weight: normNum(string(v.Weight))}
}

// normNum drops trailing decimal zeros: "25.00" → "25", "0.200" → "0.2".
func normNum(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// bySKU indexes the snapshot's variants by SKU and fails on a duplicate.
func (s snapshot) bySKU(t *testing.T) map[string]liveVariant {
	t.Helper()
	out := map[string]liveVariant{}
	for _, v := range s.Variants {
		if v.SKU == "" {
			continue
		}
		if _, dup := out[v.SKU]; dup {
			t.Errorf("SKU %s is in the sandbox twice", v.SKU)
		}
		out[v.SKU] = v
	}
	return out
}

// ofProduct returns the variants of the product named name.
func (s snapshot) ofProduct(name string) []liveVariant {
	var out []liveVariant
	for _, v := range s.Variants {
		if v.Product == name {
			out = append(out, v)
		}
	}
	return out
}

// duplicates lists product names held more than once.
func (s snapshot) duplicates() []string {
	var out []string
	for n, c := range s.Products {
		if c > 1 {
			out = append(out, fmt.Sprintf("%s ×%d", n, c))
		}
	}
	sort.Strings(out)
	return out
}

// writes counts the write requests (POST to a write path) the sandbox saw
// between two counter readings.
func writes(before, after map[string]int64) int64 {
	var n int64
	for path, c := range after {
		if isWritePath(path) {
			n += c - before[path]
		}
	}
	return n
}

// requests counts every interface call between two counter readings.
func requests(before, after map[string]int64) int64 {
	var n int64
	for path, c := range after {
		n += c - before[path]
	}
	return n
}

func isWritePath(path string) bool {
	return path == wire.WritePath(wire.Products) || path == wire.WritePath(wire.Variants)
}

// generate writes a generated catalog (generic layout) into the env.
func (e *env) generate(name string, products, variantsPer int) string {
	e.t.Helper()
	p := filepath.Join(e.dir, name)
	f, err := os.Create(p)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := sourcetest.GenerateCatalogCSV(f, products, variantsPer); err != nil {
		e.t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// resultsByAction reads a CSV results file and tallies its action column,
// failing when a row number appears twice.
func resultsByAction(t *testing.T, path string) map[string]int {
	t.Helper()
	out := map[string]int{}
	seen := map[string]bool{}
	for _, r := range readResults(t, path) {
		k := r[0] + ":" + r[1]
		if seen[k] {
			t.Errorf("results: row %s has two lines", k)
		}
		seen[k] = true
		out[r[4]]++
	}
	return out
}
