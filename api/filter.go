package api

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"lading/api/wire"
)

// Cond is a filter condition ([Where]) or a conditional ([And], [Or]) given
// to another conditional.
type Cond interface{ isCond() }

// Condition compares one attribute with a value.
type Condition struct {
	Attr  string
	Op    string // one of wire.Operations; "" means "="
	Value any    // string, ID, Flex, integer, float, bool or time.Time
}

func (Condition) isCond() {}

// Where builds a condition: attr op value. An empty op means "=". Values are
// sent as strings: integers and floats in decimal, bools as "1"/"0",
// time.Time as a date (YYYY-MM-DD).
func Where(attr, op string, value any) Cond {
	return Condition{Attr: attr, Op: op, Value: value}
}

// Filter is a filter statement: conditions joined by `and` or `or`.
//
// The wire allows one `and` list and one `or` list per filter, meaning
// (all of the and-list) AND (any of the or-list). Build it by giving an Or
// to an And:
//
//	And(Where("archived", "", "0"), Or(Where("sku", "", "A"), Where("sku", "", "B")))
//
// Anything the wire cannot express (an And inside an Or, two Ors in one
// And, nesting deeper) is an error from Validate naming the rule.
type Filter struct {
	Conj  string // wire.CondAnd or wire.CondOr
	Conds []Cond
}

func (*Filter) isCond() {}

// And joins conds with `and`.
func And(conds ...Cond) *Filter { return &Filter{Conj: wire.CondAnd, Conds: conds} }

// Or joins conds with `or`.
func Or(conds ...Cond) *Filter { return &Filter{Conj: wire.CondOr, Conds: conds} }

// statement is a filter in its wire form.
type statement struct {
	and, or []wireCond
}

type wireCond struct {
	attr, op, value string
}

// Validate checks f against the wire rules and the attributes resource
// allows filtering on. Errors are *QueryError.
func (f *Filter) Validate(resource string) error {
	_, err := f.compile(resource)
	return err
}

// MarshalJSON writes the wire form. It does not check attributes against a
// resource; the services validate before sending.
func (f *Filter) MarshalJSON() ([]byte, error) {
	st, err := f.compile("")
	if err != nil {
		return nil, err
	}
	return st.marshal(), nil
}

func (f *Filter) compile(resource string) (*statement, error) {
	fc := &filterCompiler{resource: resource, st: &statement{}}
	if f == nil {
		return nil, fc.err(RuleEmpty, "the filter is nil", nil)
	}
	if resource != "" {
		if _, ok := wire.Filterable[resource]; !ok {
			return nil, fc.err(RuleResource, fmt.Sprintf("%s has no listing to filter", resource), wire.Listable)
		}
	}
	top := &fc.st.and
	if f.Conj == wire.CondOr {
		top = &fc.st.or
		fc.orSeen = true
	}
	if err := fc.walk(f, top); err != nil {
		return nil, err
	}
	return fc.st, nil
}

// filterCompiler flattens a filter into the wire's one and-list and one
// or-list.
type filterCompiler struct {
	resource string
	st       *statement
	orSeen   bool
}

func (fc *filterCompiler) err(rule, detail string, allowed []string) error {
	return &QueryError{Resource: fc.resource, Part: "filter", Rule: rule, Detail: detail, Allowed: allowed}
}

// walk adds g's conditions to into, nested conditionals of the same kind
// flattened and one or inside the top and made the or-list.
func (fc *filterCompiler) walk(g *Filter, into *[]wireCond) error {
	if g.Conj != wire.CondAnd && g.Conj != wire.CondOr {
		return fc.err(RuleConditional, fmt.Sprintf("conditional %q is unknown", g.Conj), []string{wire.CondAnd, wire.CondOr})
	}
	if len(g.Conds) == 0 {
		return fc.err(RuleEmpty, fmt.Sprintf("the %q conditional holds no conditions; give at least one", g.Conj), nil)
	}
	for _, c := range g.Conds {
		switch c := c.(type) {
		case Condition:
			wc, err := compileCond(fc.resource, c)
			if err != nil {
				return err
			}
			*into = append(*into, wc)
		case *Filter:
			if err := fc.nested(g, c, into); err != nil {
				return err
			}
		case nil:
			return fc.err(RuleEmpty, "a condition is nil", nil)
		default:
			return fc.err(RuleConditional, fmt.Sprintf("condition of type %T is unknown", c), nil)
		}
	}
	return nil
}

