package shipments

import (
	"time"

	"lading/api"
	"lading/engine"
)

// The statuses of a shipments push's rows that are its own; the others
// are the engine's: refused (the row cannot be shipped as it is: more
// units than are left, a line or fulfillment the account does not have,
// or another row of its shipment was refused; nothing of its shipment was
// sent), invalid, failed and skipped.
const (
	// Posted: the row's units went out in a shipment the service recorded.
	Posted engine.Status = "posted"
	// ToPost: a dry run would post the row.
	ToPost engine.Status = "to post"
	// AlreadyShipped: the account holds the row's shipment (same
	// fulfillment, line and tracking number); nothing was sent.
	AlreadyShipped engine.Status = "already shipped"
)

// Line is one row of the shipments file and what became of it.
type Line struct {
	engine.Fate
	// As the file gives them, trimmed.
	FulfillmentRef, OrderNumber, LineItemRef, SKU string
	Quantity                                      int64
	Tracking, Carrier, TrackingLink, Cost, Status string
	ShippedAt                                     time.Time
	Valid                                         bool

	// Filled by the later phases.
	Fulfillment api.ID
	LineItem    api.ID
}

// lineName names the row's line for messages: its SKU, or its id.
func (l *Line) lineName() string {
	if l.SKU != "" {
		return "SKU " + l.SKU
	}
	return "line item " + l.LineItemRef
}
