package source

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

var (
	utf8BOM    = []byte{0xEF, 0xBB, 0xBF}
	utf16LEBOM = []byte{0xFF, 0xFE}
	utf16BEBOM = []byte{0xFE, 0xFF}
)

// csvDecoder returns the decoder for the named encoding, or nil when the
// text is UTF-8 and needs no transform. head holds the file's first bytes,
// used when name is "" to follow a byte order mark.
func csvDecoder(name string, head []byte) (encoding.Encoding, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "":
		switch {
		case bytes.HasPrefix(head, utf16LEBOM):
			return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), nil
		case bytes.HasPrefix(head, utf16BEBOM):
			return unicode.UTF16(unicode.BigEndian, unicode.UseBOM), nil
		}
		return nil, nil
	case "utf-8", "utf8":
		return nil, nil
	case "utf-16", "utf16", "utf-16le", "utf16le":
		// UseBOM: a byte order mark wins over the default and is removed.
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), nil
	case "utf-16be", "utf16be":
		return unicode.UTF16(unicode.BigEndian, unicode.UseBOM), nil
	case "windows-1252", "cp1252", "windows1252":
		return charmap.Windows1252, nil
	case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
		return charmap.ISO8859_1, nil
	}
	return nil, fmt.Errorf("encoding %q is not supported: use utf-8, utf-16, utf-16le, utf-16be, windows-1252 or iso-8859-1", name)
}

// utf8Guard passes bytes through and notes whether any of them are not valid
// UTF-8. Checking large chunks here is much cheaper than checking every
// cell; rows are checked one by one only once the guard has seen a bad byte
// (it reads ahead of the CSV parser, so no bad row slips past).
type utf8Guard struct {
	r       io.Reader
	invalid bool
	// cut holds the start of a rune the previous chunk ended inside; the
	// next chunk completes it (or shows it is not UTF-8).
	cut []byte
}

func (g *utf8Guard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if !g.invalid {
		g.check(p[:n], err != nil)
	}
	return n, err
}

// check notes whether b, the next chunk read, holds a byte that is not
// UTF-8; last says no chunk follows.
func (g *utf8Guard) check(b []byte, last bool) {
	if len(g.cut) > 0 && len(b) > 0 {
		// Complete the rune the previous chunk cut: at most 3 more bytes.
		r := append(g.cut, b[:min(len(b), utf8.UTFMax-1)]...)
		if !utf8.FullRune(r) {
			g.cut = r // b was all of it and still not enough
			b = nil
		} else {
			c, size := utf8.DecodeRune(r)
			if c == utf8.RuneError && size == 1 {
				g.invalid = true
				return
			}
			b = b[size-len(g.cut):]
			g.cut = g.cut[:0]
		}
	}
	// Leave out a rune cut at the end of this chunk.
	for i := 1; i <= utf8.UTFMax-1 && i <= len(b); i++ {
		if c := b[len(b)-i]; c >= 0xC0 {
			if !utf8.FullRune(b[len(b)-i:]) {
				g.cut = append(g.cut[:0], b[len(b)-i:]...)
				b = b[:len(b)-i]
			}
			break
		} else if c < 0x80 {
			break
		}
	}
	if !utf8.Valid(b) || last && len(g.cut) > 0 {
		g.invalid = true
	}
}
