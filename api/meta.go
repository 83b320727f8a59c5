package api

import (
	"fmt"
	json "github.com/goccy/go-json"

	"lading/api/wire"
)

// Meta is the paging block of a read answer, as numbers. On the wire every
// value is a decimal string; an empty result has LastPage 0. [A.3] [A.4]
type Meta struct {
	CurrentPage int
	LastPage    int
	PerPage     int
	Total       int
	From        int
	To          int
}

// UnmarshalJSON reads the wire form (strings, numbers or null).
func (m *Meta) UnmarshalJSON(b []byte) error {
	var w struct {
		CurrentPage Flex `json:"current_page"`
		LastPage    Flex `json:"last_page"`
		PerPage     Flex `json:"per_page"`
		Total       Flex `json:"total"`
		From        Flex `json:"from"`
		To          Flex `json:"to"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	fields := []struct {
		name string
		in   Flex
		out  *int
	}{
		{"current_page", w.CurrentPage, &m.CurrentPage},
		{"last_page", w.LastPage, &m.LastPage},
		{"per_page", w.PerPage, &m.PerPage},
		{"total", w.Total, &m.Total},
		{"from", w.From, &m.From},
		{"to", w.To, &m.To},
	}
	for _, f := range fields {
		n, err := f.in.Int()
		if err != nil {
			return fmt.Errorf("meta.%s: %w", f.name, err)
		}
		*f.out = int(n)
	}
	return nil
}

// MarshalJSON writes the wire form, every value a decimal string.
func (m Meta) MarshalJSON() ([]byte, error) {
	s := func(n int) string { return fmt.Sprint(n) }
	return json.Marshal(wire.Meta{
		CurrentPage: s(m.CurrentPage), LastPage: s(m.LastPage), PerPage: s(m.PerPage),
		Total: s(m.Total), From: s(m.From), To: s(m.To),
	})
}

// HasMore reports whether a page follows this one.
func (m Meta) HasMore() bool { return m.CurrentPage < m.LastPage }
