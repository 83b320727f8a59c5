package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"lading/api/wire"
)

var shipTo = map[string]string{"contact": "Ada", "street1": "1 Main St", "city": "Springfield"}

// stockedEnv has variants A and B with the given available stock.
func stockedEnv(t *testing.T, a, b int) *env {
	e := newEnv(t, Options{})
	e.mustIDs(wire.Products, map[string]any{"name": "Kit parts", "links": map[string]any{
		"Attributes": []any{map[string]any{"name": "Part"}},
		"Variants": []any{
			map[string]any{"sku": "A", "quantity": a, "links": map[string]any{"AttributeOptions": []any{map[string]any{"value": "a"}}}},
			map[string]any{"sku": "B", "quantity": b, "links": map[string]any{"AttributeOptions": []any{map[string]any{"value": "b"}}}},
			map[string]any{"sku": "KIT", "links": map[string]any{"AttributeOptions": []any{map[string]any{"value": "kit"}}}},
		}}})
	return e
}

func (e *env) openFulfillments() resp {
	e.t.Helper()
	return e.read(wire.ListPath(wire.Fulfillments), nil).expect(e.t, 200)
}

func (e *env) order(spec OrderSpec) string {
	e.t.Helper()
	spec.Token = e.token
	id, err := e.srv.CreateOrder(context.Background(), spec)
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

func TestFulfillmentInitialisation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		warehouse string
		address   map[string]string
		qty       int64
		open      bool
	}{
		{"all conditions hold", "", shipTo, 5, true},
		{"other warehouse", "12345", shipTo, 5, false},
		{"no shipping address", "", nil, 5, false},
		{"blank shipping address", "", map[string]string{"contact": " "}, 5, false},
		{"not enough stock", "", shipTo, 11, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := stockedEnv(t, 10, 10)
			e.order(OrderSpec{WarehouseID: c.warehouse, ShippingAddress: c.address, Lines: []OrderLine{{SKU: "A", Quantity: c.qty}}})
			r := e.openFulfillments()
			if got := len(r.records(wire.Fulfillments)) == 1; got != c.open {
				t.Fatalf("open = %v, want %v: %s", got, c.open, r.raw)
			}
			v, _ := e.variantBySKU("A")
			wantCommitted := "0"
			if c.open {
				wantCommitted = "5"
			}
			if v["committed_stock"] != wantCommitted {
				t.Errorf("committed_stock %v, want %s", v["committed_stock"], wantCommitted)
			}
		})
	}
}

func TestWaitingOrderRecheckedOnStockChange(t *testing.T) {
	t.Parallel()
	e := stockedEnv(t, 1, 0)
	e.order(OrderSpec{ShippingAddress: shipTo, Lines: []OrderLine{{SKU: "A", Quantity: 3}}})
	if n := len(e.openFulfillments().records(wire.Fulfillments)); n != 0 {
		t.Fatalf("%d open before stock arrives", n)
	}
	v, _ := e.variantBySKU("A")
	e.setAvailable(v["id"].(string), 3).expect(t, 200)
	r := e.openFulfillments()
	if n := len(r.records(wire.Fulfillments)); n != 1 {
		t.Fatalf("%d open after stock arrived", n)
	}
	v, _ = e.variantBySKU("A")
	if v["stock"] != "3" || v["committed_stock"] != "3" || v["available"] != "0" {
		t.Errorf("stock %v committed %v available %v", v["stock"], v["committed_stock"], v["available"])
	}
}

