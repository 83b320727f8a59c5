package sandbox

import (
	"fmt"
	"slices"
	"strings"
)

// groupedIDs is the SQL of the ids a record links, in order by, as one
// column: "" for none, else the ids in decimal, separated by commas (see
// appendIDList). A page reads its records' links as a row each rather than
// a row a link. With no order (by ""), they come in the order the rows are
// read: a correlated subquery that orders its group sorts it in a table
// of its own, row after row, which costs more than sorting the ids after.
func groupedIDs(id, by string) string {
	if by == "" {
		return "ifnull(group_concat(" + id + ", ','), '')"
	}
	return "ifnull(group_concat(" + id + ", ',' ORDER BY " + by + "), '')"
}

// appendIDList appends to dst the ids of list, as groupedIDs gives them.
func appendIDList(dst []int64, list string) ([]int64, error) {
	if list == "" {
		return dst, nil
	}
	var n int64
	digits := 0
	for i := 0; i <= len(list); i++ {
		if i == len(list) || list[i] == ',' {
			if digits == 0 {
				return dst, fmt.Errorf("sandbox: a list of ids %.40q has an empty item", list)
			}
			dst = append(dst, n)
			n, digits = 0, 0
			continue
		}
		c := list[i]
		if c < '0' || c > '9' || digits == 18 {
			return dst, fmt.Errorf("sandbox: a list of ids %.40q has %q, not an id", list, c)
		}
		n = n*10 + int64(c-'0')
		digits++
	}
	return dst, nil
}

// inPositions reads "ids;positions" (two lists of groupedIDs) into the ids
// in the order of their positions.
func inPositions(s string) ([]int64, error) {
	ids, positions, _ := strings.Cut(s, ";")
	var buf [2 * 8]int64
	all, err := appendIDList(buf[:0], ids)
	if err != nil {
		return nil, err
	}
	n := len(all)
	if all, err = appendIDList(all, positions); err != nil || len(all) != 2*n {
		return nil, fmt.Errorf("sandbox: options %.40q and their positions do not pair: %v", s, err)
	}
	if n == 0 {
		return nil, nil
	}
	out := slices.Clone(all[:n])
	pos := all[n:]
	// Few options: sorted by insertion, their positions beside them.
	for i := 1; i < n; i++ {
		for j := i; j > 0 && pos[j] < pos[j-1]; j-- {
			pos[j], pos[j-1] = pos[j-1], pos[j]
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}
