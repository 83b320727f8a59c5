package exporter

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/suggest"
)

// Query is what an export asks of a listing, as a person writes it:
// conditions like "updated_at >= 2026-01-01" that must all hold (or, with
// Any, any of them), and attributes to sort by, "-" first for descending.
type Query struct {
	Where []string
	Any   bool
	Sort  []string
}

// QueryError is a condition or sort the interface cannot take, with what
// it allows.
type QueryError struct {
	What    string // the condition or sort as given
	Problem string
	Allowed []string
}

func (e *QueryError) Error() string {
	s := fmt.Sprintf("%q: %s", e.What, e.Problem)
	if len(e.Allowed) > 0 {
		s += "; allowed: " + strings.Join(e.Allowed, ", ")
	}
	return s
}

var condition = regexp.MustCompile(`^\s*([A-Za-z0-9_]+)\s*([=<>!]+)\s*(.*?)\s*$`)

// operatorTypos are operators people write that the interface has under
// another spelling.
var operatorTypos = map[string]string{"=>": ">=", "=<": "<=", "==": "=", "<>": "!=", "=!": "!=", "!==": "!="}

// ListOptions turns q into the options of a listing of resource, checking
// every attribute, operation and value before any request.
func (q Query) ListOptions(resource string) (*api.ListOptions, error) {
	filterable, ok := wire.Filterable[resource]
	if !ok {
		return nil, &QueryError{What: resource, Problem: "has no listing", Allowed: wire.Listable}
	}
	o := &api.ListOptions{}
	var conds []api.Cond
	for _, w := range q.Where {
		c, err := parseCondition(w, filterable)
		if err != nil {
			return nil, err
		}
		conds = append(conds, c)
	}
	switch {
	case len(conds) > 0 && q.Any:
		o.Filter = api.Or(conds...)
	case len(conds) > 0:
		o.Filter = api.And(conds...)
	}
	for _, s := range q.Sort {
		attr, desc := strings.CutPrefix(strings.TrimSpace(s), "-")
		attr = strings.TrimPrefix(attr, "+")
		if !slices.Contains(wire.Sortable[resource], attr) {
			return nil, &QueryError{What: s, Problem: fmt.Sprintf("%s cannot be sorted by %q (put - before an attribute to sort descending)", resource, attr),
				Allowed: wire.Sortable[resource]}
		}
		o.Sort = append(o.Sort, api.Sort{Attr: attr, Desc: desc})
	}
	if err := o.Validate(resource); err != nil {
		return nil, err
	}
	return o, nil
}

// parseCondition reads "attr op value" and checks the value against the
// attribute's kind.
func parseCondition(w string, filterable []string) (api.Cond, error) {
	m := condition.FindStringSubmatch(w)
	if m == nil {
		return nil, &QueryError{What: w, Problem: "write a condition as ATTRIBUTE OPERATOR VALUE, like \"updated_at >= 2026-01-01\"", Allowed: wire.Operations}
	}
	attr, op, value := m[1], m[2], unquote(m[3])
	if !slices.Contains(wire.Operations, op) {
		return nil, operatorError(w, op)
	}
	if !slices.Contains(filterable, attr) {
		return nil, &QueryError{What: w, Problem: fmt.Sprintf("%q cannot be filtered on", attr), Allowed: filterable}
	}
	if err := checkValue(attr, value); err != nil {
		return nil, &QueryError{What: w, Problem: err.Error()}
	}
	return api.Where(attr, op, value), nil
}

// operatorError is the error of a condition whose operator op is none of
// the interface's, with the one it most likely means.
func operatorError(w, op string) error {
	mean, ok := operatorTypos[op]
	if !ok {
		mean, ok = suggest.Closest(op, wire.Operations)
	}
	problem := fmt.Sprintf("%q is not an operator", op)
	if ok {
		problem += fmt.Sprintf("; did you mean %s?", mean)
	}
	return &QueryError{What: w, Problem: problem, Allowed: wire.Operations}
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// checkValue checks value against the kind of attr.
func checkValue(attr, value string) error {
	switch kind := wire.AttrKind(attr); kind {
	case wire.KindDate:
		if _, err := time.Parse(wire.FilterDateLayout, value); err != nil {
			return fmt.Errorf("%s is a date: write it as YYYY-MM-DD, like 2026-01-31", attr)
		}
	case wire.KindID:
		if n, err := strconv.ParseUint(value, 10, 64); err != nil || n == 0 {
			return fmt.Errorf("%s is a record id: a whole number above 0", attr)
		}
	case wire.KindFlag:
		if value != "0" && value != "1" {
			return fmt.Errorf("%s is 0 or 1", attr)
		}
	case wire.KindNumber:
		if f, err := strconv.ParseFloat(value, 64); err != nil || f != f {
			return fmt.Errorf("%s is a number: write it with a \".\" decimal point, like 12.5", attr)
		}
	default:
		if value == "" {
			return fmt.Errorf("give a value to compare %s with", attr)
		}
	}
	return nil
}

// CheckQuery checks q as an export of resource (one of ResourceNames, or
// PullLines) checks it before its first request, so that a jobs file's
// conditions are found wrong when it is read, not when the job runs.
func CheckQuery(resource string, q Query) error {
	w := wire.Products
	if resource != Products {
		res, ok := resources[resource]
		if !ok {
			return fmt.Errorf("no export of %q; exports: %s", resource, strings.Join(ResourceNames, ", "))
		}
		w = res.wire
	}
	_, err := q.ListOptions(w)
	return err
}
