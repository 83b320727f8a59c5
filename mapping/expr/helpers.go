package expr

import (
	"fmt"
	"lading/mapping/cell"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm/runtime"
)

// Limits on what an expression may make. A mapping file is small, but an
// expression runs on every row: without them shift(value, 3000000000)
// or repeat() would ask for gigabytes a row.
const (
	// maxShift is how many places shift() may move a decimal point.
	maxShift = 30
	// MaxText is the longest text (in bytes) a helper, a + of texts, or
	// the value of an expression may be.
	MaxText = 1 << 20
	// rowTextBudget is how many bytes of text the expressions of one row
	// may make in all.
	rowTextBudget = 16 << 20
	// maxItems bounds the items of the lists, ranges and maps an
	// expression builds (expr's memory budget).
	maxItems = 100_000
	// maxExprNodes bounds the size of an expression (expr's node count).
	maxExprNodes = 1000
)

// limitError is an expression going over one of the limits above.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

// charge counts n bytes of text that what (a helper's name) is about to
// make against the limits, before they are allocated.
func (e *env) charge(what string, n int) error {
	if n > MaxText || n < 0 {
		return &limitError{fmt.Sprintf("%s would make a text longer than %d bytes (1 MiB), the most an expression may make", what, MaxText)}
	}
	e.made += n
	if e.made > rowTextBudget {
		return &limitError{fmt.Sprintf("%s: the expressions of this row have made more than %d bytes (16 MiB) of text, the most one row's may make", what, rowTextBudget)}
	}
	return nil
}

// envOf returns the evaluation state passed as a helper's first argument
// ($env, added by colPatcher), or a fresh one.
func envOf(v any) *env {
	if e, ok := v.(*env); ok {
		return e
	}
	return &env{}
}

// envHelpers are the helpers that make text and so take the evaluation
// state, $env, as a hidden first argument (colPatcher adds it).
var envHelpers = []string{"shift", "text", "pairs", "repeat", "replace", "join", "string", "upper", "lower", concatName}

// concatName is the function a + that may join texts is turned into.
const concatName = "_concat"

// replaced are expr builtins that this package replaces with versions
// that stay within the limits, or disables because they can copy a list
// or a text many times over (toJSON, toBase64, concat, flatten).
var replaced = []string{"date", "repeat", "replace", "join", "string", "upper", "lower", "toJSON", "toBase64", "concat", "flatten"}

// helper is one of this package's functions: its name, its Go function
// and the signatures expr checks its calls against.
type helper struct {
	name  string
	fn    func(p ...any) (any, error)
	types []any
}

// textIntFunc is a helper of $env, a text and a whole number that makes a
// text, as the closures call it: nothing boxed.
type textIntFunc func(e *env, s string, n int) (string, error)

// textHelpers are the helpers of helperTable that have a form the
// closures call instead (see Compiler.textCall).
func textHelpers(dec byte) map[string]textIntFunc {
	return map[string]textIntFunc{"shift": shiftText(dec)}
}

