package sandbox

import (
	stdjson "encoding/json"
	"fmt"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// The body of a call decodes as encoding/json decodes it (decodeBody
// uses goccy/go-json): the same values and the same errors, for what a
// client may send amiss.
func TestBodyDecodesAsEncodingJSON(t *testing.T) {
	t.Parallel()
	s := &Server{}
	rt := &route{}
	for _, in := range []string{
		`{"action": "write", "Products": [{"name": "Mug", "weight": 1.50, "n": 1e400, "links": {"Variants": [{"sku": "A"}]}}]}`,
		"{\"a\": \"\xff\xfe\"}", `{"a": "\ud800 x\u0000"}`, `{"a": 1, "a": 2, "A": 3}`, `{"a": 1} trailing`, `null`,
		`{"a": 01}`, `{"a": [1, 2, ]}`, `{"a": -}`, `{"a": tru}`, `[1]`, `"x"`, `{"a": "x`, ``, `{"a" 1}`,
	} {
		c := &call{}
		aerr := s.decodeBody(httptest.NewRequest("POST", "/v2/Products", strings.NewReader(in)), rt, c)

		dec := stdjson.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		var want record
		err := dec.Decode(&want)
		switch {
		case err != nil:
			if aerr == nil || !strings.HasSuffix(aerr.body.Message, ": "+err.Error()) {
				t.Errorf("%q: %v, want the error of encoding/json: %v", in, aerr, err)
			}
		case want == nil:
			if aerr == nil {
				t.Errorf("%q: decoded, want null refused", in)
			}
		case aerr != nil || !reflect.DeepEqual(c.env, want):
			t.Errorf("%q: %s, %v; want %s", in, fmt.Sprint(c.env), aerr, fmt.Sprint(want))
		}
	}
}
