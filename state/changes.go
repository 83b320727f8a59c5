package state

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Change is one record a run wrote, with the values it had before and
// after: what the run's history shows, and what undo takes back. Changes
// are recorded with their batch (RecordIntent), before it is sent.
type Change struct {
	ID       int64
	RunID    int64
	IntentID int64
	// Seq is the record's place in its batch (0-based).
	Seq int
	Op  Op
	// Resource is what was written: ResourceProduct, ResourceVariant,
	// ResourceLevel.
	Resource string
	// Key names the record as the job's file does (a SKU, a product key).
	Key string
	// RecordID is the record's id in the account; for a create it is
	// filled in when the service gives it (SetChangeIDs).
	RecordID string
	// ParentID is the product of a variant, the warehouse of a level.
	ParentID string
	// Before and After are the fields the write changed, as the account
	// held them before and as the write set them (none before a create,
	// none after a delete). A value unknown before is absent.
	Before, After map[string]string
	// Written says whether the account took the record: WrittenYes,
	// WrittenNo (refused, or not applied and sent again in a later batch,
	// whose change is another), or WrittenUnknown (no answer came, and
	// nothing checked it since).
	Written Written
}

// Written says whether the account took a change's record.
type Written string

// Whether the account took a record.
const (
	WrittenUnknown Written = "unknown"
	WrittenYes     Written = "yes"
	WrittenNo      Written = "no"
)

// Op is what a change did to its record.
type Op string

// Ops.
const (
	OpCreate  Op = "create"
	OpUpdate  Op = "update"
	OpDelete  Op = "delete"
	OpArchive Op = "archive"
)

// Resources of changes.
const (
	ResourceProduct = "product"
	ResourceVariant = "variant"
	ResourceLevel   = "level"
	// ResourceFile is a product file (an image an import uploaded).
	ResourceFile = "file"
)

// changesInsert inserts a batch's changes, after its run and its id.
var changesInsert = bulkRows{
	head: `INSERT INTO changes (run_id, intent_id, seq, op, resource, key, record_id, parent_id, before, after)`,
	row:  `(?1, ?2, ?, ?, ?, ?, ?, ?, ?, ?)`,
}

// recordChanges records the changes of the batch intentID of run in tx,
// in the order given (none in a scratch state).
func (db *DB) recordChanges(ctx context.Context, tx *sql.Tx, runID, intentID int64, changes []Change) error {
	if db.scratch {
		return nil
	}
	return db.writeRows(ctx, tx, &changesInsert, []any{runID, intentID}, func(yield func([]any) bool) {
		var (
			buf  []byte
			keys []string
		)
		row := make([]any, 0, 8)
		for _, c := range changes {
			buf, keys = appendJSONObject(buf[:0], c.Before, keys)
			before := string(buf)
			buf, keys = appendJSONObject(buf[:0], c.After, keys)
			row = append(row[:0], c.Seq, string(c.Op), c.Resource, c.Key, c.RecordID, c.ParentID, before, string(buf))
			if !yield(row) {
				return
			}
		}
	})
}

