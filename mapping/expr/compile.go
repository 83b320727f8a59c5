package expr

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/checker/nature"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"lading/mapping/cell"
	"lading/mapping/header"
)

// env is what an expression sees. Column references are rewritten at
// compile time into R[index], so a row costs no map and no lookup by name.
type env struct {
	R     []string `expr:"R"`
	Value string   `expr:"value"`
	// P are the cells of the product's row that product() reads.
	P []string `expr:"_P"`
	// made counts the bytes of text the row's expressions made, against
	// rowTextBudget.
	made int
	// args holds the arguments of the calls the closures make, a call's
	// after those of the calls it is an argument of (callWith).
	args []any
}

// helperNames are the functions this package adds to expr's builtins
// (which already give trim, lower, upper, split, join, replace, hasPrefix,
// ...).
var helperNames = []string{"col", "number", "shift", "date", "default", "lookup", "kv", "list", "text", "weight", "length", "pairs", "dropLast", "product"}

// reservedNames are identifiers that never name a column.
var reservedNames = append([]string{"R", "value", "match", productCellsName, "$env", concatName}, helperNames...)

// productCellsName is what product("Column") becomes: the cells of the
// product's row, env.P.
const productCellsName = "_P"

var stringType = reflect.TypeFor[string]()

// colPatcher rewrites col("Name") and bare identifiers that name a column
// into R[i], and records what it could not resolve.
type colPatcher struct {
	cols  *header.Index
	match *string // what `match` stands for; nil: the value's column is no pattern
	// products resolves product("Column") to its place in env.P; nil
	// where product() reads nothing.
	products map[string]int
	tables   map[string]map[string]string
	used     []int
	// fromProduct are the product() calls, in order of appearance.
	fromProduct []ProductUse
	// declared are the names the expression declares (let name = ...),
	// which name no column.
	declared []string
	unknown  []string
	bad      string
}

func (p *colPatcher) column(name string) (ast.Node, bool) {
	i, _, _, err := p.cols.Find(name)
	var amb *header.AmbiguousError
	if errors.As(err, &amb) {
		p.bad = amb.Error()
	}
	if err != nil {
		return nil, false
	}
	if !slices.Contains(p.used, i) {
		p.used = append(p.used, i)
	}
	m := &ast.MemberNode{Node: &ast.IdentifierNode{Value: "R"}, Property: &ast.IntegerNode{Value: i}}
	m.SetType(reflect.TypeFor[string]())
	return m, true
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
		case "product":
			p.productCall(node, n)
			return
		case "lookup":
			if s, ok := argString(n, 0); ok {
				if _, ok := p.tables[s]; !ok {
					names := slices.Sorted(maps.Keys(p.tables))
					p.bad = fmt.Sprintf("lookup: no table %q under tables; tables: %s", s, header.QuoteList(names))
				}
			}
		}
		p.call(n, id.Value)
	case *ast.IdentifierNode:
		if n.Value == "match" {
			p.matchNode(node)
			return
		}
		if slices.Contains(reservedNames, n.Value) || slices.Contains(p.declared, n.Value) {
			return
		}
		if _, fn := builtin.Index[n.Value]; fn && !p.cols.Exact(n.Value) {
			return // one of expr's functions, unless a column has its very name
		}
		if repl, ok := p.column(n.Value); ok {
			ast.Patch(node, repl)
		}
	case *ast.BinaryNode:
		if n.Operator == "+" && mayBeText(n.Left) && mayBeText(n.Right) {
			ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: concatName}, Arguments: []ast.Node{n.Left, n.Right}})
			p.withEnv((*node).(*ast.CallNode))
		}
	}
}

// matchNode replaces `match` with the text the * of the value's column
// pattern matched, known once the header is.
func (p *colPatcher) matchNode(node *ast.Node) {
	if p.match == nil {
		p.bad = `match is the text the * of a column pattern stands for, and this value's column is no pattern; use it like {column: "Weight (*)", expr: "weight(value, match)"}, or write a column named "match" col("match")`
		return
	}
	s := &ast.StringNode{Value: *p.match}
	s.SetType(reflect.TypeFor[string]())
	ast.Patch(node, s)
}

// mayBeText reports whether n is a text, or of a type known only when the
// expression runs.
func mayBeText(n ast.Node) bool {
	k := n.Type().Kind()
	return k == reflect.String || k == reflect.Interface
}

