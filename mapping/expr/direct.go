package expr

import (
	"errors"
	"reflect"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
)

// An expression runs on every row of a file, and expr's VM spends most of
// a short one fetching cells through reflection and boxing them. The
// common shapes (a cell compared with a text, a condition choosing a
// value, a helper called on cells) are compiled once more, into Go
// closures over the checked tree; anything else, and any row on which a
// closure fails, is left to the VM, so what a person reads (an error, a
// limit) is the VM's.

// closure evaluates a compiled expression over e. Any error means the VM
// must run the expression instead: a closure's errors are never shown.
type closure = func(e *env) (any, error)

// errToVM is the error of a closure that leaves a row to the VM: a cell
// the row does not have, a value not of the type the checker found, or a
// helper that panicked.
var errToVM = errors.New("left to the VM")

// directBuiltins are the builtins of expr the closures call: plain
// functions of their arguments, which expr compiles to a call of Func.
var directBuiltins = []string{"trim", "trimPrefix", "trimSuffix", "hasPrefix", "hasSuffix", "max", "min"}

// direct compiles n, the checked tree of an expression, into a closure;
// nil where a node of it is none of the shapes handled. asBool says the
// expression is a condition, which expr gives as a bool or fails
// (expr.AsBool): a value of another type leaves the row to the VM.
func (c *Compiler) direct(n ast.Node, asBool bool) closure {
	f, ok := c.anyOf(n)
	if !ok {
		return nil
	}
	if asBool {
		f = boxed(asserted[bool](f))
	}
	return recovered(f)
}

// directText compiles n, an expression of text, into a closure that gives
// the text as it is, not boxed as a value; nil where it cannot.
func (c *Compiler) directText(n ast.Node) func(*env) (string, error) {
	f, ok := c.strOf(n)
	if !ok {
		return nil
	}
	return recovered(f)
}

// recovered is f, a panic in it (a helper's) leaving the row to the VM.
func recovered[T any](f func(*env) (T, error)) func(*env) (T, error) {
	return func(e *env) (v T, err error) {
		defer func() {
			if recover() != nil {
				var zero T
				v, err = zero, errToVM
			}
		}()
		return f(e)
	}
}

// kindOf is the kind of value the checker found n to have; Interface
// when it is known only at run time.
func kindOf(n ast.Node) reflect.Kind {
	if t := n.Type(); t != nil {
		return t.Kind()
	}
	return reflect.Interface
}

// anyOf compiles a node of any type.
func (c *Compiler) anyOf(n ast.Node) (closure, bool) {
	switch n := n.(type) {
	case *ast.NilNode:
		return constant[any](nil), true
	case *ast.StringNode: // boxed once, not on every row
		return constant[any](n.Value), true
	case *ast.BoolNode:
		return constant[any](n.Value), true
	case *ast.IntegerNode:
		return constant[any](n.Value), true
	case *ast.FloatNode:
		return constant[any](n.Value), true
	case *ast.ConstantNode:
		switch n.Value.(type) {
		case string, bool, int, float64, nil:
			return constant(n.Value), true
		}
		return nil, false
	case *ast.IdentifierNode:
		if n.Value == "$env" {
			return func(e *env) (any, error) { return e, nil }, true
		}
	case *ast.CallNode:
		return c.call(n)
	case *ast.BuiltinNode:
		return c.builtinCall(n)
	case *ast.UnaryNode:
		if i, ok := n.Node.(*ast.IntegerNode); ok && n.Operator == "-" {
			return constant[any](-i.Value), true
		}
	case *ast.ConditionalNode:
		return conditional(c, n, c.anyOf)
	}
	switch kindOf(n) {
	case reflect.String:
		if s, ok := c.strOf(n); ok {
			return boxed(s), true
		}
	case reflect.Bool:
		if b, ok := c.boolOf(n); ok {
			return boxed(b), true
		}
	}
	return nil, false
}

// conditional compiles cond ? a : b, its branches by of.
func conditional[T any](c *Compiler, n *ast.ConditionalNode, of func(ast.Node) (func(*env) (T, error), bool)) (func(*env) (T, error), bool) {
	cond, ok1 := c.boolOf(n.Cond)
	a, ok2 := of(n.Exp1)
	b, ok3 := of(n.Exp2)
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}
	return func(e *env) (T, error) {
		t, err := cond(e)
		if err != nil {
			var zero T
			return zero, err
		}
		if t {
			return a(e)
		}
		return b(e)
	}, true
}

// constant gives v whatever the row.
func constant[T any](v T) func(*env) (T, error) {
	return func(*env) (T, error) { return v, nil }
}

// boxed is f giving its value as any.
func boxed[T any](f func(*env) (T, error)) closure {
	return func(e *env) (any, error) { v, err := f(e); return v, err }
}

