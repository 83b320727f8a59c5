package sandbox

import (
	"bytes"
	"encoding/json"
	"lading/api/wire"
	"net/http"
	"strings"
	"testing"
)

// FuzzParseListing: whatever a listing envelope holds, the sandbox either
// refuses it with a 400 and a message, or reads it into a page within the
// limits, an SQL condition with one argument for each placeholder, and an
// order by known columns only.
func FuzzParseListing(f *testing.F) {
	for _, s := range []string{
		`{"page_size": 250, "page_num": 3}`,
		`{"filter": {"and": [{"sku": "A-1", "operation": "="}]}}`,
		`{"filter": [{"and": [{"name": "%tee%", "operation": "like"}]}, {"or": [{"id": 1}, {"id": 2}]}]}`,
		`{"filter": {"and": [{"updated_at": "2026-10-01", "operation": ">="}]}, "sort": [{"updated_at": "desc"}]}`,
		`{"filter": {"or": [{"sku": null, "operation": "!="}]}}`,
		`{"filter": {"and": [{"and": []}]}}`,
		`{"page_size": 0}`, `{"page_num": -1}`, `{"sort": "sku"}`, `{"filter": 5}`,
	} {
		f.Add([]byte(s), uint8(0))
	}
	specs := []*listSpec{productSpec(), variantSpec(), productFileSpec(), productTagSpec(), packingSlipSpec(), fulfillmentSpec()}
	f.Fuzz(func(t *testing.T, body []byte, which uint8) {
		var env record
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if dec.Decode(&env) != nil || env == nil {
			return
		}
		sp := specs[int(which)%len(specs)]
		q, aerr := parseListing(env, sp.resource, sp.cols)
		if aerr != nil {
			if aerr.status != http.StatusBadRequest || aerr.Error() == "" {
				t.Fatalf("%s: refused with %d %q, want a 400 with a message", body, aerr.status, aerr.Error())
			}
			return
		}
		if q.size < 1 || q.size > wire.MaxPageSize || q.page < 1 {
			t.Fatalf("%s: page %d of size %d", body, q.page, q.size)
		}
		if n := strings.Count(q.where, "?"); n != len(q.args) {
			t.Fatalf("%s: %d placeholders in %q for %d arguments", body, n, q.where, len(q.args))
		}
		if !strings.HasPrefix(q.order, "ORDER BY ") {
			t.Fatalf("%s: order %q", body, q.order)
		}
	})
}
