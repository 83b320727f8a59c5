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
type Input struct {
	// File names the input in the results file: its path, and for a
	// workbook the sheet read (source.Label).
	File string
	// Sheet is the workbook's sheet read; "" for a CSV file.
	Sheet string
	Lines []Line
}

// maxUnits is the largest level a row may set: beyond it a float64 on the
// wire no longer holds every whole number exactly.
const maxUnits = 1 << 53

// Read reads the stock file at path through m's stock section. Rows that
// are wrong become Invalid lines (skip rules make Skipped ones); the error
// is fatal: the file cannot be read, or the mapping does not fit its
// header.
func Read(ctx context.Context, m *mapping.Mapping, path string, limits source.Limits, prog *progress.Progress) (*Input, error) {
	src, err := source.Open(path, m.Source.ReadOptions(limits))
	if err != nil {
		return nil, err
	}
	defer src.Close()
	p, err := m.CompileStock(src.Name(), src.Header())
	if err != nil {
		return nil, source.Misread(src, err)
	}
	in := &Input{File: source.Label(src.Name(), src.Sheet()), Sheet: src.Sheet()}
	var row mapping.StockRow
	_, err = source.Each(ctx, src, prog.Reading, func(cells []string, line int, re *source.RowError) {
		in.Lines = append(in.Lines, lineOf(p, cells, line, re, &row))
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// lineOf evaluates one row; re is the source's complaint about it, if any.
func lineOf(p *mapping.StockProgram, cells []string, row int, re *source.RowError, out *mapping.StockRow) Line {
	l := Line{Fate: engine.Fate{Row: row}, first: -1}
	if re != nil && cells == nil {
		l.Set(engine.Invalid, re.Msg)
		return l
	}
	err := p.Eval(cells, out)
	l.SKU, l.Warehouse = out.SKU, out.Warehouse
	switch {
	case re != nil:
		l.Set(engine.Invalid, re.InColumn(p.Header()))
	case out.Skip:
		l.Set(engine.Skipped, out.SkipReason)
	case err != nil:
		l.Set(engine.Invalid, err.Error())
	default:
		units, perr := strconv.ParseInt(out.Quantity, 10, 64)
		if perr != nil || units > maxUnits {
			l.Set(engine.Invalid, fmt.Sprintf("quantity %s is more units than lading can send exactly (at most %d); correct the quantity", out.Quantity, int64(maxUnits)))
			return l
		}
		l.Units, l.Valid = units, true
	}
	return l
}
