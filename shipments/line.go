package shipments

import (
	"time"

	"lading/api"
)

// Action is what became of one row of the shipments file.
type Action string

// Actions, as the results file names them.
const (
	// Posted: the row's units went out in a shipment the service recorded.
	Posted Action = "posted"
	// ToPost: a dry run would post the row.
	ToPost Action = "to post"
	// AlreadyShipped: an earlier push posted the row (same fulfillment,
	// line and tracking number); nothing was sent.
	AlreadyShipped Action = "already shipped"
	// Refused: the row cannot be shipped as it is (more units than are
	// left, a line or fulfillment the account does not have), or another
	// row of its shipment was refused; nothing of its shipment was sent.
	Refused Action = "refused"
	// Invalid: a cell of the row is wrong (a quantity, a date, a missing
	// tracking number).
	Invalid Action = "invalid"
	// Failed: the service refused the shipment, gave no answer that could
	// be checked, or the push was interrupted before it went.
	Failed Action = "failed"
	// Skipped: a skip rule matched.
	Skipped Action = "skipped"
)

// failed reports whether rows with the action count as failed (exit 3).
func (a Action) failed() bool { return a == Refused || a == Invalid || a == Failed }

// Counts counts rows by action.
type Counts map[Action]int

// Line is one row of the shipments file and what became of it.
type Line struct {
	Row int // 1-based line (CSV) or row (XLSX)
	// As the file gives them, trimmed.
	FulfillmentRef, OrderNumber, LineItemRef, SKU string
	Quantity                                      int64
	Tracking, Carrier, TrackingLink, Cost, Status string
	ShippedAt                                     time.Time
	Valid                                         bool

	// Filled by the later phases.
	Fulfillment api.ID
	LineItem    api.ID
	Action      Action
	Msg         string
}

// pending reports whether the row is still to be planned or sent.
func (l *Line) pending() bool { return l.Action == "" }

func (l *Line) set(a Action, msg string) { l.Action, l.Msg = a, msg }

// lineName names the row's line for messages: its SKU, or its id.
func (l *Line) lineName() string {
	if l.SKU != "" {
		return "SKU " + l.SKU
	}
	return "line item " + l.LineItemRef
}
