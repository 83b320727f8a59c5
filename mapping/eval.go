package mapping

import (
	"fmt"
	"lading/mapping/cell"
	"lading/mapping/expr"
	"slices"
	"strings"
	"time"
)

// Eval evaluates one row (cells in header order) into out, which is reset
// first and may be reused across rows. It returns nil, or out.Errors (a
// RowErrors) when a value is invalid; the other values are still filled.
func (p *Program) Eval(row []string, out *Row) error {
	out.reset()
	p.run.Row(row)
	defer p.run.Done()

	if p.join {
		return p.evalJoined(row, out)
	}
	filled := false
	if p.fill != nil {
		var done bool
		if filled, done = p.fillKey(row, out); done {
			return nil
		}
	} else {
		if p.skipped(row, out) {
			return nil
		}
		out.GroupKey = p.text(p.key, row, out)
	}
	out.ParentRef = p.text(p.parent, row, out)
	out.Alias = p.text(p.alias, row, out)
	if p.children != nil {
		out.ChildKeys = p.list(p.children, row, out, out.ChildKeys)
		out.ChildColumn = p.children.errCol
	}
	out.Role = p.roleOf(row, out)
	if filled && p.role == nil {
		out.Role = RoleVariant // a row of the product above it
	}
	p.command(row, out)

	switch {
	case out.Role == RoleVariant && p.by == ByParent:
		if out.ParentRef == "" {
			p.required(p.parent, out, "a variant row needs its product's key")
		}
	case out.GroupKey == "":
		p.required(p.key, out, "every row needs a product key")
	}

	if out.Role != RoleVariant {
		p.productFields(row, out)
	}
	switch {
	case p.m.Join != nil:
		p.joinedProduct(row, out)
	case out.Alone:
		p.ownVariant(row, out)
	case out.Role != RoleProduct:
		p.variant(row, out)
	default:
		p.declared(row, out)
	}
	p.evalImages(row, out)
	return p.result(out)
}

// evalJoined evaluates a row of the joined file: a variant of the
// product its join key names, whose row's cells product() reads.
func (p *Program) evalJoined(row []string, out *Row) error {
	out.Role = RoleVariant
	if p.products != nil {
		p.run.Product(p.products.none)
	}
	key := p.text(p.parent, row, out)
	if p.products != nil {
		p.run.Product(p.products.of(key))
	}
	if p.skipped(row, out) {
		out.Errors = out.Errors[:0] // a skipped row's key does not matter
		return nil
	}
	out.ParentRef = key
	if out.ParentRef == "" {
		p.required(p.parent, out, "every row of the joined file needs its product's key")
	}
	p.variant(row, out)
	p.evalImages(row, out)
	return p.result(out)
}

// joinedProduct keeps, on a product row of a mapping with a join, the
// cells the joined rows read with product(), and evaluates join.alone:
// the variant the product has if no joined row names it. Errors of that
// variant count only then: they go to out.AloneErrors.
func (p *Program) joinedProduct(row []string, out *Row) {
	if p.products != nil {
		p.products.keep(out.GroupKey, row)
	}
	if p.alone == nil {
		return
	}
	n := len(out.Errors)
	p.variantValues(p.alone, row, out)
	out.Alone = true
	out.AloneErrors = append(out.AloneErrors, out.Errors[n:]...)
	out.Errors = out.Errors[:n]
}

// skipped tries the skip rules in order; the first that matches sets
// out.Skip and out.SkipReason.
func (p *Program) skipped(row []string, out *Row) bool {
	for i := range p.skip {
		s := &p.skip[i]
		hit, ok := p.cond(s.when, row, out, "skip when", s.src, s.pos)
		if ok && hit {
			out.Skip = true
			out.SkipReason = s.render(row)
			return true
		}
	}
	return false
}

func (p *Program) result(out *Row) error {
	if len(out.Errors) > 0 {
		return out.Errors
	}
	return nil
}

