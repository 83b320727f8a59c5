package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"lading/api/wire"
)

// FuzzFilter builds filters of fuzzed conditionals, attributes, operations
// and values in four shapes. Building never panics; a filter the wire
// cannot carry is a *QueryError naming its rule (and its attribute, when
// one is at fault); a filter it can carry marshals to JSON that decodes to
// exactly its conditions, in order.
func FuzzFilter(f *testing.F) {
	f.Add("and", "sku", "=", "A", "or", "id", ">=", "5", uint8(0))
	f.Add("and", "archived", "", "0", "or", "sku", "", "B", uint8(1))
	f.Add("or", "sku", "!=", `"quoted"`, "or", "sku", "<", "\x00", uint8(2))
	f.Add("and", "operation", ">=", "1", "and", "sku", "=", "A", uint8(0))
	f.Add("xor", "sku", "=", "A", "and", "sku", "=", "A", uint8(3))
	f.Fuzz(func(t *testing.T, conj, attr1, op1, v1, conj2, attr2, op2, v2 string, shape uint8) {
		c1, c2 := Where(attr1, op1, v1), Where(attr2, op2, v2)
		var flt *Filter
		switch shape % 4 {
		case 0:
			flt = &Filter{Conj: conj, Conds: []Cond{c1, c2}}
		case 1:
			flt = &Filter{Conj: conj, Conds: []Cond{c1, &Filter{Conj: conj2, Conds: []Cond{c2}}}}
		case 2:
			flt = &Filter{Conj: conj, Conds: []Cond{&Filter{Conj: conj2, Conds: []Cond{c1, &Filter{Conj: conj, Conds: []Cond{c2}}}}}}
		case 3:
			flt = &Filter{Conj: conj}
		}
		for _, resource := range []string{"", wire.Variants} {
			st, err := flt.compile(resource)
			if err != nil {
				var qe *QueryError
				if !errors.As(err, &qe) || qe.Rule == "" {
					t.Fatalf("%s: error %v is not a QueryError naming its rule", resource, err)
				}
				if qe.Attr != "" && !strings.Contains(err.Error(), fmt.Sprintf("%q", qe.Attr)) {
					t.Fatalf("%s: error %q does not name attribute %q", resource, err, qe.Attr)
				}
				continue
			}
			checkWire(t, st.marshal(), st)
		}
	})
}

// checkWire decodes a filter's JSON and compares it with its statement.
func checkWire(t *testing.T, b []byte, st *statement) {
	t.Helper()
	var got map[string][]map[string]string
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("filter JSON %s does not decode: %v", b, err)
	}
	for key, want := range map[string][]wireCond{wire.CondAnd: st.and, wire.CondOr: st.or} {
		if len(got[key]) != len(want) {
			t.Fatalf("filter JSON %s: %d %s conditions, want %d", b, len(got[key]), key, len(want))
		}
		for i, w := range want {
			entry := got[key][i]
			op, ok := entry[wire.KeyOperation]
			if !ok {
				op = "="
			}
			delete(entry, wire.KeyOperation)
			if op != w.op || len(entry) != 1 || entry[w.attr] != w.value {
				t.Fatalf("filter JSON %s: %s[%d] = %v, want %s %s %q", b, key, i, got[key][i], w.attr, w.op, w.value)
			}
		}
	}
}
