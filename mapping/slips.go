package mapping

import (
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
)

// SlipSpec maps the rows of a shipping file (a warehouse system's export
// of what it packed and shipped) to packing slips and their shipments
// (packages). Rows sharing a Key are one slip: each may add a line item
// to it (LineItem and Quantity) and give its shipment's fields; Package,
// when mapped, tells several shipments of one slip apart. The main
// file's source settings and skip rules apply.
type SlipSpec struct {
	// Key is the file's own reference of the slip (the warehouse
	// system's shipment number): rows with one key are one slip, and a
	// later push finds the slip it made by it. Required, like Order.
	Key, Order *ValueSpec
	// Date is the packing_slip_date, Notes the slip's notes.
	Date, Notes *ValueSpec
	// LineItem is the id of a line item the slip packs, Quantity its
	// units.
	LineItem, Quantity *ValueSpec
	// Package tells a slip's shipments apart (a parcel number); without
	// it a slip has at most one shipment.
	Package *ValueSpec
	// The shipment's fields.
	ShipDate, TrackingNumber, TrackingLink, Cost, Carrier, Delivered *ValueSpec
	// Pos is where the slips section is in the mapping file.
	Pos Pos
}

// slipKeys are the keys allowed under "slips".
var slipKeys = []string{"key", "order", "packing_slip_date", "notes", "line_item", "quantity", "package",
	"ship_date", "tracking_number", "tracking_link", "cost", "carrier", "delivered"}

// slipClearable are the slip targets an empty cell may clear
// (clear_when_empty): the others are references, or have no empty value.
var slipClearable = []string{"packing_slip_date", "notes", "ship_date", "tracking_number", "tracking_link", "cost"}

// slips reads the slips section e (its key and value).
func (d *decoder) slips(e *ast.MappingValueNode) *SlipSpec {
	sp := &SlipSpec{Pos: nodePos(e.Key)}
	es := d.entries(e.Value, "slips")
	d.checkKeys(es, "slips", slipKeys)
	targets := map[string]**ValueSpec{
		"key": &sp.Key, "order": &sp.Order, "packing_slip_date": &sp.Date, "notes": &sp.Notes,
		"line_item": &sp.LineItem, "quantity": &sp.Quantity, "package": &sp.Package, "ship_date": &sp.ShipDate,
		"tracking_number": &sp.TrackingNumber, "tracking_link": &sp.TrackingLink, "cost": &sp.Cost,
		"carrier": &sp.Carrier, "delivered": &sp.Delivered,
	}
	for _, se := range es {
		k := keyOf(se)
		kind := KindText
		if k == "cost" {
			kind = KindNumber
		}
		s := d.value(se.Value, "slips."+k, kind)
		if s == nil {
			continue
		}
		s.Name, s.NotNegative = k, k == "cost"
		d.slipValueKeys(se.Value, s)
		if t := targets[k]; t != nil {
			*t = s
		}
	}
	switch {
	case d.err != nil:
	case sp.Key == nil || sp.Order == nil:
		d.failAt(sp.Pos, "slips needs key (the column holding each slip's own reference, like the warehouse system's shipment number) and order (the column holding the sales order's id)")
	case (sp.LineItem == nil) != (sp.Quantity == nil):
		d.failAt(sp.Pos, "slips: line_item and quantity go together (the line item's id and the units the slip packs of it); give both or neither")
	}
	return sp
}

// slipValueKeys refuses the value settings that have no meaning for a
// slip target, at their key.
func (d *decoder) slipValueKeys(n ast.Node, s *ValueSpec) {
	if _, ok := scalarText(n); ok {
		return
	}
	for _, e := range d.entries(n, s.Target) {
		switch keyOf(e) {
		case "type":
			d.fail(e.Key, "%s: type does not apply to packing slips (each target reads its own kind: dates, amounts, ids); remove it", s.Target)
		case "clear_when_empty":
			if !slices.Contains(slipClearable, s.Name) {
				d.fail(e.Key, "%s: clear_when_empty does not apply here (an empty cell sends nothing); it applies to %s", s.Target, strings.Join(slipClearable, ", "))
			}
		case "optional":
			if s.Name == "key" || s.Name == "order" {
				d.fail(e.Key, "%s cannot be optional: every slip row needs its key and its order; remove optional", s.Target)
			}
		}
	}
}

