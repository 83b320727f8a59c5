package api

import (
	"context"
	"fmt"
	"math"

	"lading/api/wire"
)

// StockService sets stock levels, through variant writes carrying
// links.ReconcileInventory. [A.7]
type StockService struct{ c *Client }

// StockLevel is the available units of a variant in a warehouse (an
// AccountAddresses id: the token's warehouse).
type StockLevel struct {
	VariantID   ID
	WarehouseID ID
	Units       float64
}

// SetAvailable sets available units, one variant record per level (so
// result indexes match levels), up to wire.MaxWriteRecords levels.
func (s *StockService) SetAvailable(ctx context.Context, levels []StockLevel) (*WriteResult, error) {
	recs := make([]VariantWrite, len(levels))
	for i, l := range levels {
		switch {
		case l.VariantID == "":
			return nil, fmt.Errorf("api: stock level %d: %w: no variant id", i, ErrInvalid)
		case l.WarehouseID == "":
			return nil, fmt.Errorf("api: stock level %d (variant %s): %w: no warehouse id", i, l.VariantID, ErrInvalid)
		case math.IsNaN(l.Units) || math.IsInf(l.Units, 0):
			return nil, fmt.Errorf("api: stock level %d (variant %s): %w: units %v is not a number", i, l.VariantID, ErrInvalid, l.Units)
		}
		recs[i] = VariantWrite{ID: l.VariantID, Links: &VariantLinks{ReconcileInventory: []Reconcile{{
			Change: wire.ChangeSetAvailable,
			Units:  l.Units,
			Links:  ReconcileLinks{AccountAddresses: []Ref{{ID: l.WarehouseID}}},
		}}}}
	}
	return s.c.Variants.Write(ctx, recs)
}
