package mapping

import (
	"fmt"
	"slices"
	"strings"
)

// fastTable is a lookup table read without the YAML parser.
type fastTable struct {
	name    string
	entries map[string]string
	dup     *Error // a key given twice
	used    bool
}

// tableLine is one "key: value" line of a table.
type tableLine struct {
	key, value   string
	line, column int
}

// tableGroup is a table's name line and the lines under it.
type tableGroup struct {
	name    string
	line    int // of the name
	first   int // index of the name line in the file's lines
	last    int // index of its last line
	indent  int // of its entries
	entries []tableLine
	simple  bool
}

// fastTables reads the lookup tables that are written one simple
// "key: value" a line under a top-level "tables:", without the YAML
// parser (whose time grows with the square of the keys of a mapping:
// 200,000 entries took a minute). A key or value is simple when it is
// plain text on its line or quoted ('…' or "…" without escapes); a
// comment may follow. It returns data with the lines of those tables'
// entries emptied (line numbers do not change) and the tables by the
// line of their name. Any other table (in flow style, with a value over
// several lines, an anchor, a tag, an escape, ...) is left to the YAML
// parser. A key given twice in a table is an error, reported when the
// table is used.
func fastTables(name string, data []byte) ([]byte, map[int]*fastTable) {
	text := string(data) // keys and values share this one copy
	lines := strings.SplitAfter(text, "\n")
	start := slices.IndexFunc(lines, isTablesLine)
	if start < 0 {
		return data, nil
	}
	fast := map[int]*fastTable{}
	blank := make([]bool, len(lines))
	for _, g := range tableGroups(lines, start+1) {
		if !g.simple || len(g.entries) == 0 {
			continue
		}
		t := &fastTable{name: g.name, entries: make(map[string]string, len(g.entries))}
		for i, e := range g.entries {
			if _, dup := t.entries[e.key]; dup && t.dup == nil {
				first := g.entries[slices.IndexFunc(g.entries[:i], func(f tableLine) bool { return f.key == e.key })]
				t.dup = &Error{File: name, Line: e.line, Column: e.column, Msg: fmt.Sprintf("tables.%s: key %q is given twice (lines %d and %d); keep one", g.name, e.key, first.line, e.line)}
			}
			t.entries[e.key] = e.value
		}
		fast[g.line] = t
		for i := g.first + 1; i <= g.last; i++ {
			blank[i] = true
		}
	}
	if len(fast) == 0 {
		return data, nil
	}
	out := make([]byte, 0, len(data))
	for i, l := range lines {
		switch {
		case !blank[i]:
			out = append(out, l...)
		case strings.HasSuffix(l, "\n"):
			out = append(out, '\n')
		}
	}
	return out, fast
}

// isTablesLine reports whether l is "tables:" at the start of a line,
// with nothing after it but a comment.
func isTablesLine(l string) bool {
	rest, ok := strings.CutPrefix(l, "tables:")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " ")
	return rest == "" || rest[0] == '#' || rest == "\n" || rest == "\r\n"
}

// tableGroups splits the lines of the tables section starting at index
// from into tables. It returns nil when the section is not laid out as a
// mapping of names to mappings, one entry a line.
func tableGroups(lines []string, from int) []*tableGroup {
	names, end := tableNames(lines, from)
	var groups []*tableGroup
	for n, first := range names {
		next := end
		if n+1 < len(names) {
			next = names[n+1]
		}
		content, _ := splitIndent(lines[first])
		g := &tableGroup{line: first + 1, first: first, last: next - 1, entries: make([]tableLine, 0, next-first-1)}
		key, _, ok := simpleEntry(content)
		g.name, g.simple = key, ok && !hasValue(content)
		for i := first + 1; i < next && g.simple; i++ {
			content, indent := splitIndent(lines[i])
			if content == "" || content[0] == '#' {
				continue
			}
			if g.indent == 0 {
				g.indent = indent
			}
			key, value, ok := simpleEntry(content)
			g.simple = ok && indent == g.indent
			g.entries = append(g.entries, tableLine{key: key, value: value, line: i + 1, column: indent + 1})
		}
		groups = append(groups, g)
	}
	return groups
}

