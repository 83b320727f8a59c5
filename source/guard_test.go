package source

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// The guard sees the text in whatever chunks the file gives; a bad byte
// must be caught wherever a chunk boundary falls, and a valid rune cut by
// one must not be taken for a bad byte.
func TestUTF8GuardChunkBoundaries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		invalid    bool
	}{
		{"valid multi-byte runes", "café, 日本, 🙂 and ü", false},
		{"latin-1 é before a letter", "caf\xe9 au lait", true},
		{"latin-1 é at the end", "caf\xe9", true},
		{"rune cut short at the end", "ok \xe2\x82", true},
		{"lead byte then a new lead", "a\xe2\xe2\x82\xac", true},
		{"stray continuation byte", "a\x80b", true},
	} {
		for _, chunked := range []struct {
			name string
			r    func(string) io.Reader
		}{
			{"whole", func(s string) io.Reader { return strings.NewReader(s) }},
			{"one byte at a time", func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) }},
			{"two bytes at a time", func(s string) io.Reader { return &chunkReader{s: s, n: 2} }},
		} {
			g := &utf8Guard{r: chunked.r(tc.text)}
			got, err := io.ReadAll(g)
			if err != nil || string(got) != tc.text {
				t.Fatalf("%s, %s: read %q, %v", tc.name, chunked.name, got, err)
			}
			if g.invalid != tc.invalid {
				t.Errorf("%s, %s: invalid = %v, want %v", tc.name, chunked.name, g.invalid, tc.invalid)
			}
		}
	}
}

// chunkReader reads s n bytes at a time.
type chunkReader struct {
	s string
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}

// The markupGuard bounds each run of XML, wherever the reads below it cut
// it: a tag with its quoted values (a '>' in a value, in either quotes,
// does not end the tag), a text, a comment or CDATA section.
func TestMarkupGuardRuns(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 12)
	for _, tc := range []struct {
		name, xml, err string
	}{
		{"short runs", `<a b="1" c='2'>text</a><!-- note --><![CDATA[x]]>`, ""},
		{"a '>' in double quotes stays in the tag", `<a b=">` + long + `">`, "a tag is longer than 16 bytes"},
		{"a '>' in single quotes stays in the tag", `<a b='>` + long + `'>`, "a tag is longer than 16 bytes"},
		{"a long text", `<a>` + long + long + `</a>`, "a cell value or a run of text or whitespace is longer than 16 bytes"},
		{"a long comment", `<!--` + long + `-->`, "a comment or CDATA section is longer than 16 bytes"},
		{"a long CDATA section", `<![CDATA[` + long + `]]>`, "a comment or CDATA section is longer than 16 bytes"},
		{"a document type declaration", `<!DOCTYPE a>`, "the part holds a document type declaration, which workbooks do not have"},
		// A comment ends at the first "-->" after its opener "<!--", as
		// XML reads it: "<!--->" opens one and does not close it.
		{"a comment's opener does not close it", `<!---><!x>-->`, ""},
		{"a comment that looks closed at once is one run", `<!--->` + long + `-->`, "a comment or CDATA section is longer than 16 bytes"},
		{"an empty comment, then a declaration", `<!----><!DOCTYPE a>`, "the part holds a document type declaration, which workbooks do not have"},
	} {
		for _, size := range []int{1, 3, 4096} {
			_, err := io.ReadAll(&markupGuard{r: &chunkReader{s: tc.xml, n: size}, max: 16})
			if got := fmt.Sprint(err); tc.err == "" && err != nil || tc.err != "" && got != tc.err {
				t.Errorf("%s, reads of %d: error %v, want %q", tc.name, size, err, tc.err)
			}
		}
	}
}

// FuzzMarkupGuardDeclarations checks that the markup guard follows the
// XML as the decoder reads it: it refuses a part in which the decoder
// reads a declaration (a directive), and refuses one only where the
// decoder reads a declaration or stops at an error first.
func FuzzMarkupGuardDeclarations(f *testing.F) {
	for _, s := range xmlSamples {
		f.Add([]byte(s), uint16(7))
	}
	f.Add([]byte(`<!---><!x>--><a/>`), uint16(3))
	f.Add([]byte(`<!---><?--><!DOCTYPE a>?>`), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, size uint16) {
		d := xml.NewDecoder(bytes.NewReader(data))
		d.Strict = true
		directive, failed := false, false
		for range len(data) + 2 {
			tok, err := d.RawToken()
			if err != nil {
				failed = err != io.EOF
				break
			}
			if _, ok := tok.(xml.Directive); ok {
				directive = true
				break
			}
		}
		_, err := io.ReadAll(&markupGuard{r: &chunked{b: data, size: int(size%600) + 1}, max: 1 << 20})
		refused := err != nil && strings.Contains(err.Error(), "document type declaration")
		switch {
		case directive && !refused:
			t.Errorf("%q: the decoder reads a declaration, which the guard let through (%v)", data, err)
		case refused && !directive && !failed:
			t.Errorf("%q: the guard refused a declaration the decoder does not read", data)
		}
	})
}