// asserted is f, whose value must be a T: else the VM runs the row.
func asserted[T any](f closure) func(*env) (T, error) {
	return func(e *env) (T, error) {
		v, err := f(e)
		t, ok := v.(T)
		if err == nil && !ok {
			err = errToVM
		}
		return t, err
	}
}

// paired runs a then b and gives op of their values.
func paired[T any](a, b func(*env) (T, error), op func(x, y T) bool) func(*env) (bool, error) {
	return func(e *env) (bool, error) {
		x, err := a(e)
		if err != nil {
			return false, err
		}
		y, err := b(e)
		if err != nil {
			return false, err
		}
		return op(x, y), nil
	}
}

// strOf compiles a node of text.
func (c *Compiler) strOf(n ast.Node) (func(*env) (string, error), bool) {
	if kindOf(n) != reflect.String {
		return nil, false
	}
	switch n := n.(type) {
	case *ast.StringNode:
		return constant(n.Value), true
	case *ast.ConstantNode:
		v, ok := n.Value.(string)
		return constant(v), ok
	case *ast.IdentifierNode:
		if n.Value == "value" {
			return func(e *env) (string, error) { return e.Value, nil }, true
		}
		return nil, false
	case *ast.MemberNode:
		return cellOf(n)
	case *ast.ConditionalNode:
		return conditional(c, n, c.strOf)
	}
	var f closure
	var ok bool
	switch n := n.(type) {
	case *ast.CallNode:
		if t, ok := c.textCall(n); ok {
			return t, true
		}
		f, ok = c.call(n)
	case *ast.BuiltinNode:
		f, ok = c.builtinCall(n)
	}
	if !ok {
		return nil, false
	}
	return asserted[string](f), true
}

// cellOf compiles R[i], a cell of the row (a column the patcher
// resolved), or _P[i], a cell of the product's row; a row without it is
// the VM's.
func cellOf(n *ast.MemberNode) (func(*env) (string, error), bool) {
	id, ok1 := n.Node.(*ast.IdentifierNode)
	k, ok2 := n.Property.(*ast.IntegerNode)
	if !ok1 || !ok2 || n.Optional || k.Value < 0 {
		return nil, false
	}
	i := k.Value
	switch id.Value {
	case "R":
		return func(e *env) (string, error) {
			if i >= len(e.R) {
				return "", errToVM
			}
			return e.R[i], nil
		}, true
	case productCellsName:
		return func(e *env) (string, error) {
			if i >= len(e.P) {
				return "", errToVM
			}
			return e.P[i], nil
		}, true
	}
	return nil, false
}

// boolOf compiles a condition.
func (c *Compiler) boolOf(n ast.Node) (func(*env) (bool, error), bool) {
	if kindOf(n) != reflect.Bool {
		return nil, false
	}
	switch n := n.(type) {
	case *ast.BoolNode:
		return constant(n.Value), true
	case *ast.UnaryNode:
		if n.Operator != "!" && n.Operator != "not" {
			return nil, false
		}
		b, ok := c.boolOf(n.Node)
		if !ok {
			return nil, false
		}
		return func(e *env) (bool, error) { v, err := b(e); return !v, err }, true
	case *ast.BinaryNode:
		return c.binary(n)
	}
	if isBoolNode(n) {
		return nil, false
	}
	f, ok := c.anyOf(n)
	if !ok {
		return nil, false
	}
	return asserted[bool](f), true
}

// isBoolNode reports whether anyOf would compile n through boolOf (which
// would then call itself).
func isBoolNode(n ast.Node) bool {
	switch n.(type) {
	case *ast.CallNode, *ast.BuiltinNode, *ast.ConditionalNode, *ast.ConstantNode:
		return false
	}
	return true
}

// binary compiles a comparison of texts or numbers, or a logical and/or.
func (c *Compiler) binary(n *ast.BinaryNode) (func(*env) (bool, error), bool) {
	switch n.Operator {
	case "&&", "and", "||", "or":
		a, ok1 := c.boolOf(n.Left)
		b, ok2 := c.boolOf(n.Right)
		if !ok1 || !ok2 {
			return nil, false
		}
		and := n.Operator == "&&" || n.Operator == "and"
		return func(e *env) (bool, error) {
			x, err := a(e)
			if err != nil || x != and {
				return x, err
			}
			return b(e)
		}, true
	case "==", "!=", "startsWith", "endsWith", "contains":
		return c.textCompare(n)
	case "<", ">", "<=", ">=":
		return c.numberCompare(n)
	}
	return nil, false
}

// textCompare compiles an operator over two texts.
func (c *Compiler) textCompare(n *ast.BinaryNode) (func(*env) (bool, error), bool) {
	a, ok1 := c.strOf(n.Left)
	b, ok2 := c.strOf(n.Right)
	if !ok1 || !ok2 {
		return nil, false
	}
	var op func(x, y string) bool
	switch n.Operator {
	case "==":
		op = func(x, y string) bool { return x == y }
	case "!=":
		op = func(x, y string) bool { return x != y }
	case "startsWith":
		op = strings.HasPrefix
	case "endsWith":
		op = strings.HasSuffix
	case "contains":
		op = strings.Contains
	}
	return paired(a, b, op), true
}

