package api

import (
	"context"
	"iter"
	"sort"

	"lading/api/wire"
)

// PackingSlipsService reads and writes packing slips. [Spec]
type PackingSlipsService struct{ c *Client }

// PackingSlipWrite is a packing slip record of a write; only the fields
// set are sent. PackingSlipDate is ISO 8601 with a numeric offset
// (YYYY-MM-DDTHH:MM:SS+0000).
type PackingSlipWrite struct {
	ID ID `json:"id,omitempty"`
	// LocalID is the slip's own reference (shown as its number), set on
	// create. [B.6, assumed]
	LocalID         *string           `json:"local_id,omitempty"`
	PackingSlipDate *string           `json:"packing_slip_date,omitempty"`
	Notes           *string           `json:"notes,omitempty"`
	Delete          int               `json:"delete,omitempty"`
	Links           *PackingSlipLinks `json:"links,omitempty"`
}

// PackingSlipLinks are the related records of a packing slip write.
type PackingSlipLinks struct {
	Addresses   []Ref         `json:"Addresses,omitempty"`
	Contacts    []Ref         `json:"Contacts,omitempty"`
	LineItems   []LineItemRef `json:"LineItems,omitempty"`
	SalesOrders []Ref         `json:"SalesOrders,omitempty"`
}

// LineItemRef is a line item and a quantity.
type LineItemRef struct {
	ID       ID   `json:"id"`
	Quantity Flex `json:"quantity"`
}

// ListPages reads packing slips page by page.
func (s *PackingSlipsService) ListPages(ctx context.Context, opts *ListOptions) iter.Seq2[*PackingSlipPage, error] {
	return listPages[PackingSlip](ctx, s.c, opts)
}

// List reads every packing slip matching opts.
func (s *PackingSlipsService) List(ctx context.Context, opts *ListOptions) iter.Seq2[*PackingSlip, error] {
	return records(s.ListPages(ctx, opts))
}

// Get reads packing slips by id (on the listing path).
func (s *PackingSlipsService) Get(ctx context.Context, ids ...ID) (*PackingSlipPage, error) {
	return getPage[PackingSlip](ctx, s.c, ids)
}

// Write creates (no ID) or edits (ID) packing slips.
func (s *PackingSlipsService) Write(ctx context.Context, records []PackingSlipWrite) (*WriteResult, error) {
	return writeRecords(ctx, s.c, wire.PackingSlips, records, nil)
}

// Delete marks packing slips deleted ({id, delete: 1}).
func (s *PackingSlipsService) Delete(ctx context.Context, ids ...ID) (*WriteResult, error) {
	recs := make([]PackingSlipWrite, len(ids))
	for i, id := range ids {
		recs[i] = PackingSlipWrite{ID: id, Delete: 1}
	}
	return s.Write(ctx, recs)
}

// SlipLine is a line of a packing slip: the line item and the units of it
// the slip packs, which may be fewer than the line item's own quantity
// (the units ordered) when an order ships on several slips.
type SlipLine struct {
	// Item is the sideloaded line item; when the answer did not carry it,
	// a LineItem with only its ID.
	Item *LineItem
	// Quantity is the units on the slip: the link's quantity, else the
	// line item's.
	Quantity Flex
	// Sideloaded reports whether the answer carried the line item.
	Sideloaded bool
}

// SlipLines returns the lines of slip p in link order. [B.6, assumed]
func (s *Sideloads) SlipLines(p *PackingSlip) []SlipLine {
	links := p.Links.Of(wire.LineItems)
	out := make([]SlipLine, 0, len(links))
	for _, l := range links {
		line := SlipLine{Item: s.LineItems[l.ID], Quantity: l.Quantity, Sideloaded: true}
		if line.Item == nil {
			line.Item, line.Sideloaded = &LineItem{ID: l.ID}, false
		}
		if line.Quantity == "" {
			line.Quantity = line.Item.Quantity
		}
		out = append(out, line)
	}
	return out
}

// PackagesOf returns the shipments of slip p that are not deleted: those
// its links.Packages names, in link order, or when it names none, the
// sideloaded shipments that link back to it, in id order. [B.6, assumed]
func (s *Sideloads) PackagesOf(p *PackingSlip) []*Package {
	var out []*Package
	for _, id := range related(p.Links, wire.Packages, s.Packages, func(k *Package) Links { return k.Links }, wire.PackingSlips, p.ID) {
		if k := s.Packages[id]; k != nil && !k.Deleted.Bool() {
			out = append(out, k)
		}
	}
	if len(p.Links.Of(wire.Packages)) == 0 {
		sort.Slice(out, func(i, j int) bool { return idLess(string(out[i].ID), string(out[j].ID)) })
	}
	return out
}

// Carrier returns the name of the carrier a shipment links, or "" when it
// links none or the answer did not carry it.
func (s *Sideloads) Carrier(k *Package) string {
	if c := s.PackageCarrierTypes[k.Links.First(wire.PackageCarrierTypes)]; c != nil {
		return string(c.Name)
	}
	return ""
}
