package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
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
	return readInput(ctx, m, path, limits, progress, nil)
}

// readInput is Read, telling opened (unless nil) the sheet of each file it
// opens whose header fits the mapping, before it reads the file's rows.
func readInput(ctx context.Context, m *mapping.Mapping, path string, limits source.Limits, progress ReadProgress, opened func(sheet string)) (*Input, error) {
	r := &inputReader{ctx: ctx, g: catalog.NewGrouper(m), in: &Input{Files: []string{path}}, progress: progress, opened: opened}
	main, err := r.readFile(path, m.Source.ReadOptions(limits), m.Compile)
	if err != nil {
		return nil, err
	}
	if m.Join != nil {
		// The joined rows read their product's row (product()) through
		// the main file's program, which has seen every product row.
		jf := JoinedFile(path, m.Join.File)
		r.in.Files = append(r.in.Files, jf)
		if _, err := r.readFile(jf, m.Join.Source.ReadOptions(limits), main.CompileJoin); err != nil {
			return nil, fmt.Errorf("joined file: %w", err)
		}
	}
	if progress != nil {
		progress(r.rows)
	}
	return r.finish(), nil
}

// inputReader is what Read keeps while it reads its files: the grouper the
// rows go to, the rows no product holds, and how many rows were read.
type inputReader struct {
	ctx      context.Context
	g        *catalog.Grouper
	in       *Input
	rowErrs  []catalog.RowError
	rows     int
	progress ReadProgress
	opened   func(sheet string)
}

// readFile reads one file through the program compile gives for its
// header, and returns that program. Three goroutines pass chunks of rows
// along: one parses the file, one evaluates the rows through the program,
// one groups them into products.
func (r *inputReader) readFile(file string, opts source.Options, compile func(string, []string) (*mapping.Program, error)) (*mapping.Program, error) {
	src, err := source.Open(file, opts)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	r.in.Sheets = append(r.in.Sheets, src.Sheet())
	prog, err := compile(src.Name(), src.Header())
	if err != nil {
		return nil, source.Misread(src, err)
	}
	if r.opened != nil {
		r.opened(src.Sheet())
	}
	header := src.Header()
	// Two chunks wait between stages at most: a chunk is some 500 kB
	// with its rows evaluated, and the stages keep pace with each other.
	chunks, evaluated, free := make(chan *rowChunk, 2), make(chan *rowChunk, 2), make(chan *rowChunk, 8)
	eg, ectx := errgroup.WithContext(r.ctx)
	eg.Go(func() error {
		defer close(chunks)
		return readChunks(ectx, src, len(header), chunks, free)
	})
	eg.Go(func() error {
		defer close(evaluated)
		return r.evalChunks(ectx, header, prog, chunks, evaluated)
	})
	eg.Go(func() error {
		r.groupChunks(evaluated, free)
		return nil
	})
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	return prog, nil
}

// evalChunks evaluates the rows of each chunk in order into the chunk,
// and hands it on to be grouped; it tells the progress every 4096 rows.
// It stops when ctx is done.
func (r *inputReader) evalChunks(ctx context.Context, header []string, prog *mapping.Program, chunks <-chan *rowChunk, out chan<- *rowChunk) error {
	for c := range chunks {
		c.evaluated = slices.Grow(c.evaluated[:0], len(c.rows))[:len(c.rows)]
		for i, cr := range c.rows {
			r.rows++
			r.evalRow(header, prog, c, cr, &c.evaluated[i])
			if r.rows%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
				if r.progress != nil {
					r.progress(r.rows)
				}
			}
		}
		select {
		case out <- c:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// evalRow evaluates one row of chunk c into row, or, when none of its
// cells could be read, keeps its error and marks row unread.
func (r *inputReader) evalRow(header []string, prog *mapping.Program, c *rowChunk, cr chunkRow, row *evaluatedRow) {
	width := len(header)
	row.unread = cr.bad && cr.off < 0
	switch {
	case row.unread:
		// Nothing of the row could be read: it belongs to no product,
		// and keyless rows under it (fill_down) cannot tell whose they
		// are.
		prog.Unreadable()
		r.rowErrs = append(r.rowErrs, catalog.RowError{Row: catalog.RowRef{File: c.file, Line: cr.line}, Rule: cr.msg})
	case cr.bad:
		// Its cells are read as well as they can be, so that the row
		// holds its product back.
		cells := c.cells[cr.off : cr.off+width]
		prog.Eval(cells, &row.Row)
		row.Skip = false
		row.Errors = append(row.Errors, badRow(header, cells, cr))
	default:
		prog.Eval(c.cells[cr.off:cr.off+width], &row.Row)
	}
}

// groupChunks hands the rows of each chunk evaluated to the grouper, in
// order, then hands the chunk back on free for the next rows.
func (r *inputReader) groupChunks(chunks <-chan *rowChunk, free chan<- *rowChunk) {
	for c := range chunks {
		for i := range c.rows {
			if row := &c.evaluated[i]; !row.unread {
				r.g.Add(catalog.RowRef{File: c.file, Line: c.rows[i].line}, &row.Row)
			}
		}
		select {
		case free <- c:
		default:
		}
	}
}

// finish groups the rows read into products and adds the rows no product
// holds to the result's errors.
func (r *inputReader) finish() *Input {
	r.in.Result = r.g.Finish()
	r.in.Result.Errors = append(r.in.Result.Errors, r.rowErrs...)
	r.in.Result.Rows += len(r.rowErrs)
	return r.in
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
// that reads the file to the one that evaluates the rows, then to the one
// that groups them, so that the three overlap. A chunk comes back to be
// filled again once grouped: the grouper keeps nothing of it.
type rowChunk struct {
	file  string   // the source's name
	cells []string // the rows' cells, back to back
	rows  []chunkRow
	// evaluated are the rows evaluated, one a row.
	evaluated []evaluatedRow
}

// evaluatedRow is a row as its mapping evaluated it; unread says none of
// its cells could be read (its error is kept apart).
type evaluatedRow struct {
	mapping.Row
	unread bool
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
			return &rowChunk{file: src.Name(), cells: make([]string, 0, chunkRows*width), rows: make([]chunkRow, 0, chunkRows)}
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
