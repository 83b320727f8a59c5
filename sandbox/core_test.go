package sandbox

import (
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lading/api/wire"
)

func TestUnauthorized(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	for _, tok := range []string{"", "not-a-token"} {
		r := e.postToken(tok, wire.ListPath(wire.Variants), map[string]any{"action": "read"}).expect(t, 401)
		if !strings.Contains(r.message(), wire.HeaderToken) {
			t.Errorf("401 message %q does not name the header", r.message())
		}
	}
	if c := e.srv.Counters(); c.Unauthorized != 2 {
		t.Errorf("unauthorized counter %d, want 2", c.Unauthorized)
	}
	e.read(wire.ListPath(wire.Variants), nil).expect(t, 200)
}

func TestPathsAndPrefix(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.read(wire.APIPrefix+wire.ListPath(wire.Products), nil).expect(t, 200)
	r := e.read("/v2/Nothing", nil).expect(t, 404)
	if r.message() == "" {
		t.Error("404 without a B.1 message")
	}
	// Envelope action must match the path.
	e.post(wire.ListPath(wire.Products), map[string]any{"action": "write"}).expect(t, 400)
	e.post(wire.WritePath(wire.Products), map[string]any{"action": "read"}).expect(t, 400)
}

func TestEmptyListingShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	r := e.read(wire.ListPath(wire.Variants), nil).expect(t, 200)
	want := `{"meta":{"current_page":"1","last_page":"0","per_page":"15","total":"0","from":"0","to":"0"},"Variants":[]}`
	if string(r.raw) != want {
		t.Errorf("empty listing\n got %s\nwant %s", r.raw, want)
	}
}

func TestPageSizeLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	r := e.read(wire.ListPath(wire.Variants), map[string]any{"page_size": wire.MaxPageSize + 1}).expect(t, 400)
	if !strings.Contains(r.message(), fmt.Sprint(wire.MaxPageSize)) {
		t.Errorf("message %q does not name the limit", r.message())
	}
	e.read(wire.ListPath(wire.Variants), map[string]any{"page_size": wire.MaxPageSize}).expect(t, 200)
}

func TestWriteBatchLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	recs := make([]any, wire.MaxWriteRecords+1)
	for i := range recs {
		recs[i] = map[string]any{"name": fmt.Sprint("P", i)}
	}
	r := e.write(wire.Products, recs...).expect(t, 400)
	if !strings.Contains(r.message(), fmt.Sprint(wire.MaxWriteRecords)) {
		t.Errorf("message %q does not name the limit", r.message())
	}
	if total := e.read(wire.ListPath(wire.Products), nil).meta()["total"]; total != "0" {
		t.Errorf("an oversized batch applied records: total %v", total)
	}
	if ids := e.mustIDs(wire.Products, recs[:wire.MaxWriteRecords]...); len(ids) != wire.MaxWriteRecords {
		t.Errorf("%d ids", len(ids))
	}
}

func TestFilterRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.mustIDs(wire.Products, product("Shirt", "A", "B", "C"), product("Hat", "D"))
	cond := func(k string, v any) map[string]any { return map[string]any{k: v} }
	cases := []struct {
		name   string
		filter any
		status int
		skus   string
	}{
		{"one condition", map[string]any{"and": []any{cond("sku", "B")}}, 200, "B"},
		{"or many skus", map[string]any{"or": []any{cond("sku", "A"), cond("sku", "D")}}, 200, "A,D"},
		{"two conditionals", map[string]any{"and": []any{cond("bundle", "0"), cond("component", "0")},
			"or": []any{cond("sku", "A"), cond("sku", "C")}}, 200, "A,C"},
		{"nested conditional", map[string]any{"and": []any{cond("bundle", "0"),
			map[string]any{"or": []any{cond("sku", "A"), cond("sku", "C")}}}}, 400, ""},
		{"operation", map[string]any{"and": []any{map[string]any{"sku": "B", "operation": ">="}}}, 200, "B,C,D"},
		{"not equal", map[string]any{"and": []any{map[string]any{"sku": "B", "operation": "!="}}}, 200, "A,C,D"},
		{"third conditional", map[string]any{"and": []any{cond("sku", "A")}, "or": []any{cond("sku", "B")}, "not": []any{cond("sku", "C")}}, 400, ""},
		{"two filters", []any{map[string]any{"and": []any{cond("sku", "A")}}, map[string]any{"and": []any{cond("sku", "B")}}}, 400, ""},
		{"unknown attribute", map[string]any{"and": []any{cond("colour", "red")}}, 400, ""},
		{"unknown operation", map[string]any{"and": []any{map[string]any{"sku": "A", "operation": "~"}}}, 400, ""},
		{"not a conditional", map[string]any{"sku": "A"}, 400, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.read(wire.ListPath(wire.Variants), map[string]any{"filter": c.filter}).expect(t, c.status)
			if c.status != 200 {
				if r.message() == "" {
					t.Error("no message")
				}
				return
			}
			var got []string
			for _, v := range r.records(wire.Variants) {
				got = append(got, v["sku"].(string))
			}
			if strings.Join(got, ",") != c.skus {
				t.Errorf("skus %v, want %s", got, c.skus)
			}
		})
	}
}

func TestNumericFilterAndSort(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.mustIDs(wire.Products, map[string]any{"name": "W", "links": map[string]any{
		"Attributes": []any{map[string]any{"name": "Size"}},
		"Variants": []any{
			map[string]any{"sku": "w10", "weight": "10", "links": map[string]any{"AttributeOptions": []any{map[string]any{"value": "a"}}}},
			map[string]any{"sku": "w9", "weight": "9.5", "links": map[string]any{"AttributeOptions": []any{map[string]any{"value": "b"}}}},
			map[string]any{"sku": "w100", "weight": "100", "links": map[string]any{"AttributeOptions": []any{map[string]any{"value": "c"}}}},
		}}})
	r := e.read(wire.ListPath(wire.Variants), map[string]any{
		"filter": map[string]any{"and": []any{map[string]any{"weight": "9.6", "operation": ">"}}},
		"sort":   []any{map[string]any{"weight": "desc"}},
	}).expect(t, 200)
	var got []string
	for _, v := range r.records(wire.Variants) {
		got = append(got, v["sku"].(string))
	}
	if strings.Join(got, ",") != "w100,w10" {
		t.Errorf("numeric filter+sort: %v", got)
	}
	e.read(wire.ListPath(wire.Variants), map[string]any{"sort": []any{map[string]any{"colour": "asc"}}}).expect(t, 400)
	e.read(wire.ListPath(wire.Variants), map[string]any{"sort": []any{map[string]any{"sku": "sideways"}}}).expect(t, 400)
}

func TestPaging(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	recs := make([]any, 7)
	for i := range recs {
		recs[i] = map[string]any{"name": fmt.Sprint("P", i)}
	}
	e.mustIDs(wire.Products, recs...)
	r := e.read(wire.ListPath(wire.Products), map[string]any{"page_size": 3, "page_num": 3}).expect(t, 200)
	m := r.meta()
	want := map[string]any{"current_page": "3", "last_page": "3", "per_page": "3", "total": "7", "from": "7", "to": "7"}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("meta %s = %v, want %v", k, m[k], v)
		}
	}
	if n := len(r.records(wire.Products)); n != 1 {
		t.Errorf("%d records on last page", n)
	}
}

func TestProductCreateShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	ids := e.mustIDs(wire.Products, map[string]any{
		"name": "Filament", "description": "1kg",
		"links": map[string]any{
			"Attributes":   []any{map[string]any{"name": "Color", "order": 0}, map[string]any{"name": "Size", "order": 1}},
			"PricingTiers": []any{map[string]any{"name": "Retail", "value": "39.99"}},
			"ProductTags":  []any{map[string]any{"name": "new"}},
			"Variants": []any{
				map[string]any{"sku": "F-BK-S", "quantity": "100", "cost": "12.5", "weight": "3.1504",
					"links": map[string]any{"AttributeOptions": []any{map[string]any{"value": "Black"}, map[string]any{"value": "S"}}}},
				map[string]any{"sku": "F-BK-M", "links": map[string]any{
					"AttributeOptions": []any{map[string]any{"value": "Black"}, map[string]any{"value": "M"}},
					"PricingTiers":     []any{map[string]any{"name": "Retail", "value": "41.00"}}}},
			},
		},
	})
	v, r := e.variantBySKU("F-BK-S")
	for k, want := range map[string]any{"stock": "100", "committed_stock": "0", "available": "100", "cost": "12.5",
		"weight": "3.1504", "bundle": "0", "deleted": "0", "upc": nil,
		"auto_description": "Filament (Black, S)", "auto_description_with_option_type": "Filament (Color: Black, Size: S)"} {
		if v[k] != want {
			t.Errorf("variant %s = %#v, want %#v", k, v[k], want)
		}
	}
	if p := linkIDsOf(v, wire.Products); len(p) != 1 || p[0] != ids[0] {
		t.Errorf("links.Products %v", p)
	}
	opts := linkIDsOf(v, wire.AttributeOptions)
	if len(opts) != 2 {
		t.Fatalf("options %v", opts)
	}
	o := r.side(wire.AttributeOptions, opts[0])
	if o["name"] != "Black" {
		t.Errorf("option %v", o)
	}
	attr := r.side(wire.Attributes, linkIDsOf(o, wire.Attributes)[0])
	if attr["name"] != "Color" || attr["order"] != "0" {
		t.Errorf("attribute %v", attr)
	}
	price := r.side(wire.VariantPrices, linkIDsOf(v, wire.VariantPrices)[0])
	if price["price"] != "39.99" || r.side(wire.PricingTiers, linkIDsOf(price, wire.PricingTiers)[0])["name"] != "Retail" {
		t.Errorf("price %v", price)
	}
	lvl := r.side(wire.WarehouseStockLevels, linkIDsOf(v, wire.WarehouseStockLevels)[0])
	if lvl["account_address_id"] != e.acct.WarehouseID || lvl["available"] != "100" || lvl["stock"] != "100" {
		t.Errorf("level %v", lvl)
	}
	if a := r.side(wire.AccountAddresses, e.acct.WarehouseID); a["warehouse"] != "1" {
		t.Errorf("warehouse %v", a)
	}
	if p := r.side(wire.Products, ids[0]); p["name"] != "Filament" || len(linkIDsOf(p, wire.Variants)) != 2 {
		t.Errorf("product sideload %v", p)
	} else if tags := linkIDsOf(p, wire.ProductTags); len(tags) != 1 || r.side(wire.ProductTags, tags[0])["name"] != "new" {
		t.Errorf("variant read does not sideload the product's tags: %v", p["links"])
	}
	// Per-variant tier overrides the product-level price.
	v2, r2 := e.variantBySKU("F-BK-M")
	if p := r2.side(wire.VariantPrices, linkIDsOf(v2, wire.VariantPrices)[0]); p["price"] != "41.00" {
		t.Errorf("override price %v", p)
	}
	// Product detail with sideloads; tags created by name.
	pr := e.read(wire.DetailPath(wire.Products), map[string]any{"Products": []any{map[string]any{"id": ids[0]}}}).expect(t, 200)
	pd := pr.records(wire.Products)[0]
	tags := linkIDsOf(pd, wire.ProductTags)
	if len(tags) != 1 || pr.side(wire.ProductTags, tags[0])["name"] != "new" {
		t.Errorf("tags %v", pd["links"])
	}
	if pd["archived"] != "0" || pd["description"] != "1kg" {
		t.Errorf("product %v", pd)
	}
}

