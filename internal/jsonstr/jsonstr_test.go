package jsonstr

import (
	"encoding/json"
	"testing"
)

func TestAppend(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"Tee", `"Tee"`},
		{`say "hi" \ bye`, `"say \"hi\" \\ bye"`},
		{"a<b>&c", `"a\u003cb\u003e\u0026c"`},
		{"line\nfeed\r\ttab", `"line\nfeed\r\ttab"`},
		{"\x00\x1f\b\f", `"\u0000\u001f\b\f"`},
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

// FuzzAppend checks that Append writes the bytes encoding/json writes of
// the same string.
func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "a<b", "\x00\u2028\xff", `"\`, "é\xc3", "\b\f\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Append(nil, s)
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("Append(%q) = %s, encoding/json writes %s", s, got, want)
		}
	})
}
