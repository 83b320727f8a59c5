package jsonstr

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestAppend(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"Tee", `"Tee"`},
		{`say "hi" \ bye`, `"say \"hi\" \\ bye"`},
		{"a<b>&c", `"a\u003cb\u003e\u0026c"`},
		{"line\nfeed\r\ttab", `"line\nfeed\r\ttab"`},
		{"\x00\x1f\b\f", `"\u0000\u001f\u0008\u000c"`},
		{"180 g/m² — ok", `"180 g/m² — ok"`},
		{"sep\u2028par\u2029", `"sep\u2028par\u2029"`},
		{"bad \xff byte", `"bad \ufffd byte"`},
	}
	for _, tt := range tests {
		if got := string(Append([]byte("x"), tt.in)); got != "x"+tt.want {
			t.Errorf("Append(%q) = %s, want %s", tt.in, got[1:], tt.want)
		}
	}
}

// FuzzAppend checks that what Append writes is JSON that reads back as
// encoding/json reads what it writes of the same string.
func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "a<b", "\x00\u2028\xff", `"\`, "é\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Append(nil, s)
		if !json.Valid(got) {
			t.Fatalf("Append(%q) = %s: not JSON", s, got)
		}
		ref, _ := json.Marshal(s)
		var a, b string
		if err := json.Unmarshal(got, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(ref, &b); err != nil {
			t.Fatal(err)
		}
		if a != b || (utf8.ValidString(s) && a != s) {
			t.Fatalf("Append(%q) reads back as %q, encoding/json's as %q", s, a, b)
		}
	})
}