// A product links its attributes in their order, not in the order they
// were made, read as a record of the Products listing or sideloaded with
// its variants; each attribute sideloaded links its options in order.
func TestProductAttributesInTheirOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	option := func(value, attribute string) map[string]any {
		return map[string]any{"value": value, "links": map[string]any{"Attributes": []any{map[string]any{"name": attribute}}}}
	}
	e.mustIDs(wire.Products, map[string]any{"name": "Tee", "links": map[string]any{
		"Attributes": []any{map[string]any{"name": "Size", "order": 1}, map[string]any{"name": "Color", "order": 0}},
		"Variants": []any{
			map[string]any{"sku": "T-M-RED", "links": map[string]any{"AttributeOptions": []any{option("M", "Size"), option("Red", "Color")}}},
			map[string]any{"sku": "T-S-RED", "links": map[string]any{"AttributeOptions": []any{option("S", "Size"), option("Red", "Color")}}},
		},
	}})
	listed := e.read(wire.ListPath(wire.Products), map[string]any{}).expect(t, 200)
	_, byVariant := e.variantBySKU("T-S-RED")
	for name, r := range map[string]resp{"listed": listed, "sideloaded": byVariant} {
		var p map[string]any
		if name == "listed" {
			p = r.records(wire.Products)[0]
		} else {
			p = r.side(wire.Products, linkIDsOf(r.records(wire.Variants)[0], wire.Products)[0])
		}
		var names []string
		for _, id := range linkIDsOf(p, wire.Attributes) {
			names = append(names, fmt.Sprint(r.side(wire.Attributes, id)["name"]))
		}
		if strings.Join(names, ",") != "Color,Size" {
			t.Errorf("%s: the product links its attributes as %v, want Color then Size (their order)", name, names)
		}
	}
	size := listed.side(wire.Attributes, linkIDsOf(listed.records(wire.Products)[0], wire.Attributes)[1])
	var options []string
	for _, id := range linkIDsOf(size, wire.AttributeOptions) {
		options = append(options, fmt.Sprint(listed.side(wire.AttributeOptions, id)["name"]))
	}
	if strings.Join(options, ",") != "M,S" {
		t.Errorf("the attribute Size links its options as %v, want M then S (the order they were made in)", options)
	}
}

// A page of products holds the account's products alone, each with its
// own links and sideloads, whether other accounts' products were made
// among them (one: the page's products are read as a range of ids,
// the others in it left out) or many (read by id).
func TestProductPageAmongOtherAccounts(t *testing.T) {
	t.Parallel()
	for _, others := range []int{1, 5} {
		t.Run(fmt.Sprint(others), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, Options{})
			o := &env{t: t, srv: e.srv, ts: e.ts, token: "other-token"}
			if _, err := e.srv.RegisterToken(o.token); err != nil {
				t.Fatal(err)
			}
			product := func(name string) map[string]any {
				return map[string]any{"name": name, "links": map[string]any{
					"Attributes":  []any{map[string]any{"name": "Size " + name}},
					"ProductTags": []any{map[string]any{"name": "tag " + name}},
					"Variants": []any{map[string]any{"sku": name + "-1",
						"links": map[string]any{"AttributeOptions": []any{map[string]any{"value": "S"}}}}},
				}}
			}
			e.mustIDs(wire.Products, product("A"))
			for i := range others {
				o.mustIDs(wire.Products, product(fmt.Sprint("X", i)))
			}
			e.mustIDs(wire.Products, product("B"))
			r := e.read(wire.ListPath(wire.Products), map[string]any{}).expect(t, 200)
			var got []string
			for _, p := range r.records(wire.Products) {
				name := fmt.Sprint(p["name"])
				var links []string
				for _, k := range []struct{ resource, field string }{
					{wire.Variants, "sku"}, {wire.Attributes, "name"}, {wire.ProductTags, "name"},
				} {
					for _, id := range linkIDsOf(p, k.resource) {
						links = append(links, fmt.Sprint(r.side(k.resource, id)[k.field]))
					}
				}
				got = append(got, name+": "+strings.Join(links, ", "))
			}
			if want := []string{"A: A-1, Size A, tag A", "B: B-1, Size B, tag B"}; !slices.Equal(got, want) {
				t.Errorf("the page holds %q, want %q", got, want)
			}
			for _, resource := range []string{wire.Variants, wire.Attributes, wire.AttributeOptions, wire.ProductTags} {
				if side, _ := r.body[resource].(map[string]any); len(side) != 2 {
					t.Errorf("%d %s sideloaded, want 2 (the account's own): %v", len(side), resource, side)
				}
			}
			attrs, _ := r.body[wire.Attributes].(map[string]any)
			for id := range attrs {
				a := r.side(wire.Attributes, id)
				if opts := linkIDsOf(a, wire.AttributeOptions); len(opts) != 1 || r.side(wire.AttributeOptions, opts[0]) == nil {
					t.Errorf("attribute %v links options %v, want its one, sideloaded", a["name"], opts)
				}
			}
		})
	}
}

