package sandbox

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"lading/api/wire"
)

// A sandbox on a file serves reads on connections of their own: reads run
// while writes go on, each sees only committed writes, and a read after a
// write sees it.
func TestFileStoreReadsBesideWrites(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{DBPath: filepath.Join(t.TempDir(), "s.db")})
	if e.srv.st.readers == nil {
		t.Fatal("a store on a file has no read connections")
	}
	write := func(i int) {
		r := e.postToken(e.token, "/v1/Products/detail", map[string]any{"action": "write", "Products": []any{
			map[string]any{"name": fmt.Sprint("P", i), "links": map[string]any{"Variants": []any{map[string]any{"sku": fmt.Sprint("S", i)}}}}}})
		if r.status != 200 {
			t.Errorf("write %d: %d %s", i, r.status, r.raw)
		}
	}
	count := func() int {
		r := e.postToken(e.token, "/v2/Variants", map[string]any{"action": "read", "page_size": 250})
		if r.status != 200 {
			t.Errorf("read: %d %s", r.status, r.raw)
			return -1
		}
		list, _ := r.body[wire.Variants].([]any)
		return len(list)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 40 {
			write(i)
		}
	}()
	go func() {
		defer wg.Done()
		last := 0
		for range 80 {
			n := count()
			if n < last {
				t.Errorf("a read saw %d variants after one saw %d", n, last)
			}
			last = n
		}
	}()
	wg.Wait()
	write(40)
	if n := count(); n != 41 {
		t.Errorf("a read after 41 writes sees %d variants", n)
	}
}

// An option sideloaded with a variant links the live variants that have
// it, in id order, and not the deleted ones.
func TestOptionLinksLiveVariantsOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	variant := func(sku, size, color string) map[string]any {
		return map[string]any{"sku": sku, "quantity": "0", "links": map[string]any{"AttributeOptions": []any{
			map[string]any{"value": size}, map[string]any{"value": color}}}}
	}
	e.mustIDs(wire.Products, map[string]any{"name": "Shirt", "links": map[string]any{
		"Attributes": []any{map[string]any{"name": "Size", "order": 0}, map[string]any{"name": "Color", "order": 1}},
		"Variants":   []any{variant("red", "S", "Red"), variant("blue", "S", "Blue"), variant("green", "S", "Green")},
	}})
	var ids []string
	for _, sku := range []string{"red", "blue", "green"} {
		v, _ := e.variantBySKU(sku)
		ids = append(ids, v["id"].(string))
	}
	e.mustIDs(wire.Variants, map[string]any{"id": ids[1], "delete": 1})
	v, r := e.variantBySKU("green")
	size := linkIDsOf(v, wire.AttributeOptions)[0]
	opt := r.side(wire.AttributeOptions, size)
	if got, want := linkIDsOf(opt, wire.Variants), []string{ids[0], ids[2]}; !slices.Equal(got, want) {
		t.Errorf("option S links variants %v, want %v (the live ones, %s deleted)", got, want, ids[1])
	}
}
