package mapping

import (
	"errors"
	"fmt"
	"lading/mapping/cell"
	"lading/mapping/header"
	"slices"
	"strings"

	"lading/mapping/expr"
)

// Program is a mapping bound to the header of one file: every column is
// resolved to its index and every expression compiled once. Eval turns
// rows into Row values. A Program is not safe for concurrent use; give
// each goroutine its own Clone.
type Program struct {
	m       *Mapping
	header  []string
	dec     byte
	layouts []string
	formats []string // the source's date_formats, as written, for messages
	join    bool
	by      string

	run expr.Machine

	skip                               []skipProg
	role, key, parent, alias, children *valueProg
	name, description, notes, tags     *valueProg
	cmd                                *valueProg
	variantProg
	// alone is join.alone: a main row's variant, for a product no
	// joined row names.
	alone *variantProg
	// products keeps the main file's cells that joined rows read with
	// product(); shared by the main program and the joined one.
	products *productCells
	// fill is group.key's fill_down: the product of the rows above.
	fill               *fill
	pairs              []pairProg
	optCols            []optColProg
	optList            *valueProg
	optWhen            *expr.Expr
	listSep, valuesSep string
	ignore             []string
	images             []imageProg
}

// variantProg binds a variant's values: SKU, opening stock, the other
// fields and the pricing tiers.
type variantProg struct {
	sku, stock *valueProg
	fields     []*valueProg
	tiers      []tierProg
}

type valueProg struct {
	spec   *ValueSpec
	col    int // -1: none
	ex     *expr.Expr
	errCol string // the column named in errors
	// code is set for a SKU or a UPC: text whose every digit counts,
	// which a number in scientific notation has lost.
	code bool
}

type skipProg struct {
	when   *expr.Expr
	reason []reasonPart
	src    string
	pos    Pos
}

type reasonPart struct {
	text string
	col  int // -1: text
}

type pairProg struct{ name, value *valueProg }

type optColProg struct {
	name  string
	value *valueProg
}

type tierProg struct {
	name  string
	value *valueProg
}

// ErrorList is every problem found binding a mapping to a header.
type ErrorList []*Error

func (l ErrorList) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// binder resolves columns and compiles expressions for one header,
// collecting errors.
type binder struct {
	m      *Mapping
	file   string
	header []string
	cols   *header.Index
	exprs  *expr.Compiler
	errs   ErrorList
	// products resolves product() in the joined rows' expressions.
	products *productCells
}

func newBinder(m *Mapping, file string, cells []string, src Source) *binder {
	cols := header.New(cells)
	b := &binder{m: m, file: file, header: cols.Names(), cols: cols}
	b.exprs = expr.NewCompiler(cols, expr.Settings{Decimal: decimalOf(src), Formats: src.DateFormats, Tables: m.Tables})
	return b
}

// decimalOf is the source's decimal separator: Decimal, else ',' when
// thousands are grouped with '.', else '.'.
func decimalOf(s Source) byte {
	if s.Decimal == "," || (s.Decimal == "" && s.Thousands == ".") {
		return ','
	}
	return '.'
}

func (b *binder) fail(p Pos, format string, args ...any) {
	b.errs = append(b.errs, &Error{File: b.m.File, Line: p.Line, Column: p.Column, Msg: fmt.Sprintf(format, args...)})
}

// column resolves a column name, or a column pattern (see header.Find),
// to its index; match is the text the pattern's * stands for, nil for a
// name.
func (b *binder) column(name string, p Pos, target string) (i int, match *string) {
	i, m, isPattern, err := b.cols.Find(name)
	if err != nil {
		hint := ""
		if _, isNum := cell.ParseNumber(name, '.'); isNum {
			hint = fmt.Sprintf(" (a constant is written {value: %q})", name)
		}
		b.fail(p, "%s: %v%s", target, inFile(err, b.file), hint)
		return -1, nil
	}
	if d, ok := b.cols.Twice(i); ok {
		b.fail(p, "%s: column %q appears twice in %s (columns %d and %d); rename one", target, b.header[i], b.file, d[0]+1, d[1]+1)
		return -1, nil
	}
	if isPattern {
		return i, &m
	}
	return i, nil
}

// inFile names file in err's "in the file".
func inFile(err error, file string) error {
	if file == "" {
		return err
	}
	return fmt.Errorf("%s", strings.Replace(err.Error(), "in the file", "in "+file, 1))
}

// expr compiles an expression; match, when not nil, is what `match`
// stands for (the text the * of the value's column pattern matched).
func (b *binder) expr(src string, p Pos, target string, match *string, asBool bool) *expr.Expr {
	ce, err := b.exprs.Compile(src, expr.Scope{Match: match, Products: b.products.columns(), Bool: asBool})
	if err != nil {
		b.fail(p, "%s: %s", target, strings.Replace(err.Error(), "in the file", "in "+b.file, 1))
		return nil
	}
	return ce
}