func TestProductWithoutVariants(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	ids := e.mustIDs(wire.Products, map[string]any{"name": "Plain", "links": map[string]any{"Variants": []any{map[string]any{}}}})
	r := e.read(wire.DetailPath(wire.Products), map[string]any{"Products": []any{map[string]any{"id": ids[0]}}}).expect(t, 200)
	vs := linkIDsOf(r.records(wire.Products)[0], wire.Variants)
	if len(vs) != 1 {
		t.Fatalf("variants %v", vs)
	}
	if opts := linkIDsOf(r.side(wire.Variants, vs[0]), wire.AttributeOptions); len(opts) != 0 {
		t.Errorf("attributeless variant has options %v", opts)
	}
}

func TestDistinctCombinations(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	dup := product("Dup", "X1", "X2")
	vs := dup["links"].(map[string]any)["Variants"].([]any)
	vs[1].(map[string]any)["links"] = vs[0].(map[string]any)["links"]
	r := e.write(wire.Products, dup, product("Fine", "Y1")).expect(t, 200)
	er := r.recordError(wire.Products, 0)
	if er == nil || er["index"].(float64) != 0 || !strings.Contains(er["message"].(string), "Size: S0") ||
		!strings.Contains(er["field"].(string), "links.Variants[1]") {
		t.Fatalf("duplicate combination error %v", er)
	}
	if r.recordError(wire.Products, 1) != nil {
		t.Error("second record should apply")
	}
	// The failed product left nothing behind.
	if total := e.read(wire.ListPath(wire.Variants), nil).meta()["total"]; total != "1" {
		t.Errorf("variants total %v, want 1", total)
	}
	// Adding a variant with an existing combination is refused too.
	pid := r.body[wire.Products].([]any)[1].(map[string]any)["id"]
	r = e.write(wire.Variants, map[string]any{"sku": "Y2", "links": map[string]any{
		"Products": []any{map[string]any{"id": pid}}, "AttributeOptions": []any{map[string]any{"value": "S0", "links": map[string]any{
			"Attributes": []any{map[string]any{"name": "Size"}}}}}}}).expect(t, 400)
	if len(r.body["errors"].([]any)) != 1 {
		t.Errorf("B.1 errors %v", r.body["errors"])
	}
	// Two options of one attribute are refused, naming both.
	size := func(v string) any {
		return map[string]any{"value": v, "links": map[string]any{"Attributes": []any{map[string]any{"name": "Size"}}}}
	}
	r = e.write(wire.Variants, map[string]any{"sku": "Y4", "links": map[string]any{
		"Products": []any{map[string]any{"id": pid}}, "AttributeOptions": []any{size("S1"), size("S2")}}}).expect(t, 400)
	if er := r.recordError(wire.Variants, 0); er == nil || er["field"] != "links.AttributeOptions[1].value" ||
		!strings.Contains(er["message"].(string), `attribute "Size" a second option ("S2" after "S1")`) {
		t.Errorf("two options of one attribute: %v", er)
	}
	// A new attribute by name is created on the product.
	e.mustIDs(wire.Variants, map[string]any{"sku": "Y3", "links": map[string]any{
		"Products": []any{map[string]any{"id": pid}}, "AttributeOptions": []any{
			map[string]any{"value": "S0", "links": map[string]any{"Attributes": []any{map[string]any{"name": "Size"}}}},
			map[string]any{"value": "Red", "links": map[string]any{"Attributes": []any{map[string]any{"name": "Color"}}}}}}})
	v, _ := e.variantBySKU("Y3")
	if v["auto_description_with_option_type"] != "Fine (Size: S0, Color: Red)" {
		t.Errorf("auto description %v", v["auto_description_with_option_type"])
	}
}

