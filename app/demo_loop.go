package app

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"lading/api"
	"lading/engine"
	"lading/exporter"
	"lading/mapping"
	"lading/sandbox"
	"lading/shipments"
	"lading/stock"
	"lading/templates"
)

// loop is the 3PL's day in the demo: the order, the file names and what
// the steps learn.
type loop struct {
	d                *demo
	srv              *sandbox.Server
	token            string
	soldOut, other   stockLevel
	order            string
	fulfillment      api.ID
	orders, shipped  string
	tracking         [2]string
	restock          string
	stockMap, shipMp *mapping.Mapping
}

// fulfillmentLoop runs the 3PL's loop on the sandbox: an order for a sold
// out SKU waits; a stock push opens it; a pull writes the order file; a
// confirmation file ships it in two parcels, the second completing it.
// Each step prints one line.
func (d *demo) fulfillmentLoop(ctx context.Context, srv *sandbox.Server, token string, later []stockLevel, soldOut stockLevel) (*loop, error) {
	l := &loop{d: d, srv: srv, token: token, soldOut: soldOut,
		orders: filepath.Join(d.out, "orders.csv"), shipped: filepath.Join(d.out, "shipped.csv"),
		restock: filepath.Join(d.out, "stock-restocked.csv"), tracking: [2]string{"1ZDEMO0001", "1ZDEMO0002"}}
	for _, s := range later {
		if s.units > 0 && s.sku != soldOut.sku {
			l.other = s
			break
		}
	}
	var err error
	if l.stockMap, err = templateMapping("stock"); err != nil {
		return nil, err
	}
	if l.shipMp, err = templateMapping("shipments"); err != nil {
		return nil, err
	}
	fmt.Fprintf(d.w, "6. the 3PL's loop: an order waits for stock, a stock push opens it, it is pulled, shipped in two parcels, and completes\n")
	for _, step := range []func(context.Context, []stockLevel) error{l.arrive, l.restockPush, l.pull, l.shipHalf, l.shipRest, l.shipAgain} {
		if err := step(ctx, later); err != nil {
			return nil, err
		}
	}
	fmt.Fprintln(d.w)
	return l, nil
}

// templateMapping parses a built-in template.
func templateMapping(name string) (*mapping.Mapping, error) {
	text, err := templates.Get(name)
	if err != nil {
		return nil, err
	}
	return mapping.Parse(name+".yaml", text)
}

// arrive creates the order (the sandbox's admin call, as a sales channel
// would) and shows that it waits.
func (l *loop) arrive(ctx context.Context, _ []stockLevel) error {
	id, err := l.srv.CreateOrder(ctx, sandbox.OrderSpec{Token: l.token, PONum: "PO-DEMO-1",
		ShippingAddress: map[string]string{"contact": "Ada Lovelace", "street1": "12 Analytical Way", "city": "London", "zip": "N1 7GU", "country": "GB"},
		Lines:           []sandbox.OrderLine{{SKU: l.soldOut.sku, Quantity: 3}, {SKU: l.other.sku, Quantity: 1}}})
	if err != nil {
		return err
	}
	l.order = id
	f, err := l.openFulfillment(ctx)
	if err != nil {
		return err
	}
	state := "it waits: no fulfillment opens while " + l.soldOut.sku + " has 0 available"
	if f != "" {
		state = "its fulfillment " + string(f) + " opened at once (unexpected: the SKU should be sold out)"
	}
	fmt.Fprintf(l.d.w, "   a. order %s arrives for 3 × %s and 1 × %s: %s\n", id, l.soldOut.sku, l.other.sku, state)
	return nil
}

// openFulfillment is the order's open fulfillment, or "".
func (l *loop) openFulfillment(ctx context.Context) (api.ID, error) {
	for p, err := range l.d.client.Fulfillments.ListPages(ctx, nil) {
		if err != nil {
			return "", err
		}
		for _, f := range p.Records {
			for _, o := range p.SalesOrdersOf(f.Links) {
				if string(o.ID) == l.order {
					return f.ID, nil
				}
			}
		}
	}
	return "", nil
}

// restockPush pushes the stock file with the sold-out SKU restocked.
func (l *loop) restockPush(ctx context.Context, later []stockLevel) error {
	levels := make([]stockLevel, len(later))
	copy(levels, later)
	for i := range levels {
		if levels[i].sku == l.soldOut.sku {
			levels[i].units = 12
		}
	}
	if err := writeLevels(l.restock, levels); err != nil {
		return err
	}
	rep, err := stock.Push(ctx, stock.Options{Options: engine.Options{Client: l.d.client, State: l.d.st, Scope: l.d.scope, Mapping: l.stockMap, Input: l.restock}})
	if err != nil {
		return err
	}
	if l.fulfillment, err = l.openFulfillment(ctx); err != nil {
		return err
	}
	opened := "the order still waits (unexpected)"
	if l.fulfillment != "" {
		opened = "the order's fulfillment " + string(l.fulfillment) + " opens"
	}
	fmt.Fprintf(l.d.w, "   b. stock push of %s (%s 0 -> 12): %d level sent, %d unchanged; %s\n",
		filepath.Base(l.restock), l.soldOut.sku, rep.Levels, rep.Rows[engine.Unchanged], opened)
	return nil
}

