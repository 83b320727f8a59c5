package engine

import (
	"context"

	"lading/mapping"
	"lading/plural"
	"lading/progress"
	"lading/source"
)

// Input is a job's file read through its mapping: one line per data row.
type Input[L any] struct {
	// File names the input in the results file: its path, and for a
	// workbook the sheet read (source.Label).
	File string
	// Sheet is the workbook's sheet read; "" for a CSV file.
	Sheet string
	Lines []L
}

// Section is a job's mapping section bound to a file's header: it
// evaluates a row's cells into values V.
type Section[V any] interface {
	Eval(cells []string, out *V) error
	Header() []string
}

// Read reads the file at path through the section compile binds to its
// header (name names the file in messages), and makes each row a line.
// fill copies a row's values into its line; ok says nothing is wrong with
// the row so far, and fill's error is what else is (a value the job cannot
// take). A row the source could not read, or whose values are wrong, is
// an Invalid line naming the cell; a row a skip rule matched is Skipped.
// The error is fatal: the file cannot be read, or the mapping does not fit
// its header. prog is told how many rows were read.
func Read[L any, PL interface {
	*L
	Rower
}, V any, PV interface {
	*V
	Skipped() (bool, string)
}](ctx context.Context, m *mapping.Mapping, path string, limits source.Limits, prog *progress.Progress,
	compile func(name string, header []string) (Section[V], error), fill func(l *L, v *V, ok bool) error) (*Input[L], error) {
	src, err := source.Open(path, m.Source.ReadOptions(limits))
	if err != nil {
		return nil, err
	}
	defer src.Close()
	sec, err := compile(src.Name(), src.Header())
	if err != nil {
		return nil, source.Misread(src, err)
	}
	in := &Input[L]{File: source.Label(src.Name(), src.Sheet()), Sheet: src.Sheet(), Lines: make([]L, 0, source.RowsHint(src))}
	var v V
	_, err = source.Each(ctx, src, prog.Reading, func(cells []string, row int, re *source.RowError) {
		in.Lines = append(in.Lines, *new(L))
		l := &in.Lines[len(in.Lines)-1]
		f := PL(l).fate()
		f.Row = row
		if re != nil && cells == nil {
			f.Set(Invalid, re.Msg)
			return
		}
		err := sec.Eval(cells, &v)
		skip, why := PV(&v).Skipped()
		bad := fill(l, &v, re == nil && !skip && err == nil)
		switch {
		case re != nil:
			f.Set(Invalid, re.InColumn(sec.Header()))
		case skip:
			f.Set(Skipped, why)
		case err != nil:
			f.Set(Invalid, err.Error())
		case bad != nil:
			f.Set(Invalid, bad.Error())
		}
	})
	if err != nil {
		return nil, err
	}
	prog.Say("read %s of %s", plural.Count(len(in.Lines), "row"), in.File)
	return in, nil
}
