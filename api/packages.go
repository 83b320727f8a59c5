package api

import (
	"context"

	"lading/api/wire"
)

// PackagesService writes shipments (resource Packages). The interface has
// no listing of them. [Spec]
type PackagesService struct{ c *Client }

// PackageWrite is a shipment record of a write; only the fields set are
// sent. Cost is a decimal string, Delivered a flag string ("0"/"1").
type PackageWrite struct {
	ID             ID            `json:"id,omitempty"`
	ShipDate       *string       `json:"ship_date,omitempty"`
	Notes          *string       `json:"notes,omitempty"`
	TrackingLink   *string       `json:"tracking_link,omitempty"`
	TrackingNumber *string       `json:"tracking_number,omitempty"`
	Cost           *string       `json:"cost,omitempty"`
	Delivered      *string       `json:"delivered,omitempty"`
	Delete         int           `json:"delete,omitempty"`
	Links          *PackageLinks `json:"links,omitempty"`
}

// PackageLinks are the related records of a shipment write.
type PackageLinks struct {
	PackingSlips        []Ref `json:"PackingSlips,omitempty"`
	PackageCarrierTypes []Ref `json:"PackageCarrierTypes,omitempty"`
	SalesOrders         []Ref `json:"SalesOrders,omitempty"`
}

// Write creates (no ID) or edits (ID) shipments.
func (s *PackagesService) Write(ctx context.Context, records []PackageWrite) (*WriteResult, error) {
	return writeRecords(ctx, s.c, wire.Packages, records, nil)
}

// Delete marks shipments deleted ({id, delete: 1}).
func (s *PackagesService) Delete(ctx context.Context, ids ...ID) (*WriteResult, error) {
	recs := make([]PackageWrite, len(ids))
	for i, id := range ids {
		recs[i] = PackageWrite{ID: id, Delete: 1}
	}
	return s.Write(ctx, recs)
}
