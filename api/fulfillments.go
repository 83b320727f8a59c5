package api

import (
	"context"
	"fmt"
	"iter"

	"lading/api/wire"
)

// FulfillmentsService reads open fulfillments, posts shipments against
// their line items and sets their status. The paths and shapes are this
// project's assumed contract (wire-format B.5).
type FulfillmentsService struct{ c *Client }

// ShipmentWrite posts a shipment of line items of a fulfillment. ShippedAt
// is ISO 8601 with a numeric offset (wire.TimeLayout). Cost, a decimal
// string, is the cost a shipment (Packages) record carries; that a posted
// shipment takes it too is assumed [B.5].
type ShipmentWrite struct {
	ShippedAt      string        `json:"shipped_at"`
	TrackingNumber string        `json:"tracking_number,omitempty"`
	TrackingLink   string        `json:"tracking_link,omitempty"`
	Carrier        string        `json:"carrier,omitempty"`
	Cost           string        `json:"cost,omitempty"`
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
	return listPages[Fulfillment](ctx, s.c, opts)
}

// List reads every open fulfillment matching opts.
func (s *FulfillmentsService) List(ctx context.Context, opts *ListOptions) iter.Seq2[*Fulfillment, error] {
	return records(s.ListPages(ctx, opts))
}

// Get reads fulfillments by id with their line items.
func (s *FulfillmentsService) Get(ctx context.Context, ids ...ID) (*FulfillmentPage, error) {
	return getPage[Fulfillment](ctx, s.c, ids)
}

// PostShipments posts shipments; a fulfillment whose line items are all
// shipped becomes complete.
func (s *FulfillmentsService) PostShipments(ctx context.Context, shipments []ShipmentWrite) (*WriteResult, error) {
	return writeRecords(ctx, s.c, wire.Shipments, shipments, nil)
}

// SetStatuses sets the status of fulfillments.
func (s *FulfillmentsService) SetStatuses(ctx context.Context, statuses []FulfillmentStatus) (*WriteResult, error) {
	return writeRecords(ctx, s.c, wire.Fulfillments, statuses, nil)
}

// SetStatus sets the status of one fulfillment.
func (s *FulfillmentsService) SetStatus(ctx context.Context, id ID, status string) (*WriteResult, error) {
	return s.SetStatuses(ctx, []FulfillmentStatus{{ID: id, Status: status}})
}

// FulfillmentLines returns the sideloaded line items of fulfillment f, in
// link order.
func (s *Sideloads) FulfillmentLines(f *Fulfillment) []*LineItem {
	return s.LineItemsOf(f.Links)
}

// Component is a component of a bundle: a variant and the units of it in
// one bundle. Variant is nil when the answer did not carry it.
type Component struct {
	VariantID ID
	Units     int64
	Variant   *Variant
}

// Components returns the components of v when it is a bundle that names
// them (links.BundleComponents [B.7, assumed]), else nil.
func (s *Sideloads) Components(v *Variant) ([]Component, error) {
	if v == nil || !v.Bundle.Bool() {
		return nil, nil
	}
	var out []Component
	for _, l := range v.Links.Of(wire.BundleComponents) {
		n, err := l.Quantity.Int()
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bundle %s (SKU %s): component %s has %q units, not a whole number of 1 or more", v.ID, v.SKU, l.ID, l.Quantity)
		}
		out = append(out, Component{VariantID: l.ID, Units: n, Variant: s.Variants[l.ID]})
	}
	return out, nil
}

// PickLine is a variant to pick for a line of a fulfillment. A line naming
// a bundle gives one PickLine per component, its units multiplied by the
// line's.
type PickLine struct {
	Line      *LineItem
	VariantID ID
	// SKU and Location (location_1) are the variant's; "" when the answer
	// did not carry the variant (a line's SKU stands in for its own).
	SKU      Flex
	Location Flex
	// Quantity and Shipped are units of this variant.
	Quantity, Shipped int64
	// Bundle is the bundle's SKU when this is one of its components.
	Bundle Flex
}

// ToPick is the units still to pick.
func (p PickLine) ToPick() int64 { return p.Quantity - p.Shipped }

// PickLines returns what to pick for fulfillment f, line by line in link
// order, bundles as their components. It needs no read beyond the
// fulfillment's: the line items' variants and bundles' components come
// with it. [B.5, assumed]
func (s *Sideloads) PickLines(f *Fulfillment) ([]PickLine, error) {
	var out []PickLine
	for _, li := range s.FulfillmentLines(f) {
		q, err := li.Quantity.Int()
		if err != nil {
			return nil, fmt.Errorf("fulfillment %s, line item %s: quantity %w", f.ID, li.ID, err)
		}
		shipped, err := li.ShippedQuantity.Int()
		if err != nil {
			return nil, fmt.Errorf("fulfillment %s, line item %s: shipped_quantity %w", f.ID, li.ID, err)
		}
		v := s.Variants[li.VariantID]
		comps, err := s.Components(v)
		if err != nil {
			return nil, fmt.Errorf("fulfillment %s, line item %s: %w", f.ID, li.ID, err)
		}
		if len(comps) == 0 {
			p := PickLine{Line: li, VariantID: li.VariantID, SKU: li.SKU, Quantity: q, Shipped: shipped}
			if v != nil {
				p.Location = v.Location1
			}
			out = append(out, p)
			continue
		}
		for _, c := range comps {
			p := PickLine{Line: li, VariantID: c.VariantID, Quantity: q * c.Units, Shipped: shipped * c.Units, Bundle: li.SKU}
			if c.Variant != nil {
				p.SKU, p.Location = c.Variant.SKU, c.Variant.Location1
			}
			out = append(out, p)
		}
	}
	return out, nil
}