// helperTable returns this package's functions for a source with decimal
// separator dec, date formats (as written, and as Go layouts) and lookup
// tables.
func helperTable(dec byte, formats, layouts []string, tables map[string]map[string]string) []helper {
	return []helper{
		{"col", func(p ...any) (any, error) {
			return nil, fmt.Errorf("col() takes one column name in quotes")
		}, []any{new(func(string) string)}},
		{"product", func(p ...any) (any, error) {
			return nil, fmt.Errorf("%s", productMisplaced)
		}, []any{new(func(string) string)}},
		{"number", numberHelper(dec), []any{new(func(string) float64), new(func(string, string) float64)}},
		{"shift", shiftHelper(dec), []any{new(func(any, string, int) string)}},
		{"date", dateHelper(formats, layouts), []any{new(func(string) string)}},
		{"default", defaultHelper, []any{new(func(string, string) string)}},
		{"lookup", lookupHelper(tables), []any{new(func(string, string) string), new(func(string, string, string) string)}},
		{"kv", kvHelper, []any{new(func(string) map[string]string), new(func(string, string) map[string]string), new(func(string, string, string) map[string]string)}},
		{"list", listHelper, []any{new(func(string) []string), new(func(string, string) []string)}},
		{"weight", convertHelper(&weightUnits, dec, defaultWeightUnit), []any{new(func(any, string) float64), new(func(any, string, string) float64)}},
		{"length", convertHelper(&lengthUnits, dec, defaultLengthUnit), []any{new(func(any, string) float64), new(func(any, string, string) float64)}},
		{"pairs", pairsHelper, []any{new(func(any, any, any) []string), new(func(any, any, any, string) []string)}},
		{"dropLast", dropLastHelper, []any{new(func(any, string) any), new(func(any, string, int) any)}},
		{"text", textHelper, []any{new(func(any, any) string)}},
		{"string", textHelper, []any{new(func(any, any) string)}},
		{"repeat", repeatHelper, []any{new(func(any, string, int) string)}},
		{"replace", replaceHelper, []any{new(func(any, string, string, string) string)}},
		{"join", joinHelper, []any{new(func(any, []string, string) string), new(func(any, []string) string), new(func(any, []any, string) string), new(func(any, []any) string)}},
		{"upper", caseHelper("upper", strings.ToUpper), []any{new(func(any, string) string)}},
		{"lower", caseHelper("lower", strings.ToLower), []any{new(func(any, string) string)}},
		{concatName, concatHelper, []any{new(func(any, string, string) string), new(func(any, any, any) any)}},
	}
}

// helperOptions are the expr options defining the helpers of table, with
// the limits and the builtins they replace.
func helperOptions(table []helper) []expr.Option {
	opts := make([]expr.Option, 0, len(table)+1+len(replaced))
	for _, h := range table {
		opts = append(opts, expr.Function(h.name, h.fn, h.types...))
	}
	opts = append(opts, expr.MaxNodes(maxExprNodes))
	for _, name := range replaced {
		opts = append(opts, expr.DisableBuiltin(name))
	}
	return opts
}

// str is the text of a helper's argument: "" for nil, numbers as
// canonical decimals. Lists and maps are not text.
func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	s, _ := scalarOf(v)
	return s
}

func numberHelper(dec byte) func(p ...any) (any, error) {
	return func(p ...any) (any, error) {
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
		c, ok := cell.ParseNumber(s, d)
		if !ok {
			return nil, fmt.Errorf("number: %q is not a number (decimal %q)", s, string(d))
		}
		return strconv.ParseFloat(c, 64)
	}
}

