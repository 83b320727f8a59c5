package mapping

import (
	"lading/mapping/expr"
	"strings"

	yast "github.com/goccy/go-yaml/ast"
)

// Alone is join.alone: how a product that no row of the joined file
// names becomes a simple product, its one variant read from its own row of
// the main file (PrestaShop's products without combinations carry their
// reference, quantity and price on the product's row). Its variant and
// tiers sections are written like the top-level ones, over the main
// file's columns.
type Alone struct {
	Variant VariantSpec
	Tiers   TiersSpec
	Pos     Pos
}

func (d *decoder) alone(n yast.Node) *Alone {
	a := &Alone{Pos: nodePos(n)}
	es := d.entries(n, "join.alone")
	d.checkKeys(es, "join.alone", []string{"variant", "tiers"})
	for _, e := range es {
		switch keyOf(e) {
		case "variant":
			d.variant(&a.Variant, e.Value, "join.alone.variant")
		case "tiers":
			d.tiers(&a.Tiers, e.Value, "join.alone.tiers")
		}
	}
	if d.err == nil && a.Variant.SKU == nil && a.Variant.Stock == nil && len(a.Variant.Fields) == 0 && len(a.Tiers.Columns) == 0 && a.Tiers.Prefix == "" {
		d.fail(n, "join.alone needs variant or tiers: the main file's columns giving the one variant of a product no joined row names (like variant: {sku: Reference})")
	}
	return a
}

// productCells keeps, for the joined rows' product("Column"), the cells
// of the main file's columns they read, by product key. The main file's
// program fills it as it evaluates the product rows; the joined file's
// program reads it.
type productCells struct {
	names map[string]int // product() column name → position in a product's cells
	cols  []int          // the main file's columns kept, by position
	byKey map[string][]string
	none  []string // the cells of a product no main row has: all empty
}

// keep records the cells of the product key's first row.
func (pc *productCells) keep(key string, row []string) {
	if _, ok := pc.byKey[key]; ok || key == "" {
		return
	}
	pc.byKey[strings.Clone(key)] = pc.cellsOf(row, nil)
}

// cellsOf returns the cells of row that product() reads, trimmed and
// copied, in buf when it has room.
func (pc *productCells) cellsOf(row, buf []string) []string {
	buf = buf[:0]
	for _, c := range pc.cols {
		buf = append(buf, strings.Clone(strings.TrimSpace(cellAt(row, c))))
	}
	return buf
}

// columns are the columns product() reads, by name, with the place of
// each among a product's cells; nil for no productCells.
func (pc *productCells) columns() map[string]int {
	if pc == nil {
		return nil
	}
	return pc.names
}

// of returns the kept cells of the product key.
func (pc *productCells) of(key string) []string {
	if cells, ok := pc.byKey[key]; ok {
		return cells
	}
	return pc.none
}

// productRef is one product("Column") of a joined row's expression.
type productRef struct {
	name, target string
	pos          Pos
}

// productRefs lists the product() calls of the expressions that may read
// their product's row: variant, options, tiers and the skip rules given
// (join.skip for a joined file's rows, skip for a main file with
// fill_down), whose target in messages is skipTarget.
func productRefs(m *Mapping, skips []SkipRule, skipTarget string) []productRef {
	var out []productRef
	add := func(src, target string, pos Pos) {
		for _, name := range expr.ProductColumns(src) {
			out = append(out, productRef{name, target, pos})
		}
	}
	value := func(s *ValueSpec) {
		if s != nil && s.Expr != "" {
			add(s.Expr, s.Target, s.Pos)
		}
	}
	value(m.Variant.SKU)
	value(m.Variant.Stock)
	for _, f := range m.Variant.Fields {
		value(f)
	}
	for _, pr := range m.Options.Pairs {
		value(pr.Name)
		value(pr.Value)
	}
	for _, c := range m.Options.Columns {
		value(c.Value)
	}
	value(m.Options.List)
	value(m.Options.When)
	for _, t := range m.Tiers.Columns {
		value(t.Value)
	}
	for _, r := range skips {
		add(r.When, skipTarget, r.Pos)
	}
	return out
}

// bindProducts resolves the product() calls of the joined rows'
// expressions against the main file's header, b's.
func (p *Program) bindProducts(b *binder) {
	p.products = productColumns(b, productRefs(p.m, p.m.Join.Skip, "join.skip when"))
}

// productColumns resolves the columns refs read against b's header; nil
// when there are none.
func productColumns(b *binder, refs []productRef) *productCells {
	if len(refs) == 0 {
		return nil
	}
	pc := &productCells{names: map[string]int{}, byKey: map[string][]string{}}
	for _, r := range refs {
		if _, ok := pc.names[r.name]; ok {
			continue
		}
		i, _, _, err := b.cols.Find(r.name)
		if err != nil {
			b.fail(r.pos, "%s: product(%q): %v", r.target, r.name, inFile(err, b.file))
			i = -1 // reads "": the error is reported once, here
		}
		k := len(pc.cols)
		for j, c := range pc.cols {
			if c == i && i >= 0 {
				k = j
			}
		}
		if k == len(pc.cols) {
			pc.cols = append(pc.cols, i)
		}
		pc.names[r.name] = k
	}
	pc.none = make([]string, len(pc.cols))
	return pc
}

// productRowSuffix follows, in messages, the name of a column that
// product() reads: the value is that of the product's row.
const productRowSuffix = " (on the product's row)"

// CompileJoin binds the mapping's join to the header of the joined file,
// like Mapping.CompileJoin, for the joined rows of p, the main file's
// program: their expressions may read their product's row with
// product("Column"), the first row of the product in the main file. Give
// it every row of the main file (Eval) before the joined file's rows.
func (p *Program) CompileJoin(file string, header []string) (*Program, error) {
	return p.m.compileJoin(file, header, p.products)
}
