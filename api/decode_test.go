package api

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fixtureDir holds real recorded answers of the service (see testdata/README.md).
const fixtureDir = "../testdata/wire"

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFixturesDecode decodes every recorded answer with the client's types.
func TestFixturesDecode(t *testing.T) {
	t.Parallel()
	entries, err := os.ReadDir(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]func(t *testing.T, b []byte){
		"variant_find_variant.json": func(t *testing.T, b []byte) {
			var p VariantPage
			mustUnmarshal(t, b, &p)
			if p.Meta != (Meta{CurrentPage: 1, LastPage: 1, PerPage: 15, Total: 1, From: 1, To: 1}) {
				t.Errorf("meta = %+v", p.Meta)
			}
			if len(p.Records) != 1 {
				t.Fatalf("variants = %d, want 1", len(p.Records))
			}
			v := p.Records[0]
			if v.ID != "229617792" || v.SKU != "MSF1A-BK" || v.Stock != "100" || v.Available != "95" || v.Consignment != "" || v.UPC != "" {
				t.Errorf("variant = %+v", v)
			}
			if got := v.Links.IDs("Contacts"); !reflect.DeepEqual(got, []ID{"2430370"}) {
				t.Errorf("contacts link = %v", got)
			}
			if got, ok := v.Field("total_sold"); !ok || got != "10" {
				t.Errorf("Field(total_sold) = %q, %v", got, ok)
			}
			if len(p.Products) != 1 || len(p.Attributes) != 1 || len(p.AttributeOptions) != 1 ||
				len(p.PricingTiers) != 1 || len(p.VariantPrices) != 1 || len(p.AccountAddresses) != 1 ||
				len(p.WarehouseStockLevels) != 1 || len(p.ProductFiles) != 12 {
				t.Errorf("sideload counts wrong: %d products %d attrs %d opts %d tiers %d prices %d addrs %d levels %d files",
					len(p.Products), len(p.Attributes), len(p.AttributeOptions), len(p.PricingTiers),
					len(p.VariantPrices), len(p.AccountAddresses), len(p.WarehouseStockLevels), len(p.ProductFiles))
			}
			if c := p.Contacts["246454934"]; c == nil || c.Name != "Julio @Warehouse" || c.LocalID != "1018" {
				t.Errorf("sideloaded contact = %+v", c)
			}
			for _, k := range []string{"CustomIdTypes", "VariantCustomIds"} {
				if _, ok := p.Raw[k]; !ok {
					t.Errorf("Raw lacks %s", k)
				}
			}
			if got := p.Options(v); !reflect.DeepEqual(got, []OptionValue{{AttributeID: "86943484", Attribute: "Color", OptionID: "297805352", Value: "Black"}}) {
				t.Errorf("Options = %+v", got)
			}
			if got := p.Prices(v); !reflect.DeepEqual(got, map[string]Flex{"Shopify": "39.99"}) {
				t.Errorf("Prices = %v", got)
			}
			if lvl, ok := p.StockIn(v, "74142"); !ok || lvl.Available != "95" || lvl.Stock != "100" {
				t.Errorf("StockIn = %+v, %v", lvl, ok)
			}
			if _, ok := p.StockIn(v, "1"); ok {
				t.Error("StockIn found a level in an unknown warehouse")
			}
			if w := p.Warehouses(); len(w) != 1 || w[0].Label != "My Default Warehouse" {
				t.Errorf("Warehouses = %v", w)
			}
			if prod := p.Product(v); prod == nil || prod.Name != "1.75mm ABS 1KG Spooled Filament" {
				t.Errorf("Product = %+v", prod)
			}
		},
		"variant_not_found.json": func(t *testing.T, b []byte) {
			var p VariantPage
			mustUnmarshal(t, b, &p)
			if len(p.Records) != 0 || p.Meta.LastPage != 0 || p.Meta.Total != 0 || p.Meta.CurrentPage != 1 {
				t.Errorf("page = %+v", p)
			}
		},
		"package_carrier_types_all.json": func(t *testing.T, b []byte) {
			var p PackageCarrierTypePage
			mustUnmarshal(t, b, &p)
			if len(p.Records) != 6 || p.Records[2].Name != "UPS" || p.Meta.Total != 7 {
				t.Errorf("page = %+v", p)
			}
			if p.Records[0].Links != nil {
				t.Errorf("links [] decoded to %v, want nil", p.Records[0].Links)
			}
		},
		"sale_orders_find_sale_orders.json": func(t *testing.T, b []byte) {
			var p SalesOrderPage
			mustUnmarshal(t, b, &p)
			if len(p.Records) != 7 || p.Meta.PerPage != 50 || len(p.Addresses) != 4 {
				t.Errorf("orders %d, per page %d, addresses %d", len(p.Records), p.Meta.PerPage, len(p.Addresses))
			}
			o := p.Records[0]
			if o.ID != "533943058" || o.Total != "34.99" {
				t.Errorf("order = %+v", o)
			}
			if l := o.Links.Of("Addresses"); len(l) != 2 || l[0].Type != "billing" || l[1].Type != "shipping" {
				t.Errorf("address links = %+v", l)
			}
			if c := p.ContactsOf(o.Links); len(c) != 1 || c[0].Name != "Julio @PE" {
				t.Errorf("ContactsOf(order) = %+v", c)
			}
		},
		"sale_orders_sale_order_533943058.json": func(t *testing.T, b []byte) {
			var p SalesOrderPage
			mustUnmarshal(t, b, &p)
			if len(p.Records) != 1 || len(p.Variants) != 1 || len(p.WarehouseStockLevels) != 1 || len(p.Products) != 1 {
				t.Fatalf("page = %+v", p)
			}
			v := p.Variants["229647038"]
			if v == nil || v.SKU != "MAKESUB" || v.Available != "-2" {
				t.Errorf("variant = %+v", v)
			}
			if lvl, ok := p.StockIn(v, "74142"); !ok || lvl.Available != "-2" {
				t.Errorf("StockIn = %+v, %v", lvl, ok)
			}
		},
		"package_new_package.json": func(t *testing.T, b []byte) {
			res, err := (&Client{}).parseWriteAnswer("Packages", b, 1)
			if err != nil || !reflect.DeepEqual(res.IDs, []ID{"263840722"}) || len(res.Failed) != 0 {
				t.Errorf("res = %+v, err = %v", res, err)
			}
		},
		"packing_slips_new_packing_slips.json": func(t *testing.T, b []byte) {
			res, err := (&Client{}).parseWriteAnswer("PackingSlips", b, 1)
			if err != nil || !reflect.DeepEqual(res.IDs, []ID{"298493340"}) {
				t.Errorf("res = %+v, err = %v", res, err)
			}
		},
	}
	seen := 0
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".json" {
			continue
		}
		check, ok := checks[e.Name()]
		if !ok {
			t.Errorf("fixture %s has no decode check: add one", e.Name())
			continue
		}
		seen++
		t.Run(e.Name(), func(t *testing.T) { check(t, readFixture(t, e.Name())) })
	}
	if seen != len(checks) {
		t.Errorf("checked %d fixtures, expected %d", seen, len(checks))
	}
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func TestIDDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want ID
		err  bool
	}{
		{`"123"`, "123", false},
		{`123`, "123", false},
		{`null`, "", false},
		{`"a\"b"`, `a"b`, false},
		{`{}`, "", true},
		{`[1]`, "", true},
	}
	for _, tt := range tests {
		var id ID
		err := json.Unmarshal([]byte(tt.in), &id)
		if (err != nil) != tt.err || id != tt.want {
			t.Errorf("%s: got %q, %v; want %q, err %v", tt.in, id, err, tt.want, tt.err)
		}
	}
	b, _ := json.Marshal(struct {
		ID ID `json:"id,omitempty"`
		P  ID `json:"p,omitempty"`
	}{ID: "42"})
	if string(b) != `{"id":"42"}` {
		t.Errorf("marshal = %s", b)
	}
}

func TestFlexDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Flex
	}{
		{`"100"`, "100"},
		{`100`, "100"},
		{`3.1504`, "3.1504"},
		{`null`, ""},
		{`true`, "1"},
		{`false`, "0"},
		{`"é\n"`, "é\n"},
		{`{"a": 1}`, `{"a":1}`},
		{`[ ]`, `[]`},
	}
	for _, tt := range tests {
		var f Flex
		if err := json.Unmarshal([]byte(tt.in), &f); err != nil || f != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.in, f, err, tt.want)
		}
	}
	if n, err := Flex("3.0000").Int(); err != nil || n != 3 {
		t.Errorf("Int(3.0000) = %d, %v", n, err)
	}
	if _, err := Flex("3.5").Int(); err == nil {
		t.Error("Int(3.5) did not fail")
	}
	if n, err := Flex("").Int(); err != nil || n != 0 {
		t.Errorf("Int('') = %d, %v", n, err)
	}
	if x, err := Flex("-2.25").Float(); err != nil || x != -2.25 {
		t.Errorf("Float = %v, %v", x, err)
	}
	if !Flex("1").Bool() || Flex("0").Bool() || Flex("").Bool() {
		t.Error("Bool wrong")
	}
}

func TestLinksDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Links
		err  bool
	}{
		{`[]`, nil, false},
		{`{}`, Links{}, false},
		{`null`, nil, false},
		{`{"Products":[{"id":1}],"Contacts":[]}`, Links{{"Products", []Link{{ID: "1"}}}, {"Contacts", []Link{}}}, false},
		{`{"AccountAddresses":[{"id":"74142","type":"account_address","extra":{"x":1}}]}`, Links{{"AccountAddresses", []Link{{ID: "74142", Type: "account_address"}}}}, false},
		{`{"LineItems":[{"id":"5","quantity":"2"}]}`, Links{{"LineItems", []Link{{ID: "5", Quantity: "2"}}}}, false},
		{`{"Products":{"id":"9"}}`, Links{{"Products", []Link{{ID: "9"}}}}, false},
		{`{"Products":[{"id":"1"}],"Contacts":null,"Products":[{"id":"2"}]}`, Links{{"Products", []Link{{ID: "2"}}}, {"Contacts", nil}}, false},
		{`[{"id":1}]`, nil, true},
		// Links of an id alone are read on a shorter way; the others, and
		// what is not quite one, the long way, to the same links.
		{`{"P":[{"id":""},{"id":"a\"b"},{"id" :"7"},{"id":"8" },{"id":"9","type":"x"},{"type":"y","id":"10"}]}`,
			Links{{"P", []Link{{ID: ""}, {ID: `a"b`}, {ID: "7"}, {ID: "8"}, {ID: "9", Type: "x"}, {ID: "10", Type: "y"}}}}, false},
		{`{"P":[{"id":"1"}`, nil, true},
		{`{"P":[{"id":"1"]}`, nil, true},
		{`{"P":[{"id":"1` + "\x01" + `"}]}`, nil, true},
	}
	for _, tt := range tests {
		var l Links
		err := json.Unmarshal([]byte(tt.in), &l)
		if (err != nil) != tt.err {
			t.Errorf("%s: err = %v", tt.in, err)
			continue
		}
		if !tt.err && !reflect.DeepEqual(l, tt.want) {
			t.Errorf("%s: got %#v, want %#v", tt.in, l, tt.want)
		}
	}
}

