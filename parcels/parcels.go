// Package parcels is what the account holds of the parcels of sales
// orders: each parcel's tracking number, the record that holds it (a
// shipment posted against a fulfillment, or a shipment (Packages) record of
// a packing slip, or both when the one became the other), and what went
// in it. The shipments and slips pushes read it, each from its own read
// (a fulfillment read, a sales order read: wire-format B.5 and B.8), so
// that a parcel is recorded once whatever their local state holds, and
// neither job records again a parcel the other did.
package parcels

import (
	"fmt"
	"strings"

	"lading/api"
	"lading/api/wire"
)

// Parcel is a parcel an order holds.
type Parcel struct {
	Order    api.ID
	Tracking string // as the account writes it
	// Shipment is the shipment posted against a fulfillment that made the
	// parcel, and Fulfillment that fulfillment; nil and "" for a
	// shipment of a packing slip alone.
	Shipment    *api.Shipment
	Fulfillment api.ID
	// Package is the shipment (Packages) record, and Slip its packing
	// slip; nil and "" when the read did not carry them.
	Package *api.Package
	Slip    api.ID
}

// Units are the units of each line item the parcel's fulfillment shipment
// shipped (none for a shipment of a slip alone).
func (p *Parcel) Units() map[api.ID]int64 {
	out := map[api.ID]int64{}
	if p.Shipment == nil {
		return out
	}
	for _, l := range p.Shipment.Links.Of(wire.LineItems) {
		n, _ := l.Quantity.Int()
		out[l.ID] += n
	}
	return out
}

// Posted reports whether a shipment posted against a fulfillment made the
// parcel (a shipments push, or the account's own fulfillment workflow).
func (p *Parcel) Posted() bool { return p.Shipment != nil }

// String names the parcel's record for messages, in the words of the
// account: "fulfillment 12's shipment 34", "shipment 56 of packing slip
// 78 (PS1001)".
func (p *Parcel) String() string {
	if p.Shipment != nil {
		return fmt.Sprintf("fulfillment %s's shipment %s", p.Fulfillment, p.Shipment.ID)
	}
	s := "shipment " + string(p.Package.ID)
	if p.Slip != "" {
		s += " of packing slip " + string(p.Slip)
	}
	return s
}

// Book is what the account holds of some orders' parcels, by order and
// tracking number.
type Book struct {
	byOrder map[api.ID]map[string][]*Parcel
	// made are the Packages records a fulfillment shipment became.
	made map[api.ID]bool
}

// key is how tracking numbers compare: carriers' numbers are the same
// whatever their case and the spaces around them.
func key(tracking string) string { return strings.ToUpper(strings.TrimSpace(tracking)) }

// Parcels returns the parcels order holds under tracking number t (none for
// an empty one): fulfillment shipments first, in the order read.
func (b *Book) Parcels(order api.ID, t string) []*Parcel {
	if b == nil || key(t) == "" {
		return nil
	}
	var out []*Parcel
	for _, p := range b.byOrder[order][key(t)] {
		// A record a shipment of another read made is that shipment's.
		if p.Shipment != nil || !b.made[p.Package.ID] {
			out = append(out, p)
		}
	}
	return out
}

// ready makes the book's maps.
func (b *Book) ready() {
	if b.byOrder == nil {
		b.byOrder, b.made = map[api.ID]map[string][]*Parcel{}, map[api.ID]bool{}
	}
}

func (b *Book) add(p *Parcel) {
	k := key(p.Tracking)
	if k == "" || p.Order == "" {
		return
	}
	m := b.byOrder[p.Order]
	if m == nil {
		m = map[string][]*Parcel{}
		b.byOrder[p.Order] = m
	}
	m[k] = append(m[k], p)
}

// addShipments adds the shipments of fulfillment f of order: the records
// they became, when s carries them, are theirs.
func (b *Book) addShipments(s *api.Sideloads, f *api.Fulfillment, order api.ID) {
	for _, sh := range s.ShipmentsOf(f) {
		p := &Parcel{Order: order, Tracking: string(sh.TrackingNumber), Shipment: sh, Fulfillment: f.ID}
		if id := sh.Links.First(wire.Packages); id != "" {
			b.made[id] = true
			if k := s.Packages[id]; k != nil {
				p.Package, p.Slip = k, k.Links.First(wire.PackingSlips)
			}
		}
		b.add(p)
	}
}

// addPackages adds the order's shipment (Packages) records that no
// fulfillment shipment made.
func (b *Book) addPackages(s *api.Sideloads, order *api.SalesOrder) {
	for _, k := range s.OrderPackages(order.Links) {
		if !b.made[k.ID] {
			b.add(&Parcel{Order: order.ID, Tracking: string(k.TrackingNumber), Package: k, Slip: k.Links.First(wire.PackingSlips)})
		}
	}
}

// AddFulfillments adds what a fulfillment read holds: the shipments posted
// against its fulfillments, and the other shipments of their orders.
func (b *Book) AddFulfillments(p *api.FulfillmentPage) {
	b.ready()
	orders := map[api.ID]*api.SalesOrder{}
	for _, f := range p.Records {
		var order api.ID
		if os := p.SalesOrdersOf(f.Links); len(os) > 0 {
			order = os[0].ID
			orders[order] = os[0]
		}
		b.addShipments(&p.Sideloads, f, order)
	}
	for _, o := range orders {
		b.addPackages(&p.Sideloads, o)
	}
}

// AddOrders adds what a sales order read holds: the shipments posted
// against each order's fulfillments, and its other shipments.
func (b *Book) AddOrders(p *api.SalesOrderPage) {
	b.ready()
	for _, o := range p.Records {
		for _, f := range p.FulfillmentsOf(o.Links) {
			b.addShipments(&p.Sideloads, f, o.ID)
		}
	}
	for _, o := range p.Records {
		b.addPackages(&p.Sideloads, o)
	}
}
