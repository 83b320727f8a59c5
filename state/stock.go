package state

import (
	"context"
	"database/sql"
	"fmt"
)

// PutStock remembers the stock levels last pushed for keys of scope (for
// example base URL + warehouse, keyed by SKU), replacing what was
// remembered. All levels are committed together.
func (db *DB) PutStock(ctx context.Context, scope string, levels map[string]float64) error {
	if len(levels) == 0 {
		return nil
	}
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO stock (scope, key, level, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (scope, key) DO UPDATE SET level = excluded.level, updated_at = excluded.updated_at`)
		if err != nil {
			return err
		}
		defer st.Close()
		t := now()
		for k, v := range levels {
			if _, err := st.ExecContext(ctx, scope, k, v, t); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("state: put stock (%s): %w", scope, err)
	}
	return nil
}

// Stock returns every stock level remembered for scope.
func (db *DB) Stock(ctx context.Context, scope string) (map[string]float64, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT key, level FROM stock WHERE scope = ?`, scope)
	if err != nil {
		return nil, fmt.Errorf("state: stock (%s): %w", scope, err)
	}
	defer rows.Close()
	out := map[string]float64{}
	for rows.Next() {
		var k string
		var v float64
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("state: stock (%s): %w", scope, err)
		}
		out[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("state: stock (%s): %w", scope, err)
	}
	return out, nil
}
