package utf8text

import (
	"fmt"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, text string
		line, col  int
		msg        string // "" for none
	}{
		{"ASCII", "a: b\n", 0, 0, ""},
		{"UTF-8 with accents and a byte order mark", "\xef\xbb\xbfGröße: 1\n", 0, 0, ""},
		{"Latin-1", "x: 1\nGr\xf6\xdfe: 2\n", 2, 3, "byte 0xF6 is not UTF-8: save the file as UTF-8"},
		{"after characters of several bytes", "€€: \xa1", 1, 5, "byte 0xA1 is not UTF-8"},
		{"a sequence cut short", "ok\n\xe2\x82", 2, 1, "byte 0xE2 is not UTF-8"},
		{"UTF-16, little end first", "\xff\xfex\x00", 1, 1, "the file is UTF-16; save the file as UTF-8"},
		{"UTF-16, big end first", "\xfe\xff\x00x", 1, 1, "the file is UTF-16"},
	} {
		p := Check([]byte(c.text), "the file")
		switch {
		case c.msg == "" && p != nil:
			t.Errorf("%s: %+v, want none", c.name, *p)
		case c.msg != "" && (p == nil || p.Line != c.line || p.Column != c.col || !strings.Contains(p.Msg, c.msg)):
			t.Errorf("%s: %+v, want %d:%d %q", c.name, p, c.line, c.col, c.msg)
		}
	}
}

func ExampleCheck() {
	p := Check([]byte("jobs:\n  - {folder: /srv/M\xfcller}\n"), "the jobs file")
	fmt.Printf("%d:%d: %s\n", p.Line, p.Column, p.Msg)
	// Output: 2:20: byte 0xFC is not UTF-8: save the jobs file as UTF-8 (an editor's "Save as" offers the encoding; saved in a Windows code page, accented letters read as others)
}
