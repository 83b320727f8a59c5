package source

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// xmlTokens reads XML as encoding/xml's Decoder.RawToken reads it with
// Strict set: the same tokens, the same errors (on the same lines), and
// the same reads of the reader below, 4096 bytes at a time once all read
// before is taken (as the bufio.Reader a Decoder reads through), so that
// the reader's error, the markupGuard's among them, comes after the same
// tokens. The tokens that make up nearly all of a workbook's parts
// (elements with plain ASCII names; attribute values and text without
// carriage returns or "]]>", their references XML's own or characters')
// are cut out of the bytes read, where a Decoder reads each byte through
// an interface call and copies each name and text; any other token
// (comments, CDATA sections, processing instructions, other references)
// is read by a Decoder of its own from that token's bytes. FuzzXMLTokens
// holds the two to the same result. encoding/xml was three quarters of
// the reading of a worksheet; its reading now takes a quarter of the time.
//
// Its tokens (see token) are valid until the next is read: a text's
// bytes, as RawToken's, and an element's attributes, unlike RawToken's.
type xmlTokens struct {
	r    io.Reader
	buf  []byte // buf[rd:wr] is read and not yet taken
	rd   int
	wr   int
	rerr error // the reader's error, once given, for when buf runs out
	// line is the line of buf[counted], from 1: lines are counted when
	// an error needs them, or the bytes before rd are let go of.
	line, counted int

	tok       token      // the token read last
	attrs     []xml.Attr // the attributes of the last start element
	text      []byte     // the last text with references, replaced
	needClose bool       // the start element returned closed itself
	toClose   xml.Name   // its name, for the end element to return next
	err       error      // the error returned, returned again after
}

// readSize is how much one read of the reader asks for: the size of the
// bufio.Reader an encoding/xml Decoder reads through.
const readSize = 4096

func newXMLTokens(r io.Reader) *xmlTokens {
	return &xmlTokens{r: r, buf: make([]byte, 2*readSize), line: 1, attrs: make([]xml.Attr, 0, 8)}
}

// tokenKind is what a token is.
type tokenKind uint8

const (
	startToken tokenKind = iota + 1
	endToken
	textToken
	otherToken // a comment, a processing instruction, a directive
)

// token is a token as read, not made an xml.Token (a worksheet's cells'
// tokens are not each allocated): its kind, an element's name and
// attributes, a text's bytes, or any other token as a Decoder gave it.
// Valid until the next.
type token struct {
	kind  tokenKind
	name  xml.Name
	attrs []xml.Attr
	text  []byte
	other xml.Token
}

// read reads the next token into t.tok.
func (t *xmlTokens) read() (*token, error) {
	if t.err != nil {
		return nil, t.err
	}
	if t.needClose {
		t.needClose = false
		t.tok = token{kind: endToken, name: t.toClose}
		return &t.tok, nil
	}
	if err := t.next(); err != nil {
		t.err = err
		return nil, err
	}
	return &t.tok, nil
}

// next reads one token into t.tok: the kinds of token by their first
// bytes.
func (t *xmlTokens) next() error {
	if t.rd == t.wr && !t.fill() {
		return t.rerr // io.EOF where the input ends between tokens
	}
	if t.buf[t.rd] != '<' {
		// Text, up to the next '<' or the input's end: whole either way.
		n, cut := t.extent(0, func(b []byte) int { return bytes.IndexByte(b, '<') }, 0, 0)
		if text, ok := t.plainText(t.buf[t.rd : t.rd+n]); ok {
			t.advance(n)
			t.tok = token{kind: textToken, text: text}
			return nil
		}
		if !cut {
			n++ // the '<' after it, as a Decoder reads it
		}
		return t.fallback(n, cut)
	}
	if t.wr-t.rd < 2 && !t.fill() {
		return t.fallback(t.wr-t.rd, true)
	}
	var n int
	var cut bool
	ok := false
	switch t.buf[t.rd+1] {
	case '/':
		if n, cut = t.extent(2, func(b []byte) int { return bytes.IndexByte(b, '>') }, 1, 0); !cut {
			ok = t.endTag(t.buf[t.rd : t.rd+n])
		}
	case '?', '!':
		n, cut = t.special()
	default:
		if n, cut = t.extent(1, tagEnd, 1, -1); !cut {
			ok = t.startTag(t.buf[t.rd : t.rd+n])
		}
	}
	if !ok {
		return t.fallback(n, cut)
	}
	t.advance(n)
	return nil
}

