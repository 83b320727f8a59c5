package api

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"lading/api/wire"
	"lading/internal/jsonstr"
)

// WriteResult is the service's answer to a write, record by record, in the
// order of the records given: index i (0-based) is the i-th record passed
// to the call.
//
// A write returns either a result and a nil error, or a nil result and an
// error. A result comes with every answer that accounts for the records
// one by one, whatever its status (200 when some applied, 400 when none
// did): records it rejected are in Failed, never in the error. The error is
// for whole-call failures only; [Classify] tells what to do with it.
type WriteResult struct {
	Resource string
	// IDs holds, per record, the id written ("" where the record failed).
	IDs []ID
	// Failed lists the records the service rejected, by index, in order.
	Failed []RecordError
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
	records  []byte // the records' JSON array, sent under resource as it is
	n        int    // number of records
	bulk     any    // optional bulk_action
}

// Encoded is write records of type T encoded once, as a write sends them.
// A caller that keeps what it sends (the state records a batch before it
// goes) keeps JSON and gives the same Encoded to the service's
// WriteEncoded, which sends those bytes as they are: the records are
// encoded once, where keeping them and writing them encoded them twice.
type Encoded[T any] struct {
	json []byte
	n    int
}

// Encode encodes records as every write sends them (see marshal).
func Encode[T any](records []T) (Encoded[T], error) {
	b, err := marshal(records)
	if err != nil {
		return Encoded[T]{}, fmt.Errorf("api: %w: encoding %d write records: %w", ErrInvalid, len(records), err)
	}
	return Encoded[T]{json: b, n: len(records)}, nil
}

// JSON is the records' JSON array, as a write sends it. It is not to be
// changed: a write sends these bytes.
func (e Encoded[T]) JSON() []byte { return e.json }

// Len is the number of records.
func (e Encoded[T]) Len() int { return e.n }

// writeEncoded writes records under resource.
func writeEncoded[T any](ctx context.Context, c *Client, resource string, records Encoded[T]) (*WriteResult, error) {
	return c.write(ctx, writeSpec{resource: resource, records: records.json, n: records.n})
}

// writeRecords encodes records and writes them under resource, with
// bulk as the bulk_action when it is not nil.
func writeRecords[T any](ctx context.Context, c *Client, resource string, records []T, bulk any) (*WriteResult, error) {
	e, err := Encode(records)
	if err != nil {
		return nil, err
	}
	return c.write(ctx, writeSpec{resource: resource, records: e.json, n: e.n, bulk: bulk})
}

// checkCount refuses empty and oversized write arrays before sending.
func checkCount(resource string, n int) error {
	if n == 0 {
		return fmt.Errorf("api: %s write: %w: no records given", resource, ErrInvalid)
	}
	if n > wire.MaxWriteRecords {
		return fmt.Errorf("api: %s write: %w: %d records in one write; at most %d are allowed, split the batch", resource, ErrInvalid, n, wire.MaxWriteRecords)
	}
	return nil
}

// write sends a write envelope and reads the per-record answer.
func (c *Client) write(ctx context.Context, w writeSpec) (*WriteResult, error) {
	if err := checkCount(w.resource, w.n); err != nil {
		return nil, err
	}
	var bulk []byte
	if w.bulk != nil {
		var err error
		if bulk, err = marshal(w.bulk); err != nil {
			return nil, fmt.Errorf("api: %s write: %w: encoding the bulk action: %w", w.resource, ErrInvalid, err)
		}
	}
	body := envelope(w.resource, w.records, bulk)
	return c.sendWrite(ctx, w.resource, call{path: wire.WritePath(w.resource), body: body, write: true}, w.n)
}

// envelope is a write's body, {action, <resource>: records, bulk_action},
// bulk_action only when bulk is not nil, records and bulk put in as they
// are, already JSON. The members go in the order of their keys, the order
// in which encoding the envelope as a map wrote them, so that bodies and
// traces read as before.
func envelope(resource string, records, bulk []byte) []byte {
	type member struct {
		key   string
		value []byte
	}
	ms := []member{{wire.KeyAction, jsonstr.Append(nil, wire.ActionWrite)}, {resource, records}}
	if bulk != nil {
		ms = append(ms, member{wire.KeyBulkAction, bulk})
	}
	slices.SortFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) })
	b := make([]byte, 0, len(records)+len(bulk)+64)
	b = append(b, '{')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonstr.Append(b, m.key)
		b = append(b, ':')
		b = append(b, m.value...)
	}
	return append(b, '}')
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
			return nil, fmt.Errorf("api: POST %s%s: %w: %w", c.base.Path, cl.path, ErrOutcomeUnknown, perr)
		}
		return res, nil
	case errors.As(err, &apiErr) && ans != nil && namesRecords(apiErr.StatusCode):
		if res := c.rejectedRecords(resource, ans.body, n, apiErr); res != nil {
			return res, nil
		}
	}
	return nil, err
}

// namesRecords reports whether an answer with this status may list the
// write's records one by one: a validation failure, not the token's. [B.2]
func namesRecords(status int) bool {
	return status == http.StatusBadRequest || status == http.StatusUnprocessableEntity
}

// rejectedRecords reads the records of a refused write from its answer:
// a write answer with an error per record, or an error body naming records
// by index (the others failed with them: the write was refused whole). It
// returns nil when the answer names no record. [B.1] [B.2]
func (c *Client) rejectedRecords(resource string, body []byte, n int, apiErr *APIError) *WriteResult {
	if res, err := c.parseWriteAnswer(resource, body, n); err == nil && len(res.Failed) > 0 {
		return res
	}
	res := &WriteResult{Resource: resource, IDs: make([]ID, n)}
	named := make(map[int]bool)
	for _, r := range apiErr.Errors {
		if r.Index >= 0 && r.Index < n && !named[r.Index] {
			named[r.Index] = true
			res.Failed = append(res.Failed, r)
		}
	}
	if len(res.Failed) == 0 {
		return nil
	}
	why := apiErr.Message
	if why == "" {
		why = fmt.Sprintf("%d %s", apiErr.StatusCode, http.StatusText(apiErr.StatusCode))
	}
	for i := range n {
		if !named[i] {
			res.Failed = append(res.Failed, RecordError{Index: i, Message: why, Whole: true})
		}
	}
	slices.SortFunc(res.Failed, func(a, b RecordError) int { return cmp.Compare(a.Index, b.Index) })
	return res
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