func TestBundleSplitAndCompletion(t *testing.T) {
	t.Parallel()
	e := stockedEnv(t, 10, 10)
	if _, err := e.srv.CreateBundle(context.Background(), BundleSpec{Token: e.token, SKU: "KIT",
		Components: []OrderLine{{SKU: "A", Quantity: 2}, {SKU: "B", Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}
	kit, _ := e.variantBySKU("KIT")
	if kit["bundle"] != "1" || kit["available"] != "5" {
		t.Errorf("bundle %v available %v", kit["bundle"], kit["available"])
	}
	e.order(OrderSpec{ShippingAddress: shipTo, Lines: []OrderLine{{SKU: "KIT", Quantity: 3}, {SKU: "B", Quantity: 1}}})
	r := e.openFulfillments()
	fs := r.records(wire.Fulfillments)
	if len(fs) != 1 {
		t.Fatalf("open %s", r.raw)
	}
	f := fs[0]
	if f["complete"] != "0" || len(linkIDsOf(f, wire.SalesOrders)) != 1 || len(linkIDsOf(f, wire.Addresses)) != 1 {
		t.Errorf("fulfillment %v", f)
	}
	if a := r.side(wire.Addresses, linkIDsOf(f, wire.Addresses)[0]); a["city"] != "Springfield" {
		t.Errorf("address %v", a)
	}
	got := map[string]string{}
	items := map[string]string{}
	for _, li := range linkIDsOf(f, wire.LineItems) {
		rec := r.side(wire.LineItems, li)
		got[rec["sku"].(string)] = rec["quantity"].(string)
		items[rec["sku"].(string)] = li
	}
	if len(got) != 2 || got["A"] != "6" || got["B"] != "4" {
		t.Fatalf("line items %v, want A:6 B:4 (bundle split, B added up)", got)
	}
	fid := f["id"].(string)
	ship := func(lines ...map[string]any) resp {
		var ls []any
		for _, l := range lines {
			ls = append(ls, l)
		}
		return e.write(wire.Shipments, map[string]any{"shipped_at": "2024-05-01T10:00:00+0000", "tracking_number": "T1",
			"links": map[string]any{"Fulfillments": []any{map[string]any{"id": fid}}, "LineItems": ls}})
	}
	// Shipping more than ordered is refused, naming the record.
	r = ship(map[string]any{"id": items["A"], "quantity": 7}).expect(t, 400)
	if er := r.recordError(wire.Shipments, 0); er == nil || !strings.Contains(er["message"].(string), "only 6") {
		t.Errorf("over-ship error %v", er)
	}
	// shipped_at is required and must be ISO 8601.
	e.write(wire.Shipments, map[string]any{"links": map[string]any{"Fulfillments": []any{map[string]any{"id": fid}},
		"LineItems": []any{map[string]any{"id": items["A"], "quantity": 1}}}}).expect(t, 400)
	e.write(wire.Shipments, map[string]any{"shipped_at": "yesterday", "links": map[string]any{"Fulfillments": []any{map[string]any{"id": fid}},
		"LineItems": []any{map[string]any{"id": items["A"], "quantity": 1}}}}).expect(t, 400)

	ship(map[string]any{"id": items["A"], "quantity": 6}, map[string]any{"id": items["B"], "quantity": 3}).expect(t, 200)
	if n := len(e.openFulfillments().records(wire.Fulfillments)); n != 1 {
		t.Fatalf("partly shipped fulfillment left the list (%d open)", n)
	}
	ship(map[string]any{"id": items["B"], "quantity": 1}).expect(t, 200)
	if n := len(e.openFulfillments().records(wire.Fulfillments)); n != 0 {
		t.Fatalf("complete fulfillment still open")
	}
	d := e.read(wire.DetailPath(wire.Fulfillments), map[string]any{"Fulfillments": []any{map[string]any{"id": fid}}}).expect(t, 200)
	if d.records(wire.Fulfillments)[0]["complete"] != "1" {
		t.Errorf("detail %s", d.raw)
	}
	for sku, want := range map[string]string{"A": "4", "B": "6"} {
		v, _ := e.variantBySKU(sku)
		if v["stock"] != want || v["committed_stock"] != "0" || v["available"] != want {
			t.Errorf("%s after completion: stock %v committed %v available %v, want %s", sku, v["stock"], v["committed_stock"], v["available"], want)
		}
	}
	// A complete fulfillment takes no more shipments.
	ship(map[string]any{"id": items["B"], "quantity": 1}).expect(t, 400)
}

func TestFulfillmentStatus(t *testing.T) {
	t.Parallel()
	e := stockedEnv(t, 10, 10)
	e.order(OrderSpec{ShippingAddress: shipTo, Lines: []OrderLine{{SKU: "A", Quantity: 1}}})
	fid := e.openFulfillments().records(wire.Fulfillments)[0]["id"].(string)
	e.mustIDs(wire.Fulfillments, map[string]any{"id": fid, "status": "Picking — aisle 4 ✓"})
	f := e.openFulfillments().records(wire.Fulfillments)[0]
	if f["status"] != "Picking — aisle 4 ✓" {
		t.Errorf("status %v", f["status"])
	}
	r := e.read(wire.ListPath(wire.Fulfillments), map[string]any{"filter": map[string]any{"and": []any{map[string]any{"status": "other"}}}})
	if r.meta()["total"] != "0" {
		t.Error("status filter ignored")
	}
	e.write(wire.Fulfillments, map[string]any{"id": "1", "status": "x"}).expect(t, 400)
}

func TestAdminAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	post := func(path string, body any) (int, map[string]any) {
		b, _ := json.Marshal(body)
		res, err := e.ts.Client().Post(e.ts.URL+wire.SandboxAdminPrefix+path, "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		json.NewDecoder(res.Body).Decode(&out)
		return res.StatusCode, out
	}
	status, acct := post("/tokens", map[string]string{"token": "admin-made"})
	if status != 200 || acct["warehouse_id"] == "" {
		t.Fatalf("tokens: %d %v", status, acct)
	}
	if _, again := post("/tokens", map[string]string{"token": "admin-made"}); again["account_id"] != acct["account_id"] {
		t.Errorf("token registration not idempotent: %v vs %v", again, acct)
	}
	e.token = "admin-made"
	e.mustIDs(wire.Products, map[string]any{"name": "P", "links": map[string]any{"Variants": []any{map[string]any{"sku": "Z", "quantity": 2}}}})
	status, out := post("/orders", map[string]any{"token": "admin-made", "shipping_address": shipTo, "lines": []any{map[string]any{"sku": "Z", "quantity": 2}}})
	if status != 200 || out["id"] == "" {
		t.Fatalf("orders: %d %v", status, out)
	}
	if n := len(e.openFulfillments().records(wire.Fulfillments)); n != 1 {
		t.Errorf("admin order did not open a fulfillment")
	}
	if status, out := post("/orders", map[string]any{"token": "admin-made", "lines": []any{map[string]any{"sku": "nope", "quantity": 1}}}); status != 400 || !strings.Contains(out["message"].(string), "nope") {
		t.Errorf("unknown sku order: %d %v", status, out)
	}
	res, err := e.ts.Client().Get(e.ts.URL + wire.SandboxAdminPrefix + "/counters")
	if err != nil {
		t.Fatal(err)
	}
	var c Counters
	json.NewDecoder(res.Body).Decode(&c)
	res.Body.Close()
	if c.Requests[wire.WritePath(wire.Products)] != 1 || c.Requests[wire.ListPath(wire.Fulfillments)] != 1 {
		t.Errorf("counters %+v", c)
	}
	if res, _ := e.ts.Client().Get(e.ts.URL + wire.SandboxAdminPrefix + "/nothing"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown admin path %d", res.StatusCode)
	}
}

// Admin calls name the account in their errors and refuse ids with
// trailing junk instead of reading their leading digits.
func TestOrderAccountErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	lines := []OrderLine{{SKU: "A", Quantity: 1}}
	for _, tc := range []struct {
		spec OrderSpec
		want *regexp.Regexp
	}{
		{OrderSpec{Lines: lines}, regexp.MustCompile(`account \d+ has no token yet`)},
		{OrderSpec{AccountID: e.acct.ID + "x", Lines: lines}, regexp.MustCompile(`account "\d+x" is not an id`)},
		{OrderSpec{Token: testToken, WarehouseID: e.acct.WarehouseID + "x", Lines: lines}, regexp.MustCompile(`warehouse_id "\d+x" is not an id`)},
	} {
		_, err := e.srv.CreateOrder(context.Background(), tc.spec)
		if err == nil || !tc.want.MatchString(err.Error()) {
			t.Errorf("CreateOrder(%+v) = %v, want an error matching %s", tc.spec, err, tc.want)
		}
	}
}

// An order entered with an address or contact field the records do not
// have is refused, naming the fields they do have: the recipient of an
// address is "contact", and a "name" there would leave it empty.
func TestCreateOrderRefusesUnknownFields(t *testing.T) {
	t.Parallel()
	e := stockedEnv(t, 10, 10)
	for _, spec := range []OrderSpec{
		{ShippingAddress: map[string]string{"name": "Ada", "street1": "1 Main St"}, Lines: []OrderLine{{SKU: "A", Quantity: 1}}},
		{ShippingAddress: shipTo, Contact: map[string]string{"fullname": "Ada"}, Lines: []OrderLine{{SKU: "A", Quantity: 1}}},
	} {
		spec.Token = e.token
		_, err := e.srv.CreateOrder(context.Background(), spec)
		if err == nil || !strings.Contains(err.Error(), "has no field") || !strings.Contains(err.Error(), "contact") {
			t.Errorf("order %v: %v; want a refusal naming the fields", spec, err)
		}
	}
}
