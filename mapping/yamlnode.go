package mapping

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// decoder walks a YAML syntax tree keeping positions, and records the
// first error it meets.
type decoder struct {
	file string
	err  *Error
	// fast are the lookup tables read on the side, by the line of their
	// name (see fastTables).
	fast map[int]*fastTable
}

func nodePos(n ast.Node) Pos {
	if n == nil {
		return Pos{}
	}
	switch v := n.(type) {
	case *ast.MappingValueNode:
		if v.Key != nil {
			return nodePos(v.Key)
		}
	case *ast.MappingNode:
		if !v.IsFlowStyle && len(v.Values) > 0 {
			return nodePos(v.Values[0])
		}
	}
	t := n.GetToken()
	if t == nil || t.Position == nil {
		return Pos{}
	}
	return Pos{t.Position.Line, t.Position.Column}
}

// failAt records an error at p unless one is recorded already.
func (d *decoder) failAt(p Pos, format string, args ...any) {
	if d.err == nil {
		d.err = &Error{File: d.file, Line: p.Line, Column: p.Column, Msg: fmt.Sprintf(format, args...)}
	}
}

func (d *decoder) fail(n ast.Node, format string, args ...any) {
	d.failAt(nodePos(n), format, args...)
}

// unwrap strips tags and anchors.
func unwrap(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.TagNode:
			n = v.Value
		case *ast.AnchorNode:
			n = v.Value
		default:
			return n
		}
	}
}

func isNull(n ast.Node) bool {
	if n == nil {
		return true
	}
	_, ok := unwrap(n).(*ast.NullNode)
	return ok
}

// entries returns the key/value pairs of a mapping node; where names it in
// messages. A null node has no entries.
func (d *decoder) entries(n ast.Node, where string) []*ast.MappingValueNode {
	if isNull(n) {
		return nil
	}
	switch v := unwrap(n).(type) {
	case *ast.MappingNode:
		return v.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{v}
	case *ast.AliasNode:
		d.fail(n, "%s: aliases (*name) are not supported; write the value out", where)
		return nil
	}
	d.fail(n, "%s must be a mapping of keys to values, not %s", where, describeNode(n))
	return nil
}

// checkKeys reports an unknown or repeated key among es.
func (d *decoder) checkKeys(es []*ast.MappingValueNode, where string, allowed []string) {
	seen := map[string]bool{}
	for _, e := range es {
		k := keyOf(e)
		if seen[k] {
			d.fail(e.Key, "%s: key %q is given twice", where, k)
			return
		}
		seen[k] = true
		if !slices.Contains(allowed, k) {
			msg := fmt.Sprintf("%s: unknown key %q; allowed: %s", where, k, strings.Join(allowed, ", "))
			if cm := closeMatches(k, allowed, 1); len(cm) > 0 {
				msg += fmt.Sprintf(" (did you mean %q?)", cm[0])
			}
			d.fail(e.Key, "%s", msg)
			return
		}
	}
}

func keyOf(e *ast.MappingValueNode) string {
	if e.Key == nil {
		return ""
	}
	if s, ok := scalarText(e.Key); ok {
		return s
	}
	return e.Key.String()
}

// scalarText returns the text of a scalar node as written (unquoted).
func scalarText(n ast.Node) (string, bool) {
	switch v := unwrap(n).(type) {
	case *ast.AliasNode:
		return "", false
	case *ast.StringNode:
		return v.Value, true
	case *ast.LiteralNode:
		return v.Value.Value, true
	case *ast.NullNode:
		return "", true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return v.GetToken().Value, true
	case ast.ScalarNode:
		return v.GetToken().Value, true
	}
	return "", false
}

func describeNode(n ast.Node) string {
	switch unwrap(n).(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.NullNode:
		return "empty"
	}
	return "a " + unwrap(n).Type().String()
}

func (d *decoder) str(n ast.Node, where string) string {
	s, ok := scalarText(n)
	if _, alias := unwrap(n).(*ast.AliasNode); alias {
		d.fail(n, "%s: aliases (*name) are not supported; write the value out", where)
	} else if !ok {
		d.fail(n, "%s must be a single value (text), not %s", where, describeNode(n))
	}
	return s
}

func (d *decoder) boolean(n ast.Node, where string) bool {
	s := d.str(n, where)
	switch strings.ToLower(s) {
	case "true", "yes", "on":
		return true
	case "false", "no", "off", "":
		return false
	}
	d.fail(n, "%s must be true or false, not %q", where, s)
	return false
}

func (d *decoder) integer(n ast.Node, where string) int {
	s := d.str(n, where)
	i, err := strconv.Atoi(s)
	if err != nil {
		d.fail(n, "%s must be a whole number, not %q", where, s)
	}
	return i
}

// oneOf reads a scalar that must be one of allowed.
func (d *decoder) oneOf(n ast.Node, where string, allowed []string) string {
	s := d.str(n, where)
	if slices.Contains(allowed, s) {
		return s
	}
	d.fail(n, "%s: %q is not allowed; allowed: %s", where, s, strings.Join(allowed, ", "))
	return s
}

// list reads a sequence of scalars; a single scalar is a list of one.
func (d *decoder) list(n ast.Node, where string) []string {
	if isNull(n) {
		return nil
	}
	if seq, ok := unwrap(n).(*ast.SequenceNode); ok {
		out := make([]string, 0, len(seq.Values))
		for i, v := range seq.Values {
			out = append(out, d.str(v, fmt.Sprintf("%s[%d]", where, i)))
		}
		return out
	}
	return []string{d.str(n, where)}
}

// seq returns the items of a sequence node.
func (d *decoder) seq(n ast.Node, where string) []ast.Node {
	if isNull(n) {
		return nil
	}
	if s, ok := unwrap(n).(*ast.SequenceNode); ok {
		return s.Values
	}
	d.fail(n, "%s must be a list (lines starting with \"- \"), not %s", where, describeNode(n))
	return nil
}
