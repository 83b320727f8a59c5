package mapping

import (
	"strconv"
	"time"

	"github.com/goccy/go-yaml/ast"
)

// ShipmentSpec maps the rows of a shipment-confirmation file (what a
// warehouse system writes when it ships) to shipped lines: the fulfillment
// (by id or by order number), the line (by line item id or by SKU within
// the fulfillment), the units shipped and the tracking number, and
// optionally the carrier, a tracking link, the cost, when it shipped and a
// status to set on the fulfillment. The source settings and skip rules
// apply.
type ShipmentSpec struct {
	FulfillmentID, OrderNumber, LineItemID, SKU *ValueSpec
	Quantity, TrackingNumber                    *ValueSpec
	Carrier, TrackingLink, Cost, ShippedAt      *ValueSpec
	Status                                      *ValueSpec
	// Pos is where the shipments section is in the mapping file.
	Pos Pos
}

// shipmentKeys are the keys allowed under "shipments".
var shipmentKeys = []string{"fulfillment_id", "order_number", "line_item_id", "sku", "quantity",
	"tracking_number", "carrier", "tracking_link", "cost", "shipped_at", "status"}

// shipments reads the shipments section e (its key and value).
func (d *decoder) shipments(e *ast.MappingValueNode) *ShipmentSpec {
	sp := &ShipmentSpec{Pos: nodePos(e.Key)}
	es := d.entries(e.Value, "shipments")
	d.checkKeys(es, "shipments", shipmentKeys)
	fields := sp.fields()
	for _, se := range es {
		k := keyOf(se)
		kind := KindText
		switch k {
		case "quantity":
			kind = KindInteger
		case "cost":
			kind = KindNumber
		}
		f, known := fields[k]
		s := d.value(se.Value, "shipments."+k, kind)
		if s == nil || !known {
			continue
		}
		s.Name = k
		s.NotNegative = k == "cost"
		*f = s
	}
	switch {
	case d.err != nil:
	case sp.FulfillmentID == nil && sp.OrderNumber == nil:
		d.failAt(sp.Pos, "shipments needs fulfillment_id or order_number: the column naming each row's fulfillment (by its id, or by its order's number)")
	case sp.LineItemID == nil && sp.SKU == nil:
		d.failAt(sp.Pos, "shipments needs line_item_id or sku: the column naming the line each row ships (by its line item id, or by its SKU)")
	case sp.Quantity == nil || sp.TrackingNumber == nil:
		d.failAt(sp.Pos, "shipments needs quantity (the units shipped) and tracking_number; carrier, tracking_link, cost, shipped_at and status are optional")
	}
	return sp
}

// fields maps each key of the section to its field.
func (sp *ShipmentSpec) fields() map[string]**ValueSpec {
	return map[string]**ValueSpec{
		"fulfillment_id": &sp.FulfillmentID, "order_number": &sp.OrderNumber, "line_item_id": &sp.LineItemID,
		"sku": &sp.SKU, "quantity": &sp.Quantity, "tracking_number": &sp.TrackingNumber, "carrier": &sp.Carrier,
		"tracking_link": &sp.TrackingLink, "cost": &sp.Cost, "shipped_at": &sp.ShippedAt, "status": &sp.Status,
	}
}

// ShipmentProgram is a mapping's shipments section bound to the header of
// one file. Eval turns rows into ShipmentRow values. A ShipmentProgram is
// not safe for concurrent use; give each goroutine its own Clone.
type ShipmentProgram struct {
	section
	loc *time.Location
	v   map[string]*valueProg
}

// ShipmentRow is one evaluated row of a shipments file. Strings are
// trimmed; "" means empty or invalid (an error is in Errors).
type ShipmentRow struct {
	Skipping
	// FulfillmentID or OrderNumber names the fulfillment; LineItemID or
	// SKU the line.
	FulfillmentID, OrderNumber, LineItemID, SKU string
	// Quantity is the units shipped, 1 or more.
	Quantity                              int64
	TrackingNumber, Carrier, TrackingLink string
	// Cost is a canonical decimal ("8.95"), "" when not given.
	Cost string
	// ShippedAt is when the row shipped; zero when not given.
	ShippedAt time.Time
	// Status is the fulfillment's new status, "" for none.
	Status string
	Errors RowErrors
}