// pull writes the order file a warehouse system takes in.
func (l *loop) pull(ctx context.Context, _ []stockLevel) error {
	sum, err := exporter.Export(ctx, exporter.Options{Client: l.d.client, Resource: exporter.PullLines, Output: l.orders})
	if err != nil {
		return err
	}
	fmt.Fprintf(l.d.w, "   c. fulfillments pull -> %s: %d open fulfillment, %d lines to ship (fulfillment_id, line_item_id, sku, quantity_left, ship-to address, ...)\n",
		filepath.Base(l.orders), sum.Records, sum.Rows)
	return nil
}

// shipHalf ships 2 of the 3 units of the restocked SKU.
func (l *loop) shipHalf(ctx context.Context, _ []stockLevel) error {
	rows := [][]string{shipHeader, l.row(l.soldOut.sku, 2, 0, "8.95")}
	rep, err := l.ship(ctx, rows)
	if err != nil {
		return err
	}
	fmt.Fprintf(l.d.w, "   d. shipments push of %s (2 of 3 × %s, tracking %s): %d shipment posted; fulfillment %s stays open with 1 × %s and 1 × %s left\n",
		filepath.Base(l.shipped), l.soldOut.sku, l.tracking[0], rep.Shipments, l.fulfillment, l.soldOut.sku, l.other.sku)
	return nil
}

// shipRest appends the second parcel to the file, as a warehouse system
// appends its confirmations, and pushes it again.
func (l *loop) shipRest(ctx context.Context, _ []stockLevel) error {
	rows := [][]string{shipHeader, l.row(l.soldOut.sku, 2, 0, "8.95"), l.row(l.soldOut.sku, 1, 1, "6.50"), l.row(l.other.sku, 1, 1, "")}
	rep, err := l.ship(ctx, rows)
	if err != nil {
		return err
	}
	done := "still open (unexpected)"
	if len(rep.Completed) == 1 {
		done = "complete, and gone from the open list"
	}
	fmt.Fprintf(l.d.w, "   e. the rest appended (1 × %s, 1 × %s, tracking %s): %d shipment posted, %d row already shipped; fulfillment %s is %s\n",
		l.soldOut.sku, l.other.sku, l.tracking[1], rep.Shipments, rep.Rows[shipments.AlreadyShipped], l.fulfillment, done)
	return nil
}

// shipAgain pushes the same file once more: nothing goes.
func (l *loop) shipAgain(ctx context.Context, _ []stockLevel) error {
	rep, err := shipments.Push(ctx, l.shipOptions())
	if err != nil {
		return err
	}
	fmt.Fprintf(l.d.w, "   f. the same file pushed again: %d rows already shipped, %d shipments posted, %d requests\n",
		rep.Rows[shipments.AlreadyShipped], rep.Shipments, rep.Requests)
	return nil
}

var shipHeader = []string{"fulfillment_id", "sku", "quantity", "tracking_number", "carrier", "cost", "shipped_at"}

// row is a confirmation row of parcel n (0 or 1).
func (l *loop) row(sku string, units, parcel int, cost string) []string {
	return []string{string(l.fulfillment), sku, strconv.Itoa(units), l.tracking[parcel], "UPS", cost, fmt.Sprintf("2026-11-2%d 16:30", parcel+1)}
}

// ship writes the confirmation file and pushes it.
func (l *loop) ship(ctx context.Context, rows [][]string) (*shipments.Report, error) {
	if err := writeCSV(l.shipped, rows); err != nil {
		return nil, err
	}
	rep, err := shipments.Push(ctx, l.shipOptions())
	if err == nil && rep.Failed() > 0 {
		err = fmt.Errorf("the demo's shipments push failed on %d rows; see %s", rep.Failed(), rep.Results)
	}
	return rep, err
}

func (l *loop) shipOptions() shipments.Options {
	return shipments.Options{Options: engine.Options{Client: l.d.client, State: l.d.st, Scope: l.d.scope, Mapping: l.shipMp, Input: l.shipped}}
}

// reported says which of the loop's parcels the slips report lists, with
// their cost, from the packing slips of the order.
func (l *loop) reported(ctx context.Context) (string, error) {
	var found []string
	for p, err := range l.d.client.PackingSlips.ListPages(ctx, nil) {
		if err != nil {
			return "", err
		}
		for _, pk := range p.Packages {
			for _, t := range l.tracking {
				if string(pk.TrackingNumber) == t {
					found = append(found, fmt.Sprintf("%s (UPS, cost %s)", t, pk.Cost))
				}
			}
		}
	}
	if len(found) == 0 {
		return "none of the loop's parcels (unexpected)", nil
	}
	slices.Sort(found)
	return strings.Join(found, " and "), nil
}
