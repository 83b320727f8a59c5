package mapping

import (
	"fmt"
	"strings"
)

// findColumn returns the column of header that name names (index maps
// each name to its first column): the column of that name; else, when
// name holds one "*" (a column pattern, like "Weight (*)"), the one column
// the pattern matches, with the text its "*" stands for ("lbs" in
// "Weight (lbs)") and isPattern set. The error says "in the file", for
// the caller to name the file.
func findColumn(name string, index map[string]int, header []string) (i int, match string, isPattern bool, err error) {
	if i, ok := index[name]; ok {
		return i, "", false, nil
	}
	before, after, ok := strings.Cut(name, "*")
	if !ok {
		return -1, "", false, unknownColumn(name, header)
	}
	if strings.Contains(after, "*") {
		return -1, "", true, fmt.Errorf("%v; a column pattern has one * (it stands for any text)", unknownColumn(name, header))
	}
	var hits []int
	for k, h := range header {
		if h != "" && len(h) >= len(before)+len(after) && strings.HasPrefix(h, before) && strings.HasSuffix(h, after) {
			hits = append(hits, k)
		}
	}
	switch len(hits) {
	case 0:
		return -1, "", true, unknownColumn(name, header)
	case 1:
		h := header[hits[0]]
		return hits[0], h[len(before) : len(h)-len(after)], true, nil
	}
	names := make([]string, len(hits))
	for k, c := range hits {
		names[k] = header[c]
	}
	return -1, "", true, &ambiguousError{fmt.Sprintf("column pattern %q matches %d columns in the file: %s; a pattern must match one column: write the name of the one to use", name, len(hits), quoteList(names))}
}

// ambiguousError is a column pattern matching several columns: an error
// even where the column is optional.
type ambiguousError struct{ msg string }

func (e *ambiguousError) Error() string { return e.msg }
