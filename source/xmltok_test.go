package source

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"reflect"
	"testing"
)

// chunked gives its bytes at most size at a time, then err (io.EOF when
// nil).
type chunked struct {
	b    []byte
	size int
	err  error
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.size)], c.b)
	c.b = c.b[n:]
	return n, nil
}

// tokenRun is what a reader of XML gave: its tokens, copied, and the
// error it stopped at.
type tokenRun struct {
	tokens []xml.Token
	err    string
}

// rawTokens reads t's tokens as the xml.Tokens RawToken gives.
func rawTokens(t *xmlTokens) func() (xml.Token, error) {
	return func() (xml.Token, error) {
		k, err := t.read()
		if err != nil {
			return nil, err
		}
		switch k.kind {
		case startToken:
			return xml.StartElement{Name: k.name, Attr: k.attrs}, nil
		case endToken:
			return xml.EndElement{Name: k.name}, nil
		case textToken:
			return xml.CharData(k.text), nil
		}
		return k.other, nil
	}
}

// readTokens reads tokens with next until an error, at most limit.
func readTokens(next func() (xml.Token, error), limit int) tokenRun {
	var run tokenRun
	for range limit {
		tok, err := next()
		if err != nil {
			run.err = err.Error()
			return run
		}
		run.tokens = append(run.tokens, xml.CopyToken(tok))
	}
	run.err = "too many tokens"
	return run
}

// bothRuns reads data through a markupGuard of max bytes, in reads of size
// bytes at most ending with end (nil: io.EOF), with encoding/xml's
// RawToken and with xmlTokens, reading the guard itself and reading it
// ahead (as a data part does): the second run is given only where it
// differs from the first.
func bothRuns(data []byte, size, max int, end error) (want, got tokenRun) {
	d := xml.NewDecoder(&markupGuard{r: &chunked{b: data, size: size, err: end}, max: max})
	d.Strict = true
	want = readTokens(d.RawToken, len(data)+2)
	toks := newXMLTokens(&markupGuard{r: &chunked{b: data, size: size, err: end}, max: max})
	got = readTokens(rawTokens(toks), len(data)+2)
	ahead := newReadAhead(&markupGuard{r: &chunked{b: data, size: size, err: end}, max: max})
	defer ahead.Close()
	if got2 := readTokens(rawTokens(newXMLTokens(ahead)), len(data)+2); !reflect.DeepEqual(got, got2) {
		return want, got2
	}
	return want, got
}

var errBroken = errors.New("the archive is broken")

var xmlSamples = []string{
	`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\r\n" +
		`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="rel"><sheetData>` +
		`<row r="1" spans="1:3"><c r="A1" t="inlineStr"><is><t>Caf` + "\u00e9" + ` &amp; Co</t></is></c><c r="B1" s="2"><v>12.5</v></c>` +
		`<c r="C1" t="s"><v>0</v></c></row><row r="2"/></sheetData></worksheet>`,
	"<a b='1' c = \"2\"\n\td='x>y'/><x:y x:z='q'>text\r\nmore\rend</x:y>",
	`<a>&lt;&#65;&#x42;&amp;&quot;&apos;&gt;</a><b>&bogus;</b>`,
	`<c r="A1" t="inlineStr"><is><t>&#34;Tee&#34; &amp; &#x27;cap&#39; &#xD800; &#00034;</t></is></c>`, `<a>&#0;</a>`,
	`<a>&#1114112;</a>`, `<a>&#X41;</a>`, `<a>&#;</a>`, `<a>&#x;</a>`, `<a>&am p;</a>`, `<a>]&#93;></a>`, `<a>&#13;</a>`,
	`<a b="&#34;x&#34;" c='&lt;&amp;' d="&nope;"/>`, `<a b="&#1;"/>`,
	`<a><![CDATA[<not a tag> ]] ]]></a><!-- a comment --><?pi data?>`,
	`<a>]]></a>`, `<a b=c>`, `<a b>`, `<1a>`, `<a/ >`, `</a b>`, `<a:b:c>`, `<:a>`, `<a:>`, `<!-x>`, `<![CDAT[x]]>`,
	`<a b="1"c="2">`, `<a b="&x">`, `<a b="<">`, "<a>\x01</a>", "<a>\xff</a>", "<a b='\xff'>", "<\u00e9l\u00e8ve/>",
	"<a>\uFFFE</a>", `<?xml version="1.1"?>`, `<?xml encoding="latin1"?><a/>`, `<!DOCTYPE a>`, `<!-- a -- b -->`,
	"line 1\nline 2\n<a>\n<b c='\n'>&nope</b>", `<a`, `<a b="1`, `<`, `</`, `<!`, `<!-`, `<![CDATA[x`, `<?pi`, `text&am`,
	"<a>" + string(bytes.Repeat([]byte("x"), 5000)) + "</a>", "<a b='" + string(bytes.Repeat([]byte("y"), 5000)) + "'/>",
}

