package slips

import (
	"context"
	"slices"
	"time"

	"lading/engine"
	"lading/mapping"
	"lading/progress"
	"lading/source"
)

// Input is a shipping file read through a mapping: one Line per data row.
type Input struct {
	// File names the input in the results file: its path, and for a
	// workbook the sheet read (source.Label).
	File string
	// Sheet is the workbook's sheet read; "" for a CSV file.
	Sheet string
	Lines []Line
}

// Read reads the file at path through m's slips section; date-times that
// name no offset are in tz (nil: UTC). Rows that are wrong become engine.Invalid
// lines (skip rules make engine.Skipped ones); the error is fatal: the file cannot
// be read, or the mapping does not fit its header.
func Read(ctx context.Context, m *mapping.Mapping, path string, limits source.Limits, tz *time.Location, prog *progress.Progress) (*Input, error) {
	src, err := source.Open(path, m.Source.ReadOptions(limits))
	if err != nil {
		return nil, err
	}
	defer src.Close()
	p, err := m.CompileSlips(src.Name(), src.Header(), tz)
	if err != nil {
		return nil, source.Misread(src, err)
	}
	in := &Input{File: source.Label(src.Name(), src.Sheet()), Sheet: src.Sheet()}
	var row mapping.SlipRow
	_, err = source.Each(ctx, src, prog.Reading, func(cells []string, line int, re *source.RowError) {
		in.Lines = append(in.Lines, lineOf(p, cells, line, re, &row))
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// lineOf evaluates one row; re is the source's complaint about it, if any.
func lineOf(p *mapping.SlipProgram, cells []string, row int, re *source.RowError, out *mapping.SlipRow) Line {
	l := Line{Fate: engine.Fate{Row: row}}
	if re != nil && cells == nil {
		l.Set(engine.Invalid, re.Msg)
		return l
	}
	err := p.Eval(cells, out)
	l.Values = *out
	l.Values.Errors = slices.Clone(out.Errors)
	switch {
	case re != nil:
		l.Set(engine.Invalid, re.InColumn(p.Header()))
	case out.Skip:
		l.Set(engine.Skipped, out.SkipReason)
	case err != nil:
		l.Set(engine.Invalid, err.Error())
	}
	return l
}
