package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"lading/api/wire"
)

// Records are stamped with the sandbox's clock; a filter by a day
// compares the stamp's day, whichever operation it takes (those an index
// serves, >= and <, as the others).
func TestDayFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	for _, day := range []string{"2026-03-01", "2026-03-02", "2026-03-03"} {
		at, err := time.Parse(time.DateOnly, day)
		if err != nil {
			t.Fatal(err)
		}
		e.srv.SetClock(func() time.Time { return at.Add(13 * time.Hour) })
		e.mustIDs(wire.Products, product("made "+day, "SKU-"+day))
	}
	e.srv.SetClock(nil)
	for _, tc := range []struct {
		op   string
		want []string // the days of the products listed
	}{
		{">=", []string{"2026-03-02", "2026-03-03"}},
		{"<", []string{"2026-03-01"}},
		{">", []string{"2026-03-03"}},
		{"<=", []string{"2026-03-01", "2026-03-02"}},
		{"=", []string{"2026-03-02"}},
		{"!=", []string{"2026-03-01", "2026-03-03"}},
	} {
		for _, attr := range []string{"created_at", "updated_at"} {
			r := e.read(wire.ListPath(wire.Products), map[string]any{"filter": map[string]any{"and": []any{
				map[string]any{attr: "2026-03-02", "operation": tc.op}}}}).expect(t, 200)
			var got []string
			for _, p := range r.records(wire.Products) {
				got = append(got, fmt.Sprint(p["name"])[len("made "):])
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s %s 2026-03-02: %q, want %q", attr, tc.op, got, tc.want)
			}
		}
	}
	if p := e.read(wire.ListPath(wire.Products), map[string]any{}).records(wire.Products); len(p) != 3 || p[0]["created_at"] != "2026-03-01T13:00:00+00:00" {
		t.Errorf("first product %v, want it made 2026-03-01T13:00:00+00:00", p[0])
	}
}

// A filtered listing of few records pages in id order as one of many does.
func TestFewRecordsPageInOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	var skus []string
	for i := range 7 {
		skus = append(skus, fmt.Sprintf("F-%d", 9-i))
	}
	e.mustIDs(wire.Products, product("Few", skus...))
	or := []any{}
	for _, s := range skus {
		or = append(or, map[string]any{"sku": s})
	}
	var ids []int
	for page := 1; page <= 3; page++ {
		r := e.read(wire.ListPath(wire.Variants), map[string]any{"page_size": 3, "page_num": page, "filter": map[string]any{"or": or}}).expect(t, 200)
		if total := r.meta()["total"]; total != "7" {
			t.Errorf("page %d: total %v, want 7", page, total)
		}
		for _, v := range r.records(wire.Variants) {
			id, err := strconv.Atoi(fmt.Sprint(v["id"]))
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
	}
	if len(ids) != 7 || !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != 7 {
		t.Errorf("ids over three pages %v: want the 7, ascending", ids)
	}
}