// SlipTimeLayout is how a slip's date-times are sent: ISO 8601 with a
// numeric offset, in UTC.
const SlipTimeLayout = "2006-01-02T15:04:05+0000"

// SlipProgram is a mapping's slips section bound to the header of one
// file. Eval turns rows into SlipRow values. A SlipProgram is not safe
// for concurrent use; give each goroutine its own Clone.
type SlipProgram struct {
	section
	tz *time.Location

	key, order, date, notes, lineItem, quantity, pkg *valueProg
	shipDate, number, link, cost, carrier, delivered *valueProg
}

// SlipRow is one evaluated row of a shipping file. Values are trimmed;
// an unset Value is an empty cell (it changes nothing), a set one with
// S == "" clears the field (clear_when_empty).
type SlipRow struct {
	Skipping
	// Key is the slip's reference; Order the sales order's id (digits).
	Key, Order string
	// Date and ShipDate are date-times as sent (SlipTimeLayout).
	Date, Notes Value
	// LineItem is a line item's id (digits) and Quantity its units, a
	// whole number of 1 or more; both "" when the row gives no line.
	LineItem, Quantity string
	// Package is the shipment's reference within the slip; "" for the
	// slip's one shipment.
	Package string
	// The shipment's fields. Cost is a canonical decimal; Carrier a name
	// or an id, as given; Delivered "1" or "0".
	ShipDate, TrackingNumber, TrackingLink, Cost Value
	Carrier                                      string
	Delivered                                    Value
	// Errors lists the invalid values of the row; Eval returns them too.
	Errors RowErrors
}

// HasPackage reports whether the row gives any field of a shipment.
func (r *SlipRow) HasPackage() bool {
	return r.Package != "" || r.ShipDate.Set || r.TrackingNumber.Set || r.TrackingLink.Set || r.Cost.Set ||
		r.Carrier != "" || r.Delivered.Set
}

func (r *SlipRow) reset() {
	*r = SlipRow{Errors: r.Errors[:0]}
}

