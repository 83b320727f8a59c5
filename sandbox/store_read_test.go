package sandbox

import (
	"fmt"
	"path/filepath"
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
