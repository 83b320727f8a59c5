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
	stDash                      // just after "<!-": the second '-' of a comment's opener
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
		var err error
		switch g.state {
		case stText:
			b, err = g.text(b)
		case stLT:
			b = g.afterLT(b)
		case stBang:
			b, err = g.afterBang(b)
		case stDash:
			b, err = g.afterDash(b)
		case stTag:
			b, err = g.tag(b)
		case stQuote:
			b, err = g.quoted(b)
		case stSection:
			b, err = g.section(b)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Each of the steps below reads b, not empty, in its state, and returns
// what it left for the next state.

// text reads text up to the next '<'.
func (g *markupGuard) text(b []byte) ([]byte, error) {
	i := bytes.IndexByte(b, '<')
	if i < 0 {
		return nil, g.grow(len(b), "a cell value or a run of text or whitespace is")
	}
	if err := g.grow(i, "a cell value or a run of text or whitespace is"); err != nil {
		return nil, err
	}
	g.state, g.run = stLT, 1
	return b[i+1:], nil
}

// afterLT tells a tag from "<!" and a processing instruction.
func (g *markupGuard) afterLT(b []byte) []byte {
	switch b[0] {
	case '!':
		g.state = stBang
	case '?':
		g.state, g.end, g.recent = stSection, "?>", [2]byte{}
	default:
		g.state = stTag
		return b // b[0] belongs to the tag
	}
	g.run++
	return b[1:]
}

// afterBang tells a comment from a CDATA section, and refuses a document
// type declaration.
func (g *markupGuard) afterBang(b []byte) ([]byte, error) {
	switch b[0] {
	case '-':
		g.end, g.state = "-->", stDash
	case '[':
		g.end, g.state, g.recent = "]]>", stSection, [2]byte{}
	default:
		return nil, fmt.Errorf("the part holds a document type declaration, which workbooks do not have")
	}
	g.run++
	return b[1:], nil
}

// afterDash takes the second '-' of a comment's opener: the "--" that
// ends the comment comes after it, as XML reads it ("<!--->" is not a
// whole comment). Another byte is an error the decoder stops at.
func (g *markupGuard) afterDash(b []byte) ([]byte, error) {
	if err := g.grow(1, "a comment or CDATA section is"); err != nil {
		return nil, err
	}
	g.state, g.recent = stSection, [2]byte{}
	return b[1:], nil
}

// tag reads a tag up to its end or the next quoted attribute value.
func (g *markupGuard) tag(b []byte) ([]byte, error) {
	i := tagStop(b)
	if i < 0 {
		return nil, g.grow(len(b), "a tag is")
	}
	if err := g.grow(i+1, "a tag is"); err != nil {
		return nil, err
	}
	if b[i] == '>' {
		g.state, g.run = stText, 0
	} else {
		g.state, g.quote = stQuote, b[i]
	}
	return b[i+1:], nil
}

// tagStop is the index of the first '>' or quote of b, or -1: a loop, as
// a tag's run to them is a few bytes, where bytes.IndexAny made a set of
// the three at every call (a tenth of reading a worksheet).
func tagStop(b []byte) int {
	for i, c := range b {
		if c == '>' || c == '"' || c == '\'' {
			return i
		}
	}
	return -1
}

// quoted reads an attribute value up to its closing quote.
func (g *markupGuard) quoted(b []byte) ([]byte, error) {
	i := bytes.IndexByte(b, g.quote)
	if i < 0 {
		return nil, g.grow(len(b), "a tag is")
	}
	if err := g.grow(i+1, "a tag is"); err != nil {
		return nil, err
	}
	g.state = stTag
	return b[i+1:], nil
}

// section reads one byte of a comment, CDATA section or processing
// instruction, and ends it at its closing '>'.
func (g *markupGuard) section(b []byte) ([]byte, error) {
	c := b[0]
	if err := g.grow(1, "a comment or CDATA section is"); err != nil {
		return nil, err
	}
	if c == '>' && g.closes() {
		g.state, g.run = stText, 0
	} else {
		g.recent = [2]byte{g.recent[1], c}
	}
	return b[1:], nil
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
