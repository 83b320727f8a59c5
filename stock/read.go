package stock

import (
	"context"
	"fmt"
	"strconv"

	"lading/engine"
	"lading/mapping"
	"lading/progress"
	"lading/source"
)

// Input is a stock file read through a mapping: one Line per data row.
type Input = engine.Input[Line]

// maxUnits is the largest level a row may set: beyond it a float64 on the
// wire no longer holds every whole number exactly.
const maxUnits = 1 << 53

// Read reads the stock file at path through m's stock section. Rows that
// are wrong become Invalid lines (skip rules make Skipped ones); the error
// is fatal: the file cannot be read, or the mapping does not fit its
// header.
func Read(ctx context.Context, m *mapping.Mapping, path string, limits source.Limits, prog *progress.Progress) (*Input, error) {
	return engine.Read(ctx, m, path, limits, prog, func(name string, header []string) (engine.Section[mapping.StockRow], error) {
		return m.CompileStock(name, header)
	}, fill)
}

// fill copies a row's values into its line and, when the row is sound,
// reads its level.
func fill(l *Line, v *mapping.StockRow, ok bool) error {
	l.SKU, l.Warehouse = v.SKU, v.Warehouse
	if !ok {
		return nil
	}
	units, err := strconv.ParseInt(v.Quantity, 10, 64)
	if err != nil || units > maxUnits {
		return fmt.Errorf("quantity %s is more units than lading can send exactly (at most %d); correct the quantity", v.Quantity, int64(maxUnits))
	}
	l.Units, l.Valid = units, true
	return nil
}
