package source

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// progressEvery is how many rows Each reads between looks at its context
// and calls of its progress function.
const progressEvery = 4096

// Each reads the data rows of src in order and calls row for each, with
// its cells (nil when nothing of the row could be read), its line and
// the *RowError about it (nil for a good row). Every 4,096 rows it checks
// ctx and calls progress with the rows read so far (progress may be nil),
// and once more at the end. It returns the number of rows, and a fatal
// error: the file cannot be read on, or ctx is done.
func Each(ctx context.Context, src Source, progress func(rows int), row func(cells []string, line int, re *RowError)) (int, error) {
	n := 0
	for {
		cells, line, err := src.Next()
		if err == io.EOF {
			break
		}
		var re *RowError
		if err != nil && !errors.As(err, &re) {
			return n, err
		}
		row(cells, line, re)
		if n++; n%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return n, err
			}
			if progress != nil {
				progress(n)
			}
		}
	}
	if progress != nil {
		progress(n)
	}
	return n, nil
}

// InColumn is the error's message for a row's line in a results file:
// its column named by header (the file's, as Source.Header gives it) when
// it concerns one cell.
func (e *RowError) InColumn(header []string) string {
	if e.Column > 0 && e.Column <= len(header) {
		return fmt.Sprintf("column %q: %s", header[e.Column-1], e.Msg)
	}
	return e.Msg
}
