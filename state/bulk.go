package state

import (
	"context"
	"database/sql"
	"iter"
	"strings"
)

// Rows written together (a batch's changes, the ids it got, the levels
// pushed) are written bulkChunk to a statement, each row a list of VALUES:
// a batch of 400 changes was 400 statements, and each paid database/sql's
// and the driver's cost of a statement, with its binding, stepping and
// resetting. The statement of bulkChunk rows of each of bulks is prepared
// when the state is opened (parsed for each batch, it took a fifth of the
// time the state spent on it); only the rows left over, fewer, are parsed
// when written.
//
// 50 records is an import's batch by default, and 100 the most a write
// request holds (wire.MaxWriteRecords): their rows are whole statements.
// 50 rows bind at most 402 values, far below SQLite's limit.
const bulkChunk = 50

// bulkRows is a statement writing rows of values.
type bulkRows struct {
	// head is the statement up to the list of VALUES; tail follows the
	// list (an ON CONFLICT clause, the rest of a WITH, or nothing).
	head, tail string
	// row is a row's values: first ?1 to ?k, the fixed values (the same
	// in every row), then a bare ? for each of the row's own. A bare ?
	// is numbered after the highest number before it, so the fixed
	// values go first; numbering the rows' own instead cost the driver a
	// search of the numbered names per value bound, 400 rows taking
	// longer than 400 statements.
	row string
}

// bulks are the statements whose statement of bulkChunk rows is prepared.
var bulks = []*bulkRows{&changesInsert, &confirmTaken, &idsUpsert, &stockUpsert, &sinceInsert}

// query is the statement of n rows.
func (b *bulkRows) query(n int) string {
	values := strings.Repeat(b.row+", ", n)
	return b.head + " VALUES " + values[:len(values)-2] + " " + b.tail
}

// prepareBulk prepares the statement of bulkChunk rows of each of bulks.
func (db *DB) prepareBulk(ctx context.Context) error {
	db.bulk = make(map[*bulkRows]*sql.Stmt, len(bulks))
	for _, b := range bulks {
		st, err := db.sql.PrepareContext(ctx, b.query(bulkChunk))
		if err != nil {
			return err
		}
		db.bulk[b] = st
	}
	return nil
}

// writeRows writes rows with b in tx, each row the row's own values, after
// fixed.
func (db *DB) writeRows(ctx context.Context, tx *sql.Tx, b *bulkRows, fixed []any, rows iter.Seq[[]any]) error {
	args := append([]any{}, fixed...)
	n := 0
	flush := func() error {
		var err error
		if st := db.bulk[b]; n == bulkChunk && st != nil {
			_, err = tx.StmtContext(ctx, st).ExecContext(ctx, args...)
		} else if n > 0 {
			_, err = tx.ExecContext(ctx, b.query(n), args...)
		}
		args, n = args[:len(fixed)], 0
		return err
	}
	for r := range rows {
		args = append(args, r...)
		if n++; n == bulkChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// mapRows are the rows of m: a key and its value each.
func mapRows[V any](m map[string]V) iter.Seq[[]any] {
	return func(yield func([]any) bool) {
		row := make([]any, 2)
		for k, v := range m {
			row[0], row[1] = k, v
			if !yield(row) {
				return
			}
		}
	}
}