func TestLinksEncode(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`null`, `{}`, `{"Products":[{"id":"1"}],"Contacts":[]}`, `{"Addresses":[{"id":"5","type":"billing"},{"id":"6","type":"shipping"}],"LineItems":[{"id":"7","quantity":"2"}]}`} {
		var l Links
		if err := json.Unmarshal([]byte(in), &l); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		out, err := json.Marshal(l)
		if err != nil || string(out) != in {
			t.Errorf("%s: encoded as %s (%v)", in, out, err)
		}
	}
	var none Links
	if out, _ := json.Marshal(Links{{"Contacts", nil}}); string(out) != `{"Contacts":[]}` {
		t.Errorf("a set of no links encoded as %s", out)
	}
	if none.Of("Products") != nil || none.First("Products") != "" || none.Has("Products", "1") {
		t.Error("nil links link something")
	}
}

func TestPageLinksAreSeparate(t *testing.T) {
	t.Parallel()
	var p VariantPage
	if err := p.readFrom(bytes.NewReader(variantPage250())); err != nil {
		t.Fatal(err)
	}
	a, b := p.Records[0], p.Records[1]
	// Appending to one record's links must not change its neighbour's,
	// though both are parts of one block.
	_ = append(a.Links, LinkSet{Resource: "X"})
	_ = append(a.Links.Of("Products"), Link{ID: "0"})
	if a.Links.First("VariantPrices") != "242255130" {
		t.Errorf("first variant's links = %+v", a.Links)
	}
	if len(b.Links) != 5 || b.Links[0].Resource != "AttributeOptions" || b.Links.First("Products") != "114390205" {
		t.Errorf("second variant's links = %+v", b.Links)
	}
	if string(b.RawJSON())[:20] != `{"auto_description":` || !strings.Contains(string(b.RawJSON()), `"sku":"SKU-1"`) {
		t.Errorf("second variant's JSON = %.60s", b.RawJSON())
	}
}

