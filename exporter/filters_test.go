package exporter_test

import (
	"slices"
	"testing"

	"lading/api/wire"
	"lading/exporter"
)

// Every export offers the attributes its listing filters on, and a
// condition built of any of them with a value of its kind passes the
// checks --where passes; one of another kind is refused by them.
func TestAttributesMakeConditionsCheckQueryTakes(t *testing.T) {
	t.Parallel()
	good := map[string]string{wire.KindDate: "2026-01-31", wire.KindID: "12", wire.KindFlag: "1", wire.KindNumber: "2.5", wire.KindText: "Tee"}
	bad := map[string]string{wire.KindDate: "31/01/2026", wire.KindID: "x", wire.KindFlag: "yes", wire.KindNumber: "1,5"}
	for _, r := range exporter.ResourceNames {
		attrs, err := exporter.Attributes(r)
		if err != nil || len(attrs) == 0 {
			t.Fatalf("%s: %d attributes, %v", r, len(attrs), err)
		}
		for _, a := range attrs {
			if !slices.Equal(a.Operators, wire.Operations) {
				t.Errorf("%s %s: operators %v", r, a.Name, a.Operators)
			}
			for _, op := range a.Operators {
				q := exporter.Query{Where: []string{exporter.Condition(a.Name, op, good[a.Kind])}}
				if err := exporter.CheckQuery(r, q); err != nil {
					t.Errorf("%s: %q: %v", r, q.Where[0], err)
				}
			}
			if v, ok := bad[a.Kind]; ok {
				q := exporter.Query{Where: []string{exporter.Condition(a.Name, "=", v)}}
				if err := exporter.CheckQuery(r, q); err == nil {
					t.Errorf("%s: %q passed", r, q.Where[0])
				}
			}
		}
	}
	if _, err := exporter.Attributes("orders"); err == nil {
		t.Error("attributes of an export there is none of: no error")
	}
}
