package sandbox

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// The queries of a page of records are read below database/sql, from the
// driver's rows: one slice of values reused row after row, and no
// conversion of each value through Scan's destinations. A page reads
// thousands of values; what database/sql does with each was a fifth of
// its time.

// rawStmts are the statements kept prepared on one connection for
// eachRow, by their SQL; closeRaw closes them.
type rawStmts map[string]driver.Stmt

// eachRow runs q, kept prepared on the transaction's connection, and calls
// fn for every row. The rows are closed however it ends. fn must not run
// queries of its own.
func (t *txn) eachRow(q string, args []any, fn func(r *row) error) error {
	return t.rawQuery(q, args, true, fn)
}

// eachRowOnce is eachRow for SQL built per request (filters, sorts): not
// kept prepared.
func (t *txn) eachRowOnce(q string, args []any, fn func(r *row) error) error {
	return t.rawQuery(q, args, false, fn)
}

// rawQuery is rawRows once the rows held back are sent (see ready).
func (t *txn) rawQuery(q string, args []any, keep bool, fn func(r *row) error) error {
	if err := t.ready(); err != nil {
		return err
	}
	return t.rawRows(q, args, keep, fn)
}

// firstRow reads the first row q (kept prepared) gives into dest, without
// sending the rows held back, and tells whether there was one.
func (t *txn) firstRow(q string, args []any, dest []any) (found bool, err error) {
	err = t.rawRows(q, args, true, func(r *row) error {
		found = true
		if err := r.Scan(dest...); err != nil {
			return err
		}
		return errFirstRow
	})
	if errors.Is(err, errFirstRow) {
		err = nil
	}
	return found, err
}

// errFirstRow ends the reading of rows after the first.
var errFirstRow = errors.New("the first row is read")

// rawRows is rawQuery without sending the rows held back.
func (t *txn) rawRows(q string, args []any, keep bool, fn func(r *row) error) error {
	named, err := namedArgs(make([]driver.NamedValue, 0, len(args)), q, args)
	if err != nil {
		return err
	}
	// A panic in fn is passed on once Raw has returned: panicking inside
	// Raw, it would have database/sql close the connection for good (and
	// with it the store's writer, or a reader put back in the pool dead).
	var panicked any
	err = t.conn.Raw(func(dc any) error {
		defer func() { panicked = recover() }()
		rows, err := queryDriver(t.ctx, dc, t.raw, q, named, keep)
		if err != nil {
			return err
		}
		return readRows(rows, fn)
	})
	if panicked != nil {
		panic(panicked)
	}
	if err != nil {
		return fmt.Errorf("sandbox: %q: %w", q, err)
	}
	return nil
}

// rawExec runs q, kept prepared on the transaction's connection, with
// the parameters first then args: below database/sql, as eachRow, with
// the parameters converted in the room of the held rows (t.pend.named). A
// statement that sends held rows has thousands.
func (t *txn) rawExec(q string, first, args []any) error {
	named, err := namedArgs(t.pend.named[:0], q, first)
	if err == nil {
		named, err = namedArgs(named, q, args)
	}
	if err != nil {
		return err
	}
	t.pend.named = named
	defer clear(named)
	err = t.conn.Raw(func(dc any) error {
		s, err := preparedDriver(t.ctx, dc, t.raw, q)
		if err != nil {
			return err
		}
		se, ok := s.(driver.StmtExecContext)
		if !ok {
			return fmt.Errorf("the database driver's statement %T cannot run a statement", s)
		}
		_, err = se.ExecContext(t.ctx, named)
		return err
	})
	if err != nil {
		return fmt.Errorf("sandbox: %q: %w", q, err)
	}
	return nil
}

// namedArgs appends args to to as the driver takes them, converted as
// database/sql would.
func namedArgs(to []driver.NamedValue, q string, args []any) ([]driver.NamedValue, error) {
	for _, a := range args {
		v, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return nil, fmt.Errorf("sandbox: %q: argument %d: %w", q, len(to)+1, err)
		}
		to = append(to, driver.NamedValue{Ordinal: len(to) + 1, Value: v})
	}
	return to, nil
}

// queryDriver runs q on the driver's connection dc: with the statement of
// q kept in stmts (prepared on first use) when keep is set.
func queryDriver(ctx context.Context, dc any, stmts rawStmts, q string, args []driver.NamedValue, keep bool) (driver.Rows, error) {
	if !keep {
		qc, ok := dc.(driver.QueryerContext)
		if !ok {
			return nil, fmt.Errorf("the database driver's connection %T cannot run a query", dc)
		}
		return qc.QueryContext(ctx, q, args)
	}
	s, err := preparedDriver(ctx, dc, stmts, q)
	if err != nil {
		return nil, err
	}
	sq, ok := s.(driver.StmtQueryContext)
	if !ok {
		return nil, fmt.Errorf("the database driver's statement %T cannot run a query", s)
	}
	return sq.QueryContext(ctx, args)
}

