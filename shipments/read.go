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
type Input struct {
	// File names the input in the results file: its path, and for a
	// workbook the sheet read (source.Label).
	File string
	// Sheet is the workbook's sheet read; "" for a CSV file.
	Sheet string
	Lines []Line
}

// Read reads the shipments file at path through m's shipments section;
// dates without an offset are in loc. Rows that are wrong become engine.Invalid
// lines (skip rules make engine.Skipped ones); the error is fatal: the file cannot
// be read, or the mapping does not fit its header.
func Read(ctx context.Context, m *mapping.Mapping, path string, limits source.Limits, loc *time.Location, prog *progress.Progress) (*Input, error) {
	src, err := source.Open(path, m.Source.ReadOptions(limits))
	if err != nil {
		return nil, err
	}
	defer src.Close()
	p, err := m.CompileShipments(src.Name(), src.Header(), loc)
	if err != nil {
		return nil, source.Misread(src, err)
	}
	in := &Input{File: source.Label(src.Name(), src.Sheet()), Sheet: src.Sheet()}
	var row mapping.ShipmentRow
	_, err = source.Each(ctx, src, prog.Reading, func(cells []string, line int, re *source.RowError) {
		in.Lines = append(in.Lines, lineOf(p, cells, line, re, &row))
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// lineOf evaluates one row; re is the source's complaint about it, if any.
func lineOf(p *mapping.ShipmentProgram, cells []string, row int, re *source.RowError, out *mapping.ShipmentRow) Line {
	l := Line{Fate: engine.Fate{Row: row}}
	if re != nil && cells == nil {
		l.Set(engine.Invalid, re.Msg)
		return l
	}
	err := p.Eval(cells, out)
	l.FulfillmentRef, l.OrderNumber, l.LineItemRef, l.SKU = out.FulfillmentID, out.OrderNumber, out.LineItemID, out.SKU
	l.Quantity, l.Tracking, l.Carrier, l.TrackingLink = out.Quantity, out.TrackingNumber, out.Carrier, out.TrackingLink
	l.Cost, l.Status, l.ShippedAt = out.Cost, out.Status, out.ShippedAt
	switch {
	case re != nil:
		l.Set(engine.Invalid, re.InColumn(p.Header()))
	case out.Skip:
		l.Set(engine.Skipped, out.SkipReason)
	case err != nil:
		l.Set(engine.Invalid, err.Error())
	default:
		l.Valid = true
	}
	return l
}
