package slips

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/mapping"
	"lading/parcels"
)

// The account is the truth. Before anything is sent, the slips to send are
// read against their orders, 250 orders a read: a slip the state does not
// know is looked for among its order's slips by its key (a slip's local_id
// is its key: lading writes it so), and its shipments among that slip's by
// tracking number, so that a lost or another state costs a read, never a
// duplicate; and each slip is checked against its order: the order must be
// the account's, its lines the order's, its units within what the order
// has left to pack, and its new shipments' tracking numbers not already on
// the order.

// orderHolds is what the account holds of one sales order.
type orderHolds struct {
	order *api.SalesOrder
	page  *api.SalesOrderPage // the read that carried it
	// variant is the variant of each line item of the order: its lines as
	// sold, and its fulfillments' line items (the ids a pull writes).
	variant map[api.ID]api.ID
	sku     map[api.ID]string // a variant's SKU, for messages
	// ordered are the units of each variant the order has to pack, a
	// bundle as its components.
	ordered map[api.ID]int64
	slips   []*api.PackingSlip // its live slips
}

// holdings are what the account holds of the orders the slips name.
type holdings struct {
	orders map[api.ID]*orderHolds
	book   parcels.Book
}

// readOrders reads orders ids (250 a read) with what they hold.
func (p *Pusher) readOrders(ctx context.Context, ids []api.ID) (*holdings, error) {
	h := &holdings{orders: map[api.ID]*orderHolds{}}
	for page, err := range api.ByID(ctx, ids, p.Opts.Client.SalesOrders.Get) {
		if err != nil {
			return nil, fmt.Errorf("reading the slips' sales orders to check the slips against them: %w", err)
		}
		for _, o := range page.Records {
			h.orders[o.ID] = holdsOf(page, o)
		}
		h.book.AddOrders(page)
	}
	return h, nil
}

// holdsOf is what page holds of order o.
func holdsOf(page *api.SalesOrderPage, o *api.SalesOrder) *orderHolds {
	oh := &orderHolds{order: o, page: page, variant: map[api.ID]api.ID{}, sku: map[api.ID]string{}, ordered: map[api.ID]int64{},
		slips: page.SlipsOf(o.Links)}
	for _, li := range page.OrderLines(o) {
		oh.variant[li.ID], oh.sku[li.VariantID] = li.VariantID, string(li.SKU)
		n, _ := li.Quantity.Int()
		for v, u := range oh.units(li.VariantID, n) {
			oh.ordered[v] += u
		}
	}
	for _, f := range page.FulfillmentsOf(o.Links) {
		for _, li := range page.FulfillmentLines(f) {
			oh.variant[li.ID], oh.sku[li.VariantID] = li.VariantID, string(li.SKU)
		}
	}
	return oh
}

// units are n units of variant v, a bundle as its components.
func (oh *orderHolds) units(v api.ID, n int64) map[api.ID]int64 {
	comps, _ := oh.page.Components(oh.page.Variants[v])
	if len(comps) == 0 {
		return map[api.ID]int64{v: n}
	}
	out := map[api.ID]int64{}
	for _, c := range comps {
		out[c.VariantID] += c.Units * n
	}
	return out
}

// skuOf names variant v for messages.
func (oh *orderHolds) skuOf(v api.ID) string {
	if s := oh.sku[v]; s != "" {
		return s
	}
	if x := oh.page.Variants[v]; x != nil && x.SKU != "" {
		return string(x.SKU)
	}
	return "variant " + string(v)
}

// packed are the units of each variant the order's live slips other than
// slip pack, void ones left out.
func (oh *orderHolds) packed(slip api.ID) map[api.ID]int64 {
	out := map[api.ID]int64{}
	for _, sl := range oh.slips {
		if sl.ID == slip || sl.Void.Bool() {
			continue
		}
		for _, l := range sl.Links.Of(wire.LineItems) {
			n, _ := l.Quantity.Int()
			for v, u := range oh.units(oh.variant[l.ID], n) {
				out[v] += u
			}
		}
	}
	return out
}

// byKey is the order's live slip whose local_id is key, or nil.
func (oh *orderHolds) byKey(key string) *api.PackingSlip {
	for _, sl := range oh.slips {
		if string(sl.LocalID) == key {
			return sl
		}
	}
	return nil
}