func TestUniqueSKUAndPartialWrite(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.mustIDs(wire.Products, product("A", "SKU-1"))
	r := e.write(wire.Products, product("B", "SKU-1"), map[string]any{"name": ""}).expect(t, 400)
	if !strings.Contains(r.message(), "SKU-1") {
		t.Errorf("message %q", r.message())
	}
	errs := r.body["errors"].([]any)
	if len(errs) != 2 || errs[1].(map[string]any)["index"].(float64) != 1 || errs[1].(map[string]any)["field"] != "name" {
		t.Errorf("errors %v", errs)
	}
}

func TestDeleteArchiveAndBulk(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	ids := e.mustIDs(wire.Products, product("A", "a"), product("B", "b"), product("C", "c"))
	e.mustIDs(wire.Products, map[string]any{"id": ids[0], "delete": 1})
	r := e.read(wire.ListPath(wire.Products), nil)
	if r.meta()["total"] != "2" {
		t.Errorf("deleted product still listed: %v", r.meta())
	}
	if r := e.read(wire.ListPath(wire.Variants), map[string]any{"filter": map[string]any{"and": []any{map[string]any{"sku": "a"}}}}); r.meta()["total"] != "0" {
		t.Error("variant of deleted product still listed")
	}
	d := e.read(wire.DetailPath(wire.Products), map[string]any{"Products": []any{map[string]any{"id": ids[0]}}}).expect(t, 200)
	if d.records(wire.Products)[0]["deleted"] != "1" {
		t.Error("detail of deleted product not marked deleted")
	}
	// A deleted record cannot be edited.
	e.write(wire.Products, map[string]any{"id": ids[0], "name": "again"}).expect(t, 400)

	e.mustIDs(wire.Products, map[string]any{"id": ids[1], "archive": 1})
	archived := func() string {
		return e.read(wire.ListPath(wire.Products), map[string]any{"filter": map[string]any{"and": []any{map[string]any{"archived": "1"}}}}).meta()["total"].(string)
	}
	if n := archived(); n != "1" {
		t.Errorf("archived %s, want 1", n)
	}
	r = e.post(wire.WritePath(wire.Products), map[string]any{"action": "write", "bulk_action": map[string]any{"archive": 1},
		"Products": []any{map[string]any{"id": ids[1]}, map[string]any{"id": ids[2]}, map[string]any{"id": "1"}}}).expect(t, 200)
	if r.recordError(wire.Products, 2) == nil || r.recordError(wire.Products, 0) != nil {
		t.Errorf("bulk results %s", r.raw)
	}
	if n := archived(); n != "2" {
		t.Errorf("archived after bulk %s, want 2", n)
	}
	tag := e.mustIDs(wire.ProductTags, map[string]any{"name": "sale"})[0]
	e.post(wire.WritePath(wire.Products), map[string]any{"action": "write",
		"bulk_action": map[string]any{"Tags": []any{map[string]any{"id": tag, "assign": 1}}},
		"Products":    []any{map[string]any{"id": ids[1]}, map[string]any{"id": ids[2]}}}).expect(t, 200)
	d = e.read(wire.DetailPath(wire.Products), map[string]any{"Products": []any{map[string]any{"id": ids[1]}, map[string]any{"id": ids[2]}}}).expect(t, 200)
	for _, p := range d.records(wire.Products) {
		if tags := linkIDsOf(p, wire.ProductTags); len(tags) != 1 || tags[0] != tag {
			t.Errorf("product %v tags %v", p["id"], tags)
		}
	}
	// Tags given in an edit replace the set; deleting a tag unlinks it.
	e.mustIDs(wire.Products, map[string]any{"id": ids[1], "links": map[string]any{"ProductTags": []any{map[string]any{"name": "other"}}}})
	e.mustIDs(wire.ProductTags, map[string]any{"id": tag, "delete": 1})
	d = e.read(wire.DetailPath(wire.Products), map[string]any{"Products": []any{map[string]any{"id": ids[1]}, map[string]any{"id": ids[2]}}}).expect(t, 200)
	if got := linkIDsOf(d.records(wire.Products)[0], wire.ProductTags); len(got) != 1 || got[0] == tag {
		t.Errorf("tags after replace %v", got)
	}
	if got := linkIDsOf(d.records(wire.Products)[1], wire.ProductTags); len(got) != 0 {
		t.Errorf("deleted tag still linked %v", got)
	}
	tr := e.read(wire.ListPath(wire.ProductTags), nil).expect(t, 200)
	if tr.meta()["total"] != "1" || tr.records(wire.ProductTags)[0]["name"] != "other" {
		t.Errorf("tags listing %s", tr.raw)
	}
	e.read(wire.DetailPath(wire.ProductTags), map[string]any{"ProductTags": []any{map[string]any{"id": tag}}}).expect(t, 200)
}

func TestVariantEditAndDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.mustIDs(wire.Products, product("A", "a1", "a2"))
	v, _ := e.variantBySKU("a1")
	id := v["id"].(string)
	e.mustIDs(wire.Variants, map[string]any{"id": id, "weight": "2.5", "sku": "a1-new", "upc": "0123",
		"links": map[string]any{"PricingTiers": []any{map[string]any{"name": "Wholesale", "value": 5}}}})
	v, r := e.variantBySKU("a1-new")
	if v["weight"] != "2.5" || v["upc"] != "0123" {
		t.Errorf("edited %v", v)
	}
	if p := r.side(wire.VariantPrices, linkIDsOf(v, wire.VariantPrices)[0]); p["price"] != "5" {
		t.Errorf("price %v", p)
	}
	e.write(wire.Variants, map[string]any{"id": id, "sku": "a2"}).expect(t, 400)
	e.mustIDs(wire.Variants, map[string]any{"id": id, "delete": 1})
	if n := e.read(wire.ListPath(wire.Variants), nil).meta()["total"]; n != "1" {
		t.Errorf("total after delete %v", n)
	}
	// The SKU of a deleted variant is free again.
	e.mustIDs(wire.Products, product("B", "a1-new"))
}

func TestStockReconcile(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.mustIDs(wire.Products, product("A", "s1"))
	v, _ := e.variantBySKU("s1")
	id := v["id"].(string)
	e.setAvailable(id, "42").expect(t, 200)
	v, _ = e.variantBySKU("s1")
	if v["stock"] != "42" || v["available"] != "42" {
		t.Errorf("after set_available: stock %v available %v", v["stock"], v["available"])
	}
	e.setAvailable(id, 7).expect(t, 200)
	if v, _ = e.variantBySKU("s1"); v["available"] != "7" {
		t.Errorf("units as number: %v", v["available"])
	}
	r := e.write(wire.Variants, map[string]any{"id": id, "links": map[string]any{"ReconcileInventory": []any{map[string]any{
		"change": "set_available", "units": 1, "links": map[string]any{"AccountAddresses": []any{map[string]any{"id": "999"}}}}}}}).expect(t, 400)
	if !strings.Contains(r.message(), "999") {
		t.Errorf("other warehouse message %q", r.message())
	}
	e.write(wire.Variants, map[string]any{"id": id, "links": map[string]any{"ReconcileInventory": []any{map[string]any{
		"change": "add", "units": 1}}}}).expect(t, 400)
	filtered := e.read(wire.ListPath(wire.Variants), map[string]any{"filter": map[string]any{"and": []any{
		map[string]any{"available": "5", "operation": ">"}}}}).expect(t, 200)
	if filtered.meta()["total"] != "1" {
		t.Errorf("filter on available: %v", filtered.meta())
	}
}