// fill reads once more from the reader (readSize bytes, as bufio does when
// all it read is taken), keeping what is not taken; false when nothing
// more comes (t.rerr says why).
func (t *xmlTokens) fill() bool {
	if t.rerr != nil {
		return false
	}
	if t.rd > 0 {
		t.countLines()
		t.wr = copy(t.buf, t.buf[t.rd:t.wr])
		t.rd, t.counted = 0, 0
	}
	if len(t.buf)-t.wr < readSize {
		t.buf = append(t.buf[:t.wr], make([]byte, len(t.buf)+readSize)...)
	}
	for range 100 { // bufio's maxConsecutiveEmptyReads
		n, err := t.r.Read(t.buf[t.wr : t.wr+readSize])
		t.wr += n
		if err != nil {
			t.rerr = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	t.rerr = io.ErrNoProgress
	return false
}

// extent finds where the token at buf[rd] ends: end finds it in the bytes
// from the token's from-th on (-1 while it is not there), and the token
// takes after bytes more. Bytes are read until it is found, end looking
// again at the last keep bytes it looked at (-1: at all of them). n is the
// token's length, or all that could be read with cut set.
func (t *xmlTokens) extent(from int, end func([]byte) int, after, keep int) (n int, cut bool) {
	seen := from
	for {
		if t.rd+seen < t.wr {
			if i := end(t.buf[t.rd+seen : t.wr]); i >= 0 {
				if seen+i+after > t.wr-t.rd && !t.fill() {
					return t.wr - t.rd, true
				}
				return seen + i + after, false
			}
			if keep >= 0 {
				seen = max(from, t.wr-t.rd-keep)
			}
		}
		if !t.fill() {
			return t.wr - t.rd, true
		}
	}
}

// tagEnd is where a start tag ends: its first '>' outside quotes. (A
// quote anywhere else in a tag is an error RawToken stops at before.)
func tagEnd(b []byte) int {
	var quote byte
	for i, c := range b {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i
		}
	}
	return -1
}

// special is the extent of a token that starts "<?" or "<!": its
// terminator found (for a comment, its first "--" and the byte after it,
// which must be '>'), or all that could be read (cut set).
func (t *xmlTokens) special() (int, bool) {
	seq, from, after := "?>", 2, 2
	if t.buf[t.rd+1] == '!' {
		if t.wr-t.rd < 3 && !t.fill() {
			return t.wr - t.rd, true
		}
		switch t.buf[t.rd+2] {
		case '-':
			seq, from, after = "--", 4, 3
		case '[': // a CDATA section
			seq, from, after = "]]>", 9, 3
		default: // a declaration: all there is (the markupGuard refuses them)
			return t.extent(2, func([]byte) int { return -1 }, 0, 0)
		}
	}
	return t.extent(from, func(b []byte) int { return bytes.Index(b, []byte(seq)) }, after, len(seq)-1)
}

// advance takes n bytes.
func (t *xmlTokens) advance(n int) { t.rd += n }

// countLines counts the lines of the bytes taken since last counted.
func (t *xmlTokens) countLines() {
	t.line += bytes.Count(t.buf[t.counted:t.rd], []byte{'\n'})
	t.counted = t.rd
}

// fallback reads the token at buf[rd] with a Decoder of its own from its
// n bytes (cut: all that could be read, the input ending in it), takes
// the bytes the Decoder read, and gives its token or error as the Decoder
// reading the whole input would: the error's line counted from the
// input's start, and the reader's error where the token's bytes ran out
// on it rather than on the input's end.
func (t *xmlTokens) fallback(n int, cut bool) error {
	d := xml.NewDecoder(bytes.NewReader(t.buf[t.rd : t.rd+n]))
	d.Strict = true
	tok, err := d.RawToken()
	if err != nil {
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			if cut && t.rerr != io.EOF && strings.HasPrefix(se.Msg, "unexpected EOF") {
				return t.rerr
			}
			t.countLines()
			return &xml.SyntaxError{Msg: se.Msg, Line: t.line + se.Line - 1}
		}
		if err == io.EOF && cut && t.rerr != nil {
			return t.rerr
		}
		return err
	}
	used := int(d.InputOffset())
	switch tok := tok.(type) {
	case xml.StartElement:
		t.tok = token{kind: startToken, name: tok.Name, attrs: tok.Attr}
		if bytes.HasSuffix(t.buf[t.rd:t.rd+used], []byte("/>")) {
			t.needClose, t.toClose = true, tok.Name
		}
	case xml.EndElement:
		t.tok = token{kind: endToken, name: tok.Name}
	case xml.CharData:
		t.tok = token{kind: textToken, text: tok}
	default:
		t.tok = token{kind: otherToken, other: tok}
	}
	t.advance(used)
	return nil
}

