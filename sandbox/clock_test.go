package sandbox

import (
	"fmt"
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
