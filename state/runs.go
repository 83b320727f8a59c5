package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"
)

// Run statuses. A run is unfinished (and resumable) while it is running;
// FinishRun ends it with any other status.
const (
	StatusRunning = "running"
	StatusDone    = "done"
	StatusFailed  = "failed"
	// StatusPartial: the run finished, and some of its rows failed.
	StatusPartial = "partial"
)

// Run is one invocation of a command, resumable until finished.
type Run struct {
	ID int64
	// Fingerprint identifies the work: the caller derives it from the
	// command, base URL, input file hash, mapping hash and mode, so that
	// re-running the same command finds the same run.
	Fingerprint string
	Command     string
	Status      string
	Meta        map[string]string
	StartedAt   time.Time
	UpdatedAt   time.Time // last StartRun (resume) or FinishRun
	FinishedAt  time.Time // zero while unfinished
	// Summary is what the caller said of the run when it finished (JSON;
	// "{}" before).
	Summary json.RawMessage
}

// Finished reports whether the run has ended.
func (r *Run) Finished() bool { return !r.FinishedAt.IsZero() }

// StartRun returns the unfinished run with fingerprint, resumed = true, when
// there is one (the newest, if several); otherwise it starts a new run with
// command and meta. A resumed run keeps its original command and meta.
//
// The run is held by this DB until FinishRun or Close (or the process
// ends, however it ends): while it is held, StartRun with the same
// fingerprint from another process or DB fails with an error wrapping
// ErrRunInProgress.
func (db *DB) StartRun(ctx context.Context, fingerprint, command string, meta map[string]string) (run *Run, resumed bool, err error) {
	if fingerprint == "" {
		return nil, false, errors.New("state: start run: empty fingerprint")
	}
	lock, err := acquireRunLock(db.path, fingerprint)
	if errors.Is(err, ErrRunInProgress) {
		return nil, false, fmt.Errorf("state: start run: another lading process is running the same command on the same input (%w): wait for it to finish", err)
	}
	if err != nil {
		return nil, false, fmt.Errorf("state: start run: %w", err)
	}
	defer func() {
		if err != nil {
			lock.release()
			return
		}
		db.mu.Lock()
		db.locks[run.ID] = lock
		db.mu.Unlock()
	}()
	err = db.withTx(ctx, func(tx *sql.Tx) error {
		run, resumed, err = resumeOrInsertRun(ctx, tx, fingerprint, command, meta)
		return err
	})
	if err != nil {
		return nil, false, fmt.Errorf("state: start run: %w", err)
	}
	return run, resumed, nil
}

// resumeOrInsertRun, in tx, touches the unfinished run of fingerprint and
// returns it, resumed; or inserts a new run.
func resumeOrInsertRun(ctx context.Context, tx *sql.Tx, fingerprint, command string, meta map[string]string) (*Run, bool, error) {
	t := now()
	row := tx.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs
		WHERE fingerprint = ? AND finished_at IS NULL ORDER BY id DESC LIMIT 1`, fingerprint)
	r, err := scanRun(row)
	switch {
	case err == nil:
		if _, err := tx.ExecContext(ctx, `UPDATE runs SET updated_at = ? WHERE id = ?`, t, r.ID); err != nil {
			return nil, false, err
		}
		r.UpdatedAt = fromMillis(t)
		return r, true, nil
	case !errors.Is(err, sql.ErrNoRows):
		return nil, false, err
	}
	if meta == nil {
		meta = map[string]string{}
	}
	m, err := json.Marshal(meta)
	if err != nil {
		return nil, false, err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO runs (fingerprint, command, status, meta, started_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)`, fingerprint, command, StatusRunning, string(m), t, t)
	if err != nil {
		return nil, false, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return nil, false, err
	}
	return &Run{ID: id, Fingerprint: fingerprint, Command: command, Status: StatusRunning,
		Meta: maps.Clone(meta), StartedAt: fromMillis(t), UpdatedAt: fromMillis(t)}, false, nil
}

