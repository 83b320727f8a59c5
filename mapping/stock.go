package mapping

import (
	"github.com/goccy/go-yaml/ast"
)

// stockKeys are the keys allowed under "stock".
var stockKeys = []string{"sku", "quantity", "warehouse"}

// stock reads the stock section e (its key and value).
func (d *decoder) stock(e *ast.MappingValueNode) *StockSpec {
	st := &StockSpec{Pos: nodePos(e.Key)}
	es := d.entries(e.Value, "stock")
	d.checkKeys(es, "stock", stockKeys)
	for _, se := range es {
		k := keyOf(se)
		kind := KindText
		if k == "quantity" {
			kind = KindInteger
		}
		s := d.value(se.Value, "stock."+k, kind)
		if s == nil {
			continue
		}
		s.Name = k
		d.stockValueKeys(se.Value, s)
		switch k {
		case "sku":
			st.SKU = s
		case "quantity":
			s.NotNegative = true
			st.Quantity = s
		case "warehouse":
			st.Warehouse = s
		}
	}
	if d.err == nil && (st.SKU == nil || st.Quantity == nil) {
		d.failAt(st.Pos, "stock needs sku (the column holding each row's SKU) and quantity (the column holding its units); warehouse is optional")
	}
	return st
}

// stockValueKeys refuses the value settings that have no meaning for a
// stock target, at their key.
func (d *decoder) stockValueKeys(n ast.Node, s *ValueSpec) {
	if _, ok := scalarText(n); ok {
		return
	}
	for _, e := range d.entries(n, s.Target) {
		switch keyOf(e) {
		case "clear_when_empty":
			d.fail(e.Key, "%s: clear_when_empty does not apply to stock levels (an empty cell pushes nothing); remove it", s.Target)
		case "optional":
			if s.Name != "warehouse" {
				d.fail(e.Key, "%s cannot be optional: every stock row needs a SKU and a quantity; remove optional", s.Target)
			}
		case "type":
			if s.Name == "quantity" && s.Kind != KindInteger && s.Kind != KindNumber {
				d.fail(e.Value, "%s is always a whole number of units: type %s does not apply; remove type", s.Target, s.Kind)
			}
		}
	}
}

// StockOnly reports whether the mapping maps stock levels and nothing of
// a catalog: it has a stock section and no group, product, variant,
// options, tiers or join.
func (m *Mapping) StockOnly() bool { return m.Stock != nil && !m.hasCatalog() }

// hasCatalog reports whether the mapping maps any part of a catalog:
// group, product, variant, options, tiers, command or join.
func (m *Mapping) hasCatalog() bool {
	g, o, v := &m.Group, &m.Options, &m.Variant
	return g.By != "" || m.Command != nil || g.Key != nil || g.Parent != nil || g.Alias != nil || g.Children != nil || g.Role != nil ||
		m.Product != (ProductSpec{}) || v.SKU != nil || v.Stock != nil || len(v.Fields) > 0 ||
		len(o.Pairs) > 0 || len(o.Columns) > 0 || o.List != nil || o.When != nil ||
		len(m.Tiers.Columns) > 0 || m.Tiers.Prefix != "" || m.Join != nil
}

// stockOnlyError is Compile's error for a mapping that maps stock levels
// only.
func (m *Mapping) stockOnlyError() error {
	return ErrorList{{File: m.File, Line: m.Stock.Pos.Line, Column: m.Stock.Pos.Column,
		Msg: "this mapping maps stock levels only (stock:); it cannot import a catalog: use it to push stock levels, or give it group.key and product.name to import products"}}
}

// StockProgram is a mapping's stock section bound to the header of one
// file. Eval turns rows into StockRow values. A StockProgram is not safe
// for concurrent use; give each goroutine its own Clone.
type StockProgram struct {
	section
	sku, quantity, warehouse *valueProg
}

// StockRow is one evaluated row of a stock file. StockProgram.Eval fills
// it; strings may share memory with the source row, so a caller that
// keeps them past the next row must copy them.
type StockRow struct {
	Skipping
	// SKU is trimmed; "" when missing (an error is in Errors).
	SKU string
	// Quantity is a canonical whole number of units, 0 or more ("12");
	// "" when missing or invalid (an error is in Errors).
	Quantity string
	// Warehouse is trimmed, as given; "" when not mapped or empty.
	Warehouse string
	// Errors lists the invalid values of the row; Eval returns them too.
	Errors RowErrors
}

func (r *StockRow) reset() {
	*r = StockRow{Errors: r.Errors[:0]}
}

// CompileStock binds the mapping's stock section (with the source
// settings, skip rules and lookup tables) to the header of a stock file
// (file names it in messages). Every unknown column is reported with the
// mapping line, the close matches among the header's columns, or the
// columns there are; that error is an ErrorList. A mapping without a
// stock section gives an *Error saying how to add one.
func (m *Mapping) CompileStock(file string, header []string) (*StockProgram, error) {
	if m.Stock == nil {
		return nil, &Error{File: m.File, Msg: "the mapping has no stock section, so it cannot read stock levels; add one naming the columns of each row's SKU and quantity (and, if the file has one, its warehouse), like\n" +
			"  stock:\n    sku: SKU\n    quantity: Available\n    warehouse: Location"}
	}
	s := &StockProgram{}
	var err error
	s.section, err = m.compileSection(file, header, func(b *binder) {
		for _, t := range []struct {
			spec *ValueSpec
			name string
		}{{m.Stock.SKU, "sku"}, {m.Stock.Quantity, "quantity"}} {
			if t.spec == nil {
				b.fail(m.Stock.Pos, "stock.%s is required", t.name)
			}
		}
		s.sku = b.value(m.Stock.SKU)
		s.quantity = b.value(m.Stock.Quantity)
		s.warehouse = b.value(m.Stock.Warehouse)
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Clone returns a program sharing the compiled expressions but with its
// own evaluation state, for use by another goroutine.
func (s *StockProgram) Clone() *StockProgram {
	c := *s
	c.section = s.clone()
	return &c
}

// Eval evaluates one row (cells in header order) into out, which is reset
// first and may be reused across rows. It returns nil, or out.Errors (a
// RowErrors) when a value is invalid; the other values are still filled.
func (s *StockProgram) Eval(row []string, out *StockRow) error {
	out.reset()
	p := &s.p
	return s.eval(row, &out.Errors, &out.Skipping, func(r *Row, skipped bool) {
		out.SKU = p.text(s.sku, row, r)
		if skipped {
			return
		}
		if out.SKU == "" {
			p.required(s.sku, r, "every stock row needs a SKU; fill in the cell, or skip rows without one with a skip rule")
		}
		out.Quantity = s.units(row, r)
		out.Warehouse = p.text(s.warehouse, row, r)
	})
}

// units evaluates the quantity: a canonical whole number, 0 or more, or
// "" with the error in r.
func (s *StockProgram) units(row []string, r *Row) string {
	n, given := s.p.count(s.quantity, row, r, stockCount)
	if !given && s.quantity != nil {
		s.p.required(s.quantity, r, "every stock row needs a quantity (a whole number of units, 0 or more); fill in the cell, or skip rows without one with a skip rule")
	}
	return n
}