// tableNames returns the indices of the lines naming tables in the
// section starting at index from, and the index of the line after the
// section; no names when it is not laid out as a mapping of names to
// mappings.
func tableNames(lines []string, from int) (names []int, end int) {
	nameIndent := -1
	for i := from; i < len(lines); i++ {
		content, indent := splitIndent(lines[i])
		switch {
		case content == "" || content[0] == '#':
			// blank, or a comment at any indentation
		case strings.ContainsAny(content, "\t\r"):
			return nil, i
		case indent == 0:
			return names, i // the next top-level key
		case nameIndent < 0 || indent == nameIndent:
			nameIndent = indent
			names = append(names, i)
		case indent < nameIndent:
			return nil, i
		}
	}
	return names, len(lines)
}

// splitIndent returns a line without its end and leading spaces, and the
// number of those spaces.
func splitIndent(line string) (content string, indent int) {
	text := strings.TrimRight(line, "\r\n")
	content = strings.TrimLeft(text, " ")
	return content, len(text) - len(content)
}

// hasValue reports whether a name line "name: ..." gives a value after
// its colon (other than a comment).
func hasValue(content string) bool {
	_, rest, ok := simpleScalar(content, true)
	if !ok {
		return true
	}
	rest = strings.TrimLeft(strings.TrimPrefix(rest, ":"), " ")
	return rest != "" && rest[0] != '#'
}

// simpleEntry reads "key: value" (the value may be left out), each plain
// or quoted on this line, with an optional comment after.
func simpleEntry(s string) (key, value string, ok bool) {
	key, rest, ok := simpleScalar(s, true)
	if !ok || isNullText(key) || key == "<<" || !strings.HasPrefix(rest, ":") {
		return "", "", false
	}
	rest = rest[1:]
	if rest == "" {
		return key, "", true
	}
	if rest[0] != ' ' {
		return "", "", false
	}
	rest = strings.TrimLeft(rest, " ")
	if rest == "" || rest[0] == '#' {
		return key, "", true
	}
	value, after, ok := simpleScalar(rest, false)
	if !ok {
		return "", "", false
	}
	if trimmed := strings.TrimLeft(after, " "); trimmed != "" && (trimmed[0] != '#' || len(trimmed) == len(after)) {
		return "", "", false // text after the value, or a comment not after a space
	}
	if isNullText(value) {
		value = ""
	}
	return key, value, true
}

// isNullText reports whether plain text s is YAML's null.
func isNullText(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// simpleScalar reads a quoted or plain scalar at the start of s. A key
// ends at ": " or a final ':'; a plain value ends at " #" or the end.
func simpleScalar(s string, key bool) (text, rest string, ok bool) {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return "", "", false
	}
	switch s[0] {
	case '"':
		j := strings.IndexByte(s[1:], '"')
		if j < 0 || strings.IndexByte(s[1:1+j], '\\') >= 0 {
			return "", "", false
		}
		return s[1 : 1+j], s[j+2:], true
	case '\'':
		return singleQuoted(s)
	}
	if strings.ContainsAny(s, "[]{}") {
		return "", "", false
	}
	// An indicator starts something else than plain text, except a '-'
	// not followed by a space in a value ("-5").
	if c := s[0]; strings.IndexByte("-?:,#&*!|>'\"%@`", c) >= 0 && (c != '-' || key || len(s) < 2 || s[1] == ' ') {
		return "", "", false
	}
	if key {
		return plainKey(s)
	}
	end := len(s)
	if i := strings.Index(s, " #"); i >= 0 {
		end = i
	}
	text = strings.TrimRight(s[:end], " ")
	if strings.Contains(text, ": ") || strings.HasSuffix(text, ":") {
		return "", "", false
	}
	return text, s[end:], true
}

// singleQuoted reads '…' at the start of s, where a quote doubled is one
// quote.
func singleQuoted(s string) (text, rest string, ok bool) {
	if j := strings.IndexByte(s[1:], '\''); j >= 0 && (j+2 == len(s) || s[j+2] != '\'') {
		return s[1 : 1+j], s[j+2:], true // no '' inside
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] != '\'':
			b.WriteByte(s[i])
		case i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i++
		default:
			return b.String(), s[i+1:], true
		}
	}
	return "", "", false
}

// plainKey reads a plain key: up to ": " or a final ':'.
func plainKey(s string) (text, rest string, ok bool) {
	end := strings.Index(s, ": ")
	if end < 0 && strings.HasSuffix(s, ":") {
		end = len(s) - 1
	}
	if end < 0 || strings.Contains(s[:end], "#") {
		return "", "", false
	}
	text = strings.TrimRight(s[:end], " ")
	return text, s[end:], text != "" && !strings.HasSuffix(text, ":")
}