// needsOrder reports whether what the push sends for s must be checked
// against its order, or s looked for there: s is not known, or it sends
// its lines or order, or a new shipment with a tracking number.
func (s *slip) needsOrder() bool {
	if s.action.Failed() {
		return false
	}
	_, lines := s.sent[fLines]
	_, order := s.sent[fOrder]
	if s.create || lines || order {
		return true
	}
	for _, k := range s.packages {
		if k.create && k.fields[fNumber].value != "" {
			return true
		}
	}
	return false
}

// inAccount looks for the slips the state does not know in the account,
// plans again those it finds, checks every slip that needs it against its
// order, and has the state learn what it found.
func (p *Pusher) inAccount(ctx context.Context, slips []*slip, lines []Line) error {
	var orders []api.ID
	for _, s := range slips {
		if s.needsOrder() {
			orders = append(orders, api.ID(s.fields[fOrder].value))
		}
	}
	if len(orders) == 0 {
		return nil
	}
	h, err := p.readOrders(ctx, orders)
	if err != nil {
		return err
	}
	var found []*slip
	for _, s := range slips {
		if !s.needsOrder() {
			continue
		}
		oh := h.orders[api.ID(s.fields[fOrder].value)]
		if oh == nil {
			s.action, s.msg = engine.Refused, fmt.Sprintf("the account has no sales order %s; check the order id (lading fulfillments pull writes it as order_id); nothing of this slip was sent", s.fields[fOrder].value)
			continue
		}
		if sl := oh.byKey(s.key); s.create && sl != nil {
			s.adopt(sl, oh.page)
			found = append(found, s)
		}
		if s.needsOrder() {
			s.check(oh, &h.book, lines)
		}
	}
	return p.learn(ctx, found)
}

// learn has the state remember the slips and shipments found in the
// account, with what they hold, as if this push had made them.
func (p *Pusher) learn(ctx context.Context, found []*slip) error {
	if p.Opts.DryRun || len(found) == 0 {
		return nil
	}
	ids, memos, pids, pmemos := map[string]string{}, map[string]string{}, map[string]string{}, map[string]string{}
	for _, s := range found {
		ids[s.key], memos[s.key] = s.id, memoText(s.memo)
		for _, k := range s.packages {
			if k.id != "" {
				pids[k.key], pmemos[k.key] = k.id, memoText(k.memo)
			}
		}
	}
	for _, put := range []struct {
		scope string
		kv    map[string]string
	}{{slipScope(p.Opts.Scope), ids}, {slipSentScope(p.Opts.Scope), memos}, {packageScope(p.Opts.Scope), pids}, {packageSentScope(p.Opts.Scope), pmemos}} {
		if err := p.Opts.State.PutIDs(ctx, put.scope, put.kv); err != nil {
			return err
		}
	}
	return nil
}

// adopt makes s the account's slip sl, what it holds what was last sent,
// and its shipments those of sl with their tracking numbers (a shipment
// without one takes one of sl's without one, in id order); then plans s
// and them again.
func (s *slip) adopt(sl *api.PackingSlip, page *api.SalesOrderPage) {
	s.id, s.memo = string(sl.ID), slipMemo(sl)
	plan(&s.entity, s.want())
	theirs := page.PackagesOf(sl)
	for _, k := range s.packages {
		if !k.create {
			continue
		}
		i := slices.IndexFunc(theirs, func(x *api.Package) bool {
			return sameTracking(string(x.TrackingNumber), k.fields[fNumber].value)
		})
		if i < 0 {
			continue
		}
		k.id, k.memo = string(theirs[i].ID), packageMemo(theirs[i], k.fields[fCost].value)
		theirs = slices.Delete(theirs, i, i+1)
		plan(&k.entity, k.want(k.carrierID))
	}
}

