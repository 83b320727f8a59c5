package expr

import (
	"fmt"
	"strings"
)

// itemsOf is x as a list: a list's items, or a text split on sep; items
// are trimmed, and empty ones dropped from a text.
func itemsOf(x any, sep string) ([]string, error) {
	_, list, isList, err := Result(x)
	if err != nil {
		return nil, err
	}
	if !isList {
		return SplitList(str(x), sep), nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.TrimSpace(s)
	}
	return out, nil
}

// pairsHelper is pairs($env, names, values[, sep]): the items of two
// parallel lists (or texts split on sep, default ",") paired by position
// into "name=value" items, the form options.list reads. Lists of
// different lengths are an error naming both.
func pairsHelper(p ...any) (any, error) {
	sep := ","
	if len(p) > 3 {
		sep = str(p[3])
	}
	names, err := itemsOf(p[1], sep)
	if err != nil {
		return nil, fmt.Errorf("pairs: the names: %v", err)
	}
	values, err := itemsOf(p[2], sep)
	if err != nil {
		return nil, fmt.Errorf("pairs: the values: %v", err)
	}
	if len(names) != len(values) {
		return nil, fmt.Errorf("pairs: %d names (%s) but %d values (%s); each name needs the value at the same position", len(names), clipList(names), len(values), clipList(values))
	}
	size := 0
	for i := range names {
		size += len(names[i]) + len(values[i]) + 1
	}
	if err := envOf(p[0]).charge("pairs", size); err != nil {
		return nil, err
	}
	out := make([]string, len(names))
	for i := range names {
		if strings.Contains(names[i], "=") {
			return nil, fmt.Errorf("pairs: the name %q holds \"=\", which separates a name from its value", names[i])
		}
		out[i] = names[i] + "=" + values[i]
	}
	return out, nil
}

// clipList renders a list for a message, shortened when long.
func clipList(items []string) string {
	s := strings.Join(items, ", ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// dropLastHelper is dropLast(x, sep[, n]): x without its last n parts
// (default 1) that sep separates, for a text or for each item of a list:
// dropLast("Color:color:0", ":", 2) is "Color", dropLast("Ratio 16:9:0",
// ":") is "Ratio 16:9". A text with fewer separators keeps its first part.
func dropLastHelper(p ...any) (any, error) {
	sep := str(p[1])
	if sep == "" {
		return nil, fmt.Errorf("dropLast: the separator is empty")
	}
	n := 1
	if len(p) > 2 {
		n, _ = p[2].(int)
		if n < 1 {
			return nil, fmt.Errorf("dropLast: %d parts: give 1 or more", n)
		}
	}
	drop := func(s string) string {
		for range n {
			i := strings.LastIndex(s, sep)
			if i < 0 {
				break
			}
			s = s[:i]
		}
		return strings.TrimSpace(s)
	}
	_, list, isList, err := Result(p[0])
	if err != nil {
		return nil, err
	}
	if !isList {
		return drop(str(p[0])), nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = drop(s)
	}
	return out, nil
}
