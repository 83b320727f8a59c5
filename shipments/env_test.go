package shipments_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"lading/api"
	"lading/engine"
	"lading/mapping"
	"lading/sandbox"
	"lading/sandbox/sandboxtest"
	"lading/shipments"
	"lading/templates"
)

// env is a sandbox account with stock, a client of it and a state file.
type env struct{ *sandboxtest.Env }

const scope = "test"

var address = map[string]string{"contact": "Ada Lovelace", "street1": "1 Analytical Way", "city": "London", "zip": "N1 1AA", "country": "GB"}

func newEnv(t testing.TB, opts sandbox.Options) *env { return &env{sandboxtest.New(t, opts)} }

// seed creates one product with the SKUs, 1000 units of each in stock.
func (e *env) seed(skus ...string) {
	e.T.Helper()
	p := api.ProductWrite{Name: api.String("Tee"), Links: &api.ProductLinks{Attributes: []api.AttributeRef{{Name: "Size"}}}}
	for _, s := range skus {
		s, q := s, "1000"
		p.Links.Variants = append(p.Links.Variants, api.VariantWrite{SKU: &s, Quantity: &q,
			Links: &api.VariantLinks{AttributeOptions: []api.OptionRef{{Value: s, Attribute: "Size"}}}})
	}
	res, err := e.C.Products.Write(context.Background(), []api.ProductWrite{p})
	if err != nil || len(res.Failed) > 0 {
		e.T.Fatalf("seeding: %v %v", err, res)
	}
}

// order creates an order of lines (SKU, units, SKU, units, ...), which
// opens a fulfillment, and returns the fulfillment.
func (e *env) order(lines ...any) *fulfillment {
	e.T.Helper()
	return e.orders(1, lines...)[0]
}

// orders creates n orders of lines (SKU, units, ...), each of which opens
// a fulfillment, and returns the fulfillments in order.
func (e *env) orders(n int, lines ...any) []*fulfillment {
	e.T.Helper()
	spec := sandbox.OrderSpec{Token: "tok", ShippingAddress: address}
	for i := 0; i+1 < len(lines); i += 2 {
		spec.Lines = append(spec.Lines, sandbox.OrderLine{SKU: lines[i].(string), Quantity: int64(lines[i+1].(int))})
	}
	ids := make([]string, n)
	for i := range ids {
		id, err := e.Srv.CreateOrder(context.Background(), spec)
		if err != nil {
			e.T.Fatal(err)
		}
		ids[i] = id
	}
	byOrder := map[string]*fulfillment{}
	for _, f := range e.open() {
		byOrder[f.order] = f
	}
	out := make([]*fulfillment, n)
	for i, id := range ids {
		if out[i] = byOrder[id]; out[i] == nil {
			e.T.Fatalf("order %s opened no fulfillment", id)
		}
	}
	return out
}

// fulfillment is an open fulfillment as the tests see it.
type fulfillment struct {
	id, order, number string
	items             map[string]string // SKU -> line item id
}

// open reads the open fulfillments.
func (e *env) open() map[string]*fulfillment {
	e.T.Helper()
	out := map[string]*fulfillment{}
	pages := 0
	for p, err := range e.C.Fulfillments.ListPages(context.Background(), nil) {
		if err != nil {
			e.T.Fatal(err)
		}
		if pages++; pages > 100 {
			e.T.Fatal("the listing never ended")
		}
		for _, f := range p.Records {
			x := &fulfillment{id: string(f.ID), items: map[string]string{}}
			if os := p.SalesOrdersOf(f.Links); len(os) > 0 {
				x.order, x.number = string(os[0].ID), string(os[0].LocalID)
			}
			for _, li := range p.FulfillmentLines(f) {
				x.items[string(li.SKU)] = string(li.ID)
			}
			out[x.id] = x
		}
	}
	return out
}

// shipped reads the units shipped of each line of the fulfillments, by
// fulfillment and SKU ("12/TEE-S"), and whether each is complete.
func (e *env) shipped(fs ...*fulfillment) (units map[string]int64, complete map[string]bool) {
	e.T.Helper()
	units, complete = map[string]int64{}, map[string]bool{}
	ids := make([]api.ID, len(fs))
	for i, f := range fs {
		ids[i] = api.ID(f.id)
	}
	p, err := e.C.Fulfillments.Get(context.Background(), ids...)
	if err != nil {
		e.T.Fatal(err)
	}
	for _, f := range p.Records {
		complete[string(f.ID)] = f.Complete.Bool()
		for _, li := range p.FulfillmentLines(f) {
			units[string(f.ID)+"/"+string(li.SKU)], _ = li.ShippedQuantity.Int()
		}
	}
	return units, complete
}

// parcels counts the account's shipments (Packages) by tracking number.
func (e *env) parcels() map[string]int {
	e.T.Helper()
	out := map[string]int{}
	pages := 0
	for p, err := range e.C.PackingSlips.ListPages(context.Background(), nil) {
		if err != nil {
			e.T.Fatal(err)
		}
		if pages++; pages > 100 {
			e.T.Fatal("the listing never ended")
		}
		for _, pk := range p.Packages {
			out[string(pk.TrackingNumber)]++
		}
	}
	return out
}

// file writes a shipments CSV in lading's layout.
func (e *env) file(name string, header []string, rows ...[]string) string {
	e.T.Helper()
	p := filepath.Join(e.Dir, name)
	f, err := os.Create(p)
	if err != nil {
		e.T.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.Write(header)
	w.WriteAll(rows)
	if err := f.Close(); err != nil {
		e.T.Fatal(err)
	}
	return p
}

var header = []string{"fulfillment_id", "order_number", "sku", "quantity", "tracking_number", "carrier", "cost", "shipped_at", "status"}

var template = func() *mapping.Mapping {
	src, err := templates.Get("shipments")
	if err != nil {
		panic(err)
	}
	m, err := mapping.Parse("shipments.yaml", src)
	if err != nil {
		panic(err)
	}
	return m
}()

// push pushes file; opts may change the options.
func (e *env) push(file string, opts ...func(*shipments.Options)) (*shipments.Report, error) {
	e.T.Helper()
	o := shipments.Options{Options: engine.Options{Client: e.C, State: e.State, Scope: scope, Mapping: template, Input: file}, Now: func() time.Time { return time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC) }}
	for _, f := range opts {
		f(&o)
	}
	return shipments.Push(context.Background(), o)
}

// actions lists the rows' actions in order.
func actions(rep *shipments.Report) []string {
	out := make([]string, len(rep.Lines))
	for i, l := range rep.Lines {
		out[i] = string(l.Action)
	}
	return out
}

func dump(rep *shipments.Report) string {
	s := ""
	for _, l := range rep.Lines {
		s += fmt.Sprintf("\n  row %d: %s: %s", l.Row, l.Action, l.Msg)
	}
	return s
}