func shiftHelper(dec byte) func(p ...any) (any, error) {
	shift := shiftText(dec)
	return func(p ...any) (any, error) {
		places, _ := p[2].(int)
		s, err := shift(envOf(p[0]), str(p[1]), places)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
}

// shiftText is shift() as the closures call it: nothing boxed.
func shiftText(dec byte) textIntFunc {
	return func(e *env, s string, places int) (string, error) {
		s = strings.TrimSpace(s)
		if places > maxShift || places < -maxShift {
			return "", &limitError{fmt.Sprintf("shift by %d places: a shift moves the decimal point at most %d places either way", places, maxShift)}
		}
		if s == "" {
			return "", nil
		}
		if err := e.charge("shift", len(s)+maxShift+2); err != nil {
			return "", err
		}
		return cell.ShiftNumber(s, dec, places)
	}
}

func dateHelper(formats, layouts []string) func(p ...any) (any, error) {
	return func(p ...any) (any, error) {
		s := strings.TrimSpace(str(p[0]))
		if s == "" {
			return "", nil
		}
		d, ok := cell.ParseDate(s, layouts)
		if !ok {
			return nil, fmt.Errorf("date: %q is not a date (%s)", s, cell.FormatList(formats))
		}
		return d, nil
	}
}

func defaultHelper(p ...any) (any, error) {
	if s := str(p[0]); strings.TrimSpace(s) != "" {
		return s, nil
	}
	return str(p[1]), nil
}

func lookupHelper(tables map[string]map[string]string) func(p ...any) (any, error) {
	return func(p ...any) (any, error) {
		t := tables[str(p[0])]
		k := strings.TrimSpace(str(p[1]))
		if v, ok := t[k]; ok {
			return v, nil
		}
		if len(p) > 2 {
			return str(p[2]), nil
		}
		return "", nil
	}
}

func kvHelper(p ...any) (any, error) {
	sep, assign := ",", "="
	if len(p) > 1 {
		sep = str(p[1])
	}
	if len(p) > 2 {
		assign = str(p[2])
	}
	pairs, err := ParseKV(str(p[0]), sep, assign)
	if err != nil {
		return nil, err
	}
	m := make(map[string]string, len(pairs))
	for _, kv := range pairs {
		m[kv[0]] = kv[1]
	}
	return m, nil
}

func listHelper(p ...any) (any, error) {
	sep := "|"
	if len(p) > 1 {
		sep = str(p[1])
	}
	return SplitList(str(p[0]), sep), nil
}

// textHelper is text(x) and string(x): x as text, a list as its items
// separated by ",".
func textHelper(p ...any) (any, error) {
	s, list, isList, err := Result(p[1])
	if err != nil {
		return nil, err
	}
	if !isList {
		return s, nil
	}
	return joinTexts(envOf(p[0]), "text", list, ",")
}

func repeatHelper(p ...any) (any, error) {
	s := str(p[1])
	n, _ := p[2].(int)
	if n < 0 {
		return nil, fmt.Errorf("repeat: %d times: the count must be 0 or more", n)
	}
	size := len(s) * n
	if n > 0 && (len(s) > MaxText/n) {
		size = MaxText + 1
	}
	if err := envOf(p[0]).charge("repeat", size); err != nil {
		return nil, err
	}
	return strings.Repeat(s, n), nil
}

func replaceHelper(p ...any) (any, error) {
	s, old, repl := str(p[1]), str(p[2]), str(p[3])
	size := len(s)
	if n := strings.Count(s, old); n > 0 && len(repl) > len(old) {
		if d := len(repl) - len(old); n > MaxText/d {
			size = MaxText + 1
		} else {
			size += n * d
		}
	}
	if err := envOf(p[0]).charge("replace", size); err != nil {
		return nil, err
	}
	return strings.ReplaceAll(s, old, repl), nil
}

func joinHelper(p ...any) (any, error) {
	glue := ""
	if len(p) > 2 {
		glue = str(p[2])
	}
	_, list, isList, err := Result(p[1])
	if err != nil {
		return nil, err
	}
	if !isList {
		return nil, fmt.Errorf("join takes a list, like join(list(Tags), \", \")")
	}
	return joinTexts(envOf(p[0]), "join", list, glue)
}

// joinTexts joins list with sep, within the limits.
func joinTexts(e *env, what string, list []string, sep string) (string, error) {
	size := 0
	for i, s := range list {
		if i > 0 {
			size += len(sep)
		}
		if size += len(s); size > MaxText {
			break
		}
	}
	if err := e.charge(what, size); err != nil {
		return "", err
	}
	return strings.Join(list, sep), nil
}

func caseHelper(name string, convert func(string) string) func(p ...any) (any, error) {
	return func(p ...any) (any, error) {
		// A case change makes a text at most three times longer (an
		// invalid byte becomes the 3-byte replacement character).
		s := convert(str(p[1]))
		if err := envOf(p[0]).charge(name, len(s)); err != nil {
			return nil, err
		}
		return s, nil
	}
}

// concatHelper is a + that may join texts (colPatcher turns such a + into
// a call); other operands are added as expr adds them.
func concatHelper(p ...any) (any, error) {
	a, aok := p[1].(string)
	b, bok := p[2].(string)
	if !aok || !bok {
		return runtime.Add(p[1], p[2]), nil
	}
	if err := envOf(p[0]).charge("+", len(a)+len(b)); err != nil {
		return nil, err
	}
	return a + b, nil
}