// A record's updated_at moves when it changes, a variant's when its
// prices do, a product's when its tags are given or taken, as
// wire.UpdatedAt says; a renamed tag moves only its own, and a deleted
// variant is no longer listed.
func TestUpdatedAtMoves(t *testing.T) {
	t.Parallel()
	day := func(d string) func() time.Time {
		at, _ := time.Parse(time.DateOnly, d)
		return func() time.Time { return at }
	}
	for _, tc := range []struct {
		name                     string
		change                   func(e *env, product, variant, tag string)
		products, variants, tags string // the totals changed since the second day
	}{
		{"nothing", func(*env, string, string, string) {}, "0", "0", "0"},
		{"a variant's weight", func(e *env, _, v, _ string) { e.mustIDs(wire.Variants, map[string]any{"id": v, "weight": "2.5"}) }, "0", "1", "0"},
		{"a variant's price", func(e *env, _, v, _ string) {
			e.mustIDs(wire.Variants, map[string]any{"id": v, "links": map[string]any{"PricingTiers": []any{map[string]any{"name": "Retail", "value": "9.50"}}}})
		}, "0", "1", "0"},
		{"the product's name", func(e *env, p, _, _ string) { e.mustIDs(wire.Products, map[string]any{"id": p, "name": "Renamed"}) }, "1", "0", "0"},
		{"a tag given in bulk", func(e *env, p, _, tag string) {
			e.post(wire.WritePath(wire.Products), map[string]any{"action": "write",
				"bulk_action": map[string]any{"Tags": []any{map[string]any{"id": tag, "assign": 1}}}, "Products": []any{map[string]any{"id": p}}}).expect(e.t, 200)
		}, "1", "0", "0"},
		{"the tag renamed", func(e *env, _, _, tag string) {
			e.mustIDs(wire.ProductTags, map[string]any{"id": tag, "name": "renamed"})
		}, "0", "0", "1"},
		{"a variant deleted", func(e *env, _, v, _ string) { e.mustIDs(wire.Variants, map[string]any{"id": v, "delete": 1}) }, "0", "0", "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, Options{})
			e.srv.SetClock(day("2026-03-01"))
			p := e.mustIDs(wire.Products, product("Tee", "T-1", "T-2"))[0]
			tag := e.mustIDs(wire.ProductTags, map[string]any{"name": "sale"})[0]
			v, _ := e.variantBySKU("T-1")
			e.srv.SetClock(day("2026-03-02"))
			tc.change(e, p, fmt.Sprint(v["id"]), tag)
			since := map[string]any{"filter": map[string]any{"and": []any{map[string]any{"updated_at": "2026-03-02", "operation": ">="}}}}
			got := []string{}
			for _, res := range []string{wire.Products, wire.Variants, wire.ProductTags} {
				got = append(got, fmt.Sprint(e.read(wire.ListPath(res), since).expect(t, 200).meta()["total"]))
			}
			if want := []string{tc.products, tc.variants, tc.tags}; !slices.Equal(got, want) {
				t.Errorf("products, variants and tags changed since: %v, want %v", got, want)
			}
		})
	}
}

// A load runs without the indexes of records by time, and leaves them
// built; on a file, its commits do not wait for the disk, and after it
// the store commits as before, the log copied into the database file.
func TestLoadManyBuildsTimeIndexesAfter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		file       bool
		sync, back int // PRAGMA synchronous during the load and after it
	}{
		{"in memory", false, 0, 0},
		{"on a file", true, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var opts Options
			if tc.file {
				opts.DBPath = filepath.Join(t.TempDir(), "sandbox.db")
			}
			e := newEnv(t, opts)
			during, sync := -1, -1
			err := e.srv.LoadMany(func() error {
				e.mustIDs(wire.Products, product("Tee", "T-1"))
				during, sync = loadIndexes(t, e.srv), synchronous(t, e.srv)
				return nil
			})
			if err != nil || during != 0 || loadIndexes(t, e.srv) != 3 {
				t.Errorf("LoadMany: %v, %d indexes by time during the load and %d after; want none, then 3", err, during, loadIndexes(t, e.srv))
			}
			if back := synchronous(t, e.srv); sync != tc.sync || back != tc.back {
				t.Errorf("synchronous %d during the load and %d after, want %d and %d", sync, back, tc.sync, tc.back)
			}
			if !tc.file {
				return
			}
			if fi, err := os.Stat(opts.DBPath + "-wal"); err != nil {
				t.Error(err)
			} else if fi.Size() != 0 {
				t.Errorf("the log after the load holds %d bytes; want it copied into the database and emptied", fi.Size())
			}
		})
	}
}

// loadIndexes counts the indexes of records by time srv's database has.
func loadIndexes(t *testing.T, srv *Server) int {
	t.Helper()
	var n int
	err := srv.st.read(context.Background(), func(tx *txn) error {
		return tx.eachRowOnce(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN ('variants_updated', 'products_updated', 'product_files_updated')`, nil,
			func(r *row) error { return r.Scan(&n) })
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// synchronous is the synchronous mode srv's writes commit in.
func synchronous(t *testing.T, srv *Server) int {
	t.Helper()
	n := -1
	if err := srv.st.do(context.Background(), func(tx *txn) error {
		_, err := tx.row("PRAGMA synchronous", nil, &n)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return n
}