// plainText is text without carriage returns or "]]>", its references
// those XML predefines (&amp;) or characters' (&#34;, as Go's encoders
// write a quote), all of it characters XML allows: the text itself, or
// with its references replaced, in t.text.
func (t *xmlTokens) plainText(b []byte) ([]byte, bool) {
	if bytes.IndexByte(b, '\r') >= 0 || bytes.Contains(b, []byte("]]>")) {
		return nil, false
	}
	text, ok := t.unescape(b)
	if !ok || !xmlChars(text) {
		return nil, false
	}
	return text, true
}

// unescape is b, or b with its references replaced in t.text; ok is false
// for a reference of another kind, or one RawToken refuses.
func (t *xmlTokens) unescape(b []byte) ([]byte, bool) {
	amp := bytes.IndexByte(b, '&')
	if amp < 0 {
		return b, true
	}
	out := append(t.text[:0], b[:amp]...)
	for rest := b[amp:]; len(rest) > 0; {
		if rest[0] != '&' {
			i := bytes.IndexByte(rest, '&')
			if i < 0 {
				i = len(rest)
			}
			out, rest = append(out, rest[:i]...), rest[i:]
			continue
		}
		r, n := reference(rest)
		if n == 0 {
			return nil, false
		}
		out, rest = utf8.AppendRune(out, r), rest[n:]
	}
	t.text = out
	return out, true
}

// reference reads the reference b starts with: one XML predefines (&lt;
// &gt; &amp; &apos; &quot;) or a character's in decimal (&#34;) or hex
// (&#x22;), as RawToken reads them (a rune past unicode.MaxRune refused, a
// surrogate read as U+FFFD). It returns the rune and the reference's
// length, 0 for any other.
func reference(b []byte) (rune, int) {
	end := bytes.IndexByte(b[:min(len(b), 12)], ';')
	if end < 2 {
		return 0, 0
	}
	switch name := b[1:end]; string(name) {
	case "lt":
		return '<', end + 1
	case "gt":
		return '>', end + 1
	case "amp":
		return '&', end + 1
	case "apos":
		return '\'', end + 1
	case "quot":
		return '"', end + 1
	}
	digits, base := b[2:end], 10
	if b[1] != '#' {
		return 0, 0
	}
	if len(digits) > 0 && digits[0] == 'x' {
		digits, base = digits[1:], 16
	}
	if len(digits) == 0 {
		return 0, 0
	}
	n := 0
	for _, c := range digits {
		d := 0
		switch {
		case '0' <= c && c <= '9':
			d = int(c - '0')
		case base == 16 && 'a' <= c && c <= 'f':
			d = int(c-'a') + 10
		case base == 16 && 'A' <= c && c <= 'F':
			d = int(c-'A') + 10
		default:
			return 0, 0
		}
		if n = n*base + d; n > unicode.MaxRune {
			return 0, 0
		}
	}
	return rune(n), end + 1
}

// xmlChars reports whether b is UTF-8 of characters XML allows.
func xmlChars(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || !(r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000) {
			return false
		}
		i += size
	}
	return true
}

