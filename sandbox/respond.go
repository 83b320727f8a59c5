package sandbox

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	json "github.com/goccy/go-json"

	"lading/api/wire"
	"lading/internal/jsonstr"
)

// apiError is a request-level failure answered with a B.1 body.
type apiError struct {
	status int
	body   wire.ErrorBody
}

func (e *apiError) Error() string { return e.body.Message }

func newAPIError(status int, format string, a ...any) *apiError {
	return &apiError{status: status, body: wire.ErrorBody{Message: fmt.Sprintf(format, a...)}}
}

func badRequest(format string, a ...any) *apiError {
	return newAPIError(http.StatusBadRequest, format, a...)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(wire.ErrorBody{Message: "sandbox: encode response: " + err.Error()})
	}
	writeBytes(w, status, b)
}

func writeBytes(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", wire.ContentTypeJSON)
	w.WriteHeader(status)
	w.Write(b)
}

func writeError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.status, e.body)
}

// readResult is the answer of a listing or detail read.
type readResult struct {
	resource string
	meta     wire.Meta
	records  []any
	// side holds sideloaded records per resource name, in the order added;
	// of two of one id, the later stands.
	side map[string][]sideRecord
}

// sideRecord is a sideloaded record: raw when it is JSON already, else
// rec.
type sideRecord struct {
	id  string
	raw rawJSON
	rec any
}

func (s *sideRecord) size() int {
	if s.raw != nil {
		return len(s.raw)
	}
	return recordSize(s.rec)
}

// sorted sorts recs in the order encoding/json writes a map's keys, by id
// as text, and leaves out each record that a later one of its id stands
// for.
func sorted(recs []sideRecord) []sideRecord {
	slices.SortStableFunc(recs, func(a, b sideRecord) int { return strings.Compare(a.id, b.id) })
	out := recs[:0]
	for i, r := range recs {
		if i+1 < len(recs) && recs[i+1].id == r.id {
			continue
		}
		out = append(out, r)
	}
	return out
}

// answers keeps the buffers of answers written, for the next ones: a page
// of 250 variants is about a megabyte, allocated (and cleared) once a page
// otherwise.
var answers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer kept for another answer.
const maxPooled = 16 << 20

// encode writes the body in the service's order: meta, the resource array,
// then each non-empty sideload keyed by id, into a buffer of answers that
// the caller puts back once it is written. [A.3] [A.4]
func (r *readResult) encode(sideOrder []string) (*bytes.Buffer, error) {
	buf := answers.Get().(*bytes.Buffer)
	buf.Reset()
	buf.Grow(r.size())
	if err := r.encodeTo(buf, sideOrder); err != nil {
		answers.Put(buf)
		return nil, err
	}
	return buf, nil
}

// putAnswer gives back a buffer of encode once its answer is written.
func putAnswer(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooled {
		answers.Put(buf)
	}
}

func (r *readResult) encodeTo(buf *bytes.Buffer, sideOrder []string) error {
	buf.WriteString(`{"meta":`)
	if err := appendJSON(buf, r.meta); err != nil {
		return err
	}
	buf.WriteString(`,`)
	if err := appendJSON(buf, r.resource); err != nil {
		return err
	}
	buf.WriteString(`:[`)
	for i, rec := range r.records {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := appendValue(buf, rec); err != nil {
			return err
		}
	}
	buf.WriteString(`]`)
	for _, name := range sideOrder {
		recs := r.side[name]
		if len(recs) == 0 || name == r.resource {
			continue
		}
		buf.WriteString(`,`)
		appendJSON(buf, name)
		buf.WriteString(`:{`)
		for i, s := range sorted(recs) {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(jsonstr.Append(buf.AvailableBuffer(), s.id))
			buf.WriteByte(':')
			if s.raw != nil {
				buf.Write(s.raw)
			} else if err := appendValue(buf, s.rec); err != nil {
				return err
			}
		}
		buf.WriteString("}")
	}
	buf.WriteString("}")
	return nil
}

// size is about the size of the answer: its records already JSON exactly,
// the others (few) at a guess, so that its buffer is allocated once.
func (r *readResult) size() int {
	n := 1024 // meta and the resources' names
	for _, rec := range r.records {
		n += recordSize(rec) + 1
	}
	for _, recs := range r.side {
		for _, s := range recs {
			n += len(s.id) + s.size() + 4
		}
	}
	return n
}

func recordSize(rec any) int {
	if raw, ok := rec.(rawJSON); ok {
		return len(raw)
	}
	return 1024
}

// appendValue writes a record: as it is when already JSON.
func appendValue(buf *bytes.Buffer, v any) error {
	if raw, ok := v.(rawJSON); ok {
		buf.Write(raw)
		return nil
	}
	return appendJSON(buf, v)
}

func appendJSON(buf *bytes.Buffer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("sandbox: encode response: %w", err)
	}
	buf.Write(b)
	return nil
}

// pageMeta computes the paging block; an empty result has last_page, from
// and to "0". [A.4]
func pageMeta(page, size, total, n int) wire.Meta {
	last := (total + size - 1) / size
	from, to := 0, 0
	if n > 0 {
		from = (page-1)*size + 1
		to = from + n - 1
	}
	return wire.Meta{
		CurrentPage: itoa(int64(page)),
		LastPage:    itoa(int64(last)),
		PerPage:     itoa(int64(size)),
		Total:       itoa(int64(total)),
		From:        itoa(int64(from)),
		To:          itoa(int64(to)),
	}
}

// add adds a sideloaded record.
func (r *readResult) add(resource, id string, rec any) {
	if raw, ok := rec.(rawJSON); ok {
		r.addRaw(resource, id, raw)
		return
	}
	r.addSide(resource, sideRecord{id: id, rec: rec})
}

// addRaw adds a sideloaded record written already.
func (r *readResult) addRaw(resource, id string, raw rawJSON) {
	r.addSide(resource, sideRecord{id: id, raw: raw})
}

// expectSide tells r that n records of resource are to be added.
func (r *readResult) expectSide(resource string, n int) {
	if r.side == nil {
		r.side = map[string][]sideRecord{}
	}
	r.side[resource] = slices.Grow(r.side[resource], n)
}

func (r *readResult) addSide(resource string, s sideRecord) {
	if r.side == nil {
		r.side = map[string][]sideRecord{}
	}
	r.side[resource] = append(r.side[resource], s)
}
