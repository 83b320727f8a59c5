package e2e

import (
	"maps"
	"strconv"
	"testing"

	"lading/api"
	"lading/api/wire"
	"lading/sandbox"
)

var shipTo = map[string]string{"contact": "Ada", "street1": "1 Main St", "city": "Springfield"}

// parts creates variants A and B with the given opening stock and a variant
// KIT without stock, and returns their ids by SKU.
func (e *env) parts(a, b int) map[string]api.ID {
	e.t.Helper()
	opt := func(v string) *api.VariantLinks {
		return &api.VariantLinks{AttributeOptions: []api.OptionRef{{Value: v}}}
	}
	p := e.createProduct(api.ProductWrite{Name: api.String("Kit parts"), Links: &api.ProductLinks{
		Attributes: []api.AttributeRef{{Name: "Part"}},
		Variants: []api.VariantWrite{
			{SKU: api.String("A"), Quantity: api.String(strconv.Itoa(a)), Links: opt("a")},
			{SKU: api.String("B"), Quantity: api.String(strconv.Itoa(b)), Links: opt("b")},
			{SKU: api.String("KIT"), Links: opt("kit")},
		}}})
	prod, page := e.product(p)
	out := map[string]api.ID{}
	for _, v := range page.VariantsOf(prod) {
		out[v.SKU.String()] = v.ID
	}
	return out
}

// open lists the open fulfillments with their line items (sku → quantity).
func (e *env) open() ([]*api.Fulfillment, *api.FulfillmentPage) {
	e.t.Helper()
	var fs []*api.Fulfillment
	var last *api.FulfillmentPage
	for page, err := range e.c.Fulfillments.ListPages(e.t.Context(), nil) {
		if err != nil {
			e.t.Fatalf("listing fulfillments: %v", err)
		}
		fs = append(fs, page.Records...)
		last = page
		if len(fs) > maxListed {
			e.t.Fatal(errEndless)
		}
	}
	return fs, last
}

func (e *env) createOrder(spec sandbox.OrderSpec) string {
	e.t.Helper()
	spec.Token = testToken
	id, err := e.srv.CreateOrder(e.t.Context(), spec)
	if err != nil {
		e.t.Fatalf("creating an order: %v", err)
	}
	return id
}

// TestFulfillmentConditions: an order opens a fulfillment only when it is
// assigned to the integration's warehouse, the stock is there and the
// shipping address is populated. [Spec] workflow step 4
func TestFulfillmentConditions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		warehouse string
		address   map[string]string
		qty       int64
		open      bool
	}{
		{"all conditions hold", "", shipTo, 5, true},
		{"another warehouse", "12345", shipTo, 5, false},
		{"no shipping address", "", nil, 5, false},
		{"not enough stock", "", shipTo, 11, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, sandboxOpts(), wire.APIPrefix)
			parts := e.parts(9, 9)
			applied(t)(e.c.Stock.SetAvailable(t.Context(), []api.StockLevel{{VariantID: parts["A"], WarehouseID: api.ID(e.acct.WarehouseID), Units: 10}}))
			order := e.createOrder(sandbox.OrderSpec{WarehouseID: c.warehouse, ShippingAddress: c.address,
				Lines: []sandbox.OrderLine{{SKU: "A", Quantity: c.qty}}})
			fs, page := e.open()
			if got := len(fs) == 1; got != c.open {
				t.Fatalf("open = %v (%d listed), want %v", got, len(fs), c.open)
			}
			if c.open {
				f := fs[0]
				if f.Links.First(wire.SalesOrders) != api.ID(order) || f.Complete.Bool() {
					t.Errorf("fulfillment links %v complete %q, want order %s, open", f.Links, f.Complete, order)
				}
				items := page.LineItemsOf(f.Links)
				if len(items) != 1 || items[0].SKU != "A" || items[0].Quantity != "5" {
					t.Errorf("line items %+v, want A x5", items)
				}
			}
		})
	}
}

// TestStockOpensWaitingFulfillment: an order short of stock waits; a stock
// write through the client opens it.
func TestStockOpensWaitingFulfillment(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandboxOpts(), "")
	ids := e.parts(1, 0)
	e.createOrder(sandbox.OrderSpec{ShippingAddress: shipTo, Lines: []sandbox.OrderLine{{SKU: "A", Quantity: 3}}})
	if fs, _ := e.open(); len(fs) != 0 {
		t.Fatalf("%d open before the stock arrived", len(fs))
	}
	applied(t)(e.c.Stock.SetAvailable(t.Context(), []api.StockLevel{{VariantID: ids["A"], WarehouseID: api.ID(e.acct.WarehouseID), Units: 3}}))
	if fs, _ := e.open(); len(fs) != 1 {
		t.Fatalf("%d open after the stock arrived, want 1", len(fs))
	}
	v, _ := e.variant(ids["A"])
	if v.CommittedStock != "3" || v.Available != "0" {
		t.Errorf("committed %q available %q, want 3 and 0", v.CommittedStock, v.Available)
	}
}

