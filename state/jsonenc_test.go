package state

import (
	"encoding/json"
	"testing"
)

// jsonCases are strings json.Marshal escapes in each of its ways, and
// some it writes as they are.
var jsonCases = []string{
	"", "plain SKU-0001", `say "hi" \ back/slash`, "<p>Black & White</p>",
	"\x00\x01\x1f\x7f", "\b\f\n\r\t", "Größe L – 日本 😀", "\u2028\u2029",
	"\xff", "bad \xe2\x82 cut", "\xed\xa0\x80 surrogate", "\uFFFD as such", "é\xc3",
}

// The encoders write what json.Marshal does, byte for byte: the state
// kept what it wrote, and compares none of it by meaning.
func TestJSONAsEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range jsonCases {
		checkJSON(t, s, s+"<", "&"+s)
	}
	checkJSON(t)
	var keys []string
	if got, _ := appendJSONObject(nil, nil, keys); string(got) != "{}" {
		t.Errorf("nil map: %s", got)
	}
	if got := appendJSONStrings(nil, nil); string(got) != "[]" {
		t.Errorf("nil keys: %s", got)
	}
}

func FuzzJSONAsEncodingJSON(f *testing.F) {
	for i, s := range jsonCases {
		f.Add(s, jsonCases[(i+1)%len(jsonCases)], "b")
	}
	f.Fuzz(func(t *testing.T, a, b, c string) { checkJSON(t, a, b, c) })
}

// checkJSON compares the encoders with json.Marshal on ss as a list and
// as a map of each to the next (so keys out of order, and repeated).
func checkJSON(t *testing.T, ss ...string) {
	t.Helper()
	m := map[string]string{}
	for i, s := range ss {
		m[s] = ss[(i+1)%len(ss)]
	}
	want, _ := json.Marshal(m)
	got, keys := appendJSONObject([]byte("x"), m, []string{"scratch"})
	if string(got[1:]) != string(want) || len(keys) != len(m) {
		t.Errorf("map %q:\n got %s\nwant %s", m, got[1:], want)
	}
	want, _ = json.Marshal(append([]string{}, ss...))
	if got := appendJSONStrings([]byte("x"), ss); string(got[1:]) != string(want) {
		t.Errorf("list %q:\n got %s\nwant %s", ss, got[1:], want)
	}
}
