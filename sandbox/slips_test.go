package sandbox

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"lading/api/wire"
)

// pricedEnv has a tee in S (location A-01) and M (B-02) at 19.99 in the
// Retail tier, 20 of each, and a mug with a cost and no tier price.
func pricedEnv(t *testing.T) *env {
	e := newEnv(t, Options{})
	e.mustIDs(wire.Products, map[string]any{"name": "Tee", "links": map[string]any{
		"Attributes":   []any{map[string]any{"name": "Size"}},
		"PricingTiers": []any{map[string]any{"name": "Retail", "value": "19.99"}},
		"Variants": []any{
			map[string]any{"sku": "TEE-S", "quantity": "20", "location_1": "A-01", "links": map[string]any{"AttributeOptions": []any{map[string]any{"value": "S"}}}},
			map[string]any{"sku": "TEE-M", "quantity": "20", "location_1": "B-02", "links": map[string]any{"AttributeOptions": []any{map[string]any{"value": "M"}}}},
		}}})
	e.mustIDs(wire.Products, map[string]any{"name": "Mug", "links": map[string]any{"Variants": []any{
		map[string]any{"sku": "MUG", "quantity": "5", "cost": "4.10"}}}})
	return e
}

func (e *env) slip(spec SlipSpec) SlipResult {
	e.t.Helper()
	spec.Token = e.token
	r, err := e.srv.CreateSlip(context.Background(), spec)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// A slip read names the slip's shipments and sideloads everything a
// report joins: its order's lines with their price, the order, its
// address and contact, the shipments and their carriers. The listing and
// the read by id answer alike.
func TestSlipReadJoins(t *testing.T) {
	t.Parallel()
	e := pricedEnv(t)
	order := e.order(OrderSpec{ShippingAddress: shipTo, Contact: customer, PONum: "#1042", OrderDate: "2026-01-05T09:00:00+0000",
		Lines: []OrderLine{{SKU: "TEE-S", Quantity: 2}, {SKU: "TEE-M", Quantity: 1, Price: "17.50"}, {SKU: "MUG", Quantity: 3}}})
	made := e.slip(SlipSpec{Order: order, Date: "2026-01-06T10:00:00+0000", Notes: "Leave at the door",
		Lines: []OrderLine{{SKU: "TEE-S", Quantity: 2}, {SKU: "TEE-M", Quantity: 1}},
		Packages: []PackageSpec{
			{Carrier: "UPS", TrackingNumber: "1Z999AA10123456784", TrackingLink: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
				Cost: "8.95", ShipDate: "2026-01-07T09:30:00+0000", Delivered: true},
			{Carrier: "USPS", TrackingNumber: "9400111899223197428490", Cost: "4.50"},
		}})
	for _, tc := range []struct {
		name string
		path string
		body map[string]any
	}{
		{"listing", wire.ListPath(wire.PackingSlips), nil},
		{"read by id", wire.DetailPath(wire.PackingSlips), map[string]any{wire.PackingSlips: []any{map[string]any{"id": made.ID}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.read(tc.path, tc.body).expect(t, 200)
			slips := r.records(wire.PackingSlips)
			if len(slips) != 1 {
				t.Fatalf("%d slips: %s", len(slips), r.raw)
			}
			s := slips[0]
			if s["notes"] != "Leave at the door" || s["packing_slip_date"] != "2026-01-06T10:00:00+00:00" || s["ship_date"] != "2026-01-06T10:00:00+00:00" {
				t.Errorf("slip %v (ship_date is the earliest shipment's: the second ships on the slip's date)", s)
			}
			if got := linkIDsOf(s, wire.Packages); !reflect.DeepEqual(got, made.Packages) {
				t.Errorf("links.Packages %v, want %v", got, made.Packages)
			}
			lines := map[string][2]any{}
			for _, l := range s["links"].(map[string]any)[wire.LineItems].([]any) {
				li := r.side(wire.LineItems, l.(map[string]any)["id"].(string))
				lines[li["sku"].(string)] = [2]any{l.(map[string]any)["quantity"], li["price"]}
			}
			if want := map[string][2]any{"TEE-S": {"2", "19.99"}, "TEE-M": {"1", "17.50"}}; !reflect.DeepEqual(lines, want) {
				t.Errorf("lines (slip quantity, price) %v, want %v", lines, want)
			}
			o := r.side(wire.SalesOrders, linkIDsOf(s, wire.SalesOrders)[0])
			if o["po_num"] != "#1042" || o["total"] != "57.48" || o["order_date"] != "2026-01-05T09:00:00+00:00" || o["currency_iso"] != "USD" {
				t.Errorf("order %v, want #1042 total 57.48 (2 × 19.99 + 17.50; the mug has no price)", o)
			}
			if c := r.side(wire.Contacts, linkIDsOf(s, wire.Contacts)[0]); c["name"] != "Ada Byron" || c["email"] != "ada@example.com" {
				t.Errorf("contact %v", c)
			}
			if a := r.side(wire.Addresses, linkIDsOf(s, wire.Addresses)[0]); a["city"] != "Springfield" {
				t.Errorf("address %v", a)
			}
			p := r.side(wire.Packages, made.Packages[0])
			if p["tracking_number"] != "1Z999AA10123456784" || p["cost"] != "8.95" || p["delivered"] != "1" ||
				p["ship_date"] != "2026-01-07T09:30:00+00:00" || !strings.HasPrefix(p["tracking_link"].(string), "https://www.ups.com/") {
				t.Errorf("package %v", p)
			}
			if c := r.side(wire.PackageCarrierTypes, linkIDsOf(p, wire.PackageCarrierTypes)[0]); c["name"] != "UPS" {
				t.Errorf("carrier %v", c)
			}
			if p2 := r.side(wire.Packages, made.Packages[1]); p2["delivered"] != "0" || p2["ship_date"] != "2026-01-06T10:00:00+00:00" {
				t.Errorf("second package %v, want undelivered, shipped on the slip's date", p2)
			}
		})
	}
}

// Shipments written through the interface join their slip's links, and
// leave them when deleted; a slip written through the interface may name
// a fulfillment's line items, which are sideloaded as such.
func TestSlipFollowsInterfaceWrites(t *testing.T) {
	t.Parallel()
	e := pricedEnv(t)
	order := e.order(OrderSpec{ShippingAddress: shipTo, Lines: []OrderLine{{SKU: "TEE-S", Quantity: 2}}})
	f := e.openFulfillments()
	li := linkIDsOf(f.records(wire.Fulfillments)[0], wire.LineItems)[0]
	slip := e.mustIDs(wire.PackingSlips, map[string]any{"packing_slip_date": "2026-01-06T10:00:00+0000", "links": map[string]any{
		"SalesOrders": []any{map[string]any{"id": order}}, "LineItems": []any{map[string]any{"id": li, "quantity": "2"}}}})[0]
	pkgs := e.mustIDs(wire.Packages,
		map[string]any{"tracking_number": "A1", "cost": "3.20", "links": map[string]any{"PackingSlips": []any{map[string]any{"id": slip}}}},
		map[string]any{"tracking_number": "A2", "links": map[string]any{"PackingSlips": []any{map[string]any{"id": slip}}}})
	read := func() resp {
		return e.read(wire.DetailPath(wire.PackingSlips), map[string]any{wire.PackingSlips: []any{map[string]any{"id": slip}}}).expect(t, 200)
	}
	r := read()
	s := r.records(wire.PackingSlips)[0]
	if got := linkIDsOf(s, wire.Packages); !reflect.DeepEqual(got, pkgs) {
		t.Errorf("links.Packages %v, want %v", got, pkgs)
	}
	if p := r.side(wire.Packages, pkgs[0]); p["cost"] != "3.20" || p["tracking_number"] != "A1" {
		t.Errorf("package %v", p)
	}
	if l := r.side(wire.LineItems, li); l["sku"] != "TEE-S" || l["quantity"] != "2" || l["shipped_quantity"] != "0" {
		t.Errorf("fulfillment line item of the slip %v", l)
	}
	e.mustIDs(wire.Packages, map[string]any{"id": pkgs[0], "delete": 1})
	if got := linkIDsOf(read().records(wire.PackingSlips)[0], wire.Packages); !reflect.DeepEqual(got, pkgs[1:]) {
		t.Errorf("links.Packages after a delete %v, want %v", got, pkgs[1:])
	}
}

func TestCreateSlipErrors(t *testing.T) {
	t.Parallel()
	e := pricedEnv(t)
	order := e.order(OrderSpec{ShippingAddress: shipTo, Lines: []OrderLine{{SKU: "TEE-S", Quantity: 2}}})
	for _, tc := range []struct {
		name string
		spec SlipSpec
		want string
	}{
		{"order not an id", SlipSpec{Order: "O1005"}, `order "O1005" is not an id`},
		{"unknown order", SlipSpec{Order: "42"}, "no order with id 42"},
		{"sku not ordered", SlipSpec{Order: order, Lines: []OrderLine{{SKU: "MUG", Quantity: 1}}}, `has no line with SKU "MUG"`},
		{"more than ordered", SlipSpec{Order: order, Lines: []OrderLine{{SKU: "TEE-S", Quantity: 3}}}, "quantity 3 must be from 1 to the 2 ordered"},
		{"bad date", SlipSpec{Order: order, Date: "06/01/2026"}, `packing_slip_date "06/01/2026" is not an ISO 8601 date-time`},
		{"bad cost", SlipSpec{Order: order, Packages: []PackageSpec{{Cost: "8,95"}}}, `package 0: cost "8,95" is not an amount`},
		{"negative cost", SlipSpec{Order: order, Packages: []PackageSpec{{Cost: "-1"}}}, `cost "-1" is not an amount of 0 or more`},
		{"bad ship date", SlipSpec{Order: order, Packages: []PackageSpec{{ShipDate: "soon"}}}, `ship_date "soon"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.spec.Token = e.token
			_, err := e.srv.CreateSlip(context.Background(), tc.spec)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CreateSlip = %v, want an error containing %q", err, tc.want)
			}
		})
	}
	if n := e.read(wire.ListPath(wire.PackingSlips), nil).meta()["total"]; n != "0" {
		t.Errorf("%v slips after refused calls, want none", n)
	}
}

// Order lines take the price given, else the variant's first tier price;
// a price that is not an amount is refused naming the line.
func TestOrderLinePrices(t *testing.T) {
	t.Parallel()
	e := pricedEnv(t)
	_, err := e.srv.CreateOrder(context.Background(), OrderSpec{Token: e.token, Lines: []OrderLine{{SKU: "TEE-S", Quantity: 1, Price: "x"}}})
	if err == nil || !strings.Contains(err.Error(), `line 0 (TEE-S): price "x" is not an amount`) {
		t.Errorf("bad price: %v", err)
	}
	order := e.order(OrderSpec{Lines: []OrderLine{{SKU: "TEE-S", Quantity: 1}, {SKU: "TEE-M", Quantity: 2, Price: "0"}, {SKU: "MUG", Quantity: 1}}})
	made := e.slip(SlipSpec{Order: order})
	r := e.read(wire.ListPath(wire.PackingSlips), nil).expect(t, 200)
	got := map[string]any{}
	for _, id := range linkIDsOf(r.records(wire.PackingSlips)[0], wire.LineItems) {
		li := r.side(wire.LineItems, id)
		got[li["sku"].(string)] = li["price"]
	}
	if want := map[string]any{"TEE-S": "19.99", "TEE-M": "0", "MUG": nil}; !reflect.DeepEqual(got, want) {
		t.Errorf("prices %v, want %v", got, want)
	}
	if len(made.Packages) != 0 || r.records(wire.PackingSlips)[0]["ship_date"] != nil {
		t.Errorf("a slip without packages: %v, ship_date %v", made.Packages, r.records(wire.PackingSlips)[0]["ship_date"])
	}
}

// seedEnv has four variants with plenty of stock, two of them priced.
func seedEnv(t *testing.T) *env {
	e := newEnv(t, Options{})
	e.mustIDs(wire.Products, map[string]any{"name": "Tee", "links": map[string]any{
		"Attributes":   []any{map[string]any{"name": "Size"}},
		"PricingTiers": []any{map[string]any{"name": "Retail", "value": "24.00"}},
		"Variants": []any{
			map[string]any{"sku": "TEE-S", "quantity": "1000", "location_1": "A-01", "links": map[string]any{"AttributeOptions": []any{map[string]any{"value": "S"}}}},
			map[string]any{"sku": "TEE-M", "quantity": "1000", "location_1": "A-02", "links": map[string]any{"AttributeOptions": []any{map[string]any{"value": "M"}}}},
		}}})
	e.mustIDs(wire.Products, map[string]any{"name": "Mug", "links": map[string]any{"Variants": []any{
		map[string]any{"sku": "MUG", "quantity": "1000", "cost": "4.10"}}}})
	e.mustIDs(wire.Products, map[string]any{"name": "Cap", "links": map[string]any{"Variants": []any{
		map[string]any{"sku": "CAP", "quantity": "1000"}}}})
	return e
}

// stripTimes removes created_at and updated_at (the time of the run)
// everywhere in a decoded answer.
func stripTimes(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "created_at")
		delete(x, "updated_at")
		for _, y := range x {
			stripTimes(y)
		}
	case []any:
		for _, y := range x {
			stripTimes(y)
		}
	}
	return v
}

var (
	moneyRE = regexp.MustCompile(`^\d+\.\d{2}$`)
	dateRE  = regexp.MustCompile(`^2025-10-\d\dT\d\d:\d\d:00\+00:00$`)
)

func TestSeed(t *testing.T) {
	t.Parallel()
	spec := SeedSpec{Orders: 30, Seed: 7, Month: "2025-10", Unshipped: new(6)}
	seeded := func(seed int64) (*env, SeedResult, resp) {
		e := seedEnv(t)
		s := spec
		s.Token, s.Seed = e.token, seed
		out, err := e.srv.Seed(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		return e, out, e.read(wire.ListPath(wire.PackingSlips), map[string]any{"page_size": 250}).expect(t, 200)
	}
	e, out, r := seeded(7)
	_, again, r2 := seeded(7)
	_, _, other := seeded(8)
	if !reflect.DeepEqual(out, again) || !reflect.DeepEqual(stripTimes(r.body), stripTimes(r2.body)) {
		t.Errorf("the same seed made different data:\n%s\n%s", r.raw, r2.raw)
	}
	if reflect.DeepEqual(stripTimes(r.body), stripTimes(other.body)) {
		t.Error("seeds 7 and 8 made the same data")
	}
	if len(out.Orders) != 30 || len(out.Slips) != 24 || len(r.records(wire.PackingSlips)) != 24 {
		t.Fatalf("%d orders, %d slips (%d listed), want 30 and 24", len(out.Orders), len(out.Slips), len(r.records(wire.PackingSlips)))
	}
	if n := e.openFulfillments().meta()["total"]; n != "6" {
		t.Errorf("%v open fulfillments, want the 6 unshipped orders", n)
	}
	// Shipped orders are history: stock is only committed to the open ones.
	for _, sku := range []string{"TEE-S", "TEE-M", "MUG", "CAP"} {
		if v, _ := e.variantBySKU(sku); v["stock"] != "1000" {
			t.Errorf("%s stock %v after seeding, want 1000 (history moves no stock)", sku, v["stock"])
		}
	}
	checkSeededSlips(t, r)
}

// With locations, every stocked variant without one gets an aisle, bay
// and shelf; a variant's own location and bundles are left alone.
func TestSeedLocations(t *testing.T) {
	t.Parallel()
	e := seedEnv(t)
	if _, err := e.srv.CreateBundle(context.Background(), BundleSpec{Token: e.token, SKU: "CAP", Components: []OrderLine{{SKU: "MUG", Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.Seed(context.Background(), SeedSpec{Token: e.token, Orders: 1, Locations: true}); err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for _, sku := range []string{"TEE-S", "TEE-M", "MUG", "CAP"} {
		v, _ := e.variantBySKU(sku)
		got[sku] = v["location_1"]
	}
	if want := map[string]any{"TEE-S": "A-01", "TEE-M": "A-02", "MUG": "A-01-1", "CAP": ""}; !reflect.DeepEqual(got, want) {
		t.Errorf("locations %v, want %v", got, want)
	}
}

// checkSeededSlips checks that seeded slips look real: dated in the
// month, priced lines, shipments with a known carrier, a cost in cents
// and a tracking link ending in the tracking number, some slips in two
// packages, orders in date order.
func checkSeededSlips(t *testing.T, r resp) {
	t.Helper()
	twoBoxes, lastOrder := 0, ""
	carriers := map[string]bool{}
	for _, s := range r.records(wire.PackingSlips) {
		if !dateRE.MatchString(s["packing_slip_date"].(string)) || !dateRE.MatchString(s["ship_date"].(string)) {
			t.Errorf("slip %v dated %v, shipped %v: not in October 2025", s["id"], s["packing_slip_date"], s["ship_date"])
		}
		lines := linkIDsOf(s, wire.LineItems)
		if len(lines) == 0 || len(lines) > 4 {
			t.Errorf("slip %v has %d lines", s["id"], len(lines))
		}
		for _, id := range lines {
			if p, _ := r.side(wire.LineItems, id)["price"].(string); !moneyRE.MatchString(p) {
				t.Errorf("line %s price %q", id, p)
			}
		}
		pkgs := linkIDsOf(s, wire.Packages)
		if len(pkgs) == 2 {
			twoBoxes++
		}
		for _, id := range pkgs {
			p := r.side(wire.Packages, id)
			carrier := r.side(wire.PackageCarrierTypes, linkIDsOf(p, wire.PackageCarrierTypes)[0])["name"].(string)
			carriers[carrier] = true
			if !moneyRE.MatchString(p["cost"].(string)) || p["tracking_number"] == "" ||
				!strings.HasSuffix(p["tracking_link"].(string), p["tracking_number"].(string)) || !dateRE.MatchString(p["ship_date"].(string)) {
				t.Errorf("package %v", p)
			}
		}
		o := r.side(wire.SalesOrders, linkIDsOf(s, wire.SalesOrders)[0])
		if date := o["order_date"].(string); date < lastOrder {
			t.Errorf("order %v dated %s, before the previous one's %s", o["id"], date, lastOrder)
		} else {
			lastOrder = date
		}
		if c := r.side(wire.Contacts, linkIDsOf(s, wire.Contacts)[0]); c["name"] == "" || !strings.Contains(c["email"].(string), "@") {
			t.Errorf("contact %v", c)
		}
	}
	if twoBoxes == 0 || twoBoxes == len(r.records(wire.PackingSlips)) {
		t.Errorf("%d slips in two packages, want some but not all", twoBoxes)
	}
	known := []string{"DHL", "FedEx", "UPS", "USPS"}
	for c := range carriers {
		if !slices.Contains(known, c) {
			t.Errorf("carrier %q", c)
		}
	}
	if len(carriers) < 3 {
		t.Errorf("carriers %v: want a mix", carriers)
	}
}

func TestSeedErrors(t *testing.T) {
	t.Parallel()
	e := seedEnv(t)
	empty := newEnv(t, Options{})
	for _, tc := range []struct {
		name string
		e    *env
		spec SeedSpec
		want string
	}{
		{"too many orders", e, SeedSpec{Orders: 1001}, "orders 1001: ask for 1 to 1000 orders"},
		{"bad month", e, SeedSpec{Month: "October"}, `month "October" is not a month like 2026-01`},
		{"unshipped over orders", e, SeedSpec{Orders: 3, Unshipped: new(4)}, "unshipped 4: give 0 to the 3 orders"},
		{"no catalog", empty, SeedSpec{}, "the account has no variant with a SKU: import a catalog first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.spec.Token = tc.e.token
			if _, err := tc.e.srv.Seed(context.Background(), tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Seed = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// The admin API takes slips and seeds as JSON and answers what it made,
// or 400 with the reason.
func TestAdminSlipsAndSeed(t *testing.T) {
	t.Parallel()
	e := pricedEnv(t)
	order := e.order(OrderSpec{ShippingAddress: shipTo, Lines: []OrderLine{{SKU: "TEE-S", Quantity: 1}}})
	post := func(path string, body any) (int, map[string]any) {
		res, err := e.ts.Client().Post(e.ts.URL+wire.SandboxAdminPrefix+path, "application/json", jsonBody(t, body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, out
	}
	for _, tc := range []struct {
		name, path string
		body       map[string]any
		status     int
		check      func(out map[string]any) bool
	}{
		{"slip", "/slips", map[string]any{"token": e.token, "order": order, "packages": []any{
			map[string]any{"carrier": "FedEx", "tracking_number": "123456789012", "cost": "12.40", "delivered": true}}},
			200, func(out map[string]any) bool { return out["id"] != "" && len(out["packages"].([]any)) == 1 }},
		{"slip of an unknown order", "/slips", map[string]any{"token": e.token, "order": "7"},
			400, func(out map[string]any) bool { return strings.Contains(out["message"].(string), "no order with id 7") }},
		{"seed", "/seed", map[string]any{"token": e.token, "orders": 5, "seed": 3, "unshipped": 0},
			200, func(out map[string]any) bool {
				return len(out["orders"].([]any)) == 5 && len(out["slips"].([]any)) == 5
			}},
		{"seed by account id", "/seed", map[string]any{"account": e.acct.ID, "orders": 2},
			200, func(out map[string]any) bool { return len(out["orders"].([]any)) == 2 }},
		{"seed of an unknown token", "/seed", map[string]any{"token": "nobody"},
			400, func(out map[string]any) bool { return strings.Contains(out["message"].(string), "register it first") }},
		{"not JSON", "/seed", map[string]any{"orders": "many"},
			400, func(out map[string]any) bool {
				return strings.Contains(out["message"].(string), "the body must be JSON")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, out := post(tc.path, tc.body)
			if status != tc.status || !tc.check(out) {
				t.Errorf("POST %s: %d %v, want %d", tc.path, status, out, tc.status)
			}
		})
	}
	if n := e.read(wire.ListPath(wire.PackingSlips), nil).meta()["total"]; n != "8" {
		t.Errorf("%v slips, want 1 + 5 + 2", n)
	}
}
