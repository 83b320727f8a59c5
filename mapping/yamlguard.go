package mapping

import (
	"bytes"
	"fmt"

	"lading/internal/utf8text"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
)

// Limits on the YAML of a mapping file, checked before it is parsed. The
// YAML parser's time and memory grow with the square of the nesting of
// the file and of the number of keys of a mapping: 1 MB of "[" took
// gigabytes. Lookup tables written one "key: value" a line are read
// without it (see fastTables) and do not count.
const (
	// maxFileBytes is the largest mapping file, lookup tables included.
	maxFileBytes = 64 << 20
	// maxYAMLLines and maxYAMLBytes bound what the YAML parser reads: the
	// lines that are not blank, comments or simple lookup-table entries.
	maxYAMLLines = 2000
	maxYAMLBytes = 256 << 10
	// maxFlowDepth bounds how deep [ and { may nest.
	maxFlowDepth = 32
	// maxIndent bounds the indentation of the file's structure (a key, or
	// a "- "), and so how deep its blocks may nest.
	maxIndent = 120
)

// checkSize refuses a file larger than maxFileBytes.
func checkSize(name string, size int64) error {
	if size > maxFileBytes {
		return &Error{File: name, Msg: fmt.Sprintf("the file is %d MiB; a mapping file may be at most %d MiB (lookup tables included): is it the mapping file?", size>>20, maxFileBytes>>20)}
	}
	return nil
}

// checkUTF8 refuses a file that is not UTF-8, as a YAML file is, at its
// first byte that is not (the YAML parser turned such bytes into U+FFFD,
// while the lookup tables read on the side kept them).
func checkUTF8(name string, data []byte) error {
	if p := utf8text.Check(data, "the mapping file"); p != nil {
		return &Error{File: name, Line: p.Line, Column: p.Column, Msg: p.Msg}
	}
	return nil
}

// tokenize checks the size of what the YAML parser would read, lexes it
// and checks its nesting, before any parsing.
func tokenize(name string, data []byte) (token.Tokens, error) {
	n, lines, size := 0, 0, 0
	for line := range bytes.Lines(data) {
		n++
		if isBlankOrComment(line) {
			continue
		}
		lines++
		size += len(line)
		if lines > maxYAMLLines || size > maxYAMLBytes {
			return nil, &Error{File: name, Line: n, Column: 1, Msg: fmt.Sprintf(
				"the mapping is too long: a mapping file may have at most %d lines or %d KiB besides its lookup tables "+
					"(tables: written one \"key: value\" a line, with plain or quoted keys and values, have no such limit)", maxYAMLLines, maxYAMLBytes>>10)}
		}
	}
	tokens := lexer.Tokenize(string(data))
	depth, line := 0, 0
	for _, tk := range tokens {
		p := tk.Position
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			if depth++; depth > maxFlowDepth {
				return nil, &Error{File: name, Line: p.Line, Column: p.Column, Msg: fmt.Sprintf(
					"[ and { are nested more than %d deep here; a mapping file needs a few levels at most", maxFlowDepth)}
			}
		case token.SequenceEndType, token.MappingEndType:
			depth = max(depth-1, 0)
		case token.CommentType:
			continue
		}
		first := p.Line != line
		line = p.Line
		if depth == 0 && (first || tk.Type == token.SequenceEntryType) && p.Column > maxIndent {
			return nil, &Error{File: name, Line: p.Line, Column: p.Column, Msg: fmt.Sprintf(
				"indented more than %d columns (or more than %d \"- \" on a line); a mapping file needs a few levels of indentation at most", maxIndent, maxIndent/2)}
		}
	}
	return tokens, nil
}

func isBlankOrComment(line []byte) bool {
	line = bytes.TrimLeft(line, " \t\r\n")
	return len(line) == 0 || line[0] == '#'
}
