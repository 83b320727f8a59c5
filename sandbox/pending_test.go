package sandbox

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"lading/api/wire"
)

// tagged is product with tags (by name) and a price in tier Retail.
func tagged(name string, tags []string, skus ...string) map[string]any {
	p := product(name, skus...)
	var ts []any
	for _, tag := range tags {
		ts = append(ts, map[string]any{"name": tag})
	}
	links := p["links"].(map[string]any)
	links["ProductTags"] = ts
	links["PricingTiers"] = []any{map[string]any{"name": "Retail", "value": "9.50"}}
	return p
}

// The rows of a write's records are held back and sent many at a time: a
// record that fails takes back only its own, whatever the records before
// it held back, and what they made (a SKU, a tag) is known to the records
// after it.
func TestHeldRowsOfAWrite(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	r := e.write(wire.Products,
		tagged("Z", []string{"first"}, "P-0"),            // reads what the records after it find in the memo
		tagged("A", []string{"shared"}, "P-1"),           // runs no statement: all its rows held back
		product("B", "P-1"),                              // A's SKU, not yet sent
		product("F", "P-5", "P-1"),                       // A's SKU, sent since, right after a failure
		tagged("C", []string{"shared", "c-only"}, "P-2"), // after a failure
		tagged("D", []string{"d-only"}, "P-3", "P-3"),    // its own SKU twice
		tagged("E", []string{"c-only"}, "P-3"),           // D's SKU, taken back with D
	).expect(t, 200)
	ids := make([]string, 7)
	for i, x := range r.body[wire.Products].([]any) {
		ids[i], _ = x.(map[string]any)["id"].(string)
	}
	a, _ := e.variantBySKU("P-1")
	for _, tc := range []struct {
		i    int
		want string // in the record's error; "" when it applies
	}{
		{0, ""},
		{1, ""},
		{2, fmt.Sprintf("SKU %q is already used by variant %s", "P-1", a["id"])},
		{3, fmt.Sprintf("SKU %q is already used by variant %s", "P-1", a["id"])},
		{4, ""},
		{5, fmt.Sprintf("SKU %q is already used by variant", "P-3")},
		{6, ""},
	} {
		er := r.recordError(wire.Products, tc.i)
		switch {
		case tc.want == "" && er != nil:
			t.Errorf("record %d: %v, want it applied", tc.i, er)
		case tc.want != "" && (er == nil || !strings.Contains(er["message"].(string), tc.want)):
			t.Errorf("record %d: %v, want an error saying %q", tc.i, er, tc.want)
		case tc.want == "" && ids[tc.i] == "":
			t.Errorf("record %d has no id", tc.i)
		}
	}
	if total := e.read(wire.ListPath(wire.Variants), nil).meta()["total"]; total != "4" {
		t.Errorf("%v variants, want 4: P-0, P-1, P-2 and E's P-3", total)
	}
	tags := map[string]int{}
	for _, tag := range e.read(wire.ListPath(wire.ProductTags), nil).records(wire.ProductTags) {
		tags[tag["name"].(string)]++
	}
	if want := map[string]int{"first": 1, "shared": 1, "c-only": 1}; fmt.Sprint(tags) != fmt.Sprint(want) {
		t.Errorf("tags %v, want %v: each once, none of the records that failed", tags, want)
	}
	// The SKUs of a product's variants are looked up at once.
	r = e.write(wire.Products, tagged("H", []string{"h"}, "P-9", "P-1"), tagged("G", []string{"g"}, "P-8", "P-7")).expect(t, 200)
	if er := r.recordError(wire.Products, 0); er == nil || !strings.Contains(er["message"].(string), fmt.Sprintf("variant %s", a["id"])) {
		t.Errorf("a product with a SKU of the account: %v, want an error naming variant %s", er, a["id"])
	}
	if er := r.recordError(wire.Products, 1); er != nil {
		t.Errorf("a product of new SKUs: %v", er)
	}
	for _, sku := range []string{"P-0", "P-1", "P-2", "P-3"} {
		v, r := e.variantBySKU(sku)
		if p := r.side(wire.VariantPrices, linkIDsOf(v, wire.VariantPrices)[0]); p["price"] != "9.50" {
			t.Errorf("%s: price %v", sku, p)
		}
		if n := len(linkIDsOf(v, wire.AttributeOptions)); n != 1 {
			t.Errorf("%s: %d options, want 1", sku, n)
		}
	}
}

// Records written in one write make the same rows as written one a
// write: the rows held back are sent in statements of many rows, the same.
func TestHeldRowsAsOneByOne(t *testing.T) {
	t.Parallel()
	var recs []any
	for i := range 90 { // more rows than the largest statement takes
		skus := []string{fmt.Sprintf("H-%d-A", i), fmt.Sprintf("H-%d-B", i), fmt.Sprintf("H-%d-C", i)}
		recs = append(recs, tagged(fmt.Sprintf("Held %d", i), []string{fmt.Sprintf("t%d", i%7), "all"}, skus...))
	}
	together, alone := newEnv(t, Options{}), newEnv(t, Options{})
	together.mustIDs(wire.Products, recs...)
	for _, rec := range recs {
		alone.mustIDs(wire.Products, rec)
	}
	for _, res := range []string{wire.Products, wire.Variants, wire.ProductTags} {
		for page := 1; page <= 2; page++ {
			read := map[string]any{wire.KeyPageSize: wire.MaxPageSize, wire.KeyPageNum: page}
			g, _ := json.Marshal(stripTimes(together.read(wire.ListPath(res), read).expect(t, 200).body))
			w, _ := json.Marshal(stripTimes(alone.read(wire.ListPath(res), read).expect(t, 200).body))
			if (page == 1 && len(g) < 400) || string(g) != string(w) {
				t.Errorf("%s page %d written in one write:\n%s\nwritten one a write:\n%s", res, page, g, w)
			}
		}
	}
}

// A write takes the room the last one's held rows took, emptied: nothing
// a write held back (one that failed holds some) reaches the next, and
// room beyond maxSpare is let go.
func TestHeldRowsRoomIsReusedEmpty(t *testing.T) {
	t.Parallel()
	var spare, p pending
	p.reuse(&spare)
	if p.args != nil || p.named != nil {
		t.Fatalf("the first write takes room %v %v, want none", p.args, p.named)
	}
	p.args = make([][]any, len(inserts))
	p.args[insertTags.index] = append(make([]any, 0, 8), int64(7), "left by a failed record")
	p.args[insertVariants.index] = make([]any, 0, maxSpare+1)
	p.named = make([]driver.NamedValue, 3, 16)
	spare.reuse(&p)
	if p.args != nil || p.named != nil {
		t.Errorf("the write keeps its room after giving it back")
	}
	var next pending
	next.reuse(&spare)
	tags := next.args[insertTags.index]
	if len(tags) != 0 || cap(tags) != 8 {
		t.Errorf("the next write's tag rows are %v (room %d), want empty with the room of 8", tags, cap(tags))
	}
	if left := tags[:cap(tags)]; left[0] != nil || left[1] != nil {
		t.Errorf("the room still holds %v: the next write's garbage keeps the last one's values", left[:2])
	}
	if next.args[insertVariants.index] != nil {
		t.Errorf("room of %d parameters is kept, want it let go above %d", maxSpare+1, maxSpare)
	}
	if len(next.named) != 0 || cap(next.named) != 16 {
		t.Errorf("the next write's driver parameters are %d (room %d), want empty with the room of 16", len(next.named), cap(next.named))
	}
}