// value binds a value spec; nil specs stay nil.
func (b *binder) value(s *ValueSpec) *valueProg {
	if s == nil {
		return nil
	}
	v := &valueProg{spec: s, col: -1, code: s.Kind == KindText && (s.Name == "sku" || s.Name == "upc")}
	if s.Optional && s.Column != "" {
		var amb *header.AmbiguousError
		if _, _, _, err := b.cols.Find(s.Column); err != nil && !errors.As(err, &amb) {
			return nil // absent; a pattern matching several columns is still an error
		}
	}
	var match *string
	if s.Column != "" {
		v.col, match = b.column(s.Column, s.Pos, s.Target)
		v.errCol = s.Column
		if v.col >= 0 {
			v.errCol = b.header[v.col]
		}
	}
	if s.Expr != "" && (s.Column == "" || v.col >= 0) { // an unknown column is reported already
		v.ex = b.expr(s.Expr, s.Pos, s.Target, match, false)
		switch {
		case v.errCol != "" || v.ex == nil:
		case len(v.ex.Used) > 0:
			v.errCol = b.header[v.ex.Used[0]]
		case len(v.ex.FromProduct) > 0:
			v.errCol = v.ex.FromProduct[0].Name + productRowSuffix
		}
	}
	return v
}

func (b *binder) skips(rules []SkipRule) []skipProg {
	var out []skipProg
	for _, r := range rules {
		sp := skipProg{src: r.When, pos: r.Pos}
		sp.when = b.expr(r.When, r.Pos, "skip when", nil, true)
		sp.reason = b.reason(r.Reason, r.Pos)
		out = append(out, sp)
	}
	return out
}

// reason splits a skip reason into text and {Column} references.
func (b *binder) reason(s string, p Pos) []reasonPart {
	var parts []reasonPart
	for s != "" {
		i := strings.IndexByte(s, '{')
		j := -1
		if i >= 0 {
			j = strings.IndexByte(s[i:], '}')
		}
		if i < 0 || j < 0 {
			parts = append(parts, reasonPart{text: s, col: -1})
			break
		}
		if i > 0 {
			parts = append(parts, reasonPart{text: s[:i], col: -1})
		}
		name := s[i+1 : i+j]
		col, _ := b.column(name, p, "skip reason {"+name+"}")
		parts = append(parts, reasonPart{col: col})
		s = s[i+j+1:]
	}
	return parts
}

// Compile binds the mapping to the header of the main file (file names it
// in messages). Every unknown column is reported with the mapping line, the
// close matches among the header's columns, or the columns there are. The
// error is an ErrorList. A mapping with a stock section and no catalog part
// (StockOnly) cannot be compiled for an import: its error says so.
func (m *Mapping) Compile(file string, header []string) (*Program, error) {
	if m.StockOnly() {
		return nil, m.stockOnlyError()
	}
	if m.ShipmentsOnly() {
		return nil, m.shipmentsOnlyError()
	}
	if m.SlipsOnly() {
		return nil, ErrorList{{File: m.File, Line: m.Slips.Pos.Line, Column: m.Slips.Pos.Column,
			Msg: "this mapping maps packing slips only (slips:); it cannot import a catalog: use it to push packing slips, or give it group.key and product.name to import products"}}
	}
	b := newBinder(m, file, header, m.Source)
	p := &Program{m: m, header: b.header, dec: decimalOf(m.Source), layouts: cell.Layouts(m.Source.DateFormats), formats: m.Source.DateFormats, by: m.Group.By}
	if m.Group.Key != nil && m.Group.Key.FillDown {
		p.fill = newFill(b, m)
	}
	// product() reads the row that gives the key, in the sections a
	// fill_down row's product does not decide: skip, variant, options,
	// tiers (with b.products nil elsewhere, product() is an error).
	b.products = p.fill.productCells()
	p.skip = b.skips(m.Skip)
	b.products = nil
	p.role = b.value(m.Group.Role)
	p.key = b.value(m.Group.Key)
	p.parent = b.value(m.Group.Parent)
	p.alias = b.value(m.Group.Alias)
	p.children = b.value(m.Group.Children)
	p.name = b.value(m.Product.Name)
	p.description = b.value(m.Product.Description)
	p.notes = b.value(m.Product.Notes)
	p.tags = b.value(m.Product.Tags)
	p.cmd = b.value(m.Command)
	p.images = b.bindImages(m.Images, true, m.Join == nil)
	if m.Join == nil {
		b.products = p.fill.productCells()
		p.bindVariant(b)
		b.products = nil
	} else {
		p.bindProducts(b)
		if a := m.Join.Alone; a != nil {
			p.alone = &variantProg{}
			p.alone.bind(b, &a.Variant, &a.Tiers, "join.alone.tiers")
		}
	}
	if len(b.errs) > 0 {
		return nil, b.mismatch()
	}
	return p, nil
}

