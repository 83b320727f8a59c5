package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// cannedPages answers a Variants listing of pages of size variants from
// memory, built once: each variant links its product, two prices and two
// options, and the products are sideloaded with links of their own, so a
// page fills several of the arena's blocks.
type cannedPages struct {
	pages [][]byte
}

func newCannedPages(pages, size int) *cannedPages {
	c := &cannedPages{}
	for p := range pages {
		var vs, ps []string
		for i := p * size; i < (p+1)*size; i++ {
			vs = append(vs, fmt.Sprintf(`{"id":"%d","sku":"SKU-%d","links":{"Products":[{"id":"P%d"}],`+
				`"VariantPrices":[{"id":"%d1"},{"id":"%d2"}],"AttributeOptions":[{"id":"O%d"},{"id":"Q%d"}]}}`, i, i, i/4, i, i, i, i))
			if i%4 == 0 {
				ps = append(ps, fmt.Sprintf(`"P%d":{"id":"P%d","name":"Product %d","links":{"Variants":[{"id":"%d"},{"id":"%d"},{"id":"%d"},{"id":"%d"}]}}`,
					i/4, i/4, i/4, i, i+1, i+2, i+3))
			}
		}
		c.pages = append(c.pages, fmt.Appendf(nil, `{"meta":{"current_page":"%d","last_page":"%d"},"Variants":[%s],"Products":{%s}}`,
			p+1, pages, strings.Join(vs, ","), strings.Join(ps, ",")))
	}
	return c
}

func (c *cannedPages) RoundTrip(r *http.Request) (*http.Response, error) {
	var req struct {
		PageNum int `json:"page_num"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil || req.PageNum < 1 || req.PageNum > len(c.pages) {
		return nil, fmt.Errorf("no page for %s", body)
	}
	page := c.pages[req.PageNum-1]
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(page)), ContentLength: int64(len(page)), Request: r}, nil
}

func (c *cannedPages) client(t testing.TB) *Client {
	return newTestClient(t.(*testing.T), "http://canned.test", WithHTTPClient(&http.Client{Transport: c}))
}

// seen is what a loop copies of a page: its variants with their links, and
// its sideloaded products.
func seen(pg *VariantPage) string {
	var b strings.Builder
	for _, v := range pg.Records {
		fmt.Fprintf(&b, "%s %s %v;", v.ID, v.SKU, v.Links)
	}
	for _, id := range slices.Sorted(maps.Keys(pg.Products)) {
		p := pg.Products[id]
		fmt.Fprintf(&b, "%s=%s %v;", id, p.Name, p.Links)
	}
	return b.String()
}

// A listing that reuses its memory reads every page as one that does not.
func TestListReuseReadsTheSame(t *testing.T) {
	t.Parallel()
	canned := newCannedPages(4, 250)
	read := func(reuse bool) []string {
		var out []string
		for pg, err := range canned.client(t).Variants.ListPages(context.Background(), &ListOptions{Reuse: reuse}) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, seen(pg))
		}
		return out
	}
	own, reused := read(false), read(true)
	if len(own) != 4 {
		t.Fatalf("read %d pages, want 4", len(own))
	}
	for i := range own {
		if own[i] != reused[i] {
			t.Errorf("page %d read into the memory of the one before differs:\n%.300s\nwant\n%.300s", i+1, reused[i], own[i])
		}
	}
}

// With Reuse, a page is valid until the loop goes on: its memory is then
// the next page's, and what was kept of it without a copy no longer reads
// what the page held.
func TestListReuseTakesThePageBefore(t *testing.T) {
	t.Parallel()
	canned := newCannedPages(2, 250)
	var sku Flex
	var links string
	n := 0
	for pg, err := range canned.client(t).Variants.ListPages(context.Background(), &ListOptions{Reuse: true}) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 1 {
			sku, links = pg.Records[0].SKU, fmt.Sprint(pg.Records[0].Links)
			if sku != "SKU-0" {
				t.Fatalf("the first SKU reads %q, want SKU-0", sku)
			}
			continue
		}
		if sku == "SKU-0" {
			t.Errorf("the first page's first SKU, kept without a copy, still reads %q on the second page: its memory was not reused", sku)
		}
	}
	if n != 2 || links == "" {
		t.Fatalf("read %d pages, the first variant's links %q", n, links)
	}
}

// Reading pages into the memory of the ones before allocates at most a
// quarter as much (the bodies, the links and the records are most of a
// page's memory; its sideloads' indexes are new each page).
// Not parallel: it counts the process's allocations.
func TestListReuseAllocatesLess(t *testing.T) {
	canned := newCannedPages(20, 250)
	c := canned.client(t)
	allocated := func(reuse bool) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for _, err := range c.Variants.ListPages(context.Background(), &ListOptions{Reuse: reuse}) {
			if err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	allocated(true) // the client's first requests make what it keeps
	own, reused := allocated(false), allocated(true)
	if reused*4 > own {
		t.Errorf("20 pages read with Reuse allocate %d bytes, without %d: want at most a quarter", reused, own)
	}
	t.Logf("20 pages of 250 variants: %d bytes allocated, %d with Reuse", own, reused)
}
