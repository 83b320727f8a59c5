package api

import (
	"bytes"

	json "github.com/goccy/go-json"
)

// RawRecord keeps the JSON a read record was decoded from, so that fields
// this package does not name (the service's full field lists are not
// documented) stay reachable through Field and Fields.
type RawRecord struct {
	raw []byte
}

// Field returns the named field of the record as text, and whether the
// record carried it.
func (r RawRecord) Field(name string) (Flex, bool) {
	f, ok := r.Fields()[name]
	return f, ok
}

// Fields returns every scalar field of the record as text (objects and
// arrays, such as links, as compact JSON). It decodes on each call; keep the
// map when reading many fields.
func (r RawRecord) Fields() map[string]Flex {
	if len(r.raw) == 0 {
		return nil
	}
	var m map[string]Flex
	if err := json.Unmarshal(r.raw, &m); err != nil {
		return nil
	}
	return m
}

// RawJSON returns (a copy of) the JSON the record was decoded from.
func (r RawRecord) RawJSON() json.RawMessage { return bytes.Clone(r.raw) }

// unmarshalRecord decodes b, the JSON of one record, into dst, keeping a
// copy of b as its RawRecord.
func unmarshalRecord[T any](b []byte, dst *T) error {
	r, err := decodeRecordJSON[T](bytes.Clone(b), nil)
	if err != nil {
		return err
	}
	if r != nil {
		*dst = *r
	}
	return nil
}