// sameTracking compares tracking numbers as carriers do: whatever their
// case and the spaces around them.
func sameTracking(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// slipMemo is what slip sl holds, as a push sends it.
func slipMemo(sl *api.PackingSlip) map[string]string {
	m := map[string]string{fOrder: string(sl.Links.First(wire.SalesOrders)), fNotes: string(sl.Notes), fDate: sentTime(string(sl.PackingSlipDate))}
	var lines []lineRef
	for _, l := range sl.Links.Of(wire.LineItems) {
		lines = append(lines, lineRef{string(l.ID), string(l.Quantity)})
	}
	if len(lines) > 0 {
		m[fLines] = linesText(lines)
	}
	return m
}

// packageMemo is what shipment k holds, as a push sends it; cost is the
// file's, kept when it is the same amount.
func packageMemo(k *api.Package, cost string) map[string]string {
	m := map[string]string{fShipDate: sentTime(string(k.ShipDate)), fNumber: string(k.TrackingNumber), fLink: string(k.TrackingLink),
		fCost: string(k.Cost), fCarrier: string(k.Links.First(wire.PackageCarrierTypes)), fDelivered: "0"}
	if sameAmount(string(k.Cost), cost) {
		m[fCost] = cost
	}
	if k.Delivered.Bool() {
		m[fDelivered] = "1"
	}
	return m
}

// sentTime is a date-time the account gives, as a push sends it.
func sentTime(s string) string {
	for _, l := range instantLayouts {
		if t, err := time.Parse(l, strings.TrimSpace(s)); err == nil {
			return t.UTC().Format(mapping.SlipTimeLayout)
		}
	}
	return s
}

// check refuses s when what it sends does not fit its order oh: a line of
// another order, more units than the order has left to pack, a new
// shipment whose tracking number the order already holds.
func (s *slip) check(oh *orderHolds, book *parcels.Book, lines []Line) {
	var why []string
	for _, l := range s.lines {
		if _, ok := oh.variant[api.ID(l.id)]; !ok {
			why = append(why, fmt.Sprintf("line item %s is not a line of order %s (%s); check its line_item_id (lading fulfillments pull writes the order's)",
				l.id, oh.order.ID, s.rowsOf(lines, l.id)))
		}
	}
	if _, sends := s.sent[fLines]; sends && len(why) == 0 {
		why = append(why, s.overPacked(oh, lines)...)
	}
	for _, k := range s.packages {
		if t := k.fields[fNumber].value; k.create && t != "" {
			why = append(why, s.heldElsewhere(book, oh.order.ID, t)...)
		}
	}
	if len(why) > 0 {
		s.action, s.msg = engine.Refused, strings.Join(why, "; ")+"; nothing of this slip was sent"
	}
}

// overPacked says which variants s packs more of than its order has left.
func (s *slip) overPacked(oh *orderHolds, lines []Line) []string {
	packed := oh.packed(api.ID(s.id))
	mine := map[api.ID]int64{}
	var order []api.ID
	rows := map[api.ID][]int{}
	for _, l := range s.lines {
		n, _ := strconv.ParseInt(l.quantity, 10, 64)
		for v, u := range oh.units(oh.variant[api.ID(l.id)], n) {
			if _, seen := mine[v]; !seen {
				order = append(order, v)
			}
			mine[v] += u
			rows[v] = append(rows[v], s.lineRows[l.id]...)
		}
	}
	var why []string
	for _, v := range order {
		if packed[v]+mine[v] > oh.ordered[v] {
			why = append(why, fmt.Sprintf("order %s has %d units of %s to pack, %d packed by its other slips, and this slip packs %d (%s); correct the quantities, or void the other slips in the account",
				oh.order.ID, oh.ordered[v], oh.skuOf(v), packed[v], mine[v], rowsText(lines, rows[v])))
		}
	}
	return why
}

// heldElsewhere says where the order already holds tracking number t, out
// of slip s.
func (s *slip) heldElsewhere(book *parcels.Book, order api.ID, t string) []string {
	var why []string
	for _, pc := range book.Parcels(order, t) {
		switch {
		case !pc.Posted() && s.id != "" && pc.Slip == api.ID(s.id):
		case pc.Posted():
			why = append(why, fmt.Sprintf("tracking number %s was already posted on order %s by a shipments push (%s), which records the parcel as a slip of its own; pushing it as a packing slip too would count the parcel twice in the accountants' report. Record a parcel with one job: shipments push for the fulfillments you pull, slips push for the rest",
				t, order, pc))
		default:
			why = append(why, fmt.Sprintf("tracking number %s is already on order %s as %s; one parcel is one shipment: give this one its own tracking number, or give its rows that slip's key", t, order, pc))
		}
	}
	return why
}

// rowsOf names the rows of s that give line item id.
func (s *slip) rowsOf(lines []Line, id string) string { return rowsText(lines, s.lineRows[id]) }

// rowsText names the rows of lines at indexes is: "row 2", "rows 6, 7".
func rowsText(lines []Line, is []int) string {
	is = slices.Compact(slices.Sorted(slices.Values(is)))
	rows := make([]string, len(is))
	for j, i := range is {
		rows[j] = strconv.Itoa(lines[i].Row)
	}
	if len(rows) == 1 {
		return "row " + rows[0]
	}
	return "rows " + strings.Join(rows, ", ")
}
