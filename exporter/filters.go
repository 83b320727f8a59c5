package exporter

import (
	"fmt"
	"strings"

	"lading/api/wire"
)

// Attribute is an attribute the conditions of an export may name: its
// kind (wire.KindText, KindDate, KindID, KindFlag, KindNumber), which
// says how its value is written, and the operators it takes.
type Attribute struct {
	Name, Kind string
	Operators  []string
}

// Attributes are the attributes the listing of resource (one of
// ResourceNames) lets conditions and sorts name, in the order the
// interface lists them: what a condition builder offers. A condition
// built of them is checked by CheckQuery as --where is.
func Attributes(resource string) ([]Attribute, error) {
	w := wire.Products
	if resource != Products {
		res, ok := resources[resource]
		if !ok {
			return nil, fmt.Errorf("no export of %q; exports: %s", resource, strings.Join(ResourceNames, ", "))
		}
		w = res.wire
	}
	var out []Attribute
	for _, name := range wire.Filterable[w] {
		out = append(out, Attribute{Name: name, Kind: wire.AttrKind(name), Operators: wire.Operations})
	}
	return out, nil
}

// Condition writes a condition as --where takes it: "updated_at >=
// 2026-01-01".
func Condition(attr, op, value string) string {
	return attr + " " + op + " " + value
}