func TestSideloadsAsArrays(t *testing.T) {
	t.Parallel()
	body := `{"meta":{"current_page":1,"last_page":1},"Products":[{"id":7,"name":"Mug","links":{"ProductTags":[{"id":"3"}],"Variants":[{"id":"8"}]}}],
		"ProductTags":[{"id":"3","name":"kitchen"}],"Variants":[{"id":8,"sku":"MUG-1"}]}`
	var p ProductPage
	mustUnmarshal(t, []byte(body), &p)
	if len(p.Records) != 1 || p.Records[0].ID != "7" {
		t.Fatalf("products = %+v", p.Records)
	}
	if got := p.Tags(p.Records[0]); !reflect.DeepEqual(got, []string{"kitchen"}) {
		t.Errorf("Tags = %v", got)
	}
	if vs := p.VariantsOf(p.Records[0]); len(vs) != 1 || vs[0].SKU != "MUG-1" {
		t.Errorf("VariantsOf = %v", vs)
	}
}

func TestDecodeErrorsNameThePlace(t *testing.T) {
	t.Parallel()
	var p VariantPage
	err := json.Unmarshal([]byte(`{"meta":{"current_page":"x"},"Variants":[]}`), &p)
	if err == nil || !contains(err.Error(), "meta.current_page") {
		t.Errorf("err = %v", err)
	}
	err = json.Unmarshal([]byte(`{"Variants":[],"Products":{"1":{"id":{"bad":1}}}}`), &p)
	if err == nil || !contains(err.Error(), "sideloaded Products") {
		t.Errorf("err = %v", err)
	}
}

// FuzzReadAnswer: the page reader never panics, and takes only valid JSON.
func FuzzReadAnswer(f *testing.F) {
	entries, err := os.ReadDir(fixtureDir)
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".json" {
			f.Add(readFixture(f, e.Name()))
		}
	}
	for _, s := range []string{`{}`, `null`, `{"meta":{},"Variants":{"2":{"id":2},"1":{}}}`, `{"Variants":[{"sku":"a\"b\u00e9","links":[]}]}`,
		`{"Products":[{"id":1,"links":{"Variants":{"id":"2"}}}],"X":[1,{"a":[true,null]}]}`, `{"Variants":[{"x":tru}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var p VariantPage
		if p.UnmarshalJSON(b) == nil && !json.Valid(b) {
			t.Errorf("took invalid JSON: %q", b)
		}
	})
}

// An ID and a Flex are written as encoding/json writes their text.
func TestScalarsMarshalAsStrings(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "1001", "Tee <b>&</b>", "a\"b\\c", "line\nfeed\x01", "180 g/m²", "bad \xff", "sep\u2028"} {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []json.Marshaler{ID(s), Flex(s)} {
			got, err := v.MarshalJSON()
			if err != nil || string(got) != string(want) {
				t.Errorf("%T(%q) = %s, %v; want %s", v, s, got, err, want)
			}
		}
	}
}
