package api

import (
	"cmp"
	"context"
	"errors"
	"iter"
	"net/http"
	"slices"

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
	return getPage[SalesOrder](ctx, s.c, ids)
}

// ByID reads the records of ids with get (a service's Get), each id once,
// wire.MaxPageSize a read, in id order; a read none of whose ids the
// account holds (a 404) gives no page.
func ByID[P any](ctx context.Context, ids []ID, get func(context.Context, ...ID) (*P, error)) iter.Seq2[*P, error] {
	return func(yield func(*P, error) bool) {
		ids = slices.Compact(slices.SortedFunc(slices.Values(ids), func(a, b ID) int { return cmp.Compare(a, b) }))
		for chunk := range slices.Chunk(ids, wire.MaxPageSize) {
			page, err := get(ctx, chunk...)
			var ae *APIError
			if errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound {
				continue
			}
			if !yield(page, err) || err != nil {
				return
			}
		}
	}
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
	return live(linked(links, wire.PackingSlips, s.PackingSlips), func(p *PackingSlip) Flex { return p.Deleted })
}

// OrderPackages returns the sideloaded shipments (Packages) a record links
// (a sales order's), in link order, deleted ones left out. [A.3]
func (s *Sideloads) OrderPackages(links Links) []*Package {
	return live(linked(links, wire.Packages, s.Packages), func(k *Package) Flex { return k.Deleted })
}

// live are the records of all not marked deleted.
func live[T any](all []*T, deleted func(*T) Flex) []*T {
	var out []*T
	for _, r := range all {
		if !deleted(r).Bool() {
			out = append(out, r)
		}
	}
	return out
}