// nested adds a conditional c found inside g.
func (fc *filterCompiler) nested(g, c *Filter, into *[]wireCond) error {
	switch {
	case c == nil:
		return fc.err(RuleEmpty, "a nested conditional is nil", nil)
	case c.Conj == g.Conj:
		// and inside and, or inside or: the same list.
		return fc.walk(c, into)
	case g.Conj == wire.CondAnd && c.Conj == wire.CondOr && into == &fc.st.and:
		if fc.orSeen {
			return fc.err(RuleConditionals, fmt.Sprintf("a filter holds at most %d conditionals (one and, one or); this one needs more", wire.MaxConditionals), []string{wire.CondAnd, wire.CondOr})
		}
		fc.orSeen = true
		return fc.walk(c, &fc.st.or)
	}
	return fc.err(RuleNesting, fmt.Sprintf("an %q inside an %q cannot be sent: the wire allows one and-list and one or-list, meaning (all of and) AND (any of or)", c.Conj, g.Conj), nil)
}

func compileCond(resource string, c Condition) (wireCond, error) {
	qe := func(rule, detail string, allowed []string) error {
		return &QueryError{Resource: resource, Part: "filter", Rule: rule, Attr: c.Attr, Detail: detail, Allowed: allowed}
	}
	if c.Attr == "" {
		return wireCond{}, qe(RuleFilterable, "a condition names no attribute", wire.Filterable[resource])
	}
	if !utf8.ValidString(c.Attr) {
		return wireCond{}, qe(RuleFilterable, fmt.Sprintf("attribute %q is not valid UTF-8 text", c.Attr), wire.Filterable[resource])
	}
	if c.Attr == wire.KeyOperation {
		// {"operation": v, "operation": op} says nothing the service can read.
		return wireCond{}, qe(RuleFilterable, fmt.Sprintf("attribute %q cannot be filtered on: the wire uses the name for the comparison", c.Attr), wire.Filterable[resource])
	}
	if resource != "" && !slices.Contains(wire.Filterable[resource], c.Attr) {
		return wireCond{}, qe(RuleFilterable, fmt.Sprintf("attribute %q is not filterable on %s", c.Attr, resource), wire.Filterable[resource])
	}
	op := c.Op
	if op == "" {
		op = "="
	}
	if !slices.Contains(wire.Operations, op) {
		return wireCond{}, qe(RuleOperation, fmt.Sprintf("operation %q on %q is not allowed", c.Op, c.Attr), wire.Operations)
	}
	v, err := condValue(c.Value)
	if err == nil && !utf8.ValidString(v) {
		// JSON would send U+FFFD instead: another value than the one asked for.
		err = fmt.Errorf("%q is not valid UTF-8 text", v)
	}
	if err != nil {
		return wireCond{}, qe(RuleValue, fmt.Sprintf("value of %q: %v", c.Attr, err), nil)
	}
	return wireCond{attr: c.Attr, op: op, value: v}, nil
}

// condValue renders a condition value as the wire's string.
func condValue(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case ID:
		return string(x), nil
	case Flex:
		return string(x), nil
	case bool:
		if x {
			return "1", nil
		}
		return "0", nil
	case int:
		return strconv.FormatInt(int64(x), 10), nil
	case int32:
		return strconv.FormatInt(int64(x), 10), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case uint:
		return strconv.FormatUint(uint64(x), 10), nil
	case uint32:
		return strconv.FormatUint(uint64(x), 10), nil
	case uint64:
		return strconv.FormatUint(x, 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", fmt.Errorf("%v is not a number the service can compare", x)
		}
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32), nil
	case time.Time:
		return x.Format(wire.FilterDateLayout), nil
	case nil:
		return "", fmt.Errorf("nil; give a string, number, bool or time.Time")
	}
	return "", fmt.Errorf("type %T is not supported; give a string, ID, number, bool or time.Time", v)
}

func (st *statement) marshal() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	list := func(key string, conds []wireCond) {
		if len(conds) == 0 {
			return
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		writeJSONString(&b, key)
		b.WriteString(":[")
		for i, c := range conds {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('{')
			writeJSONString(&b, c.attr)
			b.WriteByte(':')
			writeJSONString(&b, c.value)
			if c.op != "=" {
				b.WriteByte(',')
				writeJSONString(&b, wire.KeyOperation)
				b.WriteByte(':')
				writeJSONString(&b, c.op)
			}
			b.WriteByte('}')
		}
		b.WriteByte(']')
	}
	list(wire.CondAnd, st.and)
	list(wire.CondOr, st.or)
	b.WriteByte('}')
	return b.Bytes()
}

func writeJSONString(b *bytes.Buffer, s string) {
	q, _ := marshal(s) // a string always marshals
	b.Write(q)
}
