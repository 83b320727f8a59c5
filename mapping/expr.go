package mapping

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
)

// exprEnv is what an expression sees. Column references are rewritten at
// compile time into R[index], so a row costs no map and no lookup by name.
type exprEnv struct {
	R     []string `expr:"R"`
	Value string   `expr:"value"`
}

// helperNames are the functions this package adds to expr's builtins
// (which already give trim, lower, upper, split, join, replace, hasPrefix,
// ...).
var helperNames = []string{"col", "number", "shift", "date", "default", "lookup", "kv", "list", "text"}

// colPatcher rewrites col("Name") and bare identifiers that name a column
// into R[i], and records what it could not resolve.
type colPatcher struct {
	index   map[string]int
	tables  map[string]map[string]string
	used    []int
	unknown []string
	bad     string
}

func (p *colPatcher) column(name string) (ast.Node, bool) {
	i, ok := p.index[name]
	if !ok {
		return nil, false
	}
	if !slices.Contains(p.used, i) {
		p.used = append(p.used, i)
	}
	return &ast.MemberNode{Node: &ast.IdentifierNode{Value: "R"}, Property: &ast.IntegerNode{Value: i}}, true
}

func (p *colPatcher) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.CallNode:
		id, ok := n.Callee.(*ast.IdentifierNode)
		if !ok {
			return
		}
		switch id.Value {
		case "col":
			s, ok := argString(n, 0)
			if !ok || len(n.Arguments) != 1 {
				p.bad = "col() takes one column name in quotes, like col(\"Variant SKU\")"
				return
			}
			if repl, ok := p.column(s); ok {
				ast.Patch(node, repl)
			} else {
				p.unknown = append(p.unknown, s)
			}
		case "lookup":
			if s, ok := argString(n, 0); ok {
				if _, ok := p.tables[s]; !ok {
					names := slices.Sorted(maps.Keys(p.tables))
					p.bad = fmt.Sprintf("lookup: no table %q under tables; tables: %s", s, quoteList(names))
				}
			}
		}
	case *ast.IdentifierNode:
		if n.Value == "R" || n.Value == "value" || slices.Contains(helperNames, n.Value) {
			return
		}
		if repl, ok := p.column(n.Value); ok {
			ast.Patch(node, repl)
		}
	}
}

func argString(n *ast.CallNode, i int) (string, bool) {
	if i >= len(n.Arguments) {
		return "", false
	}
	s, ok := n.Arguments[i].(*ast.StringNode)
	if !ok {
		return "", false
	}
	return s.Value, true
}

// helpers returns the expr options defining this package's functions for
// a source with decimal separator dec, date formats (as written, and as Go
// layouts) and lookup tables.
func helpers(dec byte, formats, layouts []string, tables map[string]map[string]string) []expr.Option {
	str := func(v any) string {
		switch x := v.(type) {
		case string:
			return x
		case nil:
			return ""
		}
		s, _, _ := toText(v)
		return s
	}
	return []expr.Option{
		expr.Function("col", func(p ...any) (any, error) {
			return nil, fmt.Errorf("col() takes one column name in quotes")
		}, new(func(string) string)),
		expr.Function("number", func(p ...any) (any, error) {
			s := strings.TrimSpace(str(p[0]))
			d := dec
			if len(p) > 1 {
				if ds := str(p[1]); len(ds) == 1 {
					d = ds[0]
				}
			}
			if s == "" {
				return 0.0, nil
			}
			c, ok := ParseNumber(s, d)
			if !ok {
				return nil, fmt.Errorf("number: %q is not a number (decimal %q)", s, string(d))
			}
			return strconv.ParseFloat(c, 64)
		}, new(func(string) float64), new(func(string, string) float64)),
		expr.Function("shift", func(p ...any) (any, error) {
			s := strings.TrimSpace(str(p[0]))
			if s == "" {
				return "", nil
			}
			return ShiftNumber(s, dec, p[1].(int))
		}, new(func(string, int) string)),
		expr.Function("date", func(p ...any) (any, error) {
			s := strings.TrimSpace(str(p[0]))
			if s == "" {
				return "", nil
			}
			d, ok := ParseDate(s, layouts)
			if !ok {
				return nil, fmt.Errorf("date: %q is not a date (%s)", s, dateFormatList(formats))
			}
			return d, nil
		}, new(func(string) string)),
		expr.Function("default", func(p ...any) (any, error) {
			if s := str(p[0]); strings.TrimSpace(s) != "" {
				return s, nil
			}
			return str(p[1]), nil
		}, new(func(string, string) string)),
		expr.Function("lookup", func(p ...any) (any, error) {
			t := tables[str(p[0])]
			k := strings.TrimSpace(str(p[1]))
			if v, ok := t[k]; ok {
				return v, nil
			}
			if len(p) > 2 {
				return str(p[2]), nil
			}
			return "", nil
		}, new(func(string, string) string), new(func(string, string, string) string)),
		expr.Function("kv", func(p ...any) (any, error) {
			sep, assign := ",", "="
			if len(p) > 1 {
				sep = str(p[1])
			}
			if len(p) > 2 {
				assign = str(p[2])
			}
			pairs, err := parseKV(str(p[0]), sep, assign)
			if err != nil {
				return nil, err
			}
			m := make(map[string]string, len(pairs))
			for _, kv := range pairs {
				m[kv[0]] = kv[1]
			}
			return m, nil
		}, new(func(string) map[string]string), new(func(string, string) map[string]string), new(func(string, string, string) map[string]string)),
		expr.Function("list", func(p ...any) (any, error) {
			sep := "|"
			if len(p) > 1 {
				sep = str(p[1])
			}
			return splitList(str(p[0]), sep), nil
		}, new(func(string) []string), new(func(string, string) []string)),
		expr.Function("text", func(p ...any) (any, error) {
			return str(p[0]), nil
		}, new(func(any) string)),
		expr.DisableBuiltin("date"),
	}
}

