// Package header finds the columns a mapping names in the header of a
// file: by name, or by a column pattern with one * ("Weight (*)"). A name
// is matched as written first, then ignoring case and spaces (see Loose):
// "sku" finds a column "SKU", "Option1  value" one "Option1 Value". A
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
	// loose are the columns by the Loose form of their names: the first
	// column of each name.
	loose map[string][]int
}

// New indexes the cells of a header row. Names are trimmed, and a byte
// order mark before the first is dropped; an empty cell names no column.
func New(cells []string) *Index {
	x := &Index{names: make([]string, len(cells)), first: map[string]int{}, twice: map[string][2]int{}, loose: map[string][]int{}}
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
		k := Loose(h)
		x.loose[k] = append(x.loose[k], i)
	}
	return x
}

// Loose is the form of a column name in which names are compared when
// none is as written: in lower case, without the spaces around it, and
// with every run of spaces inside it (tabs and no-break spaces too) as
// one space.
func Loose(name string) string {
	return strings.ToLower(collapse(name))
}

// collapse is name without the spaces around it, and with every run of
// spaces inside it as one space.
func collapse(name string) string {
	return strings.Join(strings.Fields(name), " ")
}

// Names are the header's column names, trimmed, in order.
func (x *Index) Names() []string { return x.names }

// Exact reports whether a column has name as written.
func (x *Index) Exact(name string) bool {
	_, ok := x.first[name]
	return ok
}

// Twice reports whether another column has the name of column i, and
// the first two columns of that name.
func (x *Index) Twice(i int) ([2]int, bool) {
	d, ok := x.twice[x.names[i]]
	return d, ok
}

// Find returns the column that name names: the column of that name as
// written, else the one whose name is name ignoring case and spaces
// (Loose); else, when name holds one "*" (a column pattern, like
// "Weight (*)"), the one column the pattern matches, as written or else
// ignoring case and spaces, with the text its "*" stands for ("lbs" in
// "Weight (lbs)") and isPattern set. The error says "in the file", for
// the caller to name the file; an *AmbiguousError is a name or a pattern
// that fits several columns.
func (x *Index) Find(name string) (i int, match string, isPattern bool, err error) {
	if i, ok := x.first[name]; ok {
		return i, "", false, nil
	}
	before, after, star := strings.Cut(name, "*")
	if !star {
		i, err := x.findLoose(name)
		return i, "", false, err
	}
	if strings.Contains(after, "*") {
		return -1, "", true, fmt.Errorf("%v; a column pattern has one * (it stands for any text)", Unknown(name, x.names))
	}
	hits, matches := x.pattern(before, after, func(h string) string { return h }, strings.HasPrefix, strings.HasSuffix)
	if len(hits) == 0 {
		before, after, _ = strings.Cut(collapse(name), "*")
		hits, matches = x.pattern(before, after, collapse, hasPrefixFold, hasSuffixFold)
	}
	switch len(hits) {
	case 0:
		return -1, "", true, Unknown(name, x.names)
	case 1:
		return hits[0], matches[0], true, nil
	}
	return -1, "", true, &AmbiguousError{fmt.Sprintf("column pattern %q matches %d columns in the file: %s; a pattern must match one column: write the name of the one to use", name, len(hits), QuoteList(x.named(hits)))}
}

// findLoose finds the column whose name is name ignoring case and spaces.
func (x *Index) findLoose(name string) (int, error) {
	hits := x.loose[Loose(name)]
	switch len(hits) {
	case 0:
		return -1, Unknown(name, x.names)
	case 1:
		return hits[0], nil
	}
	cols := make([]string, len(hits))
	for k, c := range hits {
		cols[k] = fmt.Sprintf("%q (column %d)", x.names[c], c+1)
	}
	return -1, &AmbiguousError{fmt.Sprintf("no column %q in the file as written, and %d columns are %q when case and spaces are ignored: %s; write the name of the one to use as the file writes it",
		name, len(hits), name, strings.Join(cols, ", "))}
}

// pattern returns the columns whose names, in the form form gives them,
// start with before and end with after (as prefix and suffix compare),
// and the text between in each.
func (x *Index) pattern(before, after string, form func(string) string, prefix, suffix func(s, part string) bool) (hits []int, matches []string) {
	for k, h := range x.names {
		h = form(h)
		if h != "" && len(h) >= len(before)+len(after) && prefix(h, before) && suffix(h, after) {
			hits = append(hits, k)
			matches = append(matches, h[len(before):len(h)-len(after)])
		}
	}
	return hits, matches
}

func hasPrefixFold(s, prefix string) bool { return strings.EqualFold(s[:len(prefix)], prefix) }

func hasSuffixFold(s, suffix string) bool { return strings.EqualFold(s[len(s)-len(suffix):], suffix) }

// named are the names of columns cols.
func (x *Index) named(cols []int) []string {
	names := make([]string, len(cols))
	for k, c := range cols {
		names[k] = x.names[c]
	}
	return names
}

// AmbiguousError is a name or a column pattern that fits several
// columns: an error even where the column is optional.
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
