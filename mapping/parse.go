package mapping

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	yparser "github.com/goccy/go-yaml/parser"

	"lading/api/wire"
	"lading/mapping/cell"
	"lading/mapping/expr"
)

// Load reads and parses the mapping file at path.
func Load(path string) (*Mapping, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mapping: %w", err)
	}
	defer f.Close()
	name := filepath.Base(path)
	if fi, err := f.Stat(); err == nil {
		if err := checkSize(name, fi.Size()); err != nil {
			return nil, err
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("mapping: %w", err)
	}
	return Parse(name, data)
}

// Parse parses a mapping file; name is used in messages. Every error is an
// *Error with the line and column of the offending YAML and the values
// allowed there.
func Parse(name string, data []byte) (*Mapping, error) {
	if err := checkSize(name, int64(len(data))); err != nil {
		return nil, err
	}
	if err := checkUTF8(name, data); err != nil {
		return nil, err
	}
	rest, fast := fastTables(name, data)
	m, again, err := parse(name, rest, fast)
	if again {
		// The tables read on the side were not where the YAML parser
		// found them: let it read the whole file.
		m, _, err = parse(name, data, nil)
	}
	return m, err
}

// parse parses data, whose lookup tables in fast were read on the side.
// again is true when the YAML parser did not find them where they were
// read (or could not parse the rest without them).
func parse(name string, data []byte, fast map[int]*fastTable) (m *Mapping, again bool, err error) {
	tokens, err := tokenize(name, data)
	if err != nil {
		return nil, false, err
	}
	f, err := yparser.Parse(tokens, 0)
	if err != nil {
		return nil, fast != nil, syntaxError(name, err)
	}
	d := &decoder{file: name, fast: fast}
	m = &Mapping{File: name}
	var body ast.Node
	if len(f.Docs) > 0 {
		body = f.Docs[0].Body
	}
	if len(f.Docs) > 1 {
		at := nodePos(f.Docs[1].Body)
		if s := f.Docs[1].Start; s != nil && s.Position != nil {
			at = Pos{s.Position.Line, s.Position.Column}
		}
		d.failAt(at, "a mapping file holds one YAML document; remove the \"---\" separator")
	}
	if isNull(body) {
		return nil, fast != nil, &Error{File: name, Line: 1, Column: 1, Msg: "the mapping is empty; it needs at least group.key and product.name to import a catalog, or a stock section (stock: with sku and quantity) to push stock levels"}
	}
	d.top(m, body)
	if d.err == nil {
		d.validate(m, body)
	}
	if d.err != nil {
		return nil, false, d.err
	}
	for _, t := range fast {
		if !t.used {
			return nil, true, nil
		}
	}
	return m, false, nil
}

// syntaxError is the error of the YAML parser, at its line and column.
func syntaxError(name string, err error) error {
	var ye yaml.Error
	if errors.As(err, &ye) && ye.GetToken() != nil && ye.GetToken().Position != nil {
		p := ye.GetToken().Position
		return &Error{File: name, Line: p.Line, Column: p.Column, Msg: "YAML syntax: " + ye.GetMessage()}
	}
	return &Error{File: name, Msg: "YAML syntax: " + err.Error()}
}

var topKeys = []string{"source", "group", "product", "variant", "options", "tiers", "images", "command", "skip", "join", "tables", "stock", "shipments", "slips"}

func (d *decoder) top(m *Mapping, body ast.Node) {
	es := d.entries(body, "the mapping")
	d.checkKeys(es, "the mapping", topKeys)
	for _, e := range es {
		switch keyOf(e) {
		case "source":
			m.Source = d.source(e.Value, "source")
		case "group":
			d.group(&m.Group, e.Value)
		case "product":
			d.product(&m.Product, e.Value)
		case "variant":
			d.variant(&m.Variant, e.Value, "variant")
		case "options":
			d.options(&m.Options, e.Value)
		case "tiers":
			d.tiers(&m.Tiers, e.Value, "tiers")
		case "images":
			m.Images = d.images(e.Value)
		case "command":
			m.Command = d.value(e.Value, "command", KindText)
		case "skip":
			m.Skip = d.skip(e.Value, "skip")
		case "join":
			m.Join = d.join(e.Value)
		case "tables":
			m.Tables = d.tables(e.Value)
		case "stock":
			m.Stock = d.stock(e)
		case "shipments":
			m.Shipments = d.shipments(e)
		case "slips":
			m.Slips = d.slips(e)
		}
	}
}

