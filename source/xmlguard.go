package source

import (
	"bytes"
	"fmt"
)

// markupGuard passes XML through and fails as soon as one run of it is
// longer than max bytes: text between two tags (a cell's value, or
// whitespace), one tag with its attributes, a quoted attribute value, a
// comment, a CDATA section or a processing instruction. encoding/xml keeps
// each such run whole in memory, so bounding the runs bounds its memory,
// whatever the part's size. Document type declarations, which no workbook
// has, are refused: they are the way into entity expansion.
type markupGuard struct {
	r   interface{ Read([]byte) (int, error) }
	max int

	state  guardState
	run    int     // bytes of the current run
	quote  byte    // the quote that closes the attribute value in stQuote
	end    string  // what closes the section in stSection: "-->", "]]>" or "?>"
	recent [2]byte // the last bytes of a section, to find its end
	err    error
}

type guardState uint8

const (
	stText    guardState = iota // between tags
	stLT                        // just after '<'
	stBang                      // just after "<!"
	stTag                       // in a tag
	stQuote                     // in a quoted attribute value
	stSection                   // in a comment, CDATA section or processing instruction
)

// tooLongError says what run of a part went over the limit.
type tooLongError struct {
	what string
	max  int
}

func (e *tooLongError) Error() string {
	return fmt.Sprintf("%s longer than %d bytes", e.what, e.max)
}

func (g *markupGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	if gerr := g.scan(p[:n]); gerr != nil {
		g.err = gerr
		return 0, gerr
	}
	return n, err
}

// scan follows b through the states, counting the bytes of each run.
func (g *markupGuard) scan(b []byte) error {
	for len(b) > 0 {
		switch g.state {
		case stText:
			i := bytes.IndexByte(b, '<')
			if i < 0 {
				return g.grow(len(b), "a cell value or a run of text or whitespace is")
			}
			if err := g.grow(i, "a cell value or a run of text or whitespace is"); err != nil {
				return err
			}
			g.state, g.run, b = stLT, 1, b[i+1:]
		case stLT:
			switch b[0] {
			case '!':
				g.state = stBang
			case '?':
				g.state, g.end, g.recent = stSection, "?>", [2]byte{}
			default:
				g.state = stTag
				continue // b[0] belongs to the tag
			}
			g.run++
			b = b[1:]
		case stBang:
			switch b[0] {
			case '-':
				g.end = "-->"
			case '[':
				g.end = "]]>"
			default:
				return fmt.Errorf("the part holds a document type declaration, which workbooks do not have")
			}
			g.state, g.recent = stSection, [2]byte{}
			g.run++
			b = b[1:]
		case stTag:
			i := bytes.IndexAny(b, `>"'`)
			if i < 0 {
				return g.grow(len(b), "a tag is")
			}
			if err := g.grow(i+1, "a tag is"); err != nil {
				return err
			}
			if b[i] == '>' {
				g.state, g.run = stText, 0
			} else {
				g.state, g.quote = stQuote, b[i]
			}
			b = b[i+1:]
		case stQuote:
			i := bytes.IndexByte(b, g.quote)
			if i < 0 {
				return g.grow(len(b), "a tag is")
			}
			if err := g.grow(i+1, "a tag is"); err != nil {
				return err
			}
			g.state, b = stTag, b[i+1:]
		case stSection:
			c := b[0]
			b = b[1:]
			if err := g.grow(1, "a comment or CDATA section is"); err != nil {
				return err
			}
			if c == '>' && g.closes() {
				g.state, g.run = stText, 0
				continue
			}
			g.recent = [2]byte{g.recent[1], c}
		}
	}
	return nil
}

// closes reports whether the bytes before a '>' end the current section.
func (g *markupGuard) closes() bool {
	if g.end == "?>" {
		return g.recent[1] == '?'
	}
	return g.recent[0] == g.end[0] && g.recent[1] == g.end[1]
}

// grow adds n bytes to the current run.
func (g *markupGuard) grow(n int, what string) error {
	g.run += n
	if g.run > g.max {
		return &tooLongError{what: what, max: g.max}
	}
	return nil
}
