package state

import (
	"slices"
	"unicode/utf8"
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
		dst = appendJSONString(dst, k)
		dst = append(dst, ':')
		dst = appendJSONString(dst, m[k])
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
		dst = appendJSONString(dst, s)
	}
	return append(dst, ']')
}

// jsonEscape is how json.Marshal writes each ASCII byte: 0 as it is,
// 'u' as \u00XX (control characters, and <, > and & lest the JSON be
// read as HTML), any other as a backslash and that letter.
var jsonEscape = func() (esc [utf8.RuneSelf]byte) {
	for b := range byte(' ') {
		esc[b] = 'u'
	}
	esc['<'], esc['>'], esc['&'] = 'u', 'u', 'u'
	esc['"'], esc['\\'] = '"', '\\'
	esc['\b'], esc['\f'], esc['\n'], esc['\r'], esc['\t'] = 'b', 'f', 'n', 'r', 't'
	return esc
}()

// appendJSONString appends s quoted as json.Marshal writes a string:
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		plain := r < utf8.RuneSelf && jsonEscape[r] == 0 ||
			r >= utf8.RuneSelf && r != '\u2028' && r != '\u2029' && (r != utf8.RuneError || size > 1)
		if !plain { // an invalid byte is written as U+FFFD is
			dst = appendJSONEscape(append(dst, s[start:i]...), r)
			start = i + size
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendJSONEscape appends the escape of r as json.Marshal writes it.
func appendJSONEscape(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	if r < utf8.RuneSelf && jsonEscape[r] != 'u' {
		return append(dst, '\\', jsonEscape[r])
	}
	return append(dst, '\\', 'u', hex[r>>12&0xF], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
}