var (
	sourceKeys = []string{"format", "sheet", "header_row", "delimiter", "encoding", "decimal", "thousands", "date_formats", "allow_short_rows"}
	formats    = []string{"csv", "xlsx"}
	encodings  = []string{"utf-8", "utf-16", "utf-16le", "utf-16be", "windows-1252", "iso-8859-1"}
	delimiters = []string{",", ";", "tab", "|"}
	decimals   = []string{".", ","}
	thousands  = []string{",", ".", " ", "'"}
)

func (d *decoder) source(n ast.Node, where string) Source {
	var s Source
	es := d.entries(n, where)
	d.checkKeys(es, where, sourceKeys)
	for _, e := range es {
		w := where + "." + keyOf(e)
		switch keyOf(e) {
		case "format":
			s.Format = d.oneOf(e.Value, w, formats)
		case "sheet":
			s.Sheet = d.str(e.Value, w)
		case "header_row":
			s.HeaderRow = d.integer(e.Value, w)
			if s.HeaderRow < 1 {
				d.fail(e.Value, "%s must be 1 or more (the row number of the column names)", w)
			}
		case "delimiter":
			v := d.str(e.Value, w)
			switch v {
			case ",", ";", "|":
				s.Delimiter = rune(v[0])
			case "tab", "\t", `\t`:
				s.Delimiter = '\t'
			default:
				d.fail(e.Value, "%s: %q is not allowed; allowed: %s (quote \"|\" in YAML), or leave it out to detect", w, v, strings.Join(delimiters, ", "))
			}
		case "encoding":
			v := strings.ToLower(d.str(e.Value, w))
			switch v {
			case "utf8":
				v = "utf-8"
			case "cp1252", "windows1252":
				v = "windows-1252"
			case "latin1", "iso8859-1":
				v = "iso-8859-1"
			}
			if !slices.Contains(encodings, v) {
				d.fail(e.Value, "%s: %q is not allowed; allowed: %s", w, v, strings.Join(encodings, ", "))
			}
			s.Encoding = v
		case "decimal":
			s.Decimal = d.oneOf(e.Value, w, decimals)
		case "thousands":
			s.Thousands = d.oneOf(e.Value, w, thousands)
		case "allow_short_rows":
			s.AllowShortRows = d.boolean(e.Value, w)
		case "date_formats":
			s.DateFormats = d.list(e.Value, w)
			for _, f := range s.DateFormats {
				if _, err := cell.Layout(f); err != nil {
					d.fail(e.Value, "%s: %v", w, err)
				}
			}
		}
	}
	if s.Decimal != "" && s.Decimal == s.Thousands {
		d.fail(n, "%s: decimal and thousands are both %q; a number's decimal separator and the one grouping its thousands differ", where, s.Decimal)
	}
	return s
}

var (
	groupKeys = []string{"by", "key", "parent", "alias", "children", "role"}
	groupBy   = []string{ByKey, ByParent, ByChildren}
)

func (d *decoder) group(g *Group, n ast.Node) {
	es := d.entries(n, "group")
	d.checkKeys(es, "group", groupKeys)
	for _, e := range es {
		k := keyOf(e)
		w := "group." + k
		switch k {
		case "by":
			g.By = d.oneOf(e.Value, w, groupBy)
		case "key":
			g.Key = d.value(e.Value, w, KindText)
		case "parent":
			g.Parent = d.value(e.Value, w, KindText)
		case "alias":
			g.Alias = d.value(e.Value, w, KindText)
		case "children":
			g.Children = d.value(e.Value, w, KindList)
		case "role":
			g.Role = d.value(e.Value, w, KindText)
		}
	}
}

func (d *decoder) product(p *ProductSpec, n ast.Node) {
	es := d.entries(n, "product")
	d.checkKeys(es, "product", append(slices.Clone(wire.ProductWriteFields), "tags"))
	for _, e := range es {
		k := keyOf(e)
		w := "product." + k
		switch k {
		case "name":
			p.Name = d.value(e.Value, w, KindText)
		case "description":
			p.Description = d.value(e.Value, w, KindText)
		case "notes":
			p.Notes = d.value(e.Value, w, KindText)
		case "tags":
			p.Tags = d.value(e.Value, w, KindList)
		}
	}
}

// variantKinds are the default kinds of variant fields; others are text.
var variantKinds = map[string]Kind{
	"weight": KindNumber, "cost": KindNumber, "supplier_cost": KindNumber,
	"low_stock_alert": KindNumber, "stock": KindNumber,
}

// notNegative are the variant targets a negative number makes no sense
// for (and the service refuses).
var notNegative = []string{"weight", "cost", "supplier_cost", "stock"}

