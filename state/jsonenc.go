package state

import (
	"slices"

	"lading/internal/jsonstr"
)

// The changes' before and after maps and an intent's keys are stored as
// encoding/json writes them. A batch of 400 changes took 800 Marshal
// calls, each reflecting on its map, sorting its keys through
// reflect.Values and escaping into a pooled buffer; these append the same
// bytes to one buffer. TestJSONAsEncodingJSON and FuzzJSONAsEncodingJSON
// hold them to json.Marshal's output.

// appendJSONObject appends m as json.Marshal writes a map[string]string
// (its keys sorted), but {} for nil, not null. keys is scratch space for
// the keys, returned for the next call.
func appendJSONObject(dst []byte, m map[string]string, keys []string) ([]byte, []string) {
	keys = keys[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonstr.Append(dst, k)
		dst = append(dst, ':')
		dst = jsonstr.Append(dst, m[k])
	}
	return append(dst, '}'), keys
}

// appendJSONStrings appends ss as json.Marshal writes a []string, but []
// for nil, not null.
func appendJSONStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonstr.Append(dst, s)
	}
	return append(dst, ']')
}