// confirmChanges records in tx which records of the batch intentID the
// account took (took maps a record's place in the batch to the id it
// has) and which it did not (the rest): the changes not taken in one
// statement, those taken bulkChunk to a statement (confirmTaken), where
// each was a statement of its own.
func (db *DB) confirmChanges(ctx context.Context, tx *sql.Tx, intentID int64, took map[int]string) error {
	if db.scratch {
		return nil
	}
	seqs := append([]int{}, slices.Sorted(maps.Keys(took))...) // none: [], not null
	taken, err := json.Marshal(seqs)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE changes SET written = 0
		WHERE intent_id = ? AND seq NOT IN (SELECT value FROM json_each(?))`, intentID, string(taken)); err != nil {
		return err
	}
	return db.writeRows(ctx, tx, &confirmTaken, nil, func(yield func([]any) bool) {
		row := make([]any, 3)
		for _, seq := range seqs {
			if row[0], row[1], row[2] = intentID, seq, took[seq]; !yield(row) {
				return
			}
		}
	})
}

// confirmTaken marks changes taken written, with their ids: each row the
// batch, the change's place in it, and the id (none keeps the one it
// has). The batch is in every row, not a fixed value: so constrained, the
// batch's changes looked few enough to the planner to read all the rows
// of the statement for each of them (400 × 50, eight times, for a batch
// of 400), where now each row finds its change
// (TestConfirmTakenFindsEachChange).
var confirmTaken = bulkRows{
	head: `WITH t (intent, seq, id) AS (`,
	row:  `(?, ?, ?)`,
	tail: `) UPDATE changes SET written = 1, record_id = CASE WHEN t.id = '' THEN record_id ELSE t.id END
		FROM t WHERE changes.intent_id = t.intent AND changes.seq = t.seq`,
}

// Changes returns the changes of run in the order they were recorded.
func (db *DB) Changes(ctx context.Context, runID int64) ([]Change, error) {
	out, err := db.changes(ctx, `c.run_id = ?`, runID)
	if err != nil {
		return nil, fmt.Errorf("state: reading what run %d wrote: %w", runID, err)
	}
	return out, nil
}

// IntentChanges returns the changes of the batches intentIDs, in the order
// they were recorded.
func (db *DB) IntentChanges(ctx context.Context, intentIDs []int64) ([]Change, error) {
	var out []Change
	for chunk := range slices.Chunk(intentIDs, idChunk) {
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		cs, err := db.changes(ctx, `c.intent_id IN (`+placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("state: reading what %d batches wrote: %w", len(intentIDs), err)
		}
		out = append(out, cs...)
	}
	return out, nil
}

// changes returns the changes where cond holds, in the order recorded.
func (db *DB) changes(ctx context.Context, cond string, args ...any) ([]Change, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT c.id, c.run_id, c.intent_id, c.seq, c.op, c.resource, c.key, c.record_id, c.parent_id,
		c.before, c.after, c.written FROM changes c JOIN intents i ON i.id = c.intent_id
		WHERE `+cond+` ORDER BY i.run_id, i.seq, c.seq`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Change
	for rows.Next() {
		var (
			c                 Change
			op, before, after string
			written           sql.NullBool
		)
		if err := rows.Scan(&c.ID, &c.RunID, &c.IntentID, &c.Seq, &op, &c.Resource, &c.Key, &c.RecordID, &c.ParentID, &before, &after, &written); err != nil {
			return nil, err
		}
		c.Op, c.Written = Op(op), WrittenUnknown
		if written.Valid {
			c.Written = map[bool]Written{true: WrittenYes, false: WrittenNo}[written.Bool]
		}
		if err := json.Unmarshal([]byte(before), &c.Before); err != nil {
			return nil, fmt.Errorf("change %d: %w", c.ID, err)
		}
		if err := json.Unmarshal([]byte(after), &c.After); err != nil {
			return nil, fmt.Errorf("change %d: %w", c.ID, err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// RecordRef names a record of the account: its resource and id.
type RecordRef struct{ Resource, ID string }

// LaterRuns returns the runs after run that wrote any of recs, newest
// first: an undo of run would take back what they did to them too.
func (db *DB) LaterRuns(ctx context.Context, runID int64, recs []RecordRef) ([]Run, error) {
	if len(recs) == 0 {
		return nil, nil
	}
	var ids []int64
	seen := map[int64]bool{}
	for chunk := range slices.Chunk(recs, idChunk) {
		conds := make([]string, len(chunk))
		args := []any{runID}
		for i, r := range chunk {
			conds[i] = "(resource = ? AND record_id = ?)"
			args = append(args, r.Resource, r.ID)
		}
		rows, err := db.sql.QueryContext(ctx, `SELECT DISTINCT run_id FROM changes WHERE run_id > ? AND (`+strings.Join(conds, " OR ")+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("state: runs after run %d: %w", runID, err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		rows.Close()
	}
	var out []Run
	for _, id := range ids {
		r, err := db.GetRun(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b Run) int { return cmp.Compare(b.ID, a.ID) })
	return out, nil
}