// VariantTargets are the keys allowed under "variant": the writable
// variant fields and "stock" (opening stock).
var VariantTargets = append(slices.Clone(wire.VariantWriteFields), "stock")

func (d *decoder) variant(v *VariantSpec, n ast.Node, where string) {
	es := d.entries(n, where)
	d.checkKeys(es, where, VariantTargets)
	for _, e := range es {
		k := keyOf(e)
		s := d.value(e.Value, where+"."+k, variantKinds[k])
		if s == nil {
			continue
		}
		s.Name = k
		s.NotNegative = slices.Contains(notNegative, k)
		switch k {
		case "sku":
			v.SKU = s
		case "stock":
			v.Stock = s
		default:
			v.Fields = append(v.Fields, s)
		}
	}
}

var valueKeys = []string{"column", "value", "expr", "type", "required", "clear_when_empty", "default", "split", "optional", "fill_down"}

// value reads a value spec: a column name, or a mapping of valueKeys.
func (d *decoder) value(n ast.Node, where string, kind Kind) *ValueSpec {
	s := &ValueSpec{Target: where, Kind: kind, Pos: nodePos(n)}
	if isNull(n) {
		d.fail(n, "%s is empty; give a column name, or a mapping with column, value or expr", where)
		return nil
	}
	if _, alias := unwrap(n).(*ast.AliasNode); alias {
		d.fail(n, "%s: aliases (*name) are not supported; write the value out", where)
		return nil
	}
	if text, ok := scalarText(n); ok {
		s.Column = strings.TrimSpace(text)
		if s.Column == "" {
			d.fail(n, "%s: empty column name", where)
		}
		return s
	}
	es := d.entries(n, where)
	d.checkKeys(es, where, valueKeys)
	for _, e := range es {
		d.valueEntry(s, e, where, kind)
	}
	d.checkSources(s, n, where)
	return s
}

// valueEntry reads one key of a value spec's mapping into s.
func (d *decoder) valueEntry(s *ValueSpec, e *ast.MappingValueNode, where string, kind Kind) {
	k := keyOf(e)
	w := where + "." + k
	switch k {
	case "column":
		s.Column = strings.TrimSpace(d.str(e.Value, w))
	case "value":
		s.Const, s.HasConst = d.str(e.Value, w), true
	case "expr":
		s.Expr = d.str(e.Value, w)
		s.Pos = nodePos(e.Value)
		if err := expr.CheckSyntax(s.Expr); err != nil {
			d.fail(e.Value, "%s: expression does not parse: %v", w, err)
		}
	case "type":
		allowed := kindNames[:KindList]
		if kind == KindList {
			allowed = kindNames[KindList:]
		}
		t := d.oneOf(e.Value, w, allowed)
		if i := slices.Index(kindNames, t); i >= 0 {
			s.Kind = Kind(i)
		}
	case "required":
		s.Required = d.boolean(e.Value, w)
	case "clear_when_empty":
		s.ClearWhenEmpty = d.boolean(e.Value, w)
	case "optional":
		s.Optional = d.boolean(e.Value, w)
	case "default":
		s.Default, s.HasDefault = d.str(e.Value, w), true
	case "fill_down":
		if where != "group.key" {
			d.fail(e.Key, "%s: fill_down applies only to group.key (a row without a key belongs to the product of the row above it)", w)
		}
		s.FillDown = d.boolean(e.Value, w)
	case "split":
		if kind != KindList {
			d.fail(e.Key, "%s: split applies only to list values (product.tags, group.children)", w)
		}
		s.Split = d.str(e.Value, w)
	}
}

// checkSources fails a value spec that does not give exactly one of
// column, value or expr (expr may read a column).
func (d *decoder) checkSources(s *ValueSpec, n ast.Node, where string) {
	given := 0
	if s.Column != "" {
		given++
	}
	if s.HasConst {
		given++
	}
	if s.Expr != "" && s.Column == "" {
		given++
	}
	if given != 1 {
		d.fail(n, "%s: give exactly one of column, value or expr (expr may be combined with column: the cell is then `value`)", where)
	}
	if s.Expr != "" && s.HasConst {
		d.fail(n, "%s: value (a constant) cannot be combined with expr", where)
	}
}

var optionKeys = []string{"pairs", "columns", "list", "list_separator", "ignore", "values_separator", "when"}