func (p *Program) roleOf(row []string, out *Row) Role {
	if p.m.Join != nil {
		return RoleProduct
	}
	if p.role != nil {
		s := p.text(p.role, row, out)
		switch strings.ToLower(s) {
		case "both", "":
			return RoleBoth
		case "product":
			return RoleProduct
		case "variant":
			return RoleVariant
		case "product_or_both":
			out.Alone = true // ownVariant
			return RoleProduct
		}
		p.fieldError(p.role, out, s, "must be product, variant, both or product_or_both")
		return RoleBoth
	}
	switch p.by {
	case ByParent:
		if out.ParentRef != "" {
			return RoleVariant
		}
	case ByChildren:
		if len(out.ChildKeys) > 0 {
			return RoleProduct
		}
	}
	return RoleBoth
}

func (p *Program) productFields(row []string, out *Row) {
	out.Product.Name = p.optional(p.name, row, out)
	out.Product.Description = p.optional(p.description, row, out)
	out.Product.Notes = p.optional(p.notes, row, out)
	if p.tags != nil {
		out.Product.Tags = p.list(p.tags, row, out, out.Product.Tags)
		out.Product.TagsSet = len(out.Product.Tags) > 0 || p.tags.spec.ClearWhenEmpty
	}
}

func (p *Program) variant(row []string, out *Row) {
	p.variantValues(&p.variantProg, row, out)
	if p.optWhen != nil {
		if hit, ok := p.cond(p.optWhen, row, out, "options.when", p.m.Options.When.Expr, p.m.Options.When.Pos); !ok || !hit {
			return
		}
	}
	for i, pr := range p.pairs {
		v := p.text(pr.value, row, out)
		if v == "" || p.ignored(v) {
			continue
		}
		n := p.text(pr.name, row, out)
		p.addOption(out, Option{Slot: i + 1, Name: n, Value: v, Column: pr.value.errCol})
	}
	for _, c := range p.optCols {
		if v := p.text(c.value, row, out); v != "" && !p.ignored(v) {
			p.addOption(out, Option{Name: c.name, Value: v, Column: c.value.errCol})
		}
	}
	if p.optList != nil {
		p.listOptions(row, out)
	}
}

// listOptions reads options.list: a text of "name=value" items separated
// by list_separator, or a list of such items (an expression's, like
// pairs()), whose values may then hold the separator.
func (p *Program) listOptions(row []string, out *Row) {
	var kvs [][2]string
	r, ok := p.raw(p.optList, row, out)
	switch {
	case !ok:
		return
	case r.isList:
		for _, item := range r.list {
			if item = strings.TrimSpace(item); item == "" {
				continue
			}
			k, v, ok := strings.Cut(item, "=")
			if k = strings.TrimSpace(k); !ok || k == "" {
				p.fieldError(p.optList, out, p.errValue(p.optList, row), fmt.Sprintf("must be a list of name=value items: %q is not one", item))
				return
			}
			kvs = append(kvs, [2]string{k, strings.TrimSpace(v)})
		}
	default:
		s := p.finish(p.optList, r.text(), r.dec, row, out).S
		var err error
		if kvs, err = expr.ParseKV(s, p.listSep, "="); err != nil {
			p.fieldError(p.optList, out, s, fmt.Sprintf("must be name=value items separated by %q: %v", p.listSep, err))
		}
	}
	for _, kv := range kvs {
		if kv[1] != "" && !p.ignored(kv[1]) {
			p.addOption(out, Option{Name: kv[0], Value: kv[1], Column: p.optList.errCol})
		}
	}
}

// variantValues evaluates vp's SKU, stock, fields and tiers into out.
func (p *Program) variantValues(vp *variantProg, row []string, out *Row) {
	out.Variant.SKU = p.text(vp.sku, row, out)
	out.Variant.Stock = p.optional(vp.stock, row, out)
	for _, f := range vp.fields {
		if v := p.optional(f, row, out); v.Set {
			out.Variant.Fields = append(out.Variant.Fields, FieldValue{Name: f.spec.Name, Value: v.S})
		}
	}
	for _, t := range vp.tiers {
		if v := p.optional(t.value, row, out); v.Set {
			out.Tiers = append(out.Tiers, Tier{Name: t.name, Value: v.S})
		}
	}
}

