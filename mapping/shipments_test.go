package mapping

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

const shipmentsSrc = `source:
  date_formats: ["DD/MM/YYYY"]
shipments:
  fulfillment_id: {column: Fulfillment, optional: true}
  order_number: {column: Order, optional: true}
  sku: SKU
  quantity: Qty
  tracking_number: Tracking
  cost: {column: Cost, optional: true}
  shipped_at: {column: Shipped, optional: true}
  status: {column: Status, optional: true}
skip:
  - when: Qty == "cancelled"
    reason: cancelled in the warehouse
`

func TestParseShipments(t *testing.T) {
	t.Parallel()
	m, err := Parse("m.yaml", []byte(shipmentsSrc))
	if err != nil {
		t.Fatal(err)
	}
	if !m.ShipmentsOnly() || m.StockOnly() {
		t.Fatalf("shipments only %v, stock only %v", m.ShipmentsOnly(), m.StockOnly())
	}
	sp := m.Shipments
	if sp.Pos != (Pos{3, 1}) || sp.SKU.Column != "SKU" || sp.Quantity.Kind != KindInteger || sp.Cost.Kind != KindNumber || !sp.Cost.NotNegative {
		t.Errorf("shipments %+v", sp)
	}
	if _, err := m.Compile("x.csv", []string{"SKU"}); err == nil || !strings.Contains(err.Error(), "maps shipments only") {
		t.Errorf("Compile of a shipments-only mapping: %v", err)
	}
	for _, c := range []struct{ src, want string }{
		{"shipments:\n  sku: SKU\n  quantity: Q\n  tracking_number: T\n", "needs fulfillment_id or order_number"},
		{"shipments:\n  fulfillment_id: F\n  quantity: Q\n  tracking_number: T\n", "needs line_item_id or sku"},
		{"shipments:\n  fulfillment_id: F\n  sku: S\n  quantity: Q\n", "needs quantity (the units shipped) and tracking_number"},
		{"shipments:\n  fulfillment_id: F\n  sku: S\n  quantity: Q\n  tracking_number: T\n  weight: W\n", "weight"},
	} {
		if _, err := Parse("m.yaml", []byte(c.src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %q", c.src, err, c.want)
		}
	}
}

func TestEvalShipments(t *testing.T) {
	t.Parallel()
	m, err := Parse("m.yaml", []byte(shipmentsSrc))
	if err != nil {
		t.Fatal(err)
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	header := []string{"Fulfillment", "Order", "SKU", "Qty", "Tracking", "Cost", "Shipped", "Status"}
	p, err := m.CompileShipments("ship.csv", header, berlin)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		row  []string
		want ShipmentRow
		err  string
	}{
		{"by fulfillment, a date alone is midnight in the zone", []string{"12", "", "TEE-S", "2", "1Z9", "8,95", "20/11/2026", "shipped"},
			ShipmentRow{FulfillmentID: "12", SKU: "TEE-S", Quantity: 2, TrackingNumber: "1Z9", Status: "shipped",
				ShippedAt: time.Date(2026, 11, 20, 0, 0, 0, 0, berlin)}, "Cost"},
		{"by order number, a time with an offset", []string{"", "SO-7", "MUG", "1", "TRK", "4.5", "2026-11-20T14:30:00+01:00", ""},
			ShipmentRow{OrderNumber: "SO-7", SKU: "MUG", Quantity: 1, TrackingNumber: "TRK", Cost: "4.5",
				ShippedAt: time.Date(2026, 11, 20, 13, 30, 0, 0, time.UTC)}, ""},
		{"a time in the afternoon, no offset", []string{"3", "", "MUG", "1", "T", "", "21/11/2026 2:05 PM", ""},
			ShipmentRow{FulfillmentID: "3", SKU: "MUG", Quantity: 1, TrackingNumber: "T",
				ShippedAt: time.Date(2026, 11, 21, 14, 5, 0, 0, berlin)}, ""},
		{"no fulfillment, no tracking", []string{"", "", "MUG", "1", "", "", "", ""},
			ShipmentRow{SKU: "MUG", Quantity: 1}, "its fulfillment"},
		{"zero units", []string{"3", "", "MUG", "0", "T", "", "", ""},
			ShipmentRow{FulfillmentID: "3", SKU: "MUG", TrackingNumber: "T"}, "must be 1 or more"},
		{"negative units, in a shipment's words", []string{"3", "", "MUG", "-1", "T", "", "", ""},
			ShipmentRow{FulfillmentID: "3", SKU: "MUG", TrackingNumber: "T"}, "must be 1 or more: the units this row ships"},
		{"an exponent", []string{"3", "", "MUG", "1e9", "T", "", "", ""},
			ShipmentRow{FulfillmentID: "3", SKU: "MUG", TrackingNumber: "T"}, "must be written out, like 1000000000"},
		{"a fraction", []string{"3", "", "MUG", "1.5", "T", "", "", ""},
			ShipmentRow{FulfillmentID: "3", SKU: "MUG", TrackingNumber: "T"}, "fraction"},
		{"a bad date", []string{"3", "", "MUG", "1", "T", "", "yesterday", ""},
			ShipmentRow{FulfillmentID: "3", SKU: "MUG", Quantity: 1, TrackingNumber: "T"}, "must be a date"},
		{"the date a system writes for none", []string{"3", "", "MUG", "1", "T", "", "0001-01-01", ""},
			ShipmentRow{FulfillmentID: "3", SKU: "MUG", Quantity: 1, TrackingNumber: "T"},
			`column "Shipped" value "0001-01-01" (shipments.shipped_at): must be a date from 1900 on, not in the year 1 (some systems write 0001-01-01 for a date they do not have)`},
		{"a year before 1900, with a time and an offset", []string{"3", "", "MUG", "1", "T", "", "1899-12-31T23:00:00+00:00", ""},
			ShipmentRow{FulfillmentID: "3", SKU: "MUG", Quantity: 1, TrackingNumber: "T"}, "must be a date from 1900 on, not in the year 1899"},
		{"1900 itself", []string{"3", "", "MUG", "1", "T", "", "1900-01-01T00:00:00Z", ""},
			ShipmentRow{FulfillmentID: "3", SKU: "MUG", Quantity: 1, TrackingNumber: "T", ShippedAt: time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)}, ""},
		{"skipped", []string{"3", "", "MUG", "cancelled", "", "", "", ""},
			ShipmentRow{Skipping: Skipping{Skip: true, SkipReason: "cancelled in the warehouse"}, FulfillmentID: "3", SKU: "MUG"}, ""},
	} {
		var got ShipmentRow
		err := p.Eval(c.row, &got)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.err)
		}
		got.Errors = nil
		if !got.ShippedAt.Equal(c.want.ShippedAt) {
			t.Errorf("%s: shipped at %v, want %v", c.name, got.ShippedAt, c.want.ShippedAt)
		}
		got.ShippedAt, c.want.ShippedAt = time.Time{}, time.Time{}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

func TestRecogniseShipments(t *testing.T) {
	t.Parallel()
	for _, h := range [][]string{
		{"fulfillment_id", "sku", "line_item_id", "quantity", "tracking_number", "carrier", "tracking_link", "cost", "shipped_at", "status"},
		{"order_number", "sku", "quantity", "tracking_number"},
	} {
		d, ok := Recognise(h)
		if !ok || d.Template != "shipments" || !strings.Contains(d.Why, "tracking_number") {
			t.Errorf("%q: %+v, %v; want shipments", h, d, ok)
		}
	}
	if d, ok := Recognise([]string{"sku", "quantity"}); ok && d.Template == "shipments" {
		t.Error("a stock header taken for shipments")
	}
}