func (d *decoder) options(o *OptionsSpec, n ast.Node) {
	es := d.entries(n, "options")
	d.checkKeys(es, "options", optionKeys)
	for _, e := range es {
		k := keyOf(e)
		w := "options." + k
		switch k {
		case "pairs":
			for i, item := range d.seq(e.Value, w) {
				o.Pairs = append(o.Pairs, d.optionPair(item, fmt.Sprintf("%s[%d]", w, i)))
			}
		case "columns":
			for i, item := range d.seq(e.Value, w) {
				o.Columns = append(o.Columns, d.optionColumn(item, fmt.Sprintf("%s[%d]", w, i)))
			}
		case "list":
			o.List = d.value(e.Value, w, KindText)
		case "list_separator":
			o.ListSeparator = d.str(e.Value, w)
		case "ignore":
			o.Ignore = d.list(e.Value, w)
		case "values_separator":
			o.ValuesSeparator = d.str(e.Value, w)
		case "when":
			o.When = d.condition(e.Value, w)
		}
	}
}

// optionPair reads one of options.pairs: the columns of an attribute's
// name and of its option value.
func (d *decoder) optionPair(item ast.Node, where string) OptionPair {
	ies := d.entries(item, where)
	d.checkKeys(ies, where, []string{"name", "value"})
	p := OptionPair{Pos: nodePos(item)}
	for _, ie := range ies {
		switch keyOf(ie) {
		case "name":
			p.Name = d.value(ie.Value, where+".name", KindText)
		case "value":
			p.Value = d.value(ie.Value, where+".value", KindText)
		}
	}
	if d.err == nil && (p.Name == nil || p.Value == nil) {
		d.fail(item, "%s needs both name and value (the columns holding the attribute name and its option value)", where)
	}
	return p
}

// optionColumn reads one of options.columns: a column named for its
// attribute, or a name with a value spec.
func (d *decoder) optionColumn(item ast.Node, where string) OptionColumn {
	c := OptionColumn{Pos: nodePos(item)}
	if text, ok := scalarText(item); ok {
		c.Name = strings.TrimSpace(text)
		c.Value = &ValueSpec{Target: "option " + c.Name, Column: c.Name, Pos: c.Pos}
		return c
	}
	var rest []*ast.MappingValueNode
	for _, ie := range d.entries(item, where) {
		if keyOf(ie) == "name" {
			c.Name = d.str(ie.Value, where+".name")
		} else {
			rest = append(rest, ie)
		}
	}
	d.checkKeys(rest, where, append([]string{"name"}, valueKeys...))
	if len(rest) == 0 {
		if c.Name == "" {
			d.fail(item, "%s needs a name (the attribute name, also its column unless column is given)", where)
		}
		c.Value = &ValueSpec{Target: "option " + c.Name, Column: c.Name, Pos: c.Pos}
		return c
	}
	c.Value = d.value(&ast.MappingNode{BaseNode: &ast.BaseNode{}, Values: rest}, where, KindText)
	if c.Value != nil {
		c.Value.Pos = c.Pos
		if c.Name == "" {
			c.Name = c.Value.Column
		}
	}
	if d.err == nil && c.Name == "" {
		d.fail(item, "%s needs a name (the attribute name)", where)
	}
	return c
}

// condition reads an expression given as plain text.
func (d *decoder) condition(n ast.Node, where string) *ValueSpec {
	s := &ValueSpec{Target: where, Expr: d.str(n, where), Pos: nodePos(n)}
	if err := expr.CheckSyntax(s.Expr); err != nil {
		d.fail(n, "%s: expression does not parse: %v", where, err)
	}
	return s
}

func (d *decoder) tiers(t *TiersSpec, n ast.Node, where string) {
	es := d.entries(n, where)
	d.checkKeys(es, where, []string{"columns", "prefix"})
	for _, e := range es {
		switch keyOf(e) {
		case "prefix":
			t.Prefix, t.PrefixPos = d.str(e.Value, where+".prefix"), nodePos(e.Value)
			if t.Prefix == "" {
				d.fail(e.Value, "%s.prefix is empty; give the header prefix, like \"tier:\"", where)
			}
		case "columns":
			for _, te := range d.entries(e.Value, where+".columns") {
				name := keyOf(te)
				if strings.TrimSpace(name) == "" {
					d.fail(te.Key, "%s.columns: empty tier name", where)
				}
				v := d.value(te.Value, "tier "+name, KindNumber)
				if v != nil {
					v.NotNegative = true
				}
				t.Columns = append(t.Columns, TierSpec{Name: name, Value: v, Pos: nodePos(te.Key)})
			}
		}
	}
}

