package slips_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/mapping"
	"lading/sandbox"
	"lading/sandbox/sandboxtest"
	"lading/slips"
)

// env is a sandbox account with a few variants in stock, a client of it
// and a state file.
type env struct{ *sandboxtest.Env }

// scope is the account scope of every push of the tests.
const scope = "test"

func newEnv(t testing.TB, opts sandbox.Options) *env {
	e := &env{sandboxtest.New(t, opts)}
	e.seed()
	return e
}

// seed creates the variants MUG and TEE with 1000 units each.
func (e *env) seed() {
	e.T.Helper()
	p := api.ProductWrite{Name: api.String("Things"), Links: &api.ProductLinks{Attributes: []api.AttributeRef{{Name: "Kind"}}}}
	for _, s := range []string{"MUG", "TEE"} {
		p.Links.Variants = append(p.Links.Variants, api.VariantWrite{SKU: api.String(s), Quantity: api.String("1000"),
			Links: &api.VariantLinks{AttributeOptions: []api.OptionRef{{Value: s, Attribute: "Kind"}}}})
	}
	res, err := e.C.Products.Write(context.Background(), []api.ProductWrite{p})
	if err != nil || len(res.Failed) > 0 {
		e.T.Fatalf("seeding: %v %v", err, res)
	}
}

// order enters an order of one MUG and two TEEs, shipped to an address:
// its fulfillment opens at once. It returns the order's id and its
// fulfillment's line item ids by SKU, as lading fulfillments pull gives
// them.
func (e *env) order() (string, map[string]string) {
	e.T.Helper()
	ctx := context.Background()
	id, err := e.Srv.CreateOrder(ctx, sandbox.OrderSpec{Token: "tok",
		ShippingAddress: map[string]string{"street1": "1 Main St", "city": "Springfield", "zip": "12345", "country": "US"},
		Lines:           []sandbox.OrderLine{{SKU: "MUG", Quantity: 1}, {SKU: "TEE", Quantity: 2}}})
	if err != nil {
		e.T.Fatal(err)
	}
	lines := map[string]string{}
	n := 0
	for p, err := range e.C.Fulfillments.ListPages(ctx, nil) {
		if err != nil {
			e.T.Fatal(err)
		}
		if n++; n > 100 {
			e.T.Fatal("the fulfillments listing never ended")
		}
		for _, f := range p.Records {
			if string(f.Links.First(wire.SalesOrders)) != id {
				continue
			}
			for _, l := range p.FulfillmentLines(f) {
				lines[string(l.SKU)] = string(l.ID)
			}
		}
	}
	if len(lines) != 2 {
		e.T.Fatalf("order %s: fulfillment lines %v", id, lines)
	}
	return id, lines
}

// fulfillmentOf is the fulfillment of a line item.
func (e *env) fulfillmentOf(item string) api.ID {
	e.T.Helper()
	for p, err := range e.C.Fulfillments.ListPages(context.Background(), nil) {
		if err != nil {
			e.T.Fatal(err)
		}
		for _, f := range p.Records {
			if f.Links.Has(wire.LineItems, api.ID(item)) {
				return f.ID
			}
		}
	}
	e.T.Fatalf("no open fulfillment has line item %s", item)
	return ""
}

// carriers makes the account know the carriers UPS and DHL, as shipments
// made in the account do.
func (e *env) carriers() {
	e.T.Helper()
	id, _ := e.order()
	_, err := e.Srv.CreateSlip(context.Background(), sandbox.SlipSpec{Token: "tok", Order: id,
		Packages: []sandbox.PackageSpec{{Carrier: "UPS", TrackingNumber: "1ZSEED"}, {Carrier: "DHL", TrackingNumber: "DHLSEED"}}})
	if err != nil {
		e.T.Fatal(err)
	}
}

// header is the layout of the tests' files (slipsMapping).
var header = []string{"shipment", "order", "packed", "notes", "line", "units", "parcel", "shipped", "tracking", "link", "cost", "carrier", "delivered"}

// file writes a CSV of rows under header (short rows are padded).
func (e *env) file(name string, rows ...[]string) string {
	e.T.Helper()
	p := filepath.Join(e.Dir, name)
	f, err := os.Create(p)
	if err != nil {
		e.T.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.Write(header)
	for _, r := range rows {
		w.Write(append(r, make([]string, len(header)-len(r))...))
	}
	w.Flush()
	if err := f.Close(); err != nil {
		e.T.Fatal(err)
	}
	return p
}

var slipsMapping = func() *mapping.Mapping {
	m, err := mapping.Parse("slips.yaml", []byte(`slips:
  key: shipment
  order: order
  packing_slip_date: packed
  notes: notes
  line_item: line
  quantity: units
  package: parcel
  ship_date: shipped
  tracking_number: tracking
  tracking_link: link
  cost: cost
  carrier: carrier
  delivered: delivered
`))
	if err != nil {
		panic(err)
	}
	return m
}()

// push pushes file with the env's client and state; opts may change the
// options.
func (e *env) push(file string, opts ...func(*slips.Options)) (*slips.Report, error) {
	e.T.Helper()
	o := slips.Options{Options: engine.Options{Client: e.C, State: e.State, Scope: scope, Mapping: slipsMapping, Input: file}}
	for _, f := range opts {
		f(&o)
	}
	return slips.Push(context.Background(), o)
}

// account reads every packing slip of the account with its shipments.
func (e *env) account() []*api.PackingSlipPage {
	e.T.Helper()
	var pages []*api.PackingSlipPage
	for p, err := range e.C.PackingSlips.ListPages(context.Background(), nil) {
		if err != nil {
			e.T.Fatal(err)
		}
		if pages = append(pages, p); len(pages) > 1000 {
			e.T.Fatal("the listing never ended")
		}
	}
	return pages
}

// slipsByOrder counts the account's live slips and their shipments by
// sales order.
func (e *env) slipsByOrder() (slipCount, packageCount map[string]int) {
	slipCount, packageCount = map[string]int{}, map[string]int{}
	for _, p := range e.account() {
		for _, s := range p.Records {
			o := string(s.Links.First(wire.SalesOrders))
			slipCount[o]++
			packageCount[o] += len(p.PackagesOf(s))
		}
	}
	return slipCount, packageCount
}

// actions tallies the report's rows by action.
func actions(rep *slips.Report) map[engine.Status]int {
	out := map[engine.Status]int{}
	for _, l := range rep.Lines {
		out[l.Action]++
	}
	return out
}

func rowf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
