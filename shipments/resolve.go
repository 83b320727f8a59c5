package shipments

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/parcels"
	"lading/state"
)

// Scopes of what the state remembers, under the account's scope.
func shippedScope(scope string) string { return state.KeyShipped(scope) }
func ordersScope(scope string) string  { return state.KeyOrderFulfillments(scope) }

// keysOf are the state's keys of a row's line and tracking number: the line
// by its id and by its SKU, so that a row naming it either way finds what
// an earlier push posted.
func keysOf(f api.ID, item api.ID, sku, tracking string) []string {
	ks := []string{string(f) + "\x00i:" + string(item) + "\x00" + tracking}
	if sku != "" {
		ks = append(ks, string(f)+"\x00s:"+sku+"\x00"+tracking)
	}
	return ks
}

// rowKey is the state's key of a row as its file names its line.
func rowKey(l *Line) string {
	if l.LineItemRef != "" {
		return keysOf(l.Fulfillment, api.ID(l.LineItemRef), "", l.Tracking)[0]
	}
	return string(l.Fulfillment) + "\x00s:" + l.SKU + "\x00" + l.Tracking
}

// facts are what the account holds of the file's fulfillments: their
// lines, and their orders' parcels.
type facts struct {
	fuls    map[api.ID]*api.Fulfillment
	lines   map[api.ID][]*api.LineItem // by fulfillment, in link order
	orderOf map[api.ID]api.ID          // a fulfillment's sales order
	book    parcels.Book
}

// posted are the shipments posted against fulfillment f under tracking
// number t.
func (fx *facts) posted(f api.ID, t string) []*parcels.Parcel {
	var out []*parcels.Parcel
	for _, p := range fx.book.Parcels(fx.orderOf[f], t) {
		if p.Posted() && p.Fulfillment == f {
			out = append(out, p)
		}
	}
	return out
}

// elsewhere are the parcels f's order holds under tracking number t other
// than f's own shipments: a packing slip's shipment, or another
// fulfillment's.
func (fx *facts) elsewhere(f api.ID, t string) []*parcels.Parcel {
	var out []*parcels.Parcel
	for _, p := range fx.book.Parcels(fx.orderOf[f], t) {
		if !p.Posted() || p.Fulfillment != f {
			out = append(out, p)
		}
	}
	return out
}

// resolve names each valid row's fulfillment, settles the rows an earlier
// push posted, and reads the fulfillments of the rest.
func (p *Pusher) resolve(ctx context.Context, lines []Line) (*facts, error) {
	if err := p.fulfillmentsOfOrders(ctx, lines); err != nil {
		return nil, err
	}
	if err := p.remembered(ctx, lines); err != nil {
		return nil, err
	}
	var ids []api.ID
	for i := range lines {
		if l := &lines[i]; l.Pending() && l.Valid {
			ids = append(ids, l.Fulfillment)
		}
	}
	return p.read(ctx, ids)
}

// fulfillmentsOfOrders sets each valid row's fulfillment: its id, or the
// one open fulfillment of its order number (remembered, or found in the
// open list).
func (p *Pusher) fulfillmentsOfOrders(ctx context.Context, lines []Line) error {
	var numbers []string
	for i := range lines {
		l := &lines[i]
		switch {
		case !l.Valid || !l.Pending():
		case l.FulfillmentRef != "":
			if !isID(l.FulfillmentRef) {
				l.Set(engine.Invalid, fmt.Sprintf("fulfillment id %q is not an id (a whole number, as `lading fulfillments pull` writes it); correct the cell", l.FulfillmentRef))
				continue
			}
			l.Fulfillment = api.ID(l.FulfillmentRef)
		default:
			numbers = append(numbers, l.OrderNumber)
		}
	}
	if len(numbers) == 0 {
		return nil
	}
	known, err := p.Opts.State.IDs(ctx, ordersScope(p.Opts.Scope), numbers)
	if err != nil {
		return err
	}
	var open map[string][]api.ID
	for i := range lines {
		l := &lines[i]
		if !l.Valid || !l.Pending() || l.FulfillmentRef != "" {
			continue
		}
		if id := known[l.OrderNumber]; id != "" {
			l.Fulfillment = api.ID(id)
			continue
		}
		if open == nil {
			if open, err = p.openByOrder(ctx); err != nil {
				return err
			}
		}
		switch fs := open[l.OrderNumber]; len(fs) {
		case 0:
			l.Set(engine.Refused, fmt.Sprintf("order %s has no open fulfillment: it is not in the account, not ready to ship, or already shipped; check the order number", l.OrderNumber))
		case 1:
			l.Fulfillment = fs[0]
			known[l.OrderNumber] = string(fs[0])
		default:
			l.Set(engine.Refused, fmt.Sprintf("order %s has %d open fulfillments (%s): name the fulfillment by its id in this row", l.OrderNumber, len(fs), joinIDs(fs)))
		}
	}
	return p.Opts.State.PutIDs(ctx, ordersScope(p.Opts.Scope), known)
}

