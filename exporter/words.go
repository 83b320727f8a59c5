package exporter

import (
	"strings"
	"time"

	"lading/api/wire"
)

// Words says in words what the query chooses of resource, for a report's
// footer and properties: "every packing slip", "packing slip date
// 2026-10-01 to 2026-10-31", "status is shipped or status is packed". A
// lower and an upper bound of one date, both to hold, read as a period;
// sorting says nothing of what is chosen, and is left out. Conditions are
// read as parseCondition reads them; one it cannot read is given as
// written.
func (q Query) Words(resource string) string {
	if len(q.Where) == 0 {
		return "every " + recordWords[resource]
	}
	conds := make([]cond, len(q.Where))
	for i, w := range q.Where {
		conds[i] = readCond(w)
	}
	var parts []string
	for i, c := range conds {
		if c.done {
			continue
		}
		if !q.Any {
			if j, ok := upperBound(conds, i); ok {
				parts = append(parts, period(c, conds[j]))
				conds[j].done = true
				continue
			}
		}
		parts = append(parts, c.words())
	}
	join := " and "
	if q.Any {
		join = " or "
	}
	return strings.Join(parts, join)
}

// recordWords name one record of each resource.
var recordWords = map[string]string{
	Products: "product", Variants: "variant", PackingSlips: "packing slip",
	Fulfillments: "open fulfillment", Tags: "tag", PullLines: "open fulfillment",
}

// cond is a condition as read: attribute, operator, value; raw when it
// does not read.
type cond struct {
	attr, op, value, raw string
	done                 bool // said already, as the end of a period
}

func readCond(w string) cond {
	m := condition.FindStringSubmatch(w)
	if m == nil {
		return cond{raw: strings.TrimSpace(w)}
	}
	op := m[2]
	if typo, ok := operatorTypos[op]; ok {
		op = typo
	}
	return cond{attr: m[1], op: op, value: unquote(m[3])}
}

// upperBound finds, after conds[i] when it is a lower bound of a date
// (> or >=), an upper bound of the same date (< or <=) not said yet.
func upperBound(conds []cond, i int) (int, bool) {
	lo := conds[i]
	if wire.AttrKind(lo.attr) != wire.KindDate || (lo.op != ">" && lo.op != ">=") {
		return 0, false
	}
	for j := i + 1; j < len(conds); j++ {
		if c := conds[j]; c.attr == lo.attr && !c.done && (c.op == "<" || c.op == "<=") {
			return j, true
		}
	}
	return 0, false
}

// period says a date between two bounds, both days within it: "ship date
// 2026-10-01 to 2026-10-31" for >= 2026-10-01 and < 2026-11-01.
func period(lo, hi cond) string {
	from, to := lo.value, hi.value
	if lo.op == ">" {
		from = addDays(from, 1)
	}
	if hi.op == "<" {
		to = addDays(to, -1)
	}
	return attrWords(lo.attr) + " " + from + " to " + to
}

// addDays moves a date of the filter's layout by n days; a value that is
// not such a date is kept.
func addDays(date string, n int) string {
	d, err := time.Parse(wire.FilterDateLayout, date)
	if err != nil {
		return date
	}
	return d.AddDate(0, 0, n).Format(wire.FilterDateLayout)
}

// words says one condition: "void", "not void", "created after
// 2026-10-01", "weight at least 2", "status is shipped".
func (c cond) words() string {
	if c.raw != "" {
		return c.raw
	}
	name := attrWords(c.attr)
	switch wire.AttrKind(c.attr) {
	case wire.KindFlag:
		if (c.op == "=") == (c.value == "1") {
			return name
		}
		return "not " + name
	case wire.KindDate:
		return name + " " + dateOps[c.op] + " " + c.value
	}
	return name + " " + valueOps[c.op] + " " + c.value
}

// The words of the interface's operators, for dates and for other values.
var (
	dateOps  = map[string]string{"=": "on", "!=": "not on", ">": "after", ">=": "on or after", "<": "before", "<=": "on or before"}
	valueOps = map[string]string{"=": "is", "!=": "is not", ">": "above", ">=": "at least", "<": "below", "<=": "at most"}
)

// attrWords is an attribute as a person says it: "packing slip date",
// "created" for created_at.
func attrWords(attr string) string {
	attr = strings.TrimSuffix(attr, "_at")
	return strings.ReplaceAll(attr, "_", " ")
}
