package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"lading/api/wire"
)

// WriteResult is the service's answer to a write, record by record, in the
// order of the records given: index i (0-based) is the i-th record passed
// to the call.
type WriteResult struct {
	Resource string
	// IDs holds, per record, the id written ("" where the record failed).
	IDs []ID
	// Failed lists the records the service rejected, by index.
	Failed []RecordError
}

// Err returns nil if no record failed, else a *BatchError listing each
// failed record.
func (r *WriteResult) Err() error {
	if r == nil || len(r.Failed) == 0 {
		return nil
	}
	return &BatchError{Resource: r.Resource, Total: len(r.IDs), Failed: r.Failed}
}

// OK reports whether record i was applied.
func (r *WriteResult) OK(i int) bool { return i >= 0 && i < len(r.IDs) && r.IDs[i] != "" }

// writeEntry is one entry of a write answer: {"id": ...} or {"error": ...}.
// [A.6] [B.2]
type writeEntry struct {
	ID    ID              `json:"id"`
	Error json.RawMessage `json:"error"`
}

// entryError reads a failed entry's error: an object {message, field,
// errors[]} or a plain string.
func entryError(raw json.RawMessage) (field, msg string) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return "", s
	}
	var e struct {
		Field   Flex `json:"field"`
		Message Flex `json:"message"`
		Errors  []struct {
			Field   Flex `json:"field"`
			Message Flex `json:"message"`
		} `json:"errors"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return "", string(raw)
	}
	field, msg = string(e.Field), string(e.Message)
	for _, sub := range e.Errors {
		if field == "" {
			field = string(sub.Field)
		}
		if msg == "" {
			msg = string(sub.Message)
		} else if sub.Message != "" && string(sub.Message) != msg {
			msg += "; " + string(sub.Message)
		}
	}
	if msg == "" {
		msg = "rejected without a message"
	}
	return field, msg
}

// writeSpec is one write request.
type writeSpec struct {
	resource string // envelope key and wire.WritePath's resource, e.g. wire.Products
	records  any    // a slice, marshalled under resource
	n        int    // number of records
	bulk     any    // optional bulk_action
}

// checkCount refuses empty and oversized write arrays before sending.
func checkCount(resource string, n int) error {
	if n == 0 {
		return fmt.Errorf("api: %s write: %w: no records given", resource, ErrNotApplied)
	}
	if n > wire.MaxWriteRecords {
		return fmt.Errorf("api: %s write: %w: %d records in one write; at most %d are allowed, split the batch", resource, ErrNotApplied, n, wire.MaxWriteRecords)
	}
	return nil
}

// write sends a write envelope and reads the per-record answer.
func (c *Client) write(ctx context.Context, w writeSpec) (*WriteResult, error) {
	if err := checkCount(w.resource, w.n); err != nil {
		return nil, err
	}
	env := map[string]any{wire.KeyAction: wire.ActionWrite, w.resource: w.records}
	if w.bulk != nil {
		env[wire.KeyBulkAction] = w.bulk
	}
	body, err := marshal(env)
	if err != nil {
		return nil, fmt.Errorf("api: %s write: %w: encoding the records: %w", w.resource, ErrNotApplied, err)
	}
	return c.sendWrite(ctx, w.resource, call{path: wire.WritePath(w.resource), body: body, write: true}, w.n)
}

// sendWrite runs a prepared write call and reads its answer.
func (c *Client) sendWrite(ctx context.Context, resource string, cl call, n int) (*WriteResult, error) {
	ans, err := c.do(ctx, cl)
	var apiErr *APIError
	switch {
	case err == nil:
		res, perr := c.parseWriteAnswer(resource, ans.body, n)
		if perr != nil {
			c.unknown.Add(1)
			return res, fmt.Errorf("api: POST %s%s: %w: %w", c.base.Path, cl.path, ErrOutcomeUnknown, perr)
		}
		return res, nil
	case errors.As(err, &apiErr) && ans != nil && apiErr.StatusCode == http.StatusBadRequest:
		// Every record rejected: the answer lists them per record, or as
		// an error body with indexes. [B.1] [B.2]
		if res, perr := c.parseWriteAnswer(resource, ans.body, n); perr == nil && len(res.Failed) > 0 {
			return res, &BatchError{Resource: resource, Total: n, Failed: res.Failed, Err: apiErr}
		}
		if len(apiErr.Errors) > 0 {
			res := &WriteResult{Resource: resource, IDs: make([]ID, n)}
			named := make(map[int]bool)
			for _, r := range apiErr.Errors {
				if r.Index >= 0 && r.Index < n {
					named[r.Index] = true
					res.Failed = append(res.Failed, r)
				}
			}
			for i := 0; i < n; i++ {
				if !named[i] {
					res.Failed = append(res.Failed, RecordError{Index: i, Message: "not applied: the service rejected the batch (400) without naming this record"})
				}
			}
			sortFailed(res.Failed)
			return res, &BatchError{Resource: resource, Total: n, Failed: res.Failed, Err: apiErr}
		}
		return nil, apiErr
	default:
		return nil, err
	}
}

// parseWriteAnswer reads {"<resource>":[{"id":..}|{"error":..}, ...]}. An
// answer that does not account for every record is an error: the caller
// cannot tell which were applied.
func (c *Client) parseWriteAnswer(resource string, body []byte, n int) (*WriteResult, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, fmt.Errorf("the write answer is not JSON: %v", err)
	}
	raw, ok := top[resource]
	if !ok || len(bytes.TrimSpace(raw)) == 0 {
		return nil, fmt.Errorf("the write answer has no %q array", resource)
	}
	var entries []writeEntry
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("the write answer's %q is not an array of results: %v", resource, err)
	}
	res := &WriteResult{Resource: resource, IDs: make([]ID, n)}
	for i := 0; i < n && i < len(entries); i++ {
		e := entries[i]
		switch {
		case len(e.Error) > 0 && string(e.Error) != "null":
			field, msg := entryError(e.Error)
			res.Failed = append(res.Failed, RecordError{Index: i, Field: c.redact(field), Message: c.redact(msg)})
		case e.ID != "":
			res.IDs[i] = e.ID
		default:
			res.Failed = append(res.Failed, RecordError{Index: i, Message: "the service returned neither an id nor an error for this record"})
		}
	}
	if len(entries) != n {
		return res, fmt.Errorf("the write answer lists %d results for %d records", len(entries), n)
	}
	return res, nil
}

func sortFailed(f []RecordError) {
	for i := 1; i < len(f); i++ {
		for j := i; j > 0 && f[j].Index < f[j-1].Index; j-- {
			f[j], f[j-1] = f[j-1], f[j]
		}
	}
}
