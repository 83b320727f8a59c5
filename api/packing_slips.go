package api

import (
	"context"
	"iter"

	"lading/api/wire"
)

// PackingSlipsService reads and writes packing slips. [Spec]
type PackingSlipsService struct{ c *Client }

// PackingSlipWrite is a packing slip record of a write; only the fields
// set are sent. PackingSlipDate is ISO 8601 with a numeric offset
// (YYYY-MM-DDTHH:MM:SS+0000).
type PackingSlipWrite struct {
	ID              ID                `json:"id,omitempty"`
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
	return listPages[PackingSlipPage](ctx, s.c, wire.PackingSlips, opts)
}

// List reads every packing slip matching opts.
func (s *PackingSlipsService) List(ctx context.Context, opts *ListOptions) iter.Seq2[*PackingSlip, error] {
	return records(s.ListPages(ctx, opts), func(p *PackingSlipPage) []*PackingSlip { return p.PackingSlips })
}

// Get reads packing slips by id (on the listing path).
func (s *PackingSlipsService) Get(ctx context.Context, ids ...ID) (*PackingSlipPage, error) {
	return getPage[PackingSlipPage](ctx, s.c, wire.PackingSlips, ids)
}

// Write creates (no ID) or edits (ID) packing slips.
func (s *PackingSlipsService) Write(ctx context.Context, records []PackingSlipWrite) (*WriteResult, error) {
	return s.c.write(ctx, writeSpec{resource: wire.PackingSlips, records: records, n: len(records)})
}

// Delete marks packing slips deleted ({id, delete: 1}).
func (s *PackingSlipsService) Delete(ctx context.Context, ids ...ID) (*WriteResult, error) {
	recs := make([]PackingSlipWrite, len(ids))
	for i, id := range ids {
		recs[i] = PackingSlipWrite{ID: id, Delete: 1}
	}
	return s.Write(ctx, recs)
}