// call checks the constant arguments of a helper call against the limits
// and passes $env to the helpers that make text.
func (p *colPatcher) call(n *ast.CallNode, name string) {
	switch name {
	case "shift":
		if places, ok := argInt(n, 1); ok && (places > maxShift || places < -maxShift) {
			p.bad = fmt.Sprintf("shift(…, %d): a shift moves the decimal point at most %d places either way (shift(value, -3) turns grams into kilograms)", places, maxShift)
		}
	case "weight", "length":
		m := &weightUnits
		if name == "length" {
			m = &lengthUnits
		}
		for i := 1; i <= 2; i++ {
			if u, ok := argString(n, i); ok {
				if msg := m.checkUnit(u); msg != "" {
					p.bad = msg
				}
			}
		}
	case "repeat":
		if times, ok := argInt(n, 1); ok && times > MaxText {
			p.bad = fmt.Sprintf("repeat(…, %d): an expression may make a text of at most %d bytes (1 MiB)", times, MaxText)
		}
	}
	if slices.Contains(envHelpers, name) {
		p.withEnv(n)
	}
}

// withEnv passes the evaluation state as the first argument of n.
func (p *colPatcher) withEnv(n *ast.CallNode) {
	n.Arguments = append([]ast.Node{&ast.IdentifierNode{Value: "$env"}}, n.Arguments...)
}

// argInt returns argument i of n when it is a whole number written out.
func argInt(n *ast.CallNode, i int) (int, bool) {
	if i >= len(n.Arguments) {
		return 0, false
	}
	switch a := n.Arguments[i].(type) {
	case *ast.IntegerNode:
		return a.Value, true
	case *ast.UnaryNode:
		if v, ok := a.Node.(*ast.IntegerNode); ok && a.Operator == "-" {
			return -v.Value, true
		}
	}
	return 0, false
}

// callRetyper makes the checker look at every call again. expr's checker
// keeps the type it gave a call in its passes before the last and then
// does not check the call's arguments: an unknown name inside a helper
// call (number(Titel)) was met only when a row ran. expr runs a
// "repeatable" patcher after its last pass but one, so this one forgets
// the types of calls there.
type callRetyper struct{}

func (callRetyper) Reset()             {}
func (callRetyper) ShouldRepeat() bool { return false }

