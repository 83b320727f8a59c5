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

// Input is a slips file read through a mapping: one Line per data row.
type Input = engine.Input[Line]

// Read reads the slips file at path through m's slips section; date-times
// that name no offset are in tz (nil: UTC). Rows that are wrong become
// Invalid lines (skip rules make Skipped ones); the error is fatal: the
// file cannot be read, or the mapping does not fit its header.
func Read(ctx context.Context, m *mapping.Mapping, path string, limits source.Limits, tz *time.Location, prog *progress.Progress) (*Input, error) {
	return engine.Read(ctx, m, path, limits, prog, func(name string, header []string) (engine.Section[mapping.SlipRow], error) {
		return m.CompileSlips(name, header, tz)
	}, fill)
}

// fill copies a row's values into its line.
func fill(l *Line, v *mapping.SlipRow, _ bool) error {
	l.Values = *v
	l.Values.Errors = slices.Clone(v.Errors)
	return nil
}
