package api

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"lading/api/wire"
	"lading/sandbox"
)

// slipAnswer is a packing slips read of the assumed shape [B.6]: slip 1
// names its packages and packs 1 of line 11's 3 units; slip 2 names no
// packages (package 23 links back to it) and a line item the answer lacks.
const slipAnswer = `{"meta":{"current_page":"1","last_page":"1","per_page":"15","total":"2","from":"1","to":"2"},
"PackingSlips":[
 {"id":"1","local_id":"PS1","packing_slip_date":"2026-01-06T10:00:00+00:00","notes":"Leave at the door",
  "links":{"Addresses":[{"id":"31","type":"billing"},{"id":"31","type":"shipping"}],"Contacts":[{"id":"41"}],
   "LineItems":[{"id":"11","quantity":"1"},{"id":"12"}],"SalesOrders":[{"id":"51"}],"Packages":[{"id":"22"},{"id":"21"}]}},
 {"id":"2","links":{"LineItems":[{"id":"99","quantity":"4"}],"SalesOrders":[{"id":"51"}]}}],
"LineItems":{"11":{"id":"11","sku":"TEE-S","variant_id":"61","quantity":"3","price":"19.99","description":"Tee (S)"},
 "12":{"id":"12","sku":"MUG","variant_id":"62","quantity":"2","price":null}},
"SalesOrders":{"51":{"id":"51","local_id":"O1005","po_num":"#1042","total":"59.97","links":{"Contacts":[{"id":"41"}]}}},
"Addresses":{"31":{"id":"31","company":"","contact":"Ada Byron","city":"Springfield"}},
"Contacts":{"41":{"id":"41","name":"Ada Byron","email":"ada@example.com","local_id":"1004"}},
"Packages":{"21":{"id":"21","tracking_number":"1Z9","cost":"8.95","delivered":"1","links":{"PackageCarrierTypes":[{"id":"71"}],"PackingSlips":[{"id":"1"}]}},
 "22":{"id":"22","tracking_number":"9400","cost":"4.50","delivered":"0","links":{"PackingSlips":[{"id":"1"}]}},
 "23":{"id":"23","tracking_number":"X","links":{"PackingSlips":[{"id":"2"}]}},
 "24":{"id":"24","deleted":"1","links":{"PackingSlips":[{"id":"2"}]}}},
"PackageCarrierTypes":{"71":{"id":"71","name":"UPS"}}}`

func TestSlipHelpers(t *testing.T) {
	t.Parallel()
	var p PackingSlipPage
	mustUnmarshal(t, []byte(slipAnswer), &p)
	one, two := p.Records[0], p.Records[1]
	type line struct {
		ID       ID
		SKU      Flex
		Quantity Flex
		Price    Flex
		Found    bool
	}
	lines := func(s *PackingSlip) []line {
		var out []line
		for _, l := range p.SlipLines(s) {
			out = append(out, line{l.Item.ID, l.Item.SKU, l.Quantity, l.Item.Price, l.Sideloaded})
		}
		return out
	}
	packages := func(s *PackingSlip) []string {
		var out []string
		for _, k := range p.PackagesOf(s) {
			out = append(out, string(k.ID)+":"+p.Carrier(k))
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"lines: the slip's units, else the item's", lines(one), []line{{"11", "TEE-S", "1", "19.99", true}, {"12", "MUG", "2", "", true}}},
		{"lines: an item the answer lacks", lines(two), []line{{"99", "", "4", "", false}}},
		{"packages in link order, with carriers", packages(one), []string{"22:", "21:UPS"}},
		{"packages linking back, deleted ones left out", packages(two), []string{"23:"}},
		{"addresses once each", len(p.AddressesOf(one.Links)), 1},
		{"contact", p.ContactsOf(one.Links)[0].Name, Flex("Ada Byron")},
		{"contact email", func() Flex { f, _ := p.ContactsOf(one.Links)[0].Field("email"); return f }(), Flex("ada@example.com")},
		{"order", p.SalesOrdersOf(one.Links)[0].PONum, Flex("#1042")},
		{"order's contact", p.ContactsOf(p.SalesOrdersOf(two.Links)[0].Links)[0].LocalID, Flex("1004")},
		{"no contact", len(p.ContactsOf(two.Links)), 0},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

// fulfillmentAnswer is an open fulfillments read of the assumed shape
// [B.5]: line 11 names a bundle (as an account that does not split
// bundles shows it), 2 ordered and 1 shipped; line 12 a plain variant.
const fulfillmentAnswer = `{"meta":{"current_page":"1","last_page":"1","per_page":"15","total":"1","from":"1","to":"1"},
"Fulfillments":[{"id":"1","status":"","complete":"0","links":{"LineItems":[{"id":"11"},{"id":"12"}],"SalesOrders":[{"id":"51"}]}}],
"LineItems":{"11":{"id":"11","sku":"KIT","variant_id":"60","quantity":"2","shipped_quantity":"1"},
 "12":{"id":"12","sku":"MUG","variant_id":"62","quantity":"%s","shipped_quantity":"0"}},
"Variants":{"60":{"id":"60","sku":"KIT","bundle":"1","location_1":"","links":{"BundleComponents":[{"id":"61","quantity":"3"},{"id":"63","quantity":"%s"}]}},
 "61":{"id":"61","sku":"TEE-S","location_1":"A-01"},
 "62":{"id":"62","sku":"MUG","location_1":"C-07"}}}`

func TestPickLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, mugQty, compUnits string
		want                    []PickLine
		err                     string
	}{
		{"bundle as its components", "4", "1", []PickLine{
			{VariantID: "61", SKU: "TEE-S", Location: "A-01", Quantity: 6, Shipped: 3, Bundle: "KIT"},
			{VariantID: "63", Quantity: 2, Shipped: 1, Bundle: "KIT"}, // component not sideloaded: no SKU, no location
			{VariantID: "62", SKU: "MUG", Location: "C-07", Quantity: 4},
		}, ""},
		{"fractional quantity", "2.5", "1", nil, `fulfillment 1, line item 12: quantity "2.5" is not a whole number`},
		{"bad component units", "4", "0", nil, `bundle 60 (SKU KIT): component 63 has "0" units`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p FulfillmentPage
			mustUnmarshal(t, []byte(strings.Replace(strings.Replace(fulfillmentAnswer, "%s", tc.mugQty, 1), "%s", tc.compUnits, 1)), &p)
			got, err := p.PickLines(p.Records[0])
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				got[i].Line = nil
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("PickLines =\n%+v\nwant\n%+v", got, tc.want)
			}
			if got[0].ToPick() != 3 {
				t.Errorf("ToPick = %d, want 3", got[0].ToPick())
			}
		})
	}
}