func (callRetyper) Visit(node *ast.Node) {
	if n, ok := (*node).(*ast.CallNode); ok {
		n.SetNature(nature.Nature{})
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

// SplitList splits s on sep ("," when empty), trims the items and drops
// empty ones.
func SplitList(s, sep string) []string {
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

// ParseKV parses "k=v,k=v" items (separated by sep, name and value by
// assign) into pairs, keeping their order.
func ParseKV(s, sep, assign string) ([][2]string, error) {
	var out [][2]string
	for _, item := range SplitList(s, sep) {
		k, v, ok := strings.Cut(item, assign)
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return nil, fmt.Errorf("%q is not a name%svalue item (items are separated by %q)", item, assign, sep)
		}
		out = append(out, [2]string{k, v})
	}
	return out, nil
}

// Result converts an expression's result to text or a list of texts.
// Numbers become canonical decimals; nil is "". A map, or a list holding
// lists or maps, is an error, as is a list longer in all than maxText.
func Result(v any) (s string, list []string, isList bool, err error) {
	switch x := v.(type) {
	case []string:
		return "", x, true, nil
	case []any:
		out := make([]string, 0, len(x))
		size := 0
		for _, e := range x {
			t, err := scalarOf(e)
			if err != nil {
				return "", nil, false, err
			}
			if size += len(t); size > MaxText {
				return "", nil, false, &limitError{fmt.Sprintf("the list's items are longer in all than %d bytes (1 MiB), the most an expression may make", MaxText)}
			}
			out = append(out, t)
		}
		return "", out, true, nil
	}
	s, err = scalarOf(v)
	return s, nil, false, err
}

// scalarOf is the text of a single value.
func scalarOf(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case float64:
		return formatFloat(x), nil
	case int:
		return strconv.Itoa(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case bool:
		return strconv.FormatBool(x), nil
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map:
		return "", fmt.Errorf("the value is a map, not text; take one of its entries, like kv(Attributes)[\"Size\"]")
	case reflect.Slice, reflect.Array:
		return "", fmt.Errorf("a list inside a list is not text; join its items, like join(x, \",\")")
	case reflect.Func, reflect.Chan, reflect.Pointer, reflect.Struct, reflect.Interface, reflect.UnsafePointer:
		if t, ok := v.(fmt.Stringer); ok && reflect.ValueOf(v).Kind() == reflect.Struct {
			return t.String(), nil // a time or a duration
		}
		return "", fmt.Errorf("the value is a %T, not text", v)
	}
	return fmt.Sprint(v), nil // other numbers
}

// floatDigits is how many significant digits a computed number keeps.
const floatDigits = 15

// formatFloat writes x as a canonical decimal of at most floatDigits
// significant digits, which every float64 holds exactly: arithmetic on
// decimals leaves noise in the digits after them (19.99 + 1.1 is
// 21.089999999999996 in binary floating point), and a price or a weight
// must read 21.09.
func formatFloat(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if significant(s) <= floatDigits {
		return s
	}
	if n, ok := cell.ParseNumber(strconv.FormatFloat(x, 'g', floatDigits, 64), '.'); ok {
		return n
	}
	return s
}

// significant counts the digits of a decimal from its first non-zero
// digit to its last.
func significant(s string) int {
	first, last, n := -1, -1, 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= '1' && c <= '9' {
			if first < 0 {
				first = n
			}
			last = n
		}
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	if first < 0 {
		return 0
	}
	return last - first + 1
}

// Expr is one expression bound to a header.
type Expr struct {
	prog *vm.Program
	// direct runs the expression without the VM, where its shape allows
	// (see direct); nil where it does not. text is direct for an
	// expression of text, giving it unboxed (see Machine.RunText).
	direct closure
	text   func(*env) (string, error)
	// Used are the columns the expression reads, in order of appearance.
	Used []int
	// FromProduct are the cells of the product's row it reads with
	// product(), in order of appearance.
	FromProduct []ProductUse
}

// ProductUse is one product("Column") of an expression: the column, and
// the position of its cell among the product's cells (Machine.Product).
type ProductUse struct {
	Name string
	Cell int
}

// Settings say how the helpers read the cells of one file: its decimal
// separator, its date formats (as a mapping writes them, like
// "DD/MM/YYYY") and the mapping's lookup tables.
type Settings struct {
	Decimal byte
	Formats []string
	Tables  map[string]map[string]string
}

// Compiler compiles expressions against the header of one file.
type Compiler struct {
	cols   *header.Index
	tables map[string]map[string]string
	opts   []expr.Option
	// funcs are the helpers by name, which compiled closures call (see
	// direct); texts, those that have a text form (textHelpers).
	funcs map[string]func(p ...any) (any, error)
	texts map[string]textIntFunc
}

// NewCompiler returns a compiler for expressions over the columns of
// cols, whose cells are read as s says.
func NewCompiler(cols *header.Index, s Settings) *Compiler {
	table := helperTable(s.Decimal, s.Formats, cell.Layouts(s.Formats), s.Tables)
	funcs := make(map[string]func(p ...any) (any, error), len(table))
	for _, h := range table {
		funcs[h.name] = h.fn
	}
	return &Compiler{cols: cols, tables: s.Tables, opts: helperOptions(table), funcs: funcs, texts: textHelpers(s.Decimal)}
}

// Scope is what an expression may read besides its row's cells.
type Scope struct {
	// Match is what `match` stands for: the text the * of the value's
	// column pattern matched; nil where the column is no pattern.
	Match *string
	// Products are the columns of the product's row that product()
	// reads, by name, with the place of each among the product's cells;
	// nil where product() reads nothing.
	Products map[string]int
	// Bool says the expression is a condition, true or false.
	Bool bool
}

// Compile compiles src against the compiler's header; the error text
// says what is wrong without position (the caller adds the mapping
// position) and says "in the file" for the caller to name the file.
func (c *Compiler) Compile(src string, s Scope) (*Expr, error) {
	names := c.cols.Names()
	p := &colPatcher{cols: c.cols, match: s.Match, products: s.Products, tables: c.tables, declared: scan(src).declared}
	all := append([]expr.Option{expr.Env(env{}), expr.Patch(p), expr.Patch(callRetyper{})}, c.opts...)
	if s.Bool {
		all = append(all, expr.AsBool())
	}
	prog, err := expr.Compile(src, all...)
	if p.bad != "" {
		return nil, fmt.Errorf("%s", p.bad)
	}
	if len(p.unknown) > 0 {
		return nil, header.Unknown(p.unknown[0], names)
	}
	if err != nil {
		msg := firstLine(err.Error())
		if _, after, ok := strings.Cut(msg, "unknown name "); ok {
			name := strings.TrimSpace(strings.Trim(after, " ."))
			if j := strings.IndexAny(name, " ("); j >= 0 {
				name = name[:j]
			}
			e := header.Unknown(name, names)
			return nil, fmt.Errorf("%v; a column whose name has spaces or symbols is written col(\"Its Name\"); functions: %s, and expr's builtins (trim, lower, upper, split, join, replace, hasPrefix, ...)", e, strings.Join(helperNames, ", "))
		}
		return nil, fmt.Errorf("expression %q: %s", src, msg)
	}
	root := prog.Node()
	e := &Expr{prog: prog, direct: c.direct(root, s.Bool), Used: p.used, FromProduct: p.fromProduct}
	if !s.Bool {
		e.text = c.directText(root)
	}
	return e, nil
}

// CheckSyntax reports whether src is an expression, before any header
// is known: the error is expr's first line.
func CheckSyntax(src string) error {
	if _, err := parser.Parse(src); err != nil {
		return errors.New(firstLine(err.Error()))
	}
	return nil
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
