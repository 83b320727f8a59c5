package parcels

import (
	"encoding/json"
	"testing"

	"lading/api"
)

// A fulfillment read's parcels: a shipment and the Packages record it
// became are one parcel; a slip's own shipment is another; tracking
// numbers compare whatever their case and spaces.
func TestBookFromAFulfillmentRead(t *testing.T) {
	var page api.FulfillmentPage
	body := `{"meta":{"current_page":"1","last_page":"1"},
	"Fulfillments":[{"id":"10","links":{"SalesOrders":[{"id":"5"}],"Shipments":[{"id":"20"}],"LineItems":[{"id":"11"}]}}],
	"SalesOrders":{"5":{"id":"5","links":{"Packages":[{"id":"30"},{"id":"31"}]}}},
	"Shipments":{"20":{"id":"20","tracking_number":"1Z-A","links":{"LineItems":[{"id":"11","quantity":"2"}],"Packages":[{"id":"30"}]}}},
	"Packages":{"30":{"id":"30","tracking_number":"1Z-A","links":{"PackingSlips":[{"id":"40"}]}},
	            "31":{"id":"31","tracking_number":"SLIP-1","links":{"PackingSlips":[{"id":"41"}]}}}}`
	if err := json.Unmarshal([]byte(body), &page); err != nil {
		t.Fatal(err)
	}
	var b Book
	b.AddFulfillments(&page)
	a := b.Parcels("5", " 1z-a ")
	if len(a) != 1 || !a[0].Posted() || a[0].Fulfillment != "10" || a[0].Slip != "40" || a[0].Units()["11"] != 2 {
		t.Errorf("1Z-A: %+v, want fulfillment 10's shipment, recorded on slip 40, of 2 units", a)
	}
	s := b.Parcels("5", "SLIP-1")
	if len(s) != 1 || s[0].Posted() || s[0].Slip != "41" || s[0].String() != "shipment 31 of packing slip 41" {
		t.Errorf("SLIP-1: %+v, want slip 41's shipment", s)
	}
	if got := b.Parcels("6", "1Z-A"); got != nil {
		t.Errorf("another order's parcels: %v", got)
	}
	if got := b.Parcels("5", ""); got != nil {
		t.Errorf("an empty tracking number finds %v", got)
	}
}
