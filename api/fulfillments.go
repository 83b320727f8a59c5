package api

import (
	"context"
	"iter"

	"lading/api/wire"
)

// FulfillmentsService reads open fulfillments, posts shipments against
// their line items and sets their status. The paths and shapes are this
// project's assumed contract (wire-format B.5).
type FulfillmentsService struct{ c *Client }

// ShipmentWrite posts a shipment of line items of a fulfillment. ShippedAt
// is ISO 8601 with a numeric offset.
type ShipmentWrite struct {
	ShippedAt      string        `json:"shipped_at"`
	TrackingNumber string        `json:"tracking_number,omitempty"`
	TrackingLink   string        `json:"tracking_link,omitempty"`
	Carrier        string        `json:"carrier,omitempty"`
	Links          ShipmentLinks `json:"links"`
}

// ShipmentLinks name the fulfillment and the line items (with quantities)
// a shipment covers.
type ShipmentLinks struct {
	Fulfillments []Ref         `json:"Fulfillments"`
	LineItems    []LineItemRef `json:"LineItems"`
}

// FulfillmentStatus sets the free-text status of a fulfillment.
type FulfillmentStatus struct {
	ID     ID     `json:"id"`
	Status string `json:"status"`
}

// ListPages reads open fulfillments page by page, with their line items
// sideloaded.
func (s *FulfillmentsService) ListPages(ctx context.Context, opts *ListOptions) iter.Seq2[*FulfillmentPage, error] {
	return listPages[FulfillmentPage](ctx, s.c, wire.Fulfillments, opts)
}

// List reads every open fulfillment matching opts.
func (s *FulfillmentsService) List(ctx context.Context, opts *ListOptions) iter.Seq2[*Fulfillment, error] {
	return records(s.ListPages(ctx, opts), func(p *FulfillmentPage) []*Fulfillment { return p.Fulfillments })
}

// Get reads fulfillments by id with their line items.
func (s *FulfillmentsService) Get(ctx context.Context, ids ...ID) (*FulfillmentPage, error) {
	return getPage[FulfillmentPage](ctx, s.c, wire.Fulfillments, ids)
}

// PostShipments posts shipments; a fulfillment whose line items are all
// shipped becomes complete.
func (s *FulfillmentsService) PostShipments(ctx context.Context, shipments []ShipmentWrite) (*WriteResult, error) {
	return s.c.write(ctx, writeSpec{resource: wire.Shipments, records: shipments, n: len(shipments)})
}

// SetStatuses sets the status of fulfillments.
func (s *FulfillmentsService) SetStatuses(ctx context.Context, statuses []FulfillmentStatus) (*WriteResult, error) {
	return s.c.write(ctx, writeSpec{resource: wire.Fulfillments, records: statuses, n: len(statuses)})
}

// SetStatus sets the status of one fulfillment.
func (s *FulfillmentsService) SetStatus(ctx context.Context, id ID, status string) (*WriteResult, error) {
	return s.SetStatuses(ctx, []FulfillmentStatus{{ID: id, Status: status}})
}