// addOption appends o unless the row already names its attribute.
func (p *Program) addOption(out *Row, o Option) {
	if o.Name != "" {
		for _, e := range out.Options {
			if strings.EqualFold(e.Name, o.Name) {
				out.Errors = append(out.Errors, FieldError{Column: o.Column, Value: o.Value, Target: "option " + o.Name,
					Rule: fmt.Sprintf("attribute %q is given twice in the row (also %q in column %q)", o.Name, e.Value, e.Column)})
				return
			}
		}
	}
	out.Options = append(out.Options, o)
}

// declared reads, on a product row, the attributes and their values.
func (p *Program) declared(row []string, out *Row) {
	if p.optWhen != nil {
		if hit, ok := p.cond(p.optWhen, row, out, "options.when", p.m.Options.When.Expr, p.m.Options.When.Pos); !ok || !hit {
			return
		}
	}
	for _, pr := range p.pairs {
		n := p.text(pr.name, row, out)
		if n == "" {
			continue
		}
		v := p.text(pr.value, row, out)
		out.Declared = append(out.Declared, Attribute{Name: n, Values: expr.SplitList(v, p.valuesSep), Column: pr.value.errCol})
	}
	for _, c := range p.optCols {
		v := p.text(c.value, row, out)
		out.Declared = append(out.Declared, Attribute{Name: c.name, Values: expr.SplitList(v, p.valuesSep), Column: c.value.errCol})
	}
}

func (p *Program) ignored(v string) bool { return slices.Contains(p.ignore, v) }

func cellAt(row []string, i int) string {
	if i >= 0 && i < len(row) {
		return row[i]
	}
	return ""
}

// rawValue is a value before normalisation: a text, or a list an
// expression gave.
type rawValue struct {
	s      string
	list   []string
	isList bool
	// dec is the decimal separator s is written with: the source's, or
	// '.' for a number an expression computed (number(A) / 2 is "3.5"
	// whatever the file's separator).
	dec byte
}

// text is the value as one text (a list's items joined with ",").
func (r rawValue) text() string {
	if r.isList {
		return strings.Join(r.list, ",")
	}
	return r.s
}

// raw returns the value before normalisation: the column's cell, the
// constant, or the expression's result. ok is false after an error.
func (p *Program) raw(v *valueProg, row []string, out *Row) (r rawValue, ok bool) {
	c := cellAt(row, v.col)
	r.dec = p.dec
	switch {
	case v.ex != nil && v.col >= 0 && trim(c) == "":
		return r, true // an empty cell stays empty: no expression runs on it
	case v.ex != nil:
		if s, ok := p.run.RunText(v.ex, c); ok { // a text, as Result would give it
			r.s = trim(s)
			return r, true
		}
		res, err := p.run.Run(v.ex, c)
		if err == nil {
			r.s, r.list, r.isList, err = expr.Result(res)
		}
		if err != nil {
			p.fieldError(v, out, p.errValue(v, row), p.exprRule(err, "", v.spec.Pos))
			return rawValue{}, false
		}
		if expr.IsNumber(res) {
			r.dec = '.'
		}
		r.s = strings.TrimSpace(r.s)
		return r, true
	case v.spec.HasConst:
		r.s = v.spec.Const
		return r, true
	}
	r.s = trim(c)
	return r, true
}

// trim is strings.TrimSpace, without its call for a cell that starts and
// ends with a printable ASCII character other than a space, as most do.
func trim(s string) string {
	if s != "" && (s[0]-'!' > '~'-'!' || s[len(s)-1]-'!' > '~'-'!') {
		return strings.TrimSpace(s)
	}
	return s
}

// text evaluates a single value, normalised to its kind: "" when empty
// or invalid (the error is in out).
func (p *Program) text(v *valueProg, row []string, out *Row) string {
	return p.optional(v, row, out).S
}

