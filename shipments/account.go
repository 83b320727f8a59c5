package shipments

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"lading/api"
	"lading/engine"
	"lading/parcels"
)

// inAccount settles the placed rows (row index → line item) whose
// tracking number the account already holds on their order, whatever the
// state says: a parcel their fulfillment shipped with their line is
// already shipped, or failed when it shipped another quantity; one it
// shipped without their line, or one another record holds (a packing
// slip's shipment, another fulfillment's), refuses them. It returns what
// the state should remember of the rows found shipped.
func inAccount(lines []Line, placed map[int]*api.LineItem, fx *facts) map[string]string {
	total := map[string]int64{}
	for i, li := range placed {
		total[parcelLine(&lines[i], li)] += lines[i].Quantity
	}
	learned := map[string]string{}
	for i, li := range placed {
		l := &lines[i]
		posted := fx.posted(l.Fulfillment, l.Tracking)
		if len(posted) == 0 {
			if other := fx.elsewhere(l.Fulfillment, l.Tracking); len(other) > 0 {
				l.Set(engine.Refused, elsewhereMessage(l, fx.orderOf[l.Fulfillment], other[0]))
			}
			continue
		}
		var id api.ID
		var units int64
		for _, p := range posted {
			if n, ok := p.Units()[li.ID]; ok {
				id, units = p.Shipment.ID, units+n
			}
		}
		if id == "" {
			l.Set(engine.Refused, withoutLineMessage(l, posted[0], fx.lines[l.Fulfillment]))
			continue
		}
		if settleShipped(l, id, units, total[parcelLine(l, li)]) {
			for _, k := range keysOf(l.Fulfillment, li.ID, string(li.SKU), l.Tracking) {
				learned[k] = string(id) + "/" + strconv.FormatInt(units, 10)
			}
		}
	}
	return learned
}

// parcelLine keys a row's line in its parcel: its fulfillment, line item
// and tracking number.
func parcelLine(l *Line, li *api.LineItem) string {
	return string(l.Fulfillment) + "\x00" + string(li.ID) + "\x00" + strings.ToUpper(strings.TrimSpace(l.Tracking))
}

// settleShipped settles a row whose line shipment id already shipped
// (units of it under the row's tracking number; id "" when not known):
// already shipped when the rows of that line and parcel say as much (file
// units), failed otherwise, since a posted shipment cannot be changed. It
// reports whether the row was already shipped.
func settleShipped(l *Line, id api.ID, units, file int64) bool {
	shipment := "a shipment"
	if id != "" {
		shipment = "shipment " + string(id)
	}
	if units == file {
		l.Set(AlreadyShipped, fmt.Sprintf("%s already shipped %d units of %s with tracking number %s; nothing was sent", shipment, units, l.lineName(), l.Tracking))
		return true
	}
	l.Set(engine.Failed, fmt.Sprintf("tracking number %s already shipped %d units of %s in fulfillment %s (%s); this row says %d. A posted shipment cannot be changed, so nothing was sent: if the parcel held %d, correct the row; if more units went out, give their parcel its own tracking number",
		l.Tracking, units, l.lineName(), l.Fulfillment, shipment, file, units))
	return false
}

// withoutLineMessage refuses a row whose tracking number its fulfillment
// already shipped without the row's line.
func withoutLineMessage(l *Line, p *parcels.Parcel, items []*api.LineItem) string {
	sku := map[api.ID]string{}
	for _, li := range items {
		sku[li.ID] = string(li.SKU)
	}
	var held []string
	for id, n := range p.Units() {
		held = append(held, fmt.Sprintf("%d × %s", n, cmp.Or(sku[id], "line item "+string(id))))
	}
	slices.Sort(held)
	return fmt.Sprintf("the parcel with tracking number %s was posted as %s without %s (it shipped %s), and a posted parcel takes no more lines: if this line went out in another parcel, give that one's tracking number; nothing of this parcel was sent",
		l.Tracking, p, l.lineName(), strings.Join(held, ", "))
}

// elsewhereMessage refuses a row whose tracking number its order already
// holds in another record than its fulfillment's shipments.
func elsewhereMessage(l *Line, order api.ID, p *parcels.Parcel) string {
	if p.Posted() {
		return fmt.Sprintf("tracking number %s was already posted to another fulfillment of order %s (%s); one parcel ships one fulfillment's lines: give this parcel its own tracking number. Nothing of this parcel was sent",
			l.Tracking, order, p)
	}
	return fmt.Sprintf("tracking number %s is already on order %s as %s (a slips push, or the account's staff, recorded it); posting it to fulfillment %s as well would count the parcel twice in the accountants' report. Record a parcel with one job: shipments push for the fulfillments you pull (it completes them), or remove that shipment in the account first. Nothing of this parcel was sent",
		l.Tracking, order, p, l.Fulfillment)
}