// Against the sandbox: one listing request gives every seeded slip with
// its priced lines, shipments, carriers, order and contact; one gives the
// open fulfillments with what to pick and where, a bundle's line as its
// components.
func TestSlipsAndPickingFromSandbox(t *testing.T) {
	t.Parallel()
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close() })
	if _, err := srv.RegisterToken(testToken); err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, ts.URL)
	ctx := context.Background()
	var product ProductWrite
	if err := json.Unmarshal([]byte(`{"name":"Tee","links":{"Attributes":[{"name":"Size"}],"PricingTiers":[{"name":"Retail","value":"19.99"}],
		"Variants":[{"sku":"TEE-S","quantity":"500","location_1":"A-01","links":{"AttributeOptions":[{"value":"S"}]}},
		{"sku":"TEE-M","quantity":"500","location_1":"A-02","links":{"AttributeOptions":[{"value":"M"}]}},
		{"sku":"KIT","links":{"AttributeOptions":[{"value":"Kit"}]}}]}}`), &product); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Products.Write(ctx, []ProductWrite{product}); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CreateBundle(ctx, sandbox.BundleSpec{Token: testToken, SKU: "KIT", Components: []sandbox.OrderLine{{SKU: "TEE-S", Quantity: 1}, {SKU: "TEE-M", Quantity: 2}}}); err != nil {
		t.Fatal(err)
	}
	seeded, err := srv.Seed(ctx, sandbox.SeedSpec{Token: testToken, Orders: 40, Seed: 1, Unshipped: new(10)})
	if err != nil {
		t.Fatal(err)
	}
	before := srv.Counters().Requests[wire.ListPath(wire.PackingSlips)]
	checkSandboxSlips(t, c, len(seeded.Slips))
	if n := srv.Counters().Requests[wire.ListPath(wire.PackingSlips)] - before; n != 1 {
		t.Errorf("%d listing requests for %d slips, want 1", n, len(seeded.Slips))
	}
	checkSandboxPicking(t, c)
}

func checkSandboxSlips(t *testing.T, c *Client, want int) {
	t.Helper()
	slips := 0
	for p, err := range c.PackingSlips.ListPages(t.Context(), &ListOptions{PageSize: 250}) {
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range p.Records {
			slips++
			if len(p.SlipLines(s)) == 0 || len(p.PackagesOf(s)) == 0 || len(p.ContactsOf(s.Links)) != 1 ||
				len(p.AddressesOf(s.Links)) != 1 || len(p.SalesOrdersOf(s.Links)) != 1 {
				t.Fatalf("slip %s: %d lines, %d packages, %d contacts, %d addresses, %d orders", s.ID, len(p.SlipLines(s)),
					len(p.PackagesOf(s)), len(p.ContactsOf(s.Links)), len(p.AddressesOf(s.Links)), len(p.SalesOrdersOf(s.Links)))
			}
			for _, l := range p.SlipLines(s) {
				if !l.Sideloaded || l.Item.SKU == "" || l.Item.Price == "" || l.Quantity == "" {
					t.Errorf("slip %s line %+v", s.ID, l)
				}
			}
			for _, k := range p.PackagesOf(s) {
				if p.Carrier(k) == "" || k.TrackingNumber == "" || k.Cost == "" || k.ShipDate == "" {
					t.Errorf("slip %s shipment %+v, carrier %q", s.ID, k, p.Carrier(k))
				}
			}
		}
	}
	if slips != want {
		t.Errorf("%d slips listed, want %d", slips, want)
	}
}

func checkSandboxPicking(t *testing.T, c *Client) {
	t.Helper()
	lines := 0
	for p, err := range c.Fulfillments.ListPages(t.Context(), &ListOptions{PageSize: 250}) {
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Records) != 10 {
			t.Errorf("%d open fulfillments, want the 10 unshipped orders", len(p.Records))
		}
		for _, f := range p.Records {
			picks, err := p.PickLines(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, pl := range picks {
				lines++
				want := map[Flex]Flex{"TEE-S": "A-01", "TEE-M": "A-02"}[pl.SKU]
				if want == "" || pl.Location != want || pl.ToPick() < 1 || pl.Bundle != "" {
					t.Errorf("fulfillment %s: pick %+v (the sandbox splits bundles: only TEE-S and TEE-M, at A-01 and A-02)", f.ID, pl)
				}
			}
		}
	}
	if lines == 0 {
		t.Error("nothing to pick")
	}
}
