package expr

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/expr-lang/expr/vm"
)

// Machine runs compiled expressions over the rows of a file, one row at
// a time. The zero Machine is ready; it is not safe for concurrent use:
// give each goroutine its own.
type Machine struct {
	env env
	vm  vm.VM
}

// Row makes row's cells what the expressions run next read, with a new
// budget of text for the row's expressions (see the limits).
func (m *Machine) Row(row []string) { m.env.R, m.env.made = row, 0 }

// Product makes cells, the cells of the product's row, what product()
// reads (see Scope.Products).
func (m *Machine) Product(cells []string) { m.env.P = cells }

// ProductCell is cell k of the product's row given to Product, or "".
func (m *Machine) ProductCell(k int) string {
	if k >= 0 && k < len(m.env.P) {
		return m.env.P[k]
	}
	return ""
}

// Done lets go of the row and the product's cells.
func (m *Machine) Done() { m.env.R, m.env.P = nil, nil }

// Run runs e over the current row, with value as `value` (the cell of
// the value's column, "" for none).
func (m *Machine) Run(e *Expr, value string) (any, error) {
	m.env.Value = value
	if e.direct != nil {
		made := m.env.made
		if v, err := e.direct(&m.env); err == nil {
			return v, nil
		}
		m.env.made = made // the VM charges the row's text again
	}
	m.vm.MemoryBudget = maxItems
	return m.vm.Run(e.prog, &m.env)
}

// RunText runs e over the current row as Run does, when e is an
// expression of text a closure runs, and gives its text; ok is false when
// it is not, or the closure left the row to the VM: then Run must run it.
func (m *Machine) RunText(e *Expr, value string) (s string, ok bool) {
	if e.text == nil {
		return "", false
	}
	m.env.Value = value
	made := m.env.made
	s, err := e.text(&m.env)
	if err != nil {
		m.env.made = made // Run charges the row's text again
		return "", false
	}
	return s, true
}

// Describe words the error of a run for the person who wrote the
// mapping: its first line, without expr's position; limit says the
// expression went over one of the limits (see MaxText), which the caller
// should say where the expression is for.
func Describe(err error) (msg string, limit bool) {
	msg = firstLine(err.Error())
	if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
		msg = msg[:i]
	}
	var le *limitError
	limit = errors.As(err, &le)
	if msg == "memory budget exceeded" {
		msg, limit = fmt.Sprintf("the expression builds lists, ranges or maps of more than %d items in all, the most it may", maxItems), true
	}
	return msg, limit
}

// IsNumber reports whether an expression's result is a number (which
// Result writes with '.').
func IsNumber(v any) bool {
	switch reflect.ValueOf(v).Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}
