package api

import (
	"bytes"
	"fmt"
	json "github.com/goccy/go-json"
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
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*l = nil
		return nil
	case b[0] == '[':
		var items []json.RawMessage
		if err := json.Unmarshal(b, &items); err != nil {
			return fmt.Errorf("links: %w", err)
		}
		if len(items) != 0 {
			return fmt.Errorf("links: want an object of arrays, got a non-empty array")
		}
		*l = nil
		return nil
	}
	var direct map[string][]Link
	if json.Unmarshal(b, &direct) == nil { // the common shape, in one pass
		*l = direct
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("links: %w", err)
	}
	out := make(Links, len(raw))
	for name, v := range raw {
		v = bytes.TrimSpace(v)
		var list []Link
		switch {
		case len(v) == 0 || string(v) == "null":
		case v[0] == '{':
			var one Link
			if err := json.Unmarshal(v, &one); err != nil {
				return fmt.Errorf("links.%s: %w", name, err)
			}
			list = []Link{one}
		default:
			if err := json.Unmarshal(v, &list); err != nil {
				return fmt.Errorf("links.%s: %w", name, err)
			}
		}
		out[name] = list
	}
	*l = out
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