func TestXMLTokensReadAsRawToken(t *testing.T) {
	t.Parallel()
	for i, s := range xmlSamples {
		for _, size := range []int{1, 3, 4096} {
			for _, end := range []error{nil, errBroken} {
				t.Run(fmt.Sprintf("%d/%d/%v", i, size, end), func(t *testing.T) {
					want, got := bothRuns([]byte(s), size, 1<<20, end)
					if !reflect.DeepEqual(want, got) {
						t.Errorf("%q\nRawToken: %#v\nxmlTokens: %#v", s, want, got)
					}
				})
			}
		}
	}
}

// TestXMLTokensReadErrorAtTheSameToken: an error of the reader below, the
// markupGuard's among them, comes after the same tokens as with
// RawToken, and errors name the same lines.
func TestXMLTokensReadErrorAtTheSameToken(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	b.WriteString("<sheetData>\n")
	for i := range 400 {
		fmt.Fprintf(&b, "<row r=\"%d\"><c r=\"A%d\"><v>%d</v></c></row>\n", i+1, i+1, i)
	}
	b.WriteString("<row><c><v>" + string(bytes.Repeat([]byte("9"), 300)) + "</v></c></row>\n<row><c><v>1</v></c><c><v x=\"&z;\"/></c></row>")
	for _, max := range []int{100, 1 << 20} {
		want, got := bothRuns(b.Bytes(), 4096, max, nil)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("max %d: RawToken stopped after %d tokens at %q, xmlTokens after %d at %q", max, len(want.tokens), want.err, len(got.tokens), got.err)
		}
		if want.err == "" || len(want.tokens) < 1000 {
			t.Errorf("max %d: the test reads %d tokens and stops at %q; want an error after more than 1,000", max, len(want.tokens), want.err)
		}
	}
}

// TestXMLTokensDeclarationUnguarded reads declarations, which the
// markupGuard refuses in a workbook, without it: each is read to its end
// as RawToken reads it, whatever bytes it holds.
func TestXMLTokensDeclarationUnguarded(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"<!x\x00\x00\x00 y><a/>", "<!DOCTYPE a [<!ENTITY b 'c'>]><a/>", "<!x y"} {
		for _, end := range []error{nil, errBroken} {
			d := xml.NewDecoder(&chunked{b: []byte(s), size: 2, err: end})
			d.Strict = true
			want := readTokens(d.RawToken, len(s)+2)
			got := readTokens(rawTokens(newXMLTokens(&chunked{b: []byte(s), size: 2, err: end})), len(s)+2)
			if !reflect.DeepEqual(want, got) {
				t.Errorf("%q, ending %v:\nRawToken: %#v\nxmlTokens: %#v", s, end, want, got)
			}
		}
	}
}

func FuzzXMLTokens(f *testing.F) {
	for _, s := range xmlSamples {
		f.Add([]byte(s), uint16(7), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, size uint16, broken bool) {
		var end error
		if broken {
			end = errBroken
		}
		want, got := bothRuns(data, int(size%600)+1, 512, end)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%q\nRawToken: %#v\nxmlTokens: %#v", data, want, got)
		}
	})
}

func BenchmarkXMLTokens(b *testing.B) {
	var doc bytes.Buffer
	doc.WriteString("<sheetData>")
	for i := range 2000 {
		fmt.Fprintf(&doc, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>Product %d</t></is></c><c r="B%d" s="1"><v>%d.5</v></c></row>`, i+1, i+1, i, i+1, i)
	}
	doc.WriteString("</sheetData>")
	for _, c := range []struct {
		name string
		next func(r io.Reader) func() (xml.Token, error)
	}{
		{"RawToken", func(r io.Reader) func() (xml.Token, error) {
			d := xml.NewDecoder(r)
			d.Strict = true
			return d.RawToken
		}},
		{"xmlTokens", func(r io.Reader) func() (xml.Token, error) {
			t := newXMLTokens(r)
			return func() (xml.Token, error) { _, err := t.read(); return nil, err }
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(doc.Len()))
			for b.Loop() {
				next := c.next(bytes.NewReader(doc.Bytes()))
				for {
					if _, err := next(); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
