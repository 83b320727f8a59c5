package shipments

import (
	"fmt"
	"strings"
	"time"

	"lading/api"
	"lading/engine"
)

// shipment is one parcel to post: the rows of one fulfillment and tracking
// number that were not shipped before.
type shipment struct {
	Fulfillment api.ID
	Tracking    string
	Carrier     string
	Link        string
	Cost        string
	ShippedAt   time.Time
	Lines       []shipLine
	rows        []int // indexes of the file's lines
}

// shipLine is a line item of a shipment and its units.
type shipLine struct {
	Item  api.ID
	SKU   string
	Units int64
}

// plan is what a push will send.
type plan struct {
	// waves are sent one after the other: the n-th shipment of each
	// fulfillment goes in wave n, so that no two shipments of one
	// fulfillment are ever in flight together.
	waves [][]*shipment
	// live is each line item's units shipped, as read.
	live map[api.ID]int64
	// ordered is each line item's units ordered.
	ordered map[api.ID]int64
	// statuses are the fulfillments' statuses to set, by the rows that
	// give them.
	statuses map[api.ID]wantStatus
	// learned is what the state should remember of the rows the account
	// showed shipped, so that the next push needs no read for them.
	learned map[string]string
}

// wantStatus is a status a file asks for, and the row that gives it.
type wantStatus struct {
	status string
	row    int
}

// planShipments checks each pending row against its fulfillment and what
// its order already shipped, and groups the rows that pass into
// shipments.
func planShipments(lines []Line, fx *facts) *plan {
	pl := &plan{live: map[api.ID]int64{}, ordered: map[api.ID]int64{}, statuses: map[api.ID]wantStatus{}}
	for _, items := range fx.lines {
		for _, li := range items {
			q, _ := li.Quantity.Int()
			s, _ := li.ShippedQuantity.Int()
			pl.ordered[li.ID], pl.live[li.ID] = q, s
		}
	}
	left := map[api.ID]int64{}
	for id, q := range pl.ordered {
		left[id] = q - pl.live[id]
	}
	placed := map[int]*api.LineItem{}
	for i := range lines {
		l := &lines[i]
		if l.Valid && l.Status != "" && l.Fulfillment != "" {
			pl.statuses[l.Fulfillment] = wantStatus{l.Status, l.Row}
		}
		if l.Valid && l.Pending() {
			if li := placeLine(l, fx); li != nil {
				placed[i] = li
			}
		}
	}
	pl.learned = inAccount(lines, placed, fx)
	groups := map[string]*shipment{}
	var order []*shipment
	for i := range lines {
		l, li := &lines[i], placed[i]
		if li == nil || !l.Pending() {
			continue
		}
		if l.Quantity > left[li.ID] {
			l.Set(engine.Refused, overMessage(l, li, left[li.ID]))
			continue
		}
		key := string(l.Fulfillment) + "\x00" + l.Tracking
		sh := groups[key]
		if sh == nil {
			sh = &shipment{Fulfillment: l.Fulfillment, Tracking: l.Tracking}
			groups[key] = sh
			order = append(order, sh)
		}
		if msg := sh.take(lines, i); msg != "" {
			l.Set(engine.Refused, msg)
			continue
		}
		left[li.ID] -= l.Quantity
		sh.add(li, l.Quantity)
		sh.rows = append(sh.rows, i)
	}
	pl.waves = waves(refuseBroken(lines, order))
	return pl
}

// placeLine finds the row's fulfillment and line item, or refuses the row.
// A row naming its line both by id and by SKU must name one line.
func placeLine(l *Line, fx *facts) *api.LineItem {
	f := fx.fuls[l.Fulfillment]
	if f == nil {
		l.Set(engine.Refused, fmt.Sprintf("the account has no fulfillment %s; check the fulfillment id (`lading fulfillments pull` writes the open ones)", l.Fulfillment))
		return nil
	}
	items := fx.lines[l.Fulfillment]
	var hits []*api.LineItem
	for _, li := range items {
		if (l.LineItemRef != "" && string(li.ID) == l.LineItemRef) || (l.LineItemRef == "" && string(li.SKU) == l.SKU) {
			hits = append(hits, li)
		}
	}
	switch {
	case len(hits) == 1 && l.SKU != "" && string(hits[0].SKU) != l.SKU:
		l.Set(engine.Invalid, disagreeMessage(l, hits[0], items))
	case len(hits) == 1:
		l.LineItem = hits[0].ID
		if l.SKU == "" {
			l.SKU = string(hits[0].SKU)
		}
		return hits[0]
	case len(hits) > 1:
		l.Set(engine.Refused, fmt.Sprintf("fulfillment %s has %d lines with SKU %s: name the line by its line item id", l.Fulfillment, len(hits), l.SKU))
	default:
		l.Set(engine.Refused, fmt.Sprintf("fulfillment %s has no %s; its lines are %s", l.Fulfillment, l.lineName(), describeLines(items)))
	}
	return nil
}

