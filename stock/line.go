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

// Line is one row of the stock file and what became of it. A push holds
// its file's lines whole and walks them a dozen times: the small fields
// come last, together, so that a line takes 128 bytes (144 in the order
// they are filled: a push of 100,000 rows touched 400 pages more).
type Line struct {
	engine.Fate
	SKU       string // as given, trimmed
	Warehouse string // as given (a warehouse column), trimmed; "" for the default
	Units     int64  // the level to set, when Valid

	// Filled by the later phases.
	WarehouseID api.ID
	VariantID   api.ID
	Old         float64 // the level remembered (or live, when verifying)
	// repeats is, on a row repeating an earlier row's SKU and quantity,
	// 1 + the index of that row: it shares its outcome. 0 otherwise.
	repeats int32

	Valid  bool // the row's SKU and quantity could be read
	HasOld bool // Old is known
}