// optional evaluates a value into a Value: not set when empty (unless the
// mapping clears on empty), else normalised to its kind.
func (p *Program) optional(v *valueProg, row []string, out *Row) Value {
	if v == nil {
		return Value{}
	}
	if v.ex == nil && !v.spec.HasConst { // a column's cell, as raw would give it
		return p.finish(v, trim(cellAt(row, v.col)), p.dec, row, out)
	}
	r, ok := p.raw(v, row, out)
	if !ok {
		return Value{}
	}
	return p.finish(v, r.text(), r.dec, row, out)
}

// finish turns v's raw value s, whose numbers are written with the decimal
// separator dec, into a Value: its default when empty, normalised to its
// kind.
func (p *Program) finish(v *valueProg, s string, dec byte, row []string, out *Row) Value {
	if s == "" {
		switch {
		case v.spec.HasDefault:
			s, dec = v.spec.Default, p.dec
		case v.spec.Required:
			p.fieldError(v, out, "", "required: must not be empty")
			return Value{}
		case v.spec.ClearWhenEmpty:
			return Value{Set: true}
		default:
			return Value{}
		}
	}
	n, rule := p.normalise(v, s, dec)
	if rule != "" {
		p.fieldError(v, out, p.errValue(v, row), rule)
		return Value{}
	}
	return Value{S: n, Set: true}
}

func notNegativeRule(s *ValueSpec) string {
	what := "a negative " + strings.ReplaceAll(s.Name, "_", " ")
	switch {
	case strings.HasPrefix(s.Target, "tier "):
		what = "a negative price"
	case s.Name == "stock":
		what = "negative opening stock"
	}
	return "must be 0 or more: " + what + " is refused; correct the value, or leave the cell empty to leave it as it is"
}

// normalise checks s, whose numbers are written with the decimal
// separator dec, against v's kind and returns it in canonical form, or the
// rule it breaks.
func (p *Program) normalise(v *valueProg, s string, dec byte) (n, rule string) {
	ok := true
	switch v.spec.Kind {
	case KindNumber:
		n, ok = cell.ParseNumber(s, dec)
	case KindInteger:
		n, ok = cell.ParseNumber(s, dec)
		ok = ok && cell.IsWhole(n)
	case KindDate:
		var clock string
		n, clock, ok = cell.ParseDateTime(s, p.layouts)
		if ok && clock != "" {
			return "", fmt.Sprintf("has a time of day, %s, and %s takes a date only: the time would be lost; write the date alone, or add expr: date(value) to this value's mapping to import the date without its time", clock, v.spec.Target)
		}
	default:
		n = s
		if v.code && cell.Scientific(s) {
			return "", lostDigitsRule(v.spec.Name)
		}
	}
	switch {
	case !ok:
		return "", p.rule(v.spec.Kind)
	case v.spec.NotNegative && strings.HasPrefix(n, "-"):
		return "", notNegativeRule(v.spec)
	}
	return n, ""
}

func (p *Program) rule(k Kind) string {
	switch k {
	case KindNumber:
		return fmt.Sprintf("must be a number (decimal %q)", string(p.dec))
	case KindInteger:
		return "must be a whole number"
	case KindDate:
		return "must be a date (" + cell.FormatList(p.formats) + ")"
	}
	return "invalid"
}

// list evaluates a list value into buf.
func (p *Program) list(v *valueProg, row []string, out *Row, buf []string) []string {
	buf = buf[:0]
	r, ok := p.raw(v, row, out)
	if !ok {
		return buf
	}
	if r.isList {
		for _, e := range r.list {
			if e = strings.TrimSpace(e); e != "" {
				buf = append(buf, e)
			}
		}
	} else {
		s, sep := r.s, v.spec.Split
		if sep == "" {
			sep = ","
		}
		for s != "" {
			var item string
			item, s, _ = strings.Cut(s, sep)
			if item = strings.TrimSpace(item); item != "" {
				buf = append(buf, item)
			}
		}
	}
	if len(buf) == 0 && v.spec.Required {
		p.fieldError(v, out, "", "required: must not be empty")
	}
	return buf
}

func (p *Program) required(v *valueProg, out *Row, why string) {
	if v == nil {
		return
	}
	for _, e := range out.Errors {
		if e.Target == v.spec.Target {
			return // already reported
		}
	}
	p.fieldError(v, out, "", "required: "+why)
}