// CompileSlips binds the mapping's slips section (with the source
// settings, skip rules and lookup tables) to the header of a shipping
// file (file names it in messages). Date-times that name no offset are
// read in tz (nil: UTC). Every unknown column is reported with the mapping
// line and the close matches in the header; that error is an ErrorList. A
// mapping without a slips section gives an *Error saying how to add one.
func (m *Mapping) CompileSlips(file string, header []string, tz *time.Location) (*SlipProgram, error) {
	if m.Slips == nil {
		return nil, &Error{File: m.File, Msg: "the mapping has no slips section, so it cannot read packing slips; add one naming the columns of each slip's reference and sales order (and what else the file has), like\n" +
			"  slips:\n    key: Shipment\n    order: Order ID\n    tracking_number: Tracking\n    carrier: Carrier"}
	}
	if tz == nil {
		tz = time.UTC
	}
	s := &SlipProgram{tz: tz}
	var err error
	s.section, err = m.compileSection(file, header, func(b *binder) {
		sp := m.Slips
		if sp.Key == nil || sp.Order == nil {
			b.fail(sp.Pos, "slips.key and slips.order are required")
		}
		for _, t := range []struct {
			prog **valueProg
			spec *ValueSpec
		}{
			{&s.key, sp.Key}, {&s.order, sp.Order}, {&s.date, sp.Date}, {&s.notes, sp.Notes},
			{&s.lineItem, sp.LineItem}, {&s.quantity, sp.Quantity}, {&s.pkg, sp.Package},
			{&s.shipDate, sp.ShipDate}, {&s.number, sp.TrackingNumber}, {&s.link, sp.TrackingLink},
			{&s.cost, sp.Cost}, {&s.carrier, sp.Carrier}, {&s.delivered, sp.Delivered},
		} {
			*t.prog = b.value(t.spec)
		}
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Clone returns a program sharing the compiled expressions but with its
// own evaluation state, for use by another goroutine.
func (s *SlipProgram) Clone() *SlipProgram {
	c := *s
	c.section = s.clone()
	return &c
}

// Eval evaluates one row (cells in header order) into out, which is reset
// first and may be reused across rows. It returns nil, or out.Errors (a
// RowErrors) when a value is invalid; the other values are still filled.
func (s *SlipProgram) Eval(row []string, out *SlipRow) error {
	out.reset()
	p := &s.p
	return s.eval(row, &out.Errors, &out.Skipping, func(r *Row, skipped bool) {
		out.Key = p.text(s.key, row, r)
		if skipped {
			return
		}
		if out.Key == "" {
			p.required(s.key, r, "every row needs its slip's reference; fill in the cell, or skip rows without one with a skip rule")
		}
		out.Order = s.id(s.order, row, r, "the sales order's id, like 533943058 (the order_id column of an order file lading pulled)")
		if out.Order == "" {
			p.required(s.order, r, "every row needs its slip's sales order id; fill in the cell, or skip rows without one with a skip rule")
		}
		out.Date, out.Notes = s.instant(s.date, row, r), p.optional(s.notes, row, r)
		s.line(row, r, out)
		out.Package = p.text(s.pkg, row, r)
		out.ShipDate = s.instant(s.shipDate, row, r)
		out.TrackingNumber, out.TrackingLink = p.optional(s.number, row, r), p.optional(s.link, row, r)
		out.Cost, out.Carrier = p.optional(s.cost, row, r), p.text(s.carrier, row, r)
		out.Delivered = s.flag(s.delivered, row, r)
	})
}

// line evaluates the row's line item and its units: both or neither.
func (s *SlipProgram) line(row []string, r *Row, out *SlipRow) {
	p := &s.p
	out.LineItem = s.id(s.lineItem, row, r, "a line item's id, like 1000123 (the line_item_id column of an order file lading pulled)")
	n, given := p.count(s.quantity, row, r, packedCount)
	if n == "0" {
		p.fieldError(s.quantity, r, p.errValue(s.quantity, row), packedCount.negative)
		n = ""
	}
	out.Quantity = n
	switch {
	case out.LineItem != "" && !given:
		p.required(s.quantity, r, "a row naming a line item needs the units the slip packs of it")
	case out.LineItem == "" && given && s.lineItem != nil && p.errValue(s.lineItem, row) == "":
		p.required(s.lineItem, r, "a row giving a quantity needs the line item it is of")
	}
}

// maxIDDigits bounds an id: the service's ids are 64-bit integers.
const maxIDDigits = 18

// id evaluates a record id: digits only, or "" (empty, or an error in r
// saying what is wanted).
func (s *SlipProgram) id(v *valueProg, row []string, r *Row, want string) string {
	p := &s.p
	t := p.text(v, row, r)
	if t == "" {
		return ""
	}
	if len(t) > maxIDDigits || strings.Trim(t, "0123456789") != "" {
		p.fieldError(v, r, p.errValue(v, row), "must be "+want)
		return ""
	}
	return t
}

// flag evaluates a yes/no value: "1" or "0", unset when empty.
func (s *SlipProgram) flag(v *valueProg, row []string, r *Row) Value {
	p := &s.p
	t := p.text(v, row, r)
	switch strings.ToLower(t) {
	case "":
		return Value{}
	case "1", "yes", "y", "true":
		return Value{S: "1", Set: true}
	case "0", "no", "n", "false":
		return Value{S: "0", Set: true}
	}
	p.fieldError(v, r, p.errValue(v, row), "must be yes or no (or 1/0, true/false)")
	return Value{}
}

// instant evaluates a date-time: a date, with or without a time of day
// and an offset, in the source's date formats; sent as SlipTimeLayout.
func (s *SlipProgram) instant(v *valueProg, row []string, r *Row) Value {
	p := &s.p
	if v == nil {
		return Value{}
	}
	raw, ok := p.raw(v, row, r)
	if !ok {
		return Value{}
	}
	t := raw.text()
	if t == "" {
		if v.spec.ClearWhenEmpty {
			return Value{Set: true}
		}
		return Value{}
	}
	at, ok := p.instant(v, row, r, t, s.tz)
	if !ok {
		return Value{}
	}
	return Value{S: at.UTC().Format(SlipTimeLayout), Set: true}
}

// SlipsOnly reports whether the mapping maps packing slips and nothing of
// a catalog.
func (m *Mapping) SlipsOnly() bool { return m.Slips != nil && !m.hasCatalog() }
