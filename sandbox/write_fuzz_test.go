package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"lading/api/wire"
)

// FuzzWrite: whatever records a write carries, the sandbox answers with a
// result for each (an id, or an error naming the record) or refuses the
// write with a 4xx and a message, never a failure of its own; and every
// listing reads afterwards. The writes go to one sandbox, so a record may
// meet what an earlier one made.
func FuzzWrite(f *testing.F) {
	resources := []string{wire.Products, wire.Variants, wire.ProductTags, wire.PackingSlips, wire.Packages, wire.Fulfillments, wire.Shipments}
	for _, s := range []struct {
		resource string
		body     string
	}{
		{wire.Products, `{"action":"write","Products":[{"name":"Tee","links":{"Attributes":[{"name":"Size"}],` +
			`"ProductTags":[{"name":"summer"}],"PricingTiers":[{"name":"Price","value":"9.5"}],` +
			`"Variants":[{"sku":"T-S","quantity":3,"links":{"AttributeOptions":[{"value":"S"}]}},` +
			`{"sku":"T-M","links":{"AttributeOptions":[{"value":"M","order":2}],"PricingTiers":[{"name":"Sale","price":8}]}}]}}]}`},
		{wire.Products, `{"action":"write","Products":[{"id":"100000005","name":"Tee 2","links":{"Variants":[{"id":"100000010","sku":"T-S2"}]}}]}`},
		{wire.Products, `{"action":"write","Products":[{"id":"100000005","delete":1}]}`},
		{wire.Products, `{"action":"write","Products":[{"name":""},{"name":5,"links":[]},{"links":{"Variants":{}}}]}`},
		{wire.Variants, `{"action":"write","Variants":[{"sku":"V-1","links":{"Products":[{"id":"100000005"}]}}]}`},
		{wire.Variants, `{"action":"write","Variants":[{"id":"100000010","weight":"x","links":{"ReconcileInventory":` +
			`[{"change":"set_available","units":5,"links":{"AccountAddresses":[{"id":"100000004"}]}}]}}]}`},
		{wire.ProductTags, `{"action":"write","ProductTags":[{"name":"x"},{"id":"1","delete":1}]}`},
		{wire.PackingSlips, `{"action":"write","PackingSlips":[{"notes":"n","links":{"SalesOrders":[{"id":"1"}]}}]}`},
	} {
		f.Add(uint8(slices.Index(resources, s.resource)), []byte(s.body))
	}
	srv, _ := tokenServer(f, Options{})
	post := func(path string, body []byte) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", wire.ContentTypeJSON)
		req.Header.Set(wire.HeaderToken, testToken)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		return w
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		resource := resources[int(which)%len(resources)]
		w := post(wire.WritePath(resource), body)
		var answer map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil {
			t.Fatalf("%s %s: answered %d, not a JSON object: %q", resource, body, w.Code, w.Body.Bytes())
		}
		if msg, _ := answer["message"].(string); w.Code >= 500 || w.Code >= 400 && msg == "" {
			t.Fatalf("%s %s: answered %d %s, want results or a refusal with a message", resource, body, w.Code, w.Body.Bytes())
		}
		for _, list := range []string{wire.Products, wire.Variants, wire.ProductTags} {
			if r := post(wire.ListPath(list), []byte(`{"action":"read","page_size":250}`)); r.Code != http.StatusOK {
				t.Fatalf("after %s %s: the %s listing answered %d %s", resource, body, list, r.Code, r.Body.Bytes())
			}
		}
	})
}