// TestFulfillmentWorkflow: a bundle is split into its components, shipments
// posted through the client complete the fulfillment, which then leaves the
// open list; the status is a free string.
func TestFulfillmentWorkflow(t *testing.T) {
	t.Parallel()
	for _, prefix := range prefixes {
		t.Run("base"+prefix, func(t *testing.T) {
			e := newEnv(t, sandboxOpts(), prefix)
			e.parts(9, 9)
			if _, err := e.srv.CreateBundle(t.Context(), sandbox.BundleSpec{Token: testToken, SKU: "KIT",
				Components: []sandbox.OrderLine{{SKU: "A", Quantity: 2}, {SKU: "B", Quantity: 1}}}); err != nil {
				t.Fatal(err)
			}
			order := e.createOrder(sandbox.OrderSpec{ShippingAddress: shipTo,
				Lines: []sandbox.OrderLine{{SKU: "KIT", Quantity: 3}, {SKU: "B", Quantity: 1}}})
			fs, page := e.open()
			if len(fs) != 1 {
				t.Fatalf("%d open fulfillments, want 1", len(fs))
			}
			f := fs[0]
			if f.Links.First(wire.SalesOrders) != api.ID(order) {
				t.Errorf("fulfillment of order %s, want %s", f.Links.First(wire.SalesOrders), order)
			}
			if a := page.Addresses[f.Links.First(wire.Addresses)]; a == nil || a.City != "Springfield" {
				t.Errorf("shipping address %+v", a)
			}
			qty, item := map[string]string{}, map[string]api.ID{}
			for _, li := range page.LineItemsOf(f.Links) {
				qty[li.SKU.String()] = li.Quantity.String()
				item[li.SKU.String()] = li.ID
			}
			if want := map[string]string{"A": "6", "B": "4"}; !maps.Equal(qty, want) {
				t.Fatalf("line items %v, want %v (bundle split into components, B added up)", qty, want)
			}

			applied(t)(e.c.Fulfillments.SetStatus(t.Context(), f.ID, "Picking — aisle 4"))
			detail, err := e.c.Fulfillments.Get(t.Context(), f.ID)
			if err != nil || len(detail.Records) != 1 || detail.Records[0].Status != "Picking — aisle 4" {
				t.Fatalf("detail after status: %v %+v", err, detail)
			}
			if n := len(detail.LineItemsOf(detail.Records[0].Links)); n != 2 {
				t.Errorf("detail carries %d line items, want 2", n)
			}

			ship := func(lines ...api.LineItemRef) (*api.WriteResult, error) {
				return e.c.Fulfillments.PostShipments(t.Context(), []api.ShipmentWrite{{ShippedAt: "2026-11-21T10:00:00+0000",
					TrackingNumber: "1Z1", Carrier: "UPS", Links: api.ShipmentLinks{Fulfillments: api.Refs(f.ID), LineItems: lines}}})
			}
			rejected(t, "shipping 7 of 6")(ship(api.LineItemRef{ID: item["A"], Quantity: "7"}))
			applied(t)(ship(api.LineItemRef{ID: item["A"], Quantity: "6"}, api.LineItemRef{ID: item["B"], Quantity: "3"}))
			if fs, _ := e.open(); len(fs) != 1 {
				t.Fatalf("a partly shipped fulfillment left the open list")
			}
			applied(t)(ship(api.LineItemRef{ID: item["B"], Quantity: "1"}))
			if fs, _ := e.open(); len(fs) != 0 {
				t.Fatalf("%d open after every line item shipped, want 0", len(fs))
			}
			detail, err = e.c.Fulfillments.Get(t.Context(), f.ID)
			if err != nil || !detail.Records[0].Complete.Bool() {
				t.Fatalf("detail after completion: %v complete %q", err, detail.Records[0].Complete)
			}
			for _, li := range detail.LineItemsOf(detail.Records[0].Links) {
				if li.ShippedQuantity != li.Quantity {
					t.Errorf("line item %s shipped %q of %q", li.SKU, li.ShippedQuantity, li.Quantity)
				}
			}
			rejected(t, "shipping on a complete fulfillment")(ship(api.LineItemRef{ID: item["B"], Quantity: "1"}))
		})
	}
}