// splitList splits s on sep, trims the items and drops empty ones.
func splitList(s, sep string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	if sep == "" {
		sep = ","
	}
	parts := strings.Split(s, sep)
	out := parts[:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// parseKV parses "k=v,k=v" items into pairs, keeping their order.
func parseKV(s, sep, assign string) ([][2]string, error) {
	var out [][2]string
	for _, item := range splitList(s, sep) {
		k, v, ok := strings.Cut(item, assign)
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return nil, fmt.Errorf("%q is not a name%svalue item (items are separated by %q)", item, assign, sep)
		}
		out = append(out, [2]string{k, v})
	}
	return out, nil
}

// toText converts an expression result to text or a list. Numbers become
// canonical decimals; nil is "".
func toText(v any) (s string, list []string, isList bool) {
	switch x := v.(type) {
	case nil:
		return "", nil, false
	case string:
		return x, nil, false
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil, false
	case int:
		return strconv.Itoa(x), nil, false
	case int64:
		return strconv.FormatInt(x, 10), nil, false
	case bool:
		return strconv.FormatBool(x), nil, false
	case []string:
		return "", x, true
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			t, _, _ := toText(e)
			out = append(out, t)
		}
		return "", out, true
	}
	return fmt.Sprint(v), nil, false
}

// compiledExpr is one expression bound to a header.
type compiledExpr struct {
	prog *vm.Program
	used []int // columns the expression reads, in order of appearance
}

// compileExpr compiles src against the column index; the error text says
// what is wrong without position (the caller adds the mapping position).
func compileExpr(src string, index map[string]int, header []string, opts []expr.Option, tables map[string]map[string]string, extra ...expr.Option) (*compiledExpr, error) {
	p := &colPatcher{index: index, tables: tables}
	all := append([]expr.Option{expr.Env(exprEnv{}), expr.Patch(p)}, opts...)
	all = append(all, extra...)
	prog, err := expr.Compile(src, all...)
	if p.bad != "" {
		return nil, fmt.Errorf("%s", p.bad)
	}
	if len(p.unknown) > 0 {
		return nil, unknownColumn(p.unknown[0], header)
	}
	if err != nil {
		msg := firstLine(err.Error())
		if _, after, ok := strings.Cut(msg, "unknown name "); ok {
			name := strings.TrimSpace(strings.Trim(after, " ."))
			if j := strings.IndexAny(name, " ("); j >= 0 {
				name = name[:j]
			}
			e := unknownColumn(name, header)
			return nil, fmt.Errorf("%v; a column whose name has spaces or symbols is written col(\"Its Name\"); functions: %s, and expr's builtins (trim, lower, upper, split, join, replace, hasPrefix, ...)", e, strings.Join(helperNames, ", "))
		}
		return nil, fmt.Errorf("expression %q: %s", src, msg)
	}
	return &compiledExpr{prog: prog, used: p.used}, nil
}

// unknownColumn is the error for a column missing from the header.
func unknownColumn(name string, header []string) error {
	msg := fmt.Sprintf("no column %q in the file", name)
	if cm := closeMatches(name, header, 3); len(cm) > 0 {
		return fmt.Errorf("%s; close matches: %s", msg, quoteList(cm))
	}
	cols := header
	more := ""
	if len(cols) > 40 {
		cols, more = cols[:40], fmt.Sprintf(" and %d more", len(header)-40)
	}
	return fmt.Errorf("%s; columns: %s%s", msg, quoteList(cols), more)
}
