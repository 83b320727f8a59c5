package api

import (
	"context"

	"lading/api/wire"
)

// SalesOrdersService reads sales orders by id with what they hold: their
// lines, fulfillments, packing slips and shipments. The read is this
// project's assumed contract (wire-format B.8, shaped as a recorded answer
// of the service [A.3]).
type SalesOrdersService struct{ c *Client }

// Get reads sales orders by id (at most wire.MaxPageSize), with their
// lines, fulfillments (line items and shipments), packing slips and
// shipments (Packages) sideloaded. Ids the account does not hold are left
// out; none found is an *APIError of status 404.
func (s *SalesOrdersService) Get(ctx context.Context, ids ...ID) (*SalesOrderPage, error) {
	return getPage[SalesOrderPage](ctx, s.c, wire.SalesOrders, ids)
}

// OrderLines returns the sideloaded lines of order o as sold, in link
// order. [A.3]
func (s *Sideloads) OrderLines(o *SalesOrder) []*LineItem {
	return linked(o.Links, wire.SalesOrderLineItems, s.SalesOrderLineItems)
}

// ShipmentsOf returns the sideloaded shipments a fulfillment links, in
// link order. [B.5, assumed]
func (s *Sideloads) ShipmentsOf(f *Fulfillment) []*Shipment {
	return linked(f.Links, wire.Shipments, s.Shipments)
}

// FulfillmentsOf returns the sideloaded fulfillments a record links (a
// sales order's), in link order. [B.8, assumed]
func (s *Sideloads) FulfillmentsOf(links Links) []*Fulfillment {
	return linked(links, wire.Fulfillments, s.Fulfillments)
}

// SlipsOf returns the sideloaded packing slips a record links (a sales
// order's), in link order, deleted ones left out. [B.8, assumed]
func (s *Sideloads) SlipsOf(links Links) []*PackingSlip {
	var out []*PackingSlip
	for _, p := range linked(links, wire.PackingSlips, s.PackingSlips) {
		if !p.Deleted.Bool() {
			out = append(out, p)
		}
	}
	return out
}

// OrderPackages returns the sideloaded shipments (Packages) a record links
// (a sales order's), in link order, deleted ones left out. [A.3]
func (s *Sideloads) OrderPackages(links Links) []*Package {
	var out []*Package
	for _, k := range linked(links, wire.Packages, s.Packages) {
		if !k.Deleted.Bool() {
			out = append(out, k)
		}
	}
	return out
}
