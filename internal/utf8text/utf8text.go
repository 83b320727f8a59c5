// Package utf8text finds where a file that must be UTF-8 (lading's YAML
// files: a mapping, a jobs file, a report template) is not, so that its
// reader can name the line and column. A YAML parser turns such bytes into
// U+FFFD without a word: saved in a Windows code page, "Größe" reads as
// other letters, and a path or a lookup key no longer matches.
package utf8text

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Problem is where a file stops being UTF-8, and what to do about it.
type Problem struct {
	Line, Column int // from 1; the column counts characters
	Msg          string
}

// saveAs says where the encoding is chosen.
const saveAs = "an editor's \"Save as\" offers the encoding"

// Check returns nil when text is UTF-8. Else it returns where it is not:
// line 1, column 1 for a file in UTF-16 (its byte order mark), or its
// first byte that is not UTF-8. what names the file in the message ("the
// mapping file").
func Check(text []byte, what string) *Problem {
	if utf8.Valid(text) {
		return nil
	}
	if bytes.HasPrefix(text, []byte{0xFF, 0xFE}) || bytes.HasPrefix(text, []byte{0xFE, 0xFF}) {
		return &Problem{Line: 1, Column: 1, Msg: fmt.Sprintf("the file is UTF-16; save %s as UTF-8 (%s)", what, saveAs)}
	}
	line, col := 1, 1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size == 1 {
			return &Problem{Line: line, Column: col, Msg: fmt.Sprintf("byte 0x%02X is not UTF-8: save %s as UTF-8 (%s; saved in a Windows code page, accented letters read as others)", text[i], what, saveAs)}
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return nil // not reached: text is not valid UTF-8
}