// endTag reads "</name>", spaces allowed before the '>', into t.tok.
func (t *xmlTokens) endTag(b []byte) bool {
	name, i, ok := plainName(b, 2)
	if !ok {
		return false
	}
	i = skipSpace(b, i)
	if i != len(b)-1 || b[i] != '>' {
		return false
	}
	t.tok = token{kind: endToken, name: name}
	return true
}

// startTag reads "<name attr="value" ...>" or "<name .../>", its
// attribute values free of '<' and carriage returns, into t.tok. Its
// attributes are kept in t.attrs, valid until the next token.
func (t *xmlTokens) startTag(b []byte) bool {
	name, i, ok := plainName(b, 1)
	if !ok {
		return false
	}
	attrs := t.attrs[:0]
	for {
		i = skipSpace(b, i)
		switch b[i] {
		case '>':
			t.tok = token{kind: startToken, name: name, attrs: attrs}
			return i == len(b)-1
		case '/':
			if i+2 != len(b) || b[i+1] != '>' {
				return false
			}
			t.tok = token{kind: startToken, name: name, attrs: attrs}
			t.needClose, t.toClose = true, name
			return true
		}
		var a xml.Attr
		if a.Name, i, ok = plainName(b, i); !ok {
			return false
		}
		if i = skipSpace(b, i); b[i] != '=' {
			return false
		}
		i = skipSpace(b, i+1)
		q := b[i]
		if q != '"' && q != '\'' {
			return false
		}
		end := bytes.IndexByte(b[i+1:], q)
		if end < 0 {
			return false
		}
		v := b[i+1 : i+1+end]
		if bytes.IndexByte(v, '<') >= 0 || bytes.IndexByte(v, '\r') >= 0 {
			return false
		}
		if v, ok = t.unescape(v); !ok || !xmlChars(v) {
			return false
		}
		a.Value = intern(v)
		attrs = append(attrs, a)
		t.attrs = attrs
		i += end + 2
	}
}

// plainName reads the name at b[i]: ASCII, starting with a letter, '_' or
// ':', split at its one ':' into space and local name as RawToken splits
// it. It returns the index after it; ok is false for any other name.
func plainName(b []byte, i int) (xml.Name, int, bool) {
	start, colon := i, -1
	for ; i < len(b); i++ {
		c := b[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-' {
			continue
		}
		if c == ':' {
			if colon >= 0 {
				return xml.Name{}, i, false
			}
			colon = i
			continue
		}
		if c >= utf8.RuneSelf {
			return xml.Name{}, i, false
		}
		break
	}
	if i == start || i == len(b) {
		return xml.Name{}, i, false
	}
	if c := b[start]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == ':') {
		return xml.Name{}, i, false
	}
	if colon > start && colon < i-1 {
		return xml.Name{Space: string(b[start:colon]), Local: intern(b[colon+1 : i])}, i, true
	}
	return xml.Name{Local: intern(b[start:i])}, i, true
}

// intern is b as a string, without a copy for the names and values a
// worksheet or a shared string table repeats in every row, cell and
// string.
func intern(b []byte) string {
	switch string(b) {
	case "c":
		return "c"
	case "v":
		return "v"
	case "row":
		return "row"
	case "is":
		return "is"
	case "t":
		return "t"
	case "r":
		return "r"
	case "s":
		return "s"
	case "f":
		return "f"
	case "si":
		return "si"
	case "spans":
		return "spans"
	case "sheetData":
		return "sheetData"
	case "rPh":
		return "rPh"
	case "inlineStr":
		return "inlineStr"
	case "str":
		return "str"
	case "n":
		return "n"
	case "b":
		return "b"
	case "0":
		return "0"
	case "1":
		return "1"
	case "2":
		return "2"
	case "3":
		return "3"
	case "preserve":
		return "preserve"
	}
	return string(b)
}

// skipSpace is the index of the first byte from i on that is not XML
// white space; len(b)-1 at most (a tag's last byte is '>').
func skipSpace(b []byte, i int) int {
	for i < len(b)-1 {
		switch b[i] {
		case ' ', '\r', '\n', '\t':
			i++
		default:
			return i
		}
	}
	return i
}