// CompileShipments binds the mapping's shipments section to the header of
// a shipments file (file names it in messages). Dates without an offset
// are read in loc (nil means UTC). Unknown columns are reported like
// Compile's (an ErrorList); a mapping without a shipments section gives an
// *Error saying how to add one.
func (m *Mapping) CompileShipments(file string, header []string, loc *time.Location) (*ShipmentProgram, error) {
	if m.Shipments == nil {
		return nil, &Error{File: m.File, Msg: "the mapping has no shipments section, so it cannot read shipments; add one naming the columns of each row's fulfillment, line, units and tracking number, like\n" +
			"  shipments:\n    fulfillment_id: Order ID\n    sku: SKU\n    quantity: Qty shipped\n    tracking_number: Tracking"}
	}
	if loc == nil {
		loc = time.UTC
	}
	s := &ShipmentProgram{loc: loc, v: map[string]*valueProg{}}
	var err error
	s.section, err = m.compileSection(file, header, func(b *binder) {
		for k, f := range m.Shipments.fields() {
			s.v[k] = b.value(*f)
		}
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Clone returns a program sharing the compiled expressions but with its
// own evaluation state, for use by another goroutine.
func (s *ShipmentProgram) Clone() *ShipmentProgram {
	c := *s
	c.section = s.clone()
	return &c
}

// Eval evaluates one row (cells in header order) into out, which is reset
// first. It returns nil, or out.Errors (a RowErrors) when a value is
// invalid; the other values are still filled.
func (s *ShipmentProgram) Eval(row []string, out *ShipmentRow) error {
	*out = ShipmentRow{Errors: out.Errors[:0]}
	p := &s.p
	return s.eval(row, &out.Errors, &out.Skipping, func(r *Row, skipped bool) {
		text := func(k string) string { return p.text(s.v[k], row, r) }
		out.FulfillmentID, out.OrderNumber = text("fulfillment_id"), text("order_number")
		out.LineItemID, out.SKU = text("line_item_id"), text("sku")
		if skipped {
			return
		}
		out.TrackingNumber, out.Carrier, out.TrackingLink = text("tracking_number"), text("carrier"), text("tracking_link")
		out.Cost, out.Status = text("cost"), text("status")
		s.need(r, out)
		out.Quantity = s.units(row, r)
		out.ShippedAt = s.when(row, r)
	})
}

// need reports the values a row cannot do without.
func (s *ShipmentProgram) need(r *Row, out *ShipmentRow) {
	p := &s.p
	if out.FulfillmentID == "" && out.OrderNumber == "" {
		v := cmpOr(s.v["fulfillment_id"], s.v["order_number"])
		p.required(v, r, "every row needs its fulfillment: its id, or its order's number; fill in the cell, or skip such rows with a skip rule")
	}
	if out.LineItemID == "" && out.SKU == "" {
		v := cmpOr(s.v["line_item_id"], s.v["sku"])
		p.required(v, r, "every row needs the line it ships: its line item id, or its SKU; fill in the cell")
	}
	if out.TrackingNumber == "" {
		p.required(s.v["tracking_number"], r, "every row needs a tracking number (rows of one fulfillment and tracking number are one shipment); fill in the cell")
	}
}

// cmpOr is the first non-nil program.
func cmpOr(vs ...*valueProg) *valueProg {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

// units evaluates the quantity shipped: a whole number, 1 or more.
func (s *ShipmentProgram) units(row []string, r *Row) int64 {
	p, v := &s.p, s.v["quantity"]
	n, given := p.count(v, row, r, shippedCount)
	switch {
	case !given && v != nil:
		p.required(v, r, "every row needs the units it ships (a whole number, 1 or more); fill in the cell")
	case n == "0":
		p.fieldError(v, r, p.errValue(v, row), "must be 1 or more: a shipment of 0 units ships nothing; remove the row, or correct the count")
		n = ""
	}
	u, _ := strconv.ParseInt(n, 10, 64)
	return u
}

// when evaluates shipped_at: zero when not given.
func (s *ShipmentProgram) when(row []string, r *Row) time.Time {
	p, v := &s.p, s.v["shipped_at"]
	if v == nil {
		return time.Time{}
	}
	raw, ok := p.raw(v, row, r)
	if !ok || raw.text() == "" {
		return time.Time{}
	}
	t, _ := p.instant(v, row, r, raw.text(), s.loc)
	return t
}

// ShipmentsOnly reports whether the mapping maps shipments and nothing of
// a catalog.
func (m *Mapping) ShipmentsOnly() bool { return m.Shipments != nil && !m.hasCatalog() }

// shipmentsOnlyError is Compile's error for a mapping that maps shipments
// only.
func (m *Mapping) shipmentsOnlyError() error {
	return ErrorList{{File: m.File, Line: m.Shipments.Pos.Line, Column: m.Shipments.Pos.Column,
		Msg: "this mapping maps shipments only (shipments:); it cannot import a catalog: use it to push shipments, or give it group.key and product.name to import products"}}
}
