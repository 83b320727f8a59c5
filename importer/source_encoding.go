package importer

import (
	"bytes"
	"fmt"
	"strings"

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
