package api

import (
	"bytes"
)

// Link is one related record in a read record's `links`. Entries may carry
// fields beyond the id: `type` on addresses, `quantity` on line items.
type Link struct {
	ID       ID     `json:"id"`
	Type     string `json:"type,omitempty"`
	Quantity Flex   `json:"quantity,omitempty"`
}

// Links maps a resource name to the related records of a read record. It
// decodes from an object of arrays, and from `[]` (the wire's empty links).
type Links map[string][]Link

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

// IDs returns the ids linked under resource, in order.
func (l Links) IDs(resource string) []ID {
	list := l[resource]
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
	if list := l[resource]; len(list) > 0 {
		return list[0].ID
	}
	return ""
}

// Has reports whether id is linked under resource.
func (l Links) Has(resource string, id ID) bool {
	for _, x := range l[resource] {
		if x.ID == id {
			return true
		}
	}
	return false
}
