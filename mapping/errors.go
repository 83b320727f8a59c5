package mapping

import (
	"fmt"
	"strings"

	"lading/suggest"
)

// Error is a problem in a mapping file, at a line and column.
type Error struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// FieldError is one invalid value of a row: the column it came from, the
// value, the target it was for and the rule it broke.
type FieldError struct {
	Column string // header of the column, or the expression
	Value  string // the cell as read
	Target string // like "variant.weight"
	Rule   string // like "must be a number (decimal ',')"
}

func (e FieldError) Error() string {
	var b strings.Builder
	if e.Column != "" {
		fmt.Fprintf(&b, "column %q", e.Column)
	}
	if e.Column != "" || e.Value != "" {
		fmt.Fprintf(&b, " value %q", e.Value)
	}
	if e.Target != "" {
		fmt.Fprintf(&b, " (%s)", e.Target)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Rule)
	return strings.TrimSpace(b.String())
}

// RowErrors lists the invalid values of one row.
type RowErrors []FieldError

func (r RowErrors) Error() string {
	parts := make([]string, len(r))
	for i, e := range r {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// closeMatches returns the names in list most like name, best first.
func closeMatches(name string, list []string, max int) []string {
	return suggest.Close(name, list, max)
}
