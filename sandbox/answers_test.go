package sandbox

import (
	"bytes"
	"context"
	goflag "flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	json "github.com/goccy/go-json"

	"lading/api/wire"
)

var update = goflag.Bool("update", false, "rewrite the golden files in testdata/")

// TestReadAnswersUnchanged reads an account of varied records (escaped and
// non-ASCII text, null and set fields, several attributes, prices and tags,
// a bundle, a deleted variant, a product without variants, an archived one,
// a file, an order) through every read that renders variants or products,
// and compares the answers, byte for byte, with those the sandbox gave
// before its read path was made faster (testdata/answers.golden; the
// timestamps of the run are masked).
func TestReadAnswersUnchanged(t *testing.T) {
	t.Parallel()
	e, fixture := answersEnv(t)
	var got bytes.Buffer
	for _, r := range answerReads(fixture) {
		res := e.read(r.path, r.fields).expect(t, 200)
		fmt.Fprintf(&got, "== %s %v\n%s\n", r.path, r.fields, res.raw)
	}
	out := timestamps.ReplaceAll(got.Bytes(), []byte("TIME"))
	golden := filepath.Join("testdata", "answers.golden")
	if *update {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, want) {
		gl, wl := bytes.Split(out, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := range min(len(gl), len(wl)) {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("answer line %d differs:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("answers have %d lines, want %d", len(gl), len(wl))
	}
}

var timestamps = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00`)

// answersFixture names records of answersEnv that reads ask for by id.
type answersFixture struct {
	variants []string // a live one, the deleted one, the bundle
	product  string
	order    string
}

// answersEnv writes the records of TestReadAnswersUnchanged.
func answersEnv(t *testing.T) (*env, answersFixture) {
	e := stockedEnv(t, 10, 10)
	kit, err := e.srv.CreateBundle(context.Background(), BundleSpec{Token: e.token, SKU: "KIT",
		Components: []OrderLine{{SKU: "A", Quantity: 2}, {SKU: "B", Quantity: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	variant := func(sku, colour, size string, more map[string]any) map[string]any {
		v := map[string]any{"sku": sku, "links": map[string]any{"AttributeOptions": []any{
			map[string]any{"value": colour}, map[string]any{"value": size}}}}
		for k, x := range more {
			v[k] = x
		}
		return v
	}
	tee := e.mustIDs(wire.Products, map[string]any{"name": "Tee <b>&amp; \"quoted\"", "description": "line\nbreak\ttab é ✓ \u2028",
		"notes": "<script>", "local_id": "L-1", "links": map[string]any{
			"Attributes":   []any{map[string]any{"name": "Color", "order": 0}, map[string]any{"name": "Size", "order": 1}},
			"PricingTiers": []any{map[string]any{"name": "Retail", "value": "9.99"}, map[string]any{"name": "Wholesale", "value": "4.50"}},
			"ProductTags":  []any{map[string]any{"name": "new"}, map[string]any{"name": "sale & <more>"}},
			"Variants": []any{
				variant("T-BLK-S", "Black", "S", map[string]any{"quantity": 7, "cost": "2.50", "weight": "0.25", "upc": "0123",
					"description": "über \\ back", "notes": "a\u0001b", "location_1": "R1", "low_stock_alert": "2",
					"supplier_cost": "1.25", "supplier_id": "SUP-9"}),
				variant("T-BLK-M", "Black", "M", map[string]any{"quantity": 0}),
				variant("T-WHT-S", "White", "S", map[string]any{"quantity": 3, "cost": "2.75"}),
				variant("T-WHT-M", "White", "M", nil),
			}}})[0]
	e.mustIDs(wire.Products, map[string]any{"name": "Empty"})
	arch := e.mustIDs(wire.Products, map[string]any{"name": "Old", "links": map[string]any{
		"Attributes": []any{map[string]any{"name": "Size"}},
		"Variants": []any{map[string]any{"sku": "OLD-1", "links": map[string]any{
			"AttributeOptions": []any{map[string]any{"value": "one"}}}}}}})[0]
	e.mustIDs(wire.Products, map[string]any{"id": arch, "archived": 1})
	e.upload(tee, "front.png", []byte("png")).expect(t, 200)
	// A tier whose prices' ids are not in their variants' order, and an
	// option that a variant takes after others.
	for _, sku := range []string{"T-WHT-S", "T-BLK-S"} {
		v, _ := e.variantBySKU(sku)
		e.mustIDs(wire.Variants, map[string]any{"id": v["id"], "links": map[string]any{
			"PricingTiers": []any{map[string]any{"name": "Sale", "value": "1.00"}}}})
	}
	gone, _ := e.variantBySKU("T-WHT-M")
	e.mustIDs(wire.Variants, map[string]any{"id": gone["id"], "delete": 1})
	live, _ := e.variantBySKU("T-BLK-S")
	order := e.order(OrderSpec{ShippingAddress: shipTo, Contact: customer,
		Lines: []OrderLine{{SKU: "KIT", Quantity: 1}, {SKU: "T-BLK-S", Quantity: 2}}})
	return e, answersFixture{variants: []string{live["id"].(string), gone["id"].(string), kit}, product: tee, order: order}
}

type answerRead struct {
	path   string
	fields map[string]any
}

// answerReads are the reads of TestReadAnswersUnchanged.
func answerReads(f answersFixture) []answerRead {
	ids := func(ids ...string) []any {
		var out []any
		for _, id := range ids {
			out = append(out, map[string]any{"id": id})
		}
		return out
	}
	variants, products := wire.ListPath(wire.Variants), wire.ListPath(wire.Products)
	return []answerRead{
		{variants, nil},
		{variants, map[string]any{"page_size": 2, "page_num": 2}},
		{variants, map[string]any{"page_size": 3, "page_num": 3}},
		{variants, map[string]any{"filter": map[string]any{"and": []any{map[string]any{"sku": "T-", "operation": ">"}}}}},
		{variants, map[string]any{"sort": []any{map[string]any{"sku": "desc"}}, "page_size": 4}},
		{wire.DetailPath(wire.Variants), map[string]any{wire.Variants: ids(f.variants...)}},
		{products, nil},
		{products, map[string]any{"page_size": 1, "page_num": 2}},
		{wire.DetailPath(wire.Products), map[string]any{wire.Products: ids(f.product)}},
		{wire.ListPath(wire.Fulfillments), nil},
		{wire.DetailPath(wire.SalesOrders), map[string]any{wire.SalesOrders: ids(f.order)}},
	}
}

// An account address is written as encoding it as a map wrote it, whatever
// its label holds.
func TestAddressRecord(t *testing.T) {
	t.Parallel()
	for _, label := range []string{"", "Main", `Back "room" <b>&amp;`, "line\nbreak\u2028 é \x01", "bad \xff utf-8"} {
		for _, flags := range [][2]bool{{true, false}, {false, true}} {
			var w jw
			writeAddress(&w, 100000004, label, flags[0], flags[1], "2026-01-02T03:04:05+00:00", "2026-02-03T04:05:06+00:00",
				[]int64{100000009, 100000012})
			want, err := json.Marshal(map[string]any{
				"id": "100000004", "label": label, "warehouse": boolStr(flags[0]), "default_warehouse": "0",
				"billing": "0", "shipping": "0", "channel_warehouse": "0", "deleted": boolStr(flags[1]),
				"city": nil, "company": nil, "country": nil, "country_iso": nil, "phone": nil, "state": nil,
				"street1": nil, "street2": nil, "zip": nil, "created_at": "2026-01-02T03:04:05+00:00",
				"updated_at":  "2026-02-03T04:05:06+00:00",
				wire.KeyLinks: map[string]any{wire.WarehouseStockLevels: idLinks([]int64{100000009, 100000012})},
			})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(w.b, want) {
				t.Errorf("label %q:\n got %s\nwant %s", label, w.b, want)
			}
		}
	}
}
