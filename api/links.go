package api

import (
	"bytes"
	"encoding/json"
)

// Link is one related record in a read record's `links`. Entries may carry
// fields beyond the id: `type` on addresses, `quantity` on line items.
type Link struct {
	ID       ID     `json:"id"`
	Type     string `json:"type,omitempty"`
	Quantity Flex   `json:"quantity,omitempty"`
}

// Links are the related records of a read record, by resource name, in the
// order the answer gave them. They decode from an object of arrays, and
// from `[]` or null (the wire's empty links, read as nil). A slice rather
// than a map: a record links a handful of resources, and a page's links
// are parts of a few blocks rather than a map each.
type Links []LinkSet

// LinkSet is the records linked under one resource name.
type LinkSet struct {
	Resource string
	Items    []Link
}

// UnmarshalJSON accepts an object of arrays, an empty array, or null. A
// single object in place of an array is read as a one-element array.
func (l *Links) UnmarshalJSON(b []byte) error {
	r := recordDecoder{b: bytes.Clone(b)}
	links, err := r.links()
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return err
	}
	*l = links
	return nil
}

// MarshalJSON writes the links as the wire does: an object of arrays.
func (l Links) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("null"), nil
	}
	b := []byte{'{'}
	for i, s := range l {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(s.Resource)
		if err != nil {
			return nil, err
		}
		items := s.Items
		if items == nil {
			items = []Link{}
		}
		v, err := json.Marshal(items)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// Of returns the records linked under resource, in order.
func (l Links) Of(resource string) []Link {
	for _, s := range l {
		if s.Resource == resource {
			return s.Items
		}
	}
	return nil
}

// IDs returns the ids linked under resource, in order.
func (l Links) IDs(resource string) []ID {
	list := l.Of(resource)
	if len(list) == 0 {
		return nil
	}
	ids := make([]ID, len(list))
	for i, x := range list {
		ids[i] = x.ID
	}
	return ids
}

// First returns the first id linked under resource, or "".
func (l Links) First(resource string) ID {
	if list := l.Of(resource); len(list) > 0 {
		return list[0].ID
	}
	return ""
}

// Has reports whether id is linked under resource.
func (l Links) Has(resource string, id ID) bool {
	for _, x := range l.Of(resource) {
		if x.ID == id {
			return true
		}
	}
	return false
}
