package mapping

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

const slipsFull = `source:
  date_formats: ["DD/MM/YYYY"]
slips:
  key: Shipment
  order: Order
  packing_slip_date: Packed
  notes: {column: Notes, clear_when_empty: true}
  line_item: Line
  quantity: Units
  package: {column: Parcel, optional: true}
  ship_date: Shipped
  tracking_number: Tracking
  tracking_link: Link
  cost: Cost
  carrier: Carrier
  delivered: Delivered
skip:
  - when: Order == "cancelled"
    reason: cancelled in the warehouse system
`

var slipsHeader = []string{"Shipment", "Order", "Packed", "Notes", "Line", "Units", "Shipped", "Tracking", "Link", "Cost", "Carrier", "Delivered"}

func slipsProgram(t *testing.T, src string, tz *time.Location, header ...string) *SlipProgram {
	t.Helper()
	m, err := Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.CompileSlips("ship.csv", header, tz)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseSlips(t *testing.T) {
	t.Parallel()
	m, err := Parse("m.yaml", []byte(slipsFull))
	if err != nil {
		t.Fatal(err)
	}
	sp := m.Slips
	if sp == nil || !m.SlipsOnly() || m.StockOnly() || m.ShipmentsOnly() {
		t.Fatalf("slips %+v, slips only %v", sp, m.SlipsOnly())
	}
	if sp.Pos != (Pos{3, 1}) || sp.Key.Column != "Shipment" || sp.Key.Target != "slips.key" || sp.Order.Name != "order" {
		t.Errorf("slips %+v key %+v", sp, sp.Key)
	}
	if !sp.Notes.ClearWhenEmpty || !sp.Package.Optional || sp.Cost.Kind != KindNumber || !sp.Cost.NotNegative {
		t.Errorf("notes %+v package %+v cost %+v", sp.Notes, sp.Package, sp.Cost)
	}
}

func TestParseSlipsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		yaml      string
		line, col int
		want      string
	}{
		{"no order", "slips:\n  key: K\n", 1, 1, "slips needs key"},
		{"no key", "slips:\n  order: O\n", 1, 1, "and order (the column holding the sales order's id)"},
		{"unknown key", "slips:\n  key: K\n  order: O\n  weight: W\n", 4, 3, "weight"},
		{"line without units", "slips:\n  key: K\n  order: O\n  line_item: L\n", 1, 1, "line_item and quantity go together"},
		{"type", "slips:\n  key: K\n  order: O\n  cost: {column: C, type: text}\n", 4, 21, "type does not apply"},
		{"clear a carrier", "slips:\n  key: K\n  order: O\n  carrier: {column: C, clear_when_empty: true}\n", 4, 24, "clear_when_empty does not apply here"},
		{"optional key", "slips:\n  key: {column: K, optional: true}\n  order: O\n", 2, 20, "slips.key cannot be optional"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("m.yaml", []byte(tt.yaml))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want an *Error", err)
			}
			if e.Line != tt.line || e.Column != tt.col || !strings.Contains(e.Msg, tt.want) {
				t.Errorf("got %d:%d %q; want %d:%d containing %q", e.Line, e.Column, e.Msg, tt.line, tt.col, tt.want)
			}
		})
	}
}

func TestCompileSlipsErrors(t *testing.T) {
	t.Parallel()
	m, err := Parse("m.yaml", []byte(slipsFull))
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.CompileSlips("ship.csv", []string{"Shipmnet", "Order"}, nil)
	var list ErrorList
	if !errors.As(err, &list) || !strings.Contains(err.Error(), `"Shipment"`) || !strings.Contains(err.Error(), "Shipmnet") {
		t.Errorf("err = %v; want the unknown column and its close match", err)
	}
	m, err = Parse("m.yaml", []byte(stockMinimal))
	if err != nil {
		t.Fatal(err)
	}
	var e *Error
	if _, err := m.CompileSlips("ship.csv", []string{"SKU"}, nil); !errors.As(err, &e) || !strings.Contains(e.Msg, "no slips section") {
		t.Errorf("a stock mapping read as slips: %v", err)
	}
}

