// Package header finds the columns a mapping names in the header of a
// file: by name, or by a column pattern with one * ("Weight (*)"). A
// name that is no column gets an error naming the close matches, or the
// columns there are. The mapping language's reference is package
// mapping's documentation.
package header

import (
	"fmt"
	"strings"

	"lading/suggest"
)

// Index finds the columns of one file's header by name.
type Index struct {
	names []string
	first map[string]int // each name's first column
	// twice are the names two columns have: their first two columns.
	twice map[string][2]int
}

// New indexes the cells of a header row. Names are trimmed, and a byte
// order mark before the first is dropped; an empty cell names no column.
func New(cells []string) *Index {
	x := &Index{names: make([]string, len(cells)), first: map[string]int{}, twice: map[string][2]int{}}
	for i, h := range cells {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		x.names[i] = h
		if h == "" {
			continue
		}
		if j, ok := x.first[h]; ok {
			if _, seen := x.twice[h]; !seen {
				x.twice[h] = [2]int{j, i}
			}
			continue
		}
		x.first[h] = i
	}
	return x
}

// Names are the header's column names, trimmed, in order.
func (x *Index) Names() []string { return x.names }

// Twice reports whether another column has the name of column i, and
// the first two columns of that name.
func (x *Index) Twice(i int) ([2]int, bool) {
	d, ok := x.twice[x.names[i]]
	return d, ok
}

// Find returns the column that name names: the column of that name;
// else, when name holds one "*" (a column pattern, like "Weight (*)"),
// the one column the pattern matches, with the text its "*" stands for
// ("lbs" in "Weight (lbs)") and isPattern set. The error says "in the
// file", for the caller to name the file; an *AmbiguousError is a pattern
// that matches several columns.
func (x *Index) Find(name string) (i int, match string, isPattern bool, err error) {
	if i, ok := x.first[name]; ok {
		return i, "", false, nil
	}
	header := x.names
	before, after, ok := strings.Cut(name, "*")
	if !ok {
		return -1, "", false, Unknown(name, header)
	}
	if strings.Contains(after, "*") {
		return -1, "", true, fmt.Errorf("%v; a column pattern has one * (it stands for any text)", Unknown(name, header))
	}
	var hits []int
	for k, h := range header {
		if h != "" && len(h) >= len(before)+len(after) && strings.HasPrefix(h, before) && strings.HasSuffix(h, after) {
			hits = append(hits, k)
		}
	}
	switch len(hits) {
	case 0:
		return -1, "", true, Unknown(name, header)
	case 1:
		h := header[hits[0]]
		return hits[0], h[len(before) : len(h)-len(after)], true, nil
	}
	names := make([]string, len(hits))
	for k, c := range hits {
		names[k] = header[c]
	}
	return -1, "", true, &AmbiguousError{fmt.Sprintf("column pattern %q matches %d columns in the file: %s; a pattern must match one column: write the name of the one to use", name, len(hits), QuoteList(names))}
}

// AmbiguousError is a name that fits several columns: an error even
// where the column is optional.
type AmbiguousError struct{ msg string }

func (e *AmbiguousError) Error() string { return e.msg }

// Unknown is the error for a column name missing from header: it names
// the close matches, or else the columns there are (the first 40).
func Unknown(name string, header []string) error {
	msg := fmt.Sprintf("no column %q in the file", name)
	if dym := suggest.DidYouMean(name, header, "%q"); dym != "" {
		return fmt.Errorf("%s; %s", msg, dym)
	}
	cols := header
	more := ""
	if len(cols) > 40 {
		cols, more = cols[:40], fmt.Sprintf(" and %d more", len(header)-40)
	}
	return fmt.Errorf("%s; columns: %s%s", msg, QuoteList(cols), more)
}

// QuoteList renders names as "a", "b", "c" for messages.
func QuoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
