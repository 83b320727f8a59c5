package shipments

import (
	"context"
	"time"

	"lading/engine"
	"lading/mapping"
	"lading/progress"
	"lading/source"
)

// Input is a shipments file read through a mapping: one Line per data row.
type Input = engine.Input[Line]

// Read reads the shipments file at path through m's shipments section;
// dates without an offset are in loc. Rows that are wrong become Invalid
// lines (skip rules make Skipped ones); the error is fatal: the file
// cannot be read, or the mapping does not fit its header.
func Read(ctx context.Context, m *mapping.Mapping, path string, limits source.Limits, loc *time.Location, prog *progress.Progress) (*Input, error) {
	return engine.Read(ctx, m, path, limits, prog, func(name string, header []string) (engine.Section[mapping.ShipmentRow], error) {
		return m.CompileShipments(name, header, loc)
	}, fill)
}

// fill copies a row's values into its line.
func fill(l *Line, v *mapping.ShipmentRow, ok bool) error {
	l.FulfillmentRef, l.OrderNumber, l.LineItemRef, l.SKU = v.FulfillmentID, v.OrderNumber, v.LineItemID, v.SKU
	l.Quantity, l.Tracking, l.Carrier, l.TrackingLink = v.Quantity, v.TrackingNumber, v.Carrier, v.TrackingLink
	l.Cost, l.Status, l.ShippedAt, l.Valid = v.Cost, v.Status, v.ShippedAt, ok
	return nil
}
