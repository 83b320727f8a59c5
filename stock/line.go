package stock

import (
	"lading/api"
	"lading/engine"
)

// The statuses of a stock push's rows that are its own; the others are
// the engine's (unchanged, unknown, invalid, failed, skipped).
const (
	// Sent: the level was sent and the service confirmed it.
	Sent engine.Status = "sent"
	// ToSend: a dry run would send the level.
	ToSend engine.Status = "to send"
)

// Line is one row of the stock file and what became of it.
type Line struct {
	engine.Fate
	SKU       string // as given, trimmed
	Warehouse string // as given (a warehouse column), trimmed; "" for the default
	Units     int64  // the level to set, when Valid
	Valid     bool   // the row's SKU and quantity could be read

	// Filled by the later phases.
	WarehouseID api.ID
	VariantID   api.ID
	Old         float64 // the level remembered (or live, when verifying)
	HasOld      bool
	// repeats is, on a row repeating an earlier row's SKU and quantity,
	// 1 + the index of that row: it shares its outcome. 0 otherwise.
	repeats int
}
