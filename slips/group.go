package slips

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"lading/engine"
	"lading/mapping"
)

// Field names: the wire's, and the links a push sends, as the state
// remembers what was sent for a key.
const (
	fOrder     = "order"
	fDate      = "packing_slip_date"
	fNotes     = "notes"
	fLines     = "lines"
	fShipDate  = "ship_date"
	fNumber    = "tracking_number"
	fLink      = "tracking_link"
	fCost      = "cost"
	fCarrier   = "carrier"
	fDelivered = "delivered"
)

// given is a field's value and the row that gave it.
type given struct {
	value string
	row   int
}

// entity is a slip or a shipment: the rows that give it, the fields they
// give, and what a push makes of it.
type entity struct {
	key    string
	rows   []int // indexes into the input's lines
	fields map[string]given
	// conflicts say which rows give a field two values.
	conflicts []string

	// Filled by the later phases.
	id     string            // the record's id, once known
	slipID string            // a shipment's slip id, once known
	order  string            // a shipment's sales order
	memo   map[string]string // the fields last sent and confirmed
	sent   map[string]string // the fields this push sends
	create bool
	action engine.Status
	msg    string
}

// give records that row gives field the value v (set: not an empty cell).
func (e *entity) give(field string, v mapping.Value, row int, lines []Line) {
	if !v.Set {
		return
	}
	if g, ok := e.fields[field]; ok {
		if g.value != v.S {
			e.conflicts = append(e.conflicts, fmt.Sprintf("row %d gives %s %q, row %d gives %q", lines[g.row].Row, field, g.value, lines[row].Row, v.S))
		}
		return
	}
	e.fields[field] = given{v.S, row}
}

// slip is the rows of one key: a packing slip, its lines and shipments.
type slip struct {
	entity
	lines    []lineRef
	lineRows map[string][]int // line item id → the rows giving it
	packages []*pkg
}

// lineRef is a line item the slip packs and its units.
type lineRef struct{ id, quantity string }

// addLine adds units of a line item given on row i: a line given on two
// rows of a slip (two cartons of it, say) adds up, as a shipments push
// adds a line given on two rows of one parcel.
func (s *slip) addLine(item, units string, i int) {
	s.lineRows[item] = append(s.lineRows[item], i)
	n, _ := strconv.ParseInt(units, 10, 64)
	for j := range s.lines {
		if l := &s.lines[j]; l.id == item {
			m, _ := strconv.ParseInt(l.quantity, 10, 64)
			l.quantity = strconv.FormatInt(m+n, 10)
			return
		}
	}
	s.lines = append(s.lines, lineRef{item, units})
}

// pkg is a shipment of a slip: the rows giving its fields.
type pkg struct {
	entity
	ref       string // the file's reference of the shipment within its slip
	carrier   string // as the rows give it
	carrierID string // the carrier type's id, once resolved
}

// packageKey is the key a shipment is remembered under.
func packageKey(slipKey, ref string) string { return slipKey + "\x00" + ref }

// group gathers the pending rows by key, in the order keys first appear,
// and settles the rows of slips that cannot be sent: a row giving a
// field another row of its slip gives otherwise, an invalid row.
func group(lines []Line) []*slip {
	byKey := map[string]*slip{}
	var out []*slip
	bad := map[string][]int{} // key → its invalid rows
	for i := range lines {
		l := &lines[i]
		k := l.Values.Key
		if l.Action == engine.Invalid && k != "" {
			bad[k] = append(bad[k], i)
		}
		if !l.Pending() {
			continue
		}
		s := byKey[k]
		if s == nil {
			s = &slip{entity: entity{key: k, fields: map[string]given{}}, lineRows: map[string][]int{}}
			byKey[k] = s
			out = append(out, s)
		}
		s.add(i, lines)
	}
	for _, s := range out {
		settleBroken(s, lines, bad[s.key])
	}
	return slices.DeleteFunc(out, func(s *slip) bool { return !lines[s.rows[0]].Pending() })
}

// add adds row i to the slip.
func (s *slip) add(i int, lines []Line) {
	v := &lines[i].Values
	s.rows = append(s.rows, i)
	s.give(fOrder, mapping.Value{S: v.Order, Set: true}, i, lines)
	s.give(fDate, v.Date, i, lines)
	s.give(fNotes, v.Notes, i, lines)
	if v.LineItem != "" {
		s.addLine(v.LineItem, v.Quantity, i)
	}
	if !v.HasPackage() {
		return
	}
	var p *pkg
	for _, x := range s.packages {
		if x.ref == v.Package {
			p = x
		}
	}
	if p == nil {
		p = &pkg{entity: entity{key: packageKey(s.key, v.Package), fields: map[string]given{}}, ref: v.Package}
		s.packages = append(s.packages, p)
	}
	p.rows = append(p.rows, i)
	p.give(fShipDate, v.ShipDate, i, lines)
	p.give(fNumber, v.TrackingNumber, i, lines)
	p.give(fLink, v.TrackingLink, i, lines)
	p.give(fCost, v.Cost, i, lines)
	p.give(fCarrier, mapping.Value{S: v.Carrier, Set: v.Carrier != ""}, i, lines)
	p.give(fDelivered, v.Delivered, i, lines)
	if c := v.Carrier; c != "" && p.carrier == "" {
		p.carrier = c
	}
}

// settleBroken settles every row of a slip that has a conflict, or
// invalid rows (bad): none of it is sent.
func settleBroken(s *slip, lines []Line, bad []int) {
	conflicts := slices.Clone(s.conflicts)
	for _, p := range s.packages {
		for _, c := range p.conflicts {
			conflicts = append(conflicts, fmt.Sprintf("shipment %q: %s", p.ref, c))
		}
	}
	switch {
	case len(conflicts) > 0:
		msg := fmt.Sprintf("slip %q is given two ways (%s); make its rows agree, and push again", s.key, strings.Join(conflicts, "; "))
		for _, i := range s.rows {
			lines[i].Set(engine.Invalid, msg)
		}
	case len(bad) > 0:
		rows := make([]string, len(bad))
		for j, i := range bad {
			rows[j] = fmt.Sprint(lines[i].Row)
		}
		msg := fmt.Sprintf("not sent: slip %q has invalid rows (%s); correct them and push again", s.key, strings.Join(rows, ", "))
		for _, i := range s.rows {
			lines[i].Set(engine.Skipped, msg)
		}
	}
}
