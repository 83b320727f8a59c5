package sandbox

import "fmt"

// groupedIDs is the SQL of the ids a record links, in order by, as one
// column: "" for none, else the ids in decimal, separated by commas (see
// appendIDList). A page reads its records' links as a row each rather than
// a row a link. (In a correlated subquery, each row sorts its group in a
// table of its own: for a few rows only.)
func groupedIDs(id, by string) string {
	return "ifnull(group_concat(" + id + ", ',' ORDER BY " + by + "), '')"
}

// idsOfGroup is groupedIDs of the ids of a group in no order: for links
// in id order, which sorting the ids once read gives for less than
// SQLite's sorting each group in a table of its own takes.
func idsOfGroup(id string) string {
	return "ifnull(group_concat(" + id + ", ','), '')"
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