func (d *decoder) skip(n ast.Node, where string) []SkipRule {
	var rules []SkipRule
	for i, item := range d.seq(n, where) {
		wi := fmt.Sprintf("%s[%d]", where, i)
		es := d.entries(item, wi)
		d.checkKeys(es, wi, []string{"when", "reason"})
		r := SkipRule{Pos: nodePos(item)}
		for _, e := range es {
			switch keyOf(e) {
			case "when":
				c := d.condition(e.Value, wi+".when")
				r.When, r.Pos = c.Expr, c.Pos
			case "reason":
				r.Reason = d.str(e.Value, wi+".reason")
			}
		}
		if d.err == nil && (r.When == "" || strings.TrimSpace(r.Reason) == "") {
			d.fail(item, "%s needs when (a condition) and reason (text for the results file)", wi)
		}
		rules = append(rules, r)
	}
	return rules
}

func (d *decoder) join(n ast.Node) *Join {
	j := &Join{Pos: nodePos(n)}
	es := d.entries(n, "join")
	d.checkKeys(es, "join", []string{"file", "source", "key", "skip", "alone"})
	for _, e := range es {
		switch keyOf(e) {
		case "file":
			j.File = d.str(e.Value, "join.file")
		case "source":
			j.Source = d.source(e.Value, "join.source")
		case "key":
			j.Key = d.value(e.Value, "join.key", KindText)
		case "skip":
			j.Skip = d.skip(e.Value, "join.skip")
		case "alone":
			j.Alone = d.alone(e.Value)
		}
	}
	if d.err == nil && (j.File == "" || j.Key == nil) {
		d.fail(n, "join needs file (the second file) and key (its column holding the product key of the main file)")
	}
	return j
}

func (d *decoder) tables(n ast.Node) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, e := range d.entries(n, "tables") {
		name := keyOf(e)
		if t := d.fast[nodePos(e.Key).Line]; t != nil && t.name == name && isNull(e.Value) {
			out[name], t.used = t.entries, true
			if t.dup != nil && d.err == nil {
				d.err = t.dup
			}
			continue
		}
		t := map[string]string{}
		for _, te := range d.entries(e.Value, "tables."+name) {
			t[keyOf(te)] = d.str(te.Value, "tables."+name+"."+keyOf(te))
		}
		out[name] = t
	}
	return out
}

// validate checks what needs the whole mapping.
func (d *decoder) validate(m *Mapping, body ast.Node) {
	top := Pos{1, 1}
	if es := d.entries(body, "the mapping"); len(es) > 0 {
		top = nodePos(es[0].Key)
	}
	if m.StockOnly() || m.ShipmentsOnly() || m.SlipsOnly() {
		return
	}
	g := &m.Group
	if g.By == "" {
		g.By = ByKey
	}
	stockHint := ""
	if m.Stock != nil {
		stockHint = "; a mapping that only pushes stock levels has a stock section and no group, product, variant, options, tiers or join"
	}
	if g.Key == nil {
		d.failAt(top, "group.key is required: the column (or expr) giving each row's product key (allowed group keys: %s)%s", strings.Join(groupKeys, ", "), stockHint)
		return
	}
	if g.By == ByParent && g.Parent == nil {
		d.failAt(g.Key.Pos, "group.by is %q: group.parent is required (the column naming a variant's product)", ByParent)
	}
	if g.By != ByParent && g.Parent != nil {
		d.failAt(g.Parent.Pos, "group.parent applies only with group.by: %s", ByParent)
	}
	if g.By == ByChildren && g.Children == nil {
		d.failAt(g.Key.Pos, "group.by is %q: group.children is required (the column listing a product's variant keys)", ByChildren)
	}
	if g.By != ByChildren && g.Children != nil {
		d.failAt(g.Children.Pos, "group.children applies only with group.by: %s", ByChildren)
	}
	if m.Product.Name == nil {
		d.failAt(top, "product.name is required: the column (or expr) giving the product name%s", stockHint)
	}
	if m.Join != nil && g.By != ByKey {
		d.failAt(m.Join.Pos, "join works with group.by: %s (the main file's rows are the products)", ByKey)
	}
	if g.Key.FillDown {
		d.fillDown(m)
	}
}

// fillDown checks where group.key's fill_down may be: rows grouped by
// their key, in a file whose rows are not joined to a second file's.
func (d *decoder) fillDown(m *Mapping) {
	switch {
	case m.Group.By != ByKey:
		d.failAt(m.Group.Key.Pos, "group.key: fill_down works with group.by: %s (a row without a key belongs to the product of the row above it); with group.by: %s each row has a key of its own", ByKey, m.Group.By)
	case m.Join != nil:
		d.failAt(m.Group.Key.Pos, "group.key: fill_down does not work with join: the main file's rows are the products, each with its key, and the joined file's rows name theirs")
	}
}
