package slips

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"lading/mapping"
	"lading/progress"
	"lading/source"
)

// Input is a shipping file read through a mapping: one Line per data row.
type Input struct {
	File  string
	Lines []Line
}

// Read reads the file at path through m's slips section; date-times that
// name no offset are in tz (nil: UTC). Rows that are wrong become Invalid
// lines (skip rules make Skipped ones); the error is fatal: the file cannot
// be read, or the mapping does not fit its header.
func Read(ctx context.Context, m *mapping.Mapping, path string, limits source.Limits, tz *time.Location, prog *progress.Progress) (*Input, error) {
	src, err := source.Open(path, m.Source.ReadOptions(limits))
	if err != nil {
		return nil, err
	}
	defer src.Close()
	p, err := m.CompileSlips(src.Name(), src.Header(), tz)
	if err != nil {
		return nil, err
	}
	in := &Input{File: src.Name()}
	var row mapping.SlipRow
	for n := 1; ; n++ {
		cells, line, err := src.Next()
		if err == io.EOF {
			break
		}
		var re *source.RowError
		if err != nil && !errors.As(err, &re) {
			return nil, err
		}
		in.Lines = append(in.Lines, lineOf(p, cells, line, re, &row))
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			prog.Reading(n)
		}
	}
	prog.Reading(len(in.Lines))
	return in, nil
}

// lineOf evaluates one row; re is the source's complaint about it, if any.
func lineOf(p *mapping.SlipProgram, cells []string, row int, re *source.RowError, out *mapping.SlipRow) Line {
	l := Line{Row: row}
	if re != nil && cells == nil {
		l.set(Invalid, re.Msg)
		return l
	}
	err := p.Eval(cells, out)
	l.Values = *out
	l.Values.Errors = slices.Clone(out.Errors)
	switch {
	case re != nil:
		l.set(Invalid, rowMessage(p.Header(), re))
	case out.Skip:
		l.set(Skipped, out.SkipReason)
	case err != nil:
		l.set(Invalid, err.Error())
	}
	return l
}

// rowMessage is the source's complaint about a row it could read the cells
// of, naming the column.
func rowMessage(header []string, re *source.RowError) string {
	if re.Column > 0 && re.Column <= len(header) {
		return fmt.Sprintf("column %q: %s", header[re.Column-1], re.Msg)
	}
	return re.Msg
}