// CompileJoin binds the mapping's join (variant, options and tiers
// sections, join.key and join.skip) to the header of the joined file.
// Every row of the joined file is a variant of the product whose key its
// join.key column holds.
// Its rows' expressions cannot read their product's row: compile the main
// file first and use Program.CompileJoin for that.
func (m *Mapping) CompileJoin(file string, header []string) (*Program, error) {
	return m.compileJoin(file, header, nil)
}

func (m *Mapping) compileJoin(file string, header []string, products *productCells) (*Program, error) {
	if m.Join == nil {
		return nil, &Error{File: m.File, Msg: "the mapping has no join section"}
	}
	b := newBinder(m, file, header, m.Join.Source)
	b.products = products
	p := &Program{m: m, header: b.header, dec: decimalOf(m.Join.Source), layouts: cell.Layouts(m.Join.Source.DateFormats), formats: m.Join.Source.DateFormats, join: true, by: ByParent, products: products}
	p.skip = b.skips(m.Join.Skip)
	p.parent = b.value(m.Join.Key)
	p.bindVariant(b)
	p.images = b.bindImages(m.Images, false, true)
	if len(b.errs) > 0 {
		return nil, b.mismatch()
	}
	return p, nil
}

func (p *Program) bindVariant(b *binder) {
	m := p.m
	p.variantProg.bind(b, &m.Variant, &m.Tiers, "tiers")
	o := &m.Options
	for _, pr := range o.Pairs {
		pp := pairProg{name: b.value(pr.Name), value: b.value(pr.Value)}
		if pp.name != nil && pp.value != nil { // nil: optional column absent
			p.pairs = append(p.pairs, pp)
		}
	}
	for _, c := range o.Columns {
		if v := b.value(c.Value); v != nil {
			p.optCols = append(p.optCols, optColProg{name: c.Name, value: v})
		}
	}
	p.optList = b.value(o.List)
	if o.When != nil {
		p.optWhen = b.expr(o.When.Expr, o.When.Pos, "options.when", nil, true)
	}
	p.listSep, p.valuesSep, p.ignore = o.ListSeparator, o.ValuesSeparator, o.Ignore
	if p.listSep == "" {
		p.listSep = ","
	}
	if p.valuesSep == "" {
		p.valuesSep = ","
	}
}

// bind binds the values of v and t (written under where, for messages).
func (vp *variantProg) bind(b *binder, v *VariantSpec, t *TiersSpec, where string) {
	vp.sku = b.value(v.SKU)
	vp.stock = b.value(v.Stock)
	for _, f := range v.Fields {
		if v := b.value(f); v != nil {
			vp.fields = append(vp.fields, v)
		}
	}
	for _, tc := range t.Columns {
		if v := b.value(tc.Value); v != nil {
			vp.tiers = append(vp.tiers, tierProg{name: tc.Name, value: v})
		}
	}
	vp.prefixTiers(b, t, where)
}

// prefixTiers binds every column whose header starts with t's prefix to
// the tier its header names after the prefix.
func (vp *variantProg) prefixTiers(b *binder, t *TiersSpec, where string) {
	pre := t.Prefix
	if pre == "" {
		return
	}
	for i, h := range b.header {
		name, ok := strings.CutPrefix(h, pre)
		if !ok {
			continue
		}
		if name = strings.TrimSpace(name); name == "" {
			b.fail(t.PrefixPos, "%s.prefix %q: column %d of %s, %q, names no pricing tier after the prefix; write the tier's name after it (like \"%sRetail\"), or rename or remove the column", where, pre, i+1, b.file, h, pre)
			continue
		}
		spec := &ValueSpec{Target: "tier " + name, Column: h, Kind: KindNumber, NotNegative: true}
		vp.tiers = append(vp.tiers, tierProg{name: name, value: &valueProg{spec: spec, col: i, errCol: h}})
	}
}

// Header returns the header the program is bound to (trimmed).
func (p *Program) Header() []string { return p.header }

// Mapping returns the mapping the program was compiled from.
func (p *Program) Mapping() *Mapping { return p.m }

// Clone returns a program sharing the compiled expressions but with its
// own evaluation state, for use by another goroutine.
func (p *Program) Clone() *Program {
	c := *p
	if p.fill != nil {
		f := *p.fill
		f.cells = slices.Clone(f.cells)
		c.fill = &f
	}
	c.run = expr.Machine{}
	return &c
}