func TestEvalSlips(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	p := slipsProgram(t, slipsFull, berlin, slipsHeader...)
	row := func(cells ...string) []string { return append(cells, make([]string, len(slipsHeader)-len(cells))...) }
	tests := []struct {
		name string
		row  []string
		want SlipRow
		errs []string // each a part of one error, in order
	}{
		{"full", row("S-1", "533943058", "15/01/2026 14:30", "fragile", "1001", "2", "2026-01-16T08:00:00Z", "1Z999", "https://t/1Z999", "8,95", "UPS", "yes"),
			SlipRow{Key: "S-1", Order: "533943058", Date: Value{"2026-01-15T13:30:00+0000", true}, Notes: Value{"fragile", true},
				LineItem: "1001", Quantity: "2", ShipDate: Value{"2026-01-16T08:00:00+0000", true}, TrackingNumber: Value{"1Z999", true},
				TrackingLink: Value{"https://t/1Z999", true}, Cost: Value{}, Carrier: "UPS", Delivered: Value{"1", true}},
			[]string{`column "Cost" value "8,95" (slips.cost): must be a number`}},
		{"empty cells", row("S-2", "7"), SlipRow{Key: "S-2", Order: "7", Notes: Value{"", true}}, nil},
		{"a date alone is midnight in the zone", row("S-3", "7", "2026-07-01", "", "", "", "2026-07-01 09:15 +02:00", "", "", "0.5", "", "0"),
			SlipRow{Key: "S-3", Order: "7", Date: Value{"2026-06-30T22:00:00+0000", true}, Notes: Value{"", true},
				ShipDate: Value{"2026-07-01T07:15:00+0000", true}, Cost: Value{"0.5", true}, Delivered: Value{"0", true}}, nil},
		{"bad values", row("", "SO-7", "31/02/2026", "", "L1", "0", "soon", "", "", "-1", "", "maybe"),
			SlipRow{Notes: Value{"", true}},
			[]string{`column "Shipment" value "" (slips.key): required`, `column "Order" value "SO-7" (slips.order): must be the sales order's id`,
				`column "Packed" value "31/02/2026" (slips.packing_slip_date): must be a date, or a date and time (YYYY-MM-DD, DD/MM/YYYY`,
				`column "Line" value "L1" (slips.line_item): must be a line item's id`,
				`column "Units" value "0" (slips.quantity): must be 1 or more: the units of the line item this slip packs`,
				`column "Shipped" value "soon" (slips.ship_date)`, `column "Cost" value "-1" (slips.cost): must be 0 or more`,
				`column "Delivered" value "maybe" (slips.delivered): must be yes or no`}},
		{"the date a system writes for none", row("S-6", "7", "0001-01-01 00:00", "", "", "", "0001-01-01T00:00:00Z"), SlipRow{Key: "S-6", Order: "7", Notes: Value{"", true}},
			[]string{`column "Packed" value "0001-01-01 00:00" (slips.packing_slip_date): must be a date from 1900 on, not in the year 1 (some systems write 0001-01-01 for a date they do not have); leave the cell empty or give the real date`,
				`column "Shipped" value "0001-01-01T00:00:00Z" (slips.ship_date): must be a date from 1900 on`}},
		{"a line without units", row("S-4", "7", "", "", "1001"), SlipRow{Key: "S-4", Order: "7", LineItem: "1001", Notes: Value{"", true}},
			[]string{`column "Units" value "" (slips.quantity): required: a row naming a line item needs the units`}},
		{"skipped", row("S-5", "cancelled", "junk"), SlipRow{Skipping: Skipping{Skip: true, SkipReason: "cancelled in the warehouse system"}, Key: "S-5"}, nil},
	}
	var got SlipRow
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := p.Eval(tt.row, &got)
			if len(got.Errors) != len(tt.errs) {
				t.Fatalf("errors %v; want %d: %q", got.Errors, len(tt.errs), tt.errs)
			}
			if (err != nil) != (len(tt.errs) > 0) {
				t.Errorf("Eval returned %v with errors %v", err, got.Errors)
			}
			for i, e := range got.Errors {
				if !strings.Contains(e.Error(), tt.errs[i]) {
					t.Errorf("error %d = %q; want it to contain %q", i, e.Error(), tt.errs[i])
				}
			}
			g := got
			g.Errors = nil
			if !reflect.DeepEqual(g, tt.want) {
				t.Errorf("row\n got %+v\nwant %+v", g, tt.want)
			}
		})
	}
	if !(&SlipRow{Carrier: "UPS"}).HasPackage() || (&SlipRow{Key: "K", Notes: Value{"n", true}}).HasPackage() {
		t.Error("HasPackage does not tell a row with a shipment's field from one without")
	}
}
