package state

import (
	"context"
	"database/sql"
	"fmt"
)

// Settlement is what became of a batch once it was answered (or read
// back): its outcome, with the answer's note; which of its records the
// account took, by place in the batch, with the ids they have (nil: the
// batch recorded no changes; empty: it took none); and what the job keeps
// of the records taken, each under its scope: texts by key (ids, memos),
// stock levels and product files.
type Settlement struct {
	Outcome Outcome
	Results []byte
	Took    map[int]string
	Keys    []Keys
	Levels  []Levels
	Files   []Files
}

// Keys are texts kept by key under Scope (as PutIDs keeps them): Put
// upserted, then Forget deleted.
type Keys struct {
	Scope  string
	Put    map[string]string
	Forget []string
}

// Levels are stock levels kept by key under Scope.
type Levels struct {
	Scope string
	Put   map[string]float64
}

// Files are product files kept under Scope, as PutFiles keeps them.
type Files struct {
	Scope  string
	Put    []File
	Forget []FileKey
}

// Settle records s for the batch intentID in one transaction: the
// outcome, the changes taken and what the job keeps are on disk together
// or not at all, so a crash between them cannot leave a record sent and
// forgotten, nor a batch settled without its records' ids, levels or
// files; and a batch is settled in one commit (a wait for the disk).
// s.Outcome must not be OutcomePending.
func (db *DB) Settle(ctx context.Context, intentID int64, s Settlement) error {
	if err := checkOutcome(s.Outcome); err != nil {
		return fmt.Errorf("state: saving what happened to batch %d: %w", intentID, err)
	}
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		if err := db.keep(ctx, tx, &s); err != nil {
			return err
		}
		if s.Took != nil {
			if err := db.confirmChanges(ctx, tx, intentID, s.Took); err != nil {
				return err
			}
		}
		return setOutcome(ctx, tx, intentID, s.Outcome, s.Results)
	})
	if err != nil {
		return fmt.Errorf("state: saving what happened to batch %d and its records: %w", intentID, err)
	}
	return nil
}

// keep writes what s keeps of a batch's records in tx (nothing in a
// scratch state: later runs read it).
func (db *DB) keep(ctx context.Context, tx *sql.Tx, s *Settlement) error {
	if db.scratch {
		return nil
	}
	for _, k := range s.Keys {
		if err := db.putIDs(ctx, tx, k.Scope, k.Put); err != nil {
			return err
		}
		if len(k.Forget) > 0 {
			if err := deleteKeys(ctx, tx, idsTable, k.Scope, k.Forget); err != nil {
				return err
			}
		}
	}
	for _, l := range s.Levels {
		if err := db.putStock(ctx, tx, l.Scope, l.Put); err != nil {
			return err
		}
	}
	for _, f := range s.Files {
		if err := putFiles(ctx, tx, f.Scope, f.Put, f.Forget); err != nil {
			return err
		}
	}
	return nil
}
