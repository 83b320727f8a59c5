package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"lading/catalog"
	"lading/mapping"
)

// Input is a source read through a mapping: its rows grouped into products,
// with every row accounted for once (in a product, skipped, or in Errors).
type Input struct {
	*catalog.Result
	// Files are the files read: the input, then a joined file if any.
	Files []string
}

// ReadProgress is told how many rows have been read so far.
type ReadProgress func(rows int)

func sourceOptions(s mapping.Source) SourceOptions {
	return SourceOptions{Format: s.Format, Sheet: s.Sheet, HeaderRow: s.HeaderRow, Delimiter: s.Delimiter, Encoding: s.Encoding}
}

// Read reads path (and the mapping's joined file, resolved relative to
// path's directory) through m: each row is evaluated and handed to a
// catalog.Grouper. Errors of single rows end up in the result; the error
// returned is fatal (a missing file, an unknown column).
func Read(ctx context.Context, m *mapping.Mapping, path string, progress ReadProgress) (*Input, error) {
	g := catalog.NewGrouper(m)
	in := &Input{Files: []string{path}}
	var rowErrs []catalog.RowError
	rows := 0
	readFile := func(file string, opts SourceOptions, compile func(string, []string) (*mapping.Program, error)) error {
		src, err := OpenSource(file, opts)
		if err != nil {
			return err
		}
		defer src.Close()
		prog, err := compile(src.Name(), src.Header())
		if err != nil {
			return err
		}
		var row mapping.Row
		for {
			cells, line, err := src.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				var re *RowError
				if !errors.As(err, &re) {
					return err
				}
				rowErrs = append(rowErrs, catalog.RowError{Row: catalog.RowRef{File: src.Name(), Line: line},
					Target: "row", Rule: re.Msg})
				rows++
				continue
			}
			prog.Eval(cells, &row)
			g.Add(catalog.RowRef{File: src.Name(), Line: line}, &row)
			rows++
			if rows%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
				if progress != nil {
					progress(rows)
				}
			}
		}
	}
	if err := readFile(path, sourceOptions(m.Source), m.Compile); err != nil {
		return nil, err
	}
	if m.Join != nil {
		jf := m.Join.File
		if !filepath.IsAbs(jf) {
			jf = filepath.Join(filepath.Dir(path), jf)
		}
		in.Files = append(in.Files, jf)
		if err := readFile(jf, sourceOptions(m.Join.Source), m.CompileJoin); err != nil {
			return nil, fmt.Errorf("joined file: %w", err)
		}
	}
	if progress != nil {
		progress(rows)
	}
	in.Result = g.Finish()
	in.Result.Errors = append(in.Result.Errors, rowErrs...)
	in.Result.Rows += len(rowErrs)
	return in, nil
}
