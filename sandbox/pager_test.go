package sandbox

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"lading/api/wire"
)

// pagingVariants is how many variants the paging tests list: more than
// markJump, so that the last page of 97, asked for cold, is found through
// marks made in one pass.
const pagingVariants = 1300

// pagingEnv is a sandbox holding pagingVariants variants, in products of
// 100, SKU-0000 ... with stock i % 7; it returns their ids in id order.
func pagingEnv(t *testing.T) (*env, []string) {
	t.Helper()
	e := newEnv(t, Options{})
	var ids []string
	for p := 0; p*100 < pagingVariants; p++ {
		var vs []any
		for j := 0; j < 100 && p*100+j < pagingVariants; j++ {
			i := p*100 + j
			vs = append(vs, map[string]any{"sku": fmt.Sprintf("SKU-%04d", i), "quantity": i % 7,
				"links": map[string]any{"AttributeOptions": []any{map[string]any{"value": fmt.Sprint("S", i)}}}})
		}
		pid := e.mustIDs(wire.Products, map[string]any{"name": fmt.Sprint("P", p),
			"links": map[string]any{"Attributes": []any{map[string]any{"name": "Size"}}, "Variants": vs}})[0]
		r := e.read(wire.DetailPath(wire.Products), map[string]any{wire.Products: []any{map[string]any{"id": pid}}}).expect(t, 200)
		for _, v := range r.body[wire.Products].([]any)[0].(map[string]any)["links"].(map[string]any)[wire.Variants].([]any) {
			ids = append(ids, v.(map[string]any)["id"].(string))
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return cmpID(a, b) })
	return e, ids
}

func cmpID(a, b string) int {
	x, _ := strconv.ParseInt(a, 10, 64)
	y, _ := strconv.ParseInt(b, 10, 64)
	return int(x - y)
}

// page reads page n of the variants listing with fields added to the
// envelope, checks its meta against total, and returns its ids.
func (e *env) page(n, size, total int, fields map[string]any) []string {
	e.t.Helper()
	body := map[string]any{"page_num": n, "page_size": size}
	for k, v := range fields {
		body[k] = v
	}
	r := e.read(wire.ListPath(wire.Variants), body).expect(e.t, 200)
	var got []string
	for _, v := range r.body[wire.Variants].([]any) {
		got = append(got, v.(map[string]any)["id"].(string))
	}
	want := pageMeta(n, size, total, len(got))
	meta := r.body["meta"].(map[string]any)
	for k, w := range map[string]string{"current_page": want.CurrentPage, "last_page": want.LastPage, "per_page": want.PerPage,
		"total": want.Total, "from": want.From, "to": want.To} {
		if meta[k] != w {
			e.t.Errorf("page %d of %d: meta %s = %v, want %s", n, size, k, meta[k], w)
		}
	}
	if wantLen := min(size, max(0, total-(n-1)*size)); len(got) != wantLen {
		e.t.Errorf("page %d of %d: %d records, want %d", n, size, len(got), wantLen)
	}
	return got
}

// Every record comes exactly once and in order, whatever the page size,
// however deep the page, read in order, cold, backwards, and with a
// filter or a sort; the meta says what paging by offset says.
func TestPagingAtDepth(t *testing.T) {
	e, all := pagingEnv(t)
	var stocked []string // stock >= 3, in id order
	skus := map[string]int{}
	for i, id := range all {
		skus[id] = i
		if i%7 >= 3 {
			stocked = append(stocked, id)
		}
	}
	byStock := slices.Clone(all) // stock descending, then id
	slices.SortStableFunc(byStock, func(a, b string) int { return skus[b]%7 - skus[a]%7 })
	filter := map[string]any{"filter": map[string]any{"and": []any{map[string]any{"stock": "3", "operation": ">="}}}}
	sorted := map[string]any{"sort": []any{map[string]any{"stock": "desc"}}}
	for _, tc := range []struct {
		name   string
		fields map[string]any
		want   []string
	}{
		{"all", nil, all},
		{"filtered", filter, stocked},
		{"sorted", sorted, byStock},
	} {
		for _, size := range []int{250, 97} {
			last := (len(tc.want) + size - 1) / size
			orders := map[string][]int{"in order": nil, "backwards": nil, "cold at the end first": nil}
			for n := 1; n <= last+1; n++ {
				orders["in order"] = append(orders["in order"], n)
				orders["backwards"] = append(orders["backwards"], last+2-n)
			}
			orders["cold at the end first"] = append([]int{last, last + 1}, orders["in order"]...)
			for how, pages := range orders {
				t.Run(fmt.Sprintf("%s/%d/%s", tc.name, size, how), func(t *testing.T) {
					e := &env{t: t, srv: e.srv, ts: e.ts, token: e.token}
					e.srv.st.pages = newPager() // each order starts from nothing known
					got := map[int][]string{}
					for _, n := range pages {
						got[n] = e.page(n, size, len(tc.want), tc.fields)
					}
					var seen []string
					for n := 1; n <= last+1; n++ {
						seen = append(seen, got[n]...)
					}
					if !slices.Equal(seen, tc.want) {
						t.Errorf("the pages hold %d records, want %d in order (first difference at %d)", len(seen), len(tc.want), firstDiff(seen, tc.want))
					}
				})
			}
		}
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A write between two reads moves the pages as it moves the offsets: what
// was remembered of the listing before the write is not used after it.
func TestPagingAfterAWrite(t *testing.T) {
	e, all := pagingEnv(t)
	const size = 100
	for n := 1; n <= 13; n++ {
		e.page(n, size, len(all), nil)
	}
	// Delete the first product: its 100 variants leave every page.
	first := e.read(wire.ListPath(wire.Products), map[string]any{"page_size": 1}).expect(t, 200)
	pid := first.body[wire.Products].([]any)[0].(map[string]any)["id"].(string)
	e.mustIDs(wire.Products, map[string]any{"id": pid, "delete": 1})
	rest := all[100:]
	for n := 12; n >= 1; n-- {
		got := e.page(n, size, len(rest), nil)
		if want := rest[(n-1)*size : min(n*size, len(rest))]; !slices.Equal(got, want) {
			t.Fatalf("page %d after the delete: %d records from %v, want %d from %v", n, len(got), got[:1], len(want), want[:1])
		}
	}
	if got := e.page(13, size, len(rest), nil); len(got) != 0 {
		t.Errorf("page 13 after the delete holds %d records, want none", len(got))
	}
}