// disagreeMessage refuses a row whose line_item_id and sku name different
// lines: shipping either would ship what the row may not mean.
func disagreeMessage(l *Line, byID *api.LineItem, items []*api.LineItem) string {
	sku := fmt.Sprintf("fulfillment %s has no line with SKU %s", l.Fulfillment, l.SKU)
	for _, li := range items {
		if string(li.SKU) == l.SKU {
			sku = fmt.Sprintf("SKU %s is line item %s", l.SKU, li.ID)
		}
	}
	return fmt.Sprintf("line item %s is SKU %s in fulfillment %s, but this row's sku is %s (%s): a row names one line; correct its line_item_id or its sku. Nothing of this parcel was sent",
		byID.ID, byID.SKU, l.Fulfillment, l.SKU, sku)
}

// describeLines lists a fulfillment's lines for messages.
func describeLines(items []*api.LineItem) string {
	if len(items) == 0 {
		return "none"
	}
	s := make([]string, len(items))
	for i, li := range items {
		s[i] = fmt.Sprintf("%s (line item %s)", li.SKU, li.ID)
	}
	return strings.Join(s, ", ")
}

// overMessage refuses a row asking for more units than are left.
func overMessage(l *Line, li *api.LineItem, left int64) string {
	q, _ := li.Quantity.Int()
	shipped, _ := li.ShippedQuantity.Int()
	if left <= 0 {
		return fmt.Sprintf("nothing is left to ship of %s in fulfillment %s (%d ordered, %d shipped%s); nothing of this shipment was sent",
			l.lineName(), l.Fulfillment, q, shipped, earlierRows(q-shipped, left))
	}
	units := "units"
	if left == 1 {
		units = "unit"
	}
	return fmt.Sprintf("quantity %d is more than the %d %s left to ship of %s in fulfillment %s (%d ordered, %d shipped%s); correct the quantity: nothing of this shipment was sent",
		l.Quantity, left, units, l.lineName(), l.Fulfillment, q, shipped, earlierRows(q-shipped, left))
}

// earlierRows notes units taken by earlier rows of the file.
func earlierRows(open, left int64) string {
	if open == left {
		return ""
	}
	return fmt.Sprintf(", %d on earlier rows of this file", open-left)
}

// take checks that row i agrees with the shipment's other rows on what
// one parcel has once (carrier, link, cost, date) and fills in what the
// shipment lacks; it returns the refusal, or "".
func (sh *shipment) take(lines []Line, i int) string {
	l := &lines[i]
	first := -1
	if len(sh.rows) > 0 {
		first = lines[sh.rows[0]].Row
	}
	for _, c := range []struct {
		name      string
		have, row *string
	}{{"carrier", &sh.Carrier, &l.Carrier}, {"tracking link", &sh.Link, &l.TrackingLink}, {"cost", &sh.Cost, &l.Cost}} {
		switch {
		case *c.row == "":
		case *c.have == "":
			*c.have = *c.row
		case *c.have != *c.row:
			return fmt.Sprintf("this row gives the parcel with tracking number %s the %s %q, but row %d gives %q: one parcel has one %s; correct one of the rows",
				l.Tracking, c.name, *c.row, first, *c.have, c.name)
		}
	}
	switch {
	case l.ShippedAt.IsZero():
	case sh.ShippedAt.IsZero():
		sh.ShippedAt = l.ShippedAt
	case !sh.ShippedAt.Equal(l.ShippedAt):
		return fmt.Sprintf("this row says the parcel with tracking number %s shipped at %s, but row %d says %s; correct one of the rows",
			l.Tracking, l.ShippedAt.Format(time.RFC3339), first, sh.ShippedAt.Format(time.RFC3339))
	}
	return ""
}

// add adds units of a line item (a line given on two rows adds up).
func (sh *shipment) add(li *api.LineItem, units int64) {
	for j := range sh.Lines {
		if sh.Lines[j].Item == li.ID {
			sh.Lines[j].Units += units
			return
		}
	}
	sh.Lines = append(sh.Lines, shipLine{Item: li.ID, SKU: string(li.SKU), Units: units})
}

// refuseBroken holds back every shipment one of whose rows was refused,
// or named its line wrong: a parcel is posted whole or not at all. It
// returns the others.
func refuseBroken(lines []Line, order []*shipment) []*shipment {
	bad := map[string]int{} // fulfillment and tracking number -> the first refused row
	for i := range lines {
		l := &lines[i]
		k := string(l.Fulfillment) + "\x00" + l.Tracking
		if _, seen := bad[k]; (l.Action == engine.Refused || l.Action == engine.Invalid) && l.Fulfillment != "" && !seen {
			bad[k] = l.Row
		}
	}
	var out []*shipment
	for _, sh := range order {
		row, broken := bad[string(sh.Fulfillment)+"\x00"+sh.Tracking]
		if !broken {
			out = append(out, sh)
			continue
		}
		for _, i := range sh.rows {
			lines[i].Set(engine.Refused, fmt.Sprintf("not sent: row %d of the same parcel (fulfillment %s, tracking number %s) cannot be shipped as it is, and a parcel is posted whole; correct that row and push again", row, sh.Fulfillment, sh.Tracking))
		}
	}
	return out
}

// waves puts the n-th shipment of each fulfillment in wave n.
func waves(order []*shipment) [][]*shipment {
	var out [][]*shipment
	seen := map[api.ID]int{}
	for _, sh := range order {
		n := seen[sh.Fulfillment]
		seen[sh.Fulfillment] = n + 1
		if n == len(out) {
			out = append(out, nil)
		}
		out[n] = append(out[n], sh)
	}
	return out
}
