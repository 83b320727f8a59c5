package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"golang.org/x/sync/errgroup"

	"lading/catalog"
	"lading/mapping"
	"lading/source"
)

// Input is a source read through a mapping: its rows grouped into products,
// with every row accounted for once (in a product, skipped, or in Errors).
type Input struct {
	*catalog.Result
	// Files are the files read: the input, then a joined file if any.
	Files []string
	// Sheets are the sheets read of Files: a workbook's, "" for a CSV
	// file.
	Sheets []string
}

// Label names the file of a row's RowRef in the results file: its path,
// and the sheet read for a workbook (source.Label).
func (in *Input) Label(file string) string {
	for i, f := range in.Files {
		if f == file && i < len(in.Sheets) {
			return source.Label(file, in.Sheets[i])
		}
	}
	return file
}

// ReadProgress is told how many rows have been read so far.
type ReadProgress func(rows int)

// Read reads path (and the mapping's joined file, resolved relative to
// path's directory) through m: each row is evaluated and handed to a
// catalog.Grouper. Errors of single rows end up in the result; the error
// returned is fatal (a missing file, an unknown column).
func Read(ctx context.Context, m *mapping.Mapping, path string, limits source.Limits, progress ReadProgress) (*Input, error) {
	g := catalog.NewGrouper(m)
	in := &Input{Files: []string{path}}
	var rowErrs []catalog.RowError
	rows := 0
	readFile := func(file string, opts source.Options, compile func(string, []string) (*mapping.Program, error)) error {
		src, err := source.Open(file, opts)
		if err != nil {
			return err
		}
		defer src.Close()
		in.Sheets = append(in.Sheets, src.Sheet())
		prog, err := compile(src.Name(), src.Header())
		if err != nil {
			return source.Misread(src, err)
		}
		header := src.Header()
		width := len(header)
		chunks, free := make(chan *rowChunk, 4), make(chan *rowChunk, 6)
		eg, ectx := errgroup.WithContext(ctx)
		eg.Go(func() error {
			defer close(chunks)
			return readChunks(ectx, src, width, chunks, free)
		})
		eg.Go(func() error {
			var row mapping.Row
			for c := range chunks {
				for _, r := range c.rows {
					ref := catalog.RowRef{File: src.Name(), Line: r.line}
					rows++
					switch {
					case r.bad && r.off < 0:
						// Nothing of the row could be read: it belongs to
						// no product, and keyless rows under it (fill_down)
						// cannot tell whose they are.
						prog.Unreadable()
						rowErrs = append(rowErrs, catalog.RowError{Row: ref, Rule: r.msg})
					case r.bad:
						// Its cells are read as well as they can be, so
						// that the row holds its product back.
						cells := c.cells[r.off : r.off+width]
						prog.Eval(cells, &row)
						row.Skip = false
						row.Errors = append(row.Errors, badRow(header, cells, r))
						g.Add(ref, &row)
					default:
						prog.Eval(c.cells[r.off:r.off+width], &row)
						g.Add(ref, &row)
					}
					if rows%4096 == 0 {
						if err := ctx.Err(); err != nil {
							return err
						}
						if progress != nil {
							progress(rows)
						}
					}
				}
				select {
				case free <- c:
				default:
				}
			}
			return nil
		})
		return eg.Wait()
	}
	var main *mapping.Program
	compileMain := func(file string, header []string) (*mapping.Program, error) {
		var err error
		main, err = m.Compile(file, header)
		return main, err
	}
	if err := readFile(path, m.Source.ReadOptions(limits), compileMain); err != nil {
		return nil, err
	}
	if m.Join != nil {
		// The joined rows read their product's row (product()) through
		// the main file's program, which has seen every product row.
		jf := JoinedFile(path, m.Join.File)
		in.Files = append(in.Files, jf)
		if err := readFile(jf, m.Join.Source.ReadOptions(limits), main.CompileJoin); err != nil {
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

// JoinedFile is where an import of input reads a mapping's joined file:
// file itself when absolute, else relative to the input's directory.
func JoinedFile(input, file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(filepath.Dir(input), file)
}

// chunkRows is how many rows the reading goroutine hands over at a time.
const chunkRows = 512

// rowChunk is a run of rows read from a source, handed from the goroutine
// that reads the file to the one that evaluates and groups the rows, so
// that parsing the file and the rest of the work overlap.
type rowChunk struct {
	cells []string // the rows' cells, back to back
	rows  []chunkRow
}

// chunkRow is one row of a chunk: its cells start at off. When bad, msg
// says why the source refused the row, col names the column at fault (0
// for none), and off is -1 if no cell of it could be read.
type chunkRow struct {
	line, off, col int
	bad            bool
	msg            string
}

// badRow is the error of a row the source refused but read the cells of.
func badRow(header, cells []string, r chunkRow) mapping.FieldError {
	e := mapping.FieldError{Rule: r.msg}
	if r.col > 0 && r.col <= len(header) {
		e.Column = header[r.col-1]
		// As it can be shown: bad bytes and NULs replaced.
		e.Value = strings.ReplaceAll(strings.ToValidUTF8(cells[r.col-1], "\uFFFD"), "\x00", "\uFFFD")
	}
	return e
}

// readChunks reads src to the end into chunks sent on out, taking spent
// chunks back from free. It stops with ctx's error when ctx is done, and
// with a source's fatal error.
func readChunks(ctx context.Context, src source.Source, width int, out chan<- *rowChunk, free <-chan *rowChunk) error {
	next := func() *rowChunk {
		select {
		case c := <-free:
			c.cells, c.rows = c.cells[:0], c.rows[:0]
			return c
		default:
			return &rowChunk{cells: make([]string, 0, chunkRows*width), rows: make([]chunkRow, 0, chunkRows)}
		}
	}
	send := func(c *rowChunk) error {
		select {
		case out <- c:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	c := next()
	for {
		cells, line, err := src.Next()
		if err == io.EOF {
			break
		}
		row := chunkRow{line: line, off: len(c.cells)}
		if err != nil {
			var re *source.RowError
			if !errors.As(err, &re) {
				return err
			}
			row.bad, row.msg, row.col = true, re.Msg, re.Column
			if cells == nil {
				row.off = -1
			}
		}
		c.rows = append(c.rows, row)
		if cells != nil {
			// A Source gives width cells; the slice is reused, so copy.
			c.cells = append(c.cells, cells[:min(len(cells), width)]...)
			for range width - min(len(cells), width) {
				c.cells = append(c.cells, "")
			}
		}
		if len(c.rows) == chunkRows {
			if err := send(c); err != nil {
				return err
			}
			c = next()
		}
	}
	if len(c.rows) > 0 {
		return send(c)
	}
	return nil
}