// preparedDriver is the statement of q on the driver's connection dc,
// kept in stmts: prepared on first use.
func preparedDriver(ctx context.Context, dc any, stmts rawStmts, q string) (driver.Stmt, error) {
	if s, ok := stmts[q]; ok {
		return s, nil
	}
	pc, ok := dc.(driver.ConnPrepareContext)
	if !ok {
		return nil, fmt.Errorf("the database driver's connection %T cannot prepare a statement", dc)
	}
	s, err := pc.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	stmts[q] = s
	return s, nil
}

// readRows calls fn for every row of rows, then closes them. A value
// that fn reads as another type than it is ends the reading with an error.
func readRows(rows driver.Rows, fn func(r *row) error) (err error) {
	defer func() {
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
	}()
	cols := rows.Columns()
	r := &row{vals: make([]driver.Value, len(cols)), cols: cols}
	for {
		switch err := rows.Next(r.vals); err {
		case nil:
		case io.EOF:
			return nil
		default:
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
		if r.err != nil {
			return r.err
		}
	}
}

// closeRaw closes the statements of stmts, kept on conn.
func closeRaw(conn *sql.Conn, stmts rawStmts) {
	conn.Raw(func(any) error {
		for q, s := range stmts {
			s.Close()
			delete(stmts, q)
		}
		return nil
	})
}

// row is a row of eachRow: the values the driver gave for it, valid
// until the next row (a []byte may be the driver's memory: what row's
// getters give is a copy). A getter converts a value as Scan into a
// variable of its type would, and notes a value Scan would refuse (NULL
// among them) in err, which ends the reading.
type row struct {
	vals []driver.Value
	cols []string
	err  error
}

// int is column i as an integer.
func (r *row) int(i int) int64 {
	if n, ok := r.vals[i].(int64); ok {
		return n
	}
	s, ok := asText(r.vals[i])
	n, err := strconv.ParseInt(s, 10, 64)
	if !ok || err != nil {
		r.refuse(i, "an integer")
	}
	return n
}

// str is column i as a string.
func (r *row) str(i int) string {
	s, ok := asText(r.vals[i])
	if !ok {
		r.refuse(i, "a string")
	}
	return s
}

// null is column i as a string or NULL.
func (r *row) null(i int) sql.NullString {
	if r.vals[i] == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: r.str(i), Valid: true}
}

// flag is column i as a bool: 1 or 0, or a string strconv.ParseBool reads.
func (r *row) flag(i int) bool {
	switch v := r.vals[i].(type) {
	case int64:
		if v == 0 || v == 1 {
			return v == 1
		}
	case bool:
		return v
	case string, []byte:
		s, _ := asText(v)
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	}
	r.refuse(i, "a bool")
	return false
}

// Scan reads the row's columns into dest, one a column, as database/sql's
// Scan would for the kinds of variable the sandbox reads into: integers,
// strings, bools, floats and bytes (copied), NULL into a nil pointer (to
// an integer or a string), nil bytes, or an invalid sql.NullString or
// sql.NullInt64. Others are refused.
func (r *row) Scan(dest ...any) error {
	if len(dest) != len(r.vals) {
		return fmt.Errorf("%d variables for %d columns", len(dest), len(r.vals))
	}
	for i, d := range dest {
		if err := r.scanInto(i, d); err != nil {
			return err
		}
	}
	return r.err
}

// scanInto reads column i into d.
func (r *row) scanInto(i int, d any) error {
	switch d := d.(type) {
	case *int64:
		*d = r.int(i)
	case *int:
		*d = int(r.int(i))
	case *string:
		*d = r.str(i)
	case *bool:
		*d = r.flag(i)
	case *float64:
		*d = r.float(i)
	case *sql.NullString:
		*d = r.null(i)
	case *sql.NullInt64:
		*d = sql.NullInt64{}
		if r.vals[i] != nil {
			*d = sql.NullInt64{Int64: r.int(i), Valid: true}
		}
	case **int64:
		*d = nil
		if r.vals[i] != nil {
			n := r.int(i)
			*d = &n
		}
	case *[]byte:
		*d = nil
		if b, ok := r.vals[i].([]byte); ok {
			*d = bytes.Clone(b) // the driver's memory, valid until the next row
		} else if r.vals[i] != nil {
			*d = []byte(r.str(i))
		}
	case **string:
		*d = nil
		if r.vals[i] != nil {
			s := r.str(i)
			*d = &s
		}
	default:
		return fmt.Errorf("column %d (%s): cannot read into %T", i, r.cols[i], d)
	}
	return nil
}

// float is column i as a float.
func (r *row) float(i int) float64 {
	switch v := r.vals[i].(type) {
	case float64:
		return v
	case int64:
		return float64(v)
	}
	s, ok := asText(r.vals[i])
	f, err := strconv.ParseFloat(s, 64)
	if !ok || err != nil {
		r.refuse(i, "a number")
	}
	return f
}

// refuse notes that column i is not what was read, unless a value was
// refused before.
func (r *row) refuse(i int, want string) {
	if r.err == nil {
		r.err = fmt.Errorf("column %d (%s): %T %v is not %s", i, r.cols[i], r.vals[i], r.vals[i], want)
	}
}

// asText is v as database/sql scans it into a string (a []byte copied);
// false for NULL and the types it refuses.
func asText(v driver.Value) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case []byte:
		return string(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), true
	case bool:
		return strconv.FormatBool(v), true
	}
	return "", false
}
