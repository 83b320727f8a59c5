package slips

import (
	"lading/engine"
	"lading/mapping"
)

// Line is one row of the file and what became of it. Its statuses are the
// engine's: created or updated (its slip, or its shipment), unchanged
// (what the row gives was sent before), to create and to update (a dry
// run), invalid (the row, or another row of its slip, is wrong), refused
// (the account does not let the row's slip be packed as it is: an order it
// does not have, a line of another order, more units than the order has
// left to pack, a parcel it already holds; nothing of the slip was sent),
// failed (the service refused the slip or its shipment, or gave no
// answer) and skipped (a skip rule matched, or the row was not sent).
type Line struct {
	engine.Fate
	// Values are the row's values as the mapping read them.
	Values mapping.SlipRow
	// SlipID and PackageID are the ids of the row's slip and shipment,
	// once known.
	SlipID, PackageID string
}