// openByOrder reads the open list and gives each order number's open
// fulfillments.
func (p *Pusher) openByOrder(ctx context.Context) (map[string][]api.ID, error) {
	out := map[string][]api.ID{}
	opts := &api.ListOptions{PageSize: wire.MaxPageSize}
	for page, err := range p.Opts.Client.Fulfillments.ListPages(ctx, opts) {
		if err != nil {
			return nil, fmt.Errorf("reading the open fulfillments to find the rows' order numbers: %w", err)
		}
		for _, f := range page.Records {
			for _, o := range page.SalesOrdersOf(f.Links) {
				if n := strings.TrimSpace(string(o.LocalID)); n != "" {
					out[n] = append(out[n], f.ID)
				}
			}
		}
	}
	return out, nil
}

// remembered settles the rows whose line and tracking number an earlier
// push posted.
func (p *Pusher) remembered(ctx context.Context, lines []Line) error {
	var keys []string
	for i := range lines {
		if l := &lines[i]; l.Valid && l.Pending() {
			keys = append(keys, rowKey(l))
		}
	}
	if len(keys) == 0 {
		return nil
	}
	got, err := p.Opts.State.IDs(ctx, shippedScope(p.Opts.Scope), keys)
	if err != nil {
		return err
	}
	total := map[string]int64{}
	for i := range lines {
		if l := &lines[i]; l.Valid && l.Pending() {
			total[rowKey(l)] += l.Quantity
		}
	}
	for i := range lines {
		l := &lines[i]
		if !l.Valid || !l.Pending() {
			continue
		}
		// A shipment whose answer was lost, and that the fulfillment did
		// not show, is left to the account's shipments to settle.
		if v, ok := got[rowKey(l)]; ok && v != unclear {
			id, units, _ := strings.Cut(v, "/")
			n, _ := strconv.ParseInt(units, 10, 64)
			settleShipped(l, api.ID(id), n, total[rowKey(l)])
		}
	}
	return nil
}

// unclear is what an older state remembers of a shipment whose answer was
// lost and whose fulfillment did not show whether it was recorded.
const unclear = "unclear"

// read reads the fulfillments ids (by id, open or complete) with their
// line items. Ids the account does not have are left out of the facts.
func (p *Pusher) read(ctx context.Context, ids []api.ID) (*facts, error) {
	fx := &facts{fuls: map[api.ID]*api.Fulfillment{}, lines: map[api.ID][]*api.LineItem{}, orderOf: map[api.ID]api.ID{}}
	for page, err := range api.ByID(ctx, ids, p.Opts.Client.Fulfillments.Get) {
		if err != nil {
			return nil, fmt.Errorf("reading the fulfillments of the rows: %w", err)
		}
		for _, f := range page.Records {
			fx.fuls[f.ID] = f
			fx.lines[f.ID] = page.FulfillmentLines(f)
			fx.orderOf[f.ID] = f.Links.First(wire.SalesOrders)
		}
		fx.book.AddFulfillments(page)
	}
	return fx, nil
}

// isID reports whether s is a record id: digits.
func isID(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// joinIDs lists ids for messages.
func joinIDs(ids []api.ID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = string(id)
	}
	return strings.Join(s, ", ")
}

// sortedKeys are m's keys in order.
func sortedKeys[V any](m map[api.ID]V) []api.ID { return slices.Sorted(maps.Keys(m)) }
