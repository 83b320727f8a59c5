package sandbox

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestRowGettersScanLikeDatabaseSQL: what a getter of row gives for a
// value of SQLite is what Scan into a variable of its type gives, and a
// value Scan refuses is refused.
func TestRowGettersScanLikeDatabaseSQL(t *testing.T) {
	t.Parallel()
	st, err := openStore("")
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	for _, sqlValue := range []string{"7", "-100000001", "'12'", "' 12'", "'x'", "''", "NULL", "3.0", "3.5", "1", "0", "2",
		"'true'", "'F'", "x'3132'", "x''"} {
		q := "SELECT " + sqlValue
		err := st.read(context.Background(), func(tx *txn) error {
			want := make([]scanned, 4)
			for i := range want {
				want[i] = scanWithDatabaseSQL(tx, q, i)
			}
			return tx.eachRow(q, nil, func(r *row) error {
				for i, w := range want {
					r.err = nil
					got := scanned{kind: w.kind, v: r.get(w.kind, 0), ok: true}
					if r.err != nil {
						got = scanned{kind: w.kind}
					}
					if got != w {
						t.Errorf("%s as %s: row gives %v (refused: %v), Scan %v (refused: %v)", sqlValue, kinds[i], got.v, !got.ok, w.v, !w.ok)
					}
				}
				r.err = nil
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// scanned is a value read as a kind, or refused (ok false).
type scanned struct {
	kind int
	v    any
	ok   bool
}

var kinds = []string{"int", "str", "flag", "null"}

// get reads column i as kinds[kind].
func (r *row) get(kind, i int) any {
	switch kind {
	case 0:
		return r.int(i)
	case 1:
		return r.str(i)
	case 2:
		return r.flag(i)
	}
	return r.null(i)
}

// scanWithDatabaseSQL reads q's value as kinds[kind] through
// database/sql's Scan, the reference the row's getters follow.
func scanWithDatabaseSQL(tx *txn, q string, kind int) scanned {
	dest := []any{new(int64), new(string), new(bool), new(sql.NullString)}[kind]
	if err := tx.conn.QueryRowContext(context.Background(), q).Scan(dest); err != nil {
		return scanned{kind: kind}
	}
	return scanned{kind, reflect.ValueOf(dest).Elem().Interface(), true}
}

// row.Scan reads a value into each kind of variable as database/sql's
// Scan does, and refuses what it refuses.
func TestRowScanLikeDatabaseSQL(t *testing.T) {
	t.Parallel()
	st, err := openStore("")
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	dests := []func() any{
		func() any { return new(int64) }, func() any { return new(int) }, func() any { return new(string) },
		func() any { return new(bool) }, func() any { return new(float64) }, func() any { return new(sql.NullString) },
		func() any { return new(sql.NullInt64) }, func() any { return new(*int64) }, func() any { return new(*string) },
		func() any { return new([]byte) },
	}
	for _, sqlValue := range []string{"7", "'12'", "'x'", "''", "NULL", "3.5", "1", "'true'", "x'3132'"} {
		q := "SELECT " + sqlValue
		err := st.read(context.Background(), func(tx *txn) error {
			for _, mk := range dests {
				want, got := mk(), mk()
				werr := tx.conn.QueryRowContext(context.Background(), q).Scan(want)
				_, gerr := tx.row(q, nil, got)
				if (werr == nil) != (gerr == nil) || werr == nil && !reflect.DeepEqual(got, want) {
					t.Errorf("%s into %T: row.Scan gives %v (%v), database/sql %v (%v)", sqlValue, want,
						reflect.ValueOf(got).Elem(), gerr, reflect.ValueOf(want).Elem(), werr)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// reusingRows is driver.Rows whose text is in one buffer that each Next
// writes over, as a driver may.
type reusingRows struct {
	buf  []byte
	rows []string
	at   int
}

func (r *reusingRows) Columns() []string { return []string{"name", "id"} }
func (r *reusingRows) Close() error      { return nil }
func (r *reusingRows) Next(dest []driver.Value) error {
	if r.at == len(r.rows) {
		return io.EOF
	}
	r.buf = append(r.buf[:0], r.rows[r.at]...)
	dest[0], dest[1] = r.buf, int64(r.at)
	r.at++
	return nil
}

// TestReadRowsCopiesDriverMemory: a string read from a row stays what it
// was once the driver has written the next row over the bytes it gave.
func TestReadRowsCopiesDriverMemory(t *testing.T) {
	t.Parallel()
	want := []string{"alpha", "beta", "gamma", strings.Repeat("z", 40)}
	var got []string
	err := readRows(&reusingRows{buf: make([]byte, 0, 64), rows: want}, func(r *row) error {
		got = append(got, r.str(0))
		return nil
	})
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("readRows read %q, %v; want %q", got, err, want)
	}
}

// TestReadRowsEndsAtARefusedValue: a value read as what it is not ends
// the reading with an error naming its column, and no row after it is
// read.
func TestReadRowsEndsAtARefusedValue(t *testing.T) {
	t.Parallel()
	rows := 0
	err := readRows(&reusingRows{rows: []string{"1", "x", "3"}}, func(r *row) error {
		rows++
		r.int(0)
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "column 0 (name)") || rows != 2 {
		t.Errorf("readRows: %v after %d rows; want an error naming column 0 (name) after 2", err, rows)
	}
}

// A panic while rows are read goes on to the caller, and leaves the
// store's connection as it was: reads after it are answered.
func TestAPanicReadingRowsLeavesTheConnection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := openStore("")
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	for i := range 3 {
		func() {
			defer func() {
				if p := recover(); p != "boom" {
					t.Errorf("read %d: panic %v, want boom", i, p)
				}
			}()
			st.read(ctx, func(tx *txn) error {
				return tx.eachRow("SELECT 1", nil, func(*row) error { panic("boom") })
			})
		}()
	}
	n := int64(0)
	err = st.read(ctx, func(tx *txn) error {
		return tx.eachRow("SELECT 41 + 1", nil, func(r *row) error { n = r.int(0); return nil })
	})
	if err != nil || n != 42 {
		t.Errorf("a read after the panics: %d, %v", n, err)
	}
}
