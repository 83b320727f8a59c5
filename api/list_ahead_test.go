package api

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A listing read ahead gives the pages a listing read one at a time
// gives, in order, from the same requests: with its memory reused or
// not, from the first page or another, to the last or to MaxPages.
func TestListAheadReadsTheSame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                string
		total, size         int
		page, most, reqsFor int // the listing's Page and MaxPages; the pages read
	}{
		{"empty", 0, 10, 0, 0, 1},
		{"one page", 7, 10, 0, 0, 1},
		{"many pages", 95, 10, 0, 0, 10},
		{"from page 4, two of them", 95, 10, 4, 2, 2},
		{"from page 9 to the end", 95, 10, 9, 0, 2},
	} {
		for _, reuse := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, reuse %t", tc.name, reuse), func(t *testing.T) {
				t.Parallel()
				read := func(ahead int) ([]string, int) {
					srv := newRecorder(t, variantsPages(tc.total))
					c := newTestClient(t, srv.URL)
					var out []string
					opts := &ListOptions{PageSize: tc.size, Page: tc.page, MaxPages: tc.most, Reuse: reuse, Ahead: ahead}
					for pg, err := range c.Variants.ListPages(context.Background(), opts) {
						if err != nil {
							t.Fatal(err)
						}
						if out = append(out, fmt.Sprint(pg.Meta.CurrentPage, " ", seen(pg))); len(out) > 20 {
							t.Fatalf("read %d pages, past the listing's end", len(out))
						}
					}
					return out, len(srv.requests())
				}
				one, oneReqs := read(0)
				ahead, aheadReqs := read(3)
				if !slices.Equal(ahead, one) {
					t.Errorf("read ahead:\n%q\none at a time:\n%q", ahead, one)
				}
				if aheadReqs != oneReqs || oneReqs != tc.reqsFor {
					t.Errorf("%d requests read ahead, %d one at a time; want %d", aheadReqs, oneReqs, tc.reqsFor)
				}
			})
		}
	}
}

// pagesAsked is a Variants listing of size-variant pages whose requests
// are told on asked, by page number, as they come.
type pagesAsked struct {
	canned *cannedPages
	asked  chan int
	fail   int // the page answered with a refusal (0: none)
	// hold is the page not answered until its request is called off
	// (0: none); held says that request has ended.
	hold int
	held atomic.Bool
}

func (p *pagesAsked) RoundTrip(r *http.Request) (*http.Response, error) {
	var req struct {
		PageNum int `json:"page_num"`
	}
	body, err := r.GetBody()
	if err == nil {
		err = json.NewDecoder(body).Decode(&req)
	}
	if err != nil {
		return nil, err
	}
	p.asked <- req.PageNum
	if req.PageNum == p.hold {
		<-r.Context().Done()
		p.held.Store(true)
		return nil, r.Context().Err()
	}
	if req.PageNum == p.fail {
		return &http.Response{StatusCode: http.StatusBadRequest, Header: http.Header{"Content-Type": {"application/json"}},
			Body: http.NoBody, Request: r}, nil
	}
	return p.canned.RoundTrip(r)
}

// waitAsked waits for the requests of pages, in any order, failing the
// test after 20 seconds.
func waitAsked(t *testing.T, asked <-chan int, pages ...int) {
	t.Helper()
	want := map[int]bool{}
	for _, p := range pages {
		want[p] = true
	}
	for len(want) > 0 {
		select {
		case n := <-asked:
			delete(want, n)
		case <-time.After(20 * time.Second):
			t.Fatalf("pages %v were not asked for while the loop held the page before them", slices.Sorted(maps.Keys(want)))
		}
	}
}

// While the loop works on a page, the Ahead pages after it are asked for,
// and no more; the page the loop holds, its memory reused, reads the same
// throughout.
func TestListAheadReadsWhileTheLoopWorks(t *testing.T) {
	t.Parallel()
	for _, ahead := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(ahead, " ahead"), func(t *testing.T) {
			t.Parallel()
			const pages = 7
			p := &pagesAsked{canned: newCannedPages(pages, 250), asked: make(chan int, 16)}
			c := newTestClient(t, "http://canned.test", WithHTTPClient(&http.Client{Transport: p}))
			n := 0
			for pg, err := range c.Variants.ListPages(context.Background(), &ListOptions{Reuse: true, Ahead: ahead}) {
				if err != nil {
					t.Fatal(err)
				}
				n++
				before := seen(pg)
				var want []int // the pages asked for since the loop held the page before: to n+ahead
				for m := n + ahead; m >= 1 && m <= pages && (n == 1 || m == n+ahead); m-- {
					want = append(want, m)
				}
				waitAsked(t, p.asked, want...)
				select {
				case m := <-p.asked:
					t.Fatalf("page %d asked for while the loop held page %d: more than %d pages ahead", m, n, ahead)
				default:
				}
				if after := seen(pg); after != before || !strings.HasPrefix(after, fmt.Sprintf("%d SKU-%d ", (n-1)*250, (n-1)*250)) {
					t.Fatalf("page %d read %.60q, then %.60q while the pages after it were read", n, before, after)
				}
			}
			if n != pages {
				t.Errorf("read %d pages, want %d", n, pages)
			}
		})
	}
}

// A listing read ahead stops at the first error, yielded once, after the
// pages before it; and a loop that stops early has the reads under way
// called off and ended before it returns.
func TestListAheadStops(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		fail, stop  int // the page refused; the page the loop stops at (0: none)
		pages, errs int
	}{
		{"at a refused page", 3, 0, 2, 1},
		{"when the loop stops", 0, 2, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := &pagesAsked{canned: newCannedPages(10, 10), asked: make(chan int, 16), fail: tc.fail, hold: 4}
			c := newTestClient(t, "http://canned.test", WithHTTPClient(&http.Client{Transport: p}), WithRetries(0))
			pages, errs := 0, 0
			var asked []int
			for _, err := range c.Variants.ListPages(context.Background(), &ListOptions{PageSize: 10, Reuse: true, Ahead: 2}) {
				if err != nil {
					errs++
					continue
				}
				if pages++; pages == tc.stop {
					// Stopped with page 4's read under way.
					for !slices.Contains(asked, 4) {
						select {
						case n := <-p.asked:
							asked = append(asked, n)
						case <-time.After(20 * time.Second):
							t.Fatalf("page 4 not asked for while the loop held page %d (asked: %v)", pages, asked)
						}
					}
					break
				}
			}
			if pages != tc.pages || errs != tc.errs {
				t.Errorf("%d pages and %d errors, want %d and %d", pages, errs, tc.pages, tc.errs)
			}
			held := p.held.Load()
			close(p.asked) // a read still under way would ask on a closed channel, and panic
			for n := range p.asked {
				asked = append(asked, n)
			}
			if slices.Contains(asked, 4) && !held {
				t.Error("the listing returned with the read of page 4 still under way")
			}
			if len(asked) > tc.pages+2 {
				t.Errorf("pages %v asked for: more than two past the %d the loop took", asked, tc.pages)
			}
		})
	}
}
