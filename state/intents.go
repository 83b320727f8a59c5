package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Outcome is what became of an intent's batch.
type Outcome string

// Outcomes. A pending intent was recorded but is not known to have been
// sent; an unknown one was sent and no answer came (a timeout, a dropped
// connection, a crash). Both must be reconciled, by looking their keys up in
// the service, before anything of theirs is sent again. A not-applied
// batch is known to have changed nothing: it was refused before anything
// was applied (throttled, connection refused), or a look-up after an
// unknown outcome found none of its records.
const (
	OutcomePending    Outcome = ""
	OutcomeApplied    Outcome = "applied"
	OutcomeRejected   Outcome = "rejected"
	OutcomePartial    Outcome = "partial"
	OutcomeUnknown    Outcome = "unknown"
	OutcomeNotApplied Outcome = "not_applied"
)

// Open reports whether the outcome leaves the batch to reconcile.
func (o Outcome) Open() bool { return o == OutcomePending || o == OutcomeUnknown }

// Intent is one batch (one write request), recorded before it is sent.
type Intent struct {
	ID    int64
	RunID int64
	Seq   int      // 1, 2, ... in the order recorded within the run
	Kind  string   // e.g. "products.create", "variants.update"
	Keys  []string // the records' keys in request order (SKUs, product keys)
	// Payload is the request body as sent (or as it would be), kept
	// while the batch is open (pending or unknown: to look for its
	// records in the account); nil once it is settled.
	Payload []byte
	Outcome Outcome
	Results []byte // what the caller chose to keep of the answer
	// CreatedAt is when the intent was recorded, UpdatedAt when its
	// outcome last changed.
	CreatedAt, UpdatedAt time.Time
}

// RecordIntent records a batch of run about to be sent, with the changes
// its records make, and returns its id. The intent is committed to disk
// when RecordIntent returns. The run must be unfinished.
func (db *DB) RecordIntent(ctx context.Context, runID int64, kind string, keys []string, payload []byte, changes ...Change) (int64, error) {
	if kind == "" {
		return 0, fmt.Errorf("state: saving a batch of run %d before sending it: the batch has no kind", runID)
	}
	k := appendJSONStrings(nil, keys) // none: [], not null
	var id int64
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		var finished sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT finished_at FROM runs WHERE id = ?`, runID).Scan(&finished)
		if errors.Is(err, sql.ErrNoRows) {
			return errors.New("no such run")
		}
		if err != nil {
			return err
		}
		if finished.Valid {
			return errors.New("the run is finished: start a new run")
		}
		t := now()
		res, err := tx.ExecContext(ctx, `INSERT INTO intents (run_id, seq, kind, keys, payload, created_at, updated_at)
			VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM intents WHERE run_id = ?), ?, ?, ?, ?, ?)`,
			runID, runID, kind, string(k), payload, t, t)
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		return db.recordChanges(ctx, tx, runID, id, changes)
	})
	if err != nil {
		return 0, fmt.Errorf("state: saving a batch of run %d before sending it: %w", runID, err)
	}
	return id, nil
}

// RecordOutcome records what became of an intent's batch, with results the
// caller wants to keep (for example the ids the service returned). It may be
// called again, for instance to settle an unknown outcome after
// reconciling. o must not be OutcomePending.
func (db *DB) RecordOutcome(ctx context.Context, intentID int64, o Outcome, results []byte) error {
	if err := checkOutcome(o); err != nil {
		return fmt.Errorf("state: saving what happened to batch %d: %w", intentID, err)
	}
	if err := setOutcome(ctx, db.sql, intentID, o, results); err != nil {
		return fmt.Errorf("state: saving what happened to batch %d: %w", intentID, err)
	}
	return nil
}

// checkOutcome refuses the pending outcome and words that are no outcome.
func checkOutcome(o Outcome) error {
	switch o {
	case OutcomeApplied, OutcomeRejected, OutcomePartial, OutcomeUnknown, OutcomeNotApplied:
		return nil
	}
	return fmt.Errorf("%q is not one of applied, rejected, partial, unknown or not_applied", o)
}

// execer is a *sql.DB or a *sql.Tx.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// setOutcome stores o and results on intent intentID. A batch settled
// lets go of its records: nothing reads them once its outcome is known,
// and a run's batches hold every record it wrote (some 34 MB for a first
// import of 100,000 rows). One still open (unknown) keeps them.
func setOutcome(ctx context.Context, ex execer, intentID int64, o Outcome, results []byte) error {
	keep := o.Open()
	res, err := ex.ExecContext(ctx, `UPDATE intents SET outcome = ?, results = ?, updated_at = ?,
		payload = CASE WHEN ? THEN payload END WHERE id = ?`, string(o), results, now(), keep, intentID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("no such batch")
	}
	return nil
}

// OpenIntents returns the intents of run whose outcome is pending or
// unknown, in the order recorded: these must be reconciled before their
// records are sent again.
func (db *DB) OpenIntents(ctx context.Context, runID int64) ([]Intent, error) {
	return db.intents(ctx, runID, `AND outcome IN ('', 'unknown')`)
}

// Intents returns all intents of run in the order recorded.
func (db *DB) Intents(ctx context.Context, runID int64) ([]Intent, error) {
	return db.intents(ctx, runID, "")
}

func (db *DB) intents(ctx context.Context, runID int64, where string) ([]Intent, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, run_id, seq, kind, keys, payload, outcome, results, created_at, updated_at
		FROM intents WHERE run_id = ? `+where+` ORDER BY seq`, runID)
	if err != nil {
		return nil, fmt.Errorf("state: reading the batches of run %d: %w", runID, err)
	}
	defer rows.Close()
	var out []Intent
	for rows.Next() {
		var (
			in               Intent
			keys, outcome    string
			created, updated int64
		)
		if err := rows.Scan(&in.ID, &in.RunID, &in.Seq, &in.Kind, &keys, &in.Payload, &outcome, &in.Results, &created, &updated); err != nil {
			return nil, fmt.Errorf("state: reading the batches of run %d: %w", runID, err)
		}
		if err := json.Unmarshal([]byte(keys), &in.Keys); err != nil {
			return nil, fmt.Errorf("state: reading the keys of batch %d: %w", in.ID, err)
		}
		in.Outcome = Outcome(outcome)
		in.CreatedAt, in.UpdatedAt = fromMillis(created), fromMillis(updated)
		out = append(out, in)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("state: reading the batches of run %d: %w", runID, err)
	}
	return out, nil
}