func TestRestartKeepsData(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	srv, err := New(Options{DBPath: path})
	if err != nil {
		t.Fatal(err)
	}
	acct, err := srv.RegisterToken(testToken)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, srv: srv, token: testToken, acct: acct}
	e.ts = newTestHTTP(srv)
	e.mustIDs(wire.Products, product("Kept", "K1"))
	e.ts.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	srv2, err := New(Options{DBPath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer srv2.Close()
	e2 := &env{t: t, srv: srv2, token: testToken, acct: acct, ts: newTestHTTP(srv2)}
	defer e2.ts.Close()
	v, _ := e2.variantBySKU("K1") // the token works too
	if v["sku"] != "K1" {
		t.Errorf("variant after restart %v", v)
	}
	ids := e2.mustIDs(wire.Products, product("New", "K2"))
	if ids[0] <= v["id"].(string) {
		t.Errorf("id sequence restarted: %s after %s", ids[0], v["id"])
	}
}

func TestReset(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.mustIDs(wire.Products, product("A", "r1"))
	res, err := e.ts.Client().Post(e.ts.URL+wire.SandboxAdminPrefix+"/reset", "application/json", nil)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("reset: %v %v", err, res)
	}
	res.Body.Close()
	if n := e.read(wire.ListPath(wire.Products), nil).expect(t, 200).meta()["total"]; n != "0" {
		t.Errorf("products after reset %v", n)
	}
}

// TestAttributeListsItsOptionsInTheirOrder: an attribute links its options
// by their order, not by when they were made, and only its own.
func TestAttributeListsItsOptionsInTheirOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	variant := func(sku, color string, colorOrd int, size string, sizeOrd int) map[string]any {
		return map[string]any{"sku": sku, "links": map[string]any{"AttributeOptions": []any{
			map[string]any{"value": color, "order": colorOrd}, map[string]any{"value": size, "order": sizeOrd}}}}
	}
	e.mustIDs(wire.Products, map[string]any{"name": "Shirt", "links": map[string]any{
		"Attributes": []any{map[string]any{"name": "Color", "order": 0}, map[string]any{"name": "Size", "order": 1}},
		"Variants": []any{variant("SH-R-L", "Red", 1, "L", 2), variant("SH-B-S", "Blue", 0, "S", 0),
			variant("SH-R-M", "Red", 1, "M", 1), variant("SH-B-XL", "Blue", 0, "XL", 3)},
	}})
	r := e.read(wire.ListPath(wire.Products), map[string]any{}).expect(t, 200)
	attrs := linkIDsOf(r.records(wire.Products)[0], wire.Attributes)
	for i, want := range [][]string{{"Blue", "Red"}, {"S", "M", "L", "XL"}} {
		attr := r.side(wire.Attributes, attrs[i])
		var got []string
		for _, id := range linkIDsOf(attr, wire.AttributeOptions) {
			got = append(got, fmt.Sprint(r.side(wire.AttributeOptions, id)["name"]))
		}
		if !slices.Equal(got, want) {
			t.Errorf("attribute %v lists options %v, want %v", attr["name"], got, want)
		}
	}
}
