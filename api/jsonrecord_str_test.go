package api

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// strAgrees fails t when the decoder reads the JSON string lit (quotes
// included) otherwise than encoding/json: its text, or whether it is one.
func strAgrees(t *testing.T, lit []byte) {
	t.Helper()
	r := recordDecoder{b: append(append([]byte(nil), lit...), ',')} // the string ends before the buffer does
	got, err := r.str()
	var want string
	werr := json.Unmarshal(lit, &want)
	if (err == nil) != (werr == nil) {
		t.Fatalf("%q: error %v, encoding/json's %v", lit, err, werr)
	}
	if err == nil && utf8.Valid(lit) && (string(got) != want || r.i != len(lit)) { // encoding/json mends bad UTF-8
		t.Fatalf("%q = %q ending at byte %d, encoding/json's %q ending at %d", lit, got, r.i, want, len(lit))
	}
}

// A string is read eight bytes at a time to its first quote, backslash
// or control character: each of them, at every place in and across the
// eight bytes, ends or escapes it as encoding/json says.
func TestStrEveryPlace(t *testing.T) {
	t.Parallel()
	specials := []string{`\"`, `\\`, `\n`, `\u00e9`, "\x1f", "\x00", "\x7f", "é", "\xff"}
	for n := 0; n <= 20; n++ {
		for at := 0; at <= n; at++ {
			for _, sp := range specials {
				body := bytes.Repeat([]byte{'a'}, n)
				lit := append(append(append([]byte{'"'}, body[:at]...), sp...), body[at:]...)
				strAgrees(t, append(lit, '"'))
			}
		}
	}
}

func FuzzStr(f *testing.F) {
	for _, s := range []string{"plain text of some length", `a"b`, "tab\there", "\u00e9t\u00e9", "\x01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lit, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		strAgrees(t, lit)
		if !bytes.ContainsAny([]byte(s), `"\`) { // the text as it is, control characters and all
			strAgrees(t, []byte(`"`+s+`"`))
		}
	})
}