// numberCompare compiles an ordering of two numbers of which one at least
// is a float64 (as number() gives): the VM compares them as float64s.
func (c *Compiler) numberCompare(n *ast.BinaryNode) (func(*env) (bool, error), bool) {
	kl, kr := kindOf(n.Left), kindOf(n.Right)
	if !(kl == reflect.Float64 && (kr == reflect.Float64 || kr == reflect.Int)) &&
		!(kr == reflect.Float64 && kl == reflect.Int) {
		return nil, false
	}
	a, ok1 := c.anyOf(n.Left)
	b, ok2 := c.anyOf(n.Right)
	if !ok1 || !ok2 {
		return nil, false
	}
	var op func(x, y float64) bool
	switch n.Operator {
	case "<":
		op = func(x, y float64) bool { return x < y }
	case ">":
		op = func(x, y float64) bool { return x > y }
	case "<=":
		op = func(x, y float64) bool { return x <= y }
	case ">=":
		op = func(x, y float64) bool { return x >= y }
	}
	return paired(floatOf(a), floatOf(b), op), true
}

// floatOf is f, whose value must be a float64 or an int, as a float64.
func floatOf(f closure) func(*env) (float64, error) {
	return func(e *env) (float64, error) {
		v, err := f(e)
		if err != nil {
			return 0, err
		}
		switch x := v.(type) {
		case float64:
			return x, nil
		case int:
			return float64(x), nil
		}
		return 0, errToVM
	}
}

// call compiles a call of one of this package's helpers.
func (c *Compiler) call(n *ast.CallNode) (closure, bool) {
	id, ok := n.Callee.(*ast.IdentifierNode)
	if !ok {
		return nil, false
	}
	fn, ok := c.funcs[id.Value]
	if !ok {
		return nil, false
	}
	return c.callWith(fn, n.Arguments)
}

// textCall compiles a call of a helper with a text form, f($env, text,
// whole number) with the number a constant, into a call of that form:
// nothing boxed, no arguments kept.
func (c *Compiler) textCall(n *ast.CallNode) (func(*env) (string, error), bool) {
	id, ok := n.Callee.(*ast.IdentifierNode)
	if !ok || len(n.Arguments) != 3 {
		return nil, false
	}
	fn, ok := c.texts[id.Value]
	if !ok {
		return nil, false
	}
	if env, isEnv := n.Arguments[0].(*ast.IdentifierNode); !isEnv || env.Value != "$env" {
		return nil, false
	}
	s, ok1 := c.strOf(n.Arguments[1])
	k, ok2 := constInt(n.Arguments[2])
	if !ok1 || !ok2 {
		return nil, false
	}
	return func(e *env) (string, error) {
		v, err := s(e)
		if err != nil {
			return "", err
		}
		return fn(e, v, k)
	}, true
}

// constInt is the whole number n writes, 3 or -3.
func constInt(n ast.Node) (int, bool) {
	neg := false
	if u, ok := n.(*ast.UnaryNode); ok && u.Operator == "-" {
		n, neg = u.Node, true
	}
	i, ok := n.(*ast.IntegerNode)
	if !ok {
		return 0, false
	}
	if neg {
		return -i.Value, true
	}
	return i.Value, true
}

// builtinCall compiles a call of one of directBuiltins.
func (c *Compiler) builtinCall(n *ast.BuiltinNode) (closure, bool) {
	i, ok := builtin.Index[n.Name]
	if !ok || !slices.Contains(directBuiltins, n.Name) {
		return nil, false
	}
	f := builtin.Builtins[i]
	if f.Func == nil || f.Fast != nil || f.Safe != nil {
		return nil, false
	}
	for _, a := range n.Arguments {
		if k := kindOf(a); k == reflect.Pointer || k == reflect.Interface {
			return nil, false // expr would dereference it first
		}
	}
	return c.callWith(f.Func, n.Arguments)
}

// callWith compiles a call of fn with args. The arguments are passed in
// e.args, which the next call reuses: fn must not keep p (no helper or
// builtin does; each makes what it returns).
func (c *Compiler) callWith(fn func(p ...any) (any, error), args []ast.Node) (closure, bool) {
	fs := make([]closure, len(args))
	for i, a := range args {
		f, ok := c.anyOf(a)
		if !ok {
			return nil, false
		}
		fs[i] = f
	}
	return func(e *env) (any, error) {
		base := len(e.args)
		defer func() { clear(e.args[base:]); e.args = e.args[:base] }()
		for _, f := range fs {
			v, err := f(e)
			if err != nil {
				return nil, err
			}
			e.args = append(e.args, v)
		}
		return fn(e.args[base:]...)
	}, true
}
