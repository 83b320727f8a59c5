// Package history is what lading remembers of the runs of its jobs
// (imports, stock pushes, shipments and slips pushes, undos): each run
// with its file, its times, how it ended and its rows by status, and what
// it wrote, record by record, with the values before and after. The runs
// live in the state; this package reads them for people and for undo.
package history

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"time"

	"lading/state"
)

// Entry is a run as the history lists it.
type Entry struct {
	ID   int64  `json:"id"`
	Job  string `json:"job"`
	File string `json:"file,omitempty"`
	// Status is done, partial (some rows failed), or unfinished: a run
	// that was interrupted or stopped, which its next run resumes.
	Status  string         `json:"status"`
	Started time.Time      `json:"started"`
	Ended   *time.Time     `json:"ended,omitempty"`
	Rows    map[string]int `json:"rows,omitempty"`
	// Of is, for an undo, the run it takes back.
	Of int64 `json:"undoes,omitempty"`
}

// Unfinished is the status of a run that has not ended.
const Unfinished = "unfinished"

// EntryOf is run as the history lists it.
func EntryOf(run *state.Run) Entry {
	e := Entry{ID: run.ID, Job: run.Command, File: run.Meta["input"], Status: run.Status, Started: run.StartedAt}
	if run.Finished() {
		t := run.FinishedAt
		e.Ended = &t
	} else {
		e.Status = Unfinished
	}
	var sum struct {
		Rows map[string]int `json:"rows"`
	}
	if json.Unmarshal(run.Summary, &sum) == nil {
		e.Rows = sum.Rows
	}
	if of, err := strconv.ParseInt(run.Meta[MetaUndoes], 10, 64); err == nil {
		e.Of = of
	}
	return e
}

// MetaUndoes is the key of an undo run's meta naming the run it undoes.
const MetaUndoes = "undoes"

// List is the newest runs first, at most limit (all when limit <= 0).
func List(ctx context.Context, st *state.DB, limit int) ([]Entry, error) {
	runs, err := st.Runs(ctx, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(runs))
	for i := range runs {
		out[i] = EntryOf(&runs[i])
	}
	return out, nil
}

// Record is one record a run wrote: what it did, to what, and the fields
// it changed with their values before and after.
type Record struct {
	Op       state.Op `json:"op"`
	Resource string   `json:"resource"`
	Key      string   `json:"key"`
	ID       string   `json:"id,omitempty"`
	Parent   string   `json:"parent,omitempty"`
	Fields   []Field  `json:"fields,omitempty"`
	// Written says whether the account took the record: yes, no, or
	// unknown (no answer came, and nothing checked it since).
	Written state.Written `json:"written"`
}

// Field is one field a record's write changed.
type Field struct {
	Name   string `json:"field"`
	Before string `json:"before"`
	// Known says whether the value before was known (a level before a
	// first push without a read is not).
	Known bool   `json:"before_known"`
	After string `json:"after"`
}

// Show is run and what it wrote, in the order it wrote it.
func Show(ctx context.Context, st *state.DB, id int64) (Entry, []Record, error) {
	run, err := st.GetRun(ctx, id)
	if err != nil {
		return Entry{}, nil, err
	}
	changes, err := st.Changes(ctx, id)
	if err != nil {
		return Entry{}, nil, err
	}
	recs := make([]Record, len(changes))
	for i, c := range changes {
		recs[i] = Record{Op: c.Op, Resource: c.Resource, Key: c.Key, ID: c.RecordID, Parent: c.ParentID,
			Fields: fields(c), Written: c.Written}
	}
	return EntryOf(run), recs, nil
}

// fields are a change's fields in name order.
func fields(c state.Change) []Field {
	names := map[string]bool{}
	for k := range c.Before {
		names[k] = true
	}
	for k := range c.After {
		names[k] = true
	}
	var out []Field
	for _, n := range slices.Sorted(maps.Keys(names)) {
		b, known := c.Before[n]
		out = append(out, Field{Name: n, Before: b, Known: known, After: c.After[n]})
	}
	return out
}