// cond runs a boolean expression; ok is false after an error.
func (p *Program) cond(ce *expr.Expr, row []string, out *Row, target, src string, pos Pos) (hit, ok bool) {
	if ce == nil {
		return false, false
	}
	res, err := p.run.Run(ce, "")
	if err != nil {
		col, val := "", ""
		switch {
		case len(ce.Used) > 0:
			col, val = p.header[ce.Used[0]], cellAt(row, ce.Used[0])
		case len(ce.FromProduct) > 0:
			col, val = ce.FromProduct[0].Name+productRowSuffix, p.run.ProductCell(ce.FromProduct[0].Cell)
		}
		out.Errors = append(out.Errors, FieldError{Column: col, Value: val, Target: target, Rule: p.exprRule(err, src, pos)})
		return false, false
	}
	b, _ := res.(bool)
	return b, true
}

func (p *Program) errValue(v *valueProg, row []string) string {
	if v.col >= 0 {
		return cellAt(row, v.col)
	}
	if v.ex != nil && len(v.ex.Used) > 0 {
		return cellAt(row, v.ex.Used[0])
	}
	if v.ex != nil && len(v.ex.FromProduct) > 0 {
		return p.run.ProductCell(v.ex.FromProduct[0].Cell)
	}
	return v.spec.Const
}

func (p *Program) fieldError(v *valueProg, out *Row, value, rule string) {
	out.Errors = append(out.Errors, FieldError{Column: v.errCol, Value: value, Target: v.spec.Target, Rule: rule})
}

// instant reads text, the cell of v, as a date-time in loc (a date alone
// is its midnight), or refuses it with a field error of out: it is not
// one, or falls before firstYear, as 0001-01-01 does, which systems write
// for a date they do not have (a time nobody shipped or packed at, and
// the zero time.Time that means "not given").
func (p *Program) instant(v *valueProg, row []string, out *Row, text string, loc *time.Location) (time.Time, bool) {
	t, ok := cell.ParseTimestamp(text, p.layouts, loc)
	switch {
	case !ok:
		p.fieldError(v, out, p.errValue(v, row), "must be a date, or a date and time ("+cell.FormatList(p.formats)+", then an optional time like 14:30 or 2:30 PM and an offset like +02:00)")
	case t.Year() < firstYear:
		p.fieldError(v, out, p.errValue(v, row), fmt.Sprintf("must be a date from %d on, not in the year %d (some systems write 0001-01-01 for a date they do not have); leave the cell empty or give the real date", firstYear, t.Year()))
	default:
		return t, true
	}
	return time.Time{}, false
}

// firstYear is the earliest year a date-time of a shipment or a packing
// slip may fall in.
const firstYear = 1900

// exprRule words the error of an expression (src, when given, is named)
// for a row's message. When the expression went over a limit, the message
// says where the expression is in the mapping file.
func (p *Program) exprRule(err error, src string, pos Pos) string {
	msg, limit := expr.Describe(err)
	if src != "" {
		msg += " (in " + src + ")"
	}
	if limit {
		msg += fmt.Sprintf(" (the expression at %s:%d:%d)", p.m.File, pos.Line, pos.Column)
	}
	return msg
}

func (s *skipProg) render(row []string) string {
	if len(s.reason) == 1 && s.reason[0].col < 0 {
		return s.reason[0].text
	}
	var b strings.Builder
	for _, r := range s.reason {
		if r.col < 0 {
			b.WriteString(r.text)
		} else {
			b.WriteString(strings.TrimSpace(cellAt(row, r.col)))
		}
	}
	return b.String()
}

// lostDigitsRule explains a SKU or UPC (name) in scientific notation.
func lostDigitsRule(name string) string {
	what := strings.ToUpper(name)
	return fmt.Sprintf("is a number in scientific notation, not a %s: the spreadsheet held the %s as a number and rounded it, "+
		"so its digits are already lost; format the column as text in the spreadsheet (Format Cells > Text), enter the %ss again and save the file", what, what, what)
}
