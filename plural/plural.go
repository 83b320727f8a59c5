// Package plural writes counts as people read them: "1 row", "3 rows",
// "0 statuses", "1 write request". Every count lading prints goes through
// it, so that none says "1 requests".
package plural

import (
	"fmt"
	"strings"
)

// Count is n and noun, singular or plural as n asks: "1 row", "3 rows".
func Count[N int | int64](n N, noun string) string {
	return fmt.Sprintf("%d %s", n, Of(n, noun))
}

// Of is noun as many as n: "row" for 1 (and -1), "rows" otherwise. Only
// the last word changes ("open fulfillment", "write request"); English's
// regular rules apply: status → statuses, batch → batches, entry →
// entries.
func Of[N int | int64](n N, noun string) string {
	if n == 1 || n == -1 {
		return noun
	}
	head, last := "", noun
	if i := strings.LastIndexByte(noun, ' '); i >= 0 {
		head, last = noun[:i+1], noun[i+1:]
	}
	switch {
	case strings.HasSuffix(last, "s"), strings.HasSuffix(last, "x"), strings.HasSuffix(last, "ch"), strings.HasSuffix(last, "sh"):
		return head + last + "es"
	case len(last) > 1 && last[len(last)-1] == 'y' && !strings.ContainsRune("aeiou", rune(last[len(last)-2])):
		return head + last[:len(last)-1] + "ies"
	}
	return head + last + "s"
}

// One is the singular of a plural noun Of makes: "rows" gives "row",
// "statuses" "status", "entries" "entry".
func One(noun string) string {
	switch {
	case strings.HasSuffix(noun, "ies"):
		return strings.TrimSuffix(noun, "ies") + "y"
	case strings.HasSuffix(noun, "ses"), strings.HasSuffix(noun, "xes"), strings.HasSuffix(noun, "ches"), strings.HasSuffix(noun, "shes"):
		return strings.TrimSuffix(noun, "es")
	}
	return strings.TrimSuffix(noun, "s")
}