// FinishRun ends a run with status (StatusDone, StatusFailed, or another
// word the caller chooses, but not StatusRunning or "") and a summary of
// it (anything that encodes as JSON; nil for none). A finished run is
// never resumed.
func (db *DB) FinishRun(ctx context.Context, runID int64, status string, summary any) error {
	if status == "" || status == StatusRunning {
		return fmt.Errorf("state: finish run %d: status %q: give a final status such as %q or %q", runID, status, StatusDone, StatusFailed)
	}
	sum := []byte("{}")
	if summary != nil {
		var err error
		if sum, err = json.Marshal(summary); err != nil {
			return fmt.Errorf("state: finish run %d: %w", runID, err)
		}
	}
	t := now()
	res, err := db.sql.ExecContext(ctx, `UPDATE runs SET status = ?, summary = ?, finished_at = ?, updated_at = ?
		WHERE id = ? AND finished_at IS NULL`, status, string(sum), t, t, runID)
	if err != nil {
		return fmt.Errorf("state: finish run %d: %w", runID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("state: finish run %d: no unfinished run with that id", runID)
	}
	db.mu.Lock()
	db.locks[runID].release()
	delete(db.locks, runID)
	db.mu.Unlock()
	return nil
}

// LeaveRun lets go of an unfinished run without finishing it: it stays
// to be resumed, by this DB or another process, with StartRun. It does
// nothing to a run this DB does not hold.
func (db *DB) LeaveRun(runID int64) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if l, ok := db.locks[runID]; ok {
		l.release()
		delete(db.locks, runID)
	}
}

// GetRun returns the run with id.
func (db *DB) GetRun(ctx context.Context, id int64) (*Run, error) {
	r, err := scanRun(db.sql.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("state: run %d not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("state: run %d: %w", id, err)
	}
	return r, nil
}

// Runs returns the newest runs first, at most limit (all when limit <= 0).
func (db *DB) Runs(ctx context.Context, limit int) ([]Run, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+runColumns+` FROM runs ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("state: runs: %w", err)
	}
	defer rows.Close()
	var runs []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, fmt.Errorf("state: runs: %w", err)
		}
		runs = append(runs, *r)
	}
	return runs, rows.Err()
}

const runColumns = `id, fingerprint, command, status, meta, started_at, updated_at, finished_at, summary`

func scanRun(s interface{ Scan(...any) error }) (*Run, error) {
	var (
		r        Run
		meta     string
		start    int64
		update   int64
		finished sql.NullInt64
		summary  string
	)
	if err := s.Scan(&r.ID, &r.Fingerprint, &r.Command, &r.Status, &meta, &start, &update, &finished, &summary); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(meta), &r.Meta); err != nil {
		return nil, fmt.Errorf("run %d: meta: %w", r.ID, err)
	}
	r.StartedAt, r.UpdatedAt, r.FinishedAt = fromMillis(start), fromMillis(update), fromMillis(finished.Int64)
	r.Summary = json.RawMessage(summary)
	return &r, nil
}

// What the state keeps of finished runs when a job prunes it: the runs of
// the last KeepFor, and the last KeepRuns runs, whatever their age.
const (
	KeepFor  = 90 * 24 * time.Hour
	KeepRuns = 100
)

// PruneRuns forgets the finished runs (their batches and changes with
// them) that started before cutoff and are not among the newest keep runs;
// unfinished runs are kept, to be resumed. It returns how many it forgot.
func (db *DB) PruneRuns(ctx context.Context, cutoff time.Time, keep int) (int, error) {
	var n int64
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		old := `SELECT id FROM runs WHERE finished_at IS NOT NULL AND started_at < ?
			AND id NOT IN (SELECT id FROM runs ORDER BY id DESC LIMIT ?)`
		args := []any{cutoff.UnixMilli(), max(keep, 0)}
		for _, q := range []string{`DELETE FROM changes WHERE run_id IN (` + old + `)`, `DELETE FROM intents WHERE run_id IN (` + old + `)`} {
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM runs WHERE id IN (`+old+`)`, args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("state: forgetting old runs: %w", err)
	}
	return int(n), nil
}
