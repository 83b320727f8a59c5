package slips

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"lading/api"
	"lading/api/wire"
)

// sinceMargin widens the window of slips read back: the service's clock
// and lading's may differ, and a listing filters by day.
const sinceMargin = 24 * time.Hour

// findSlips looks for the slips recs created among those the account
// created since then that no key of the state names: one listing, by id,
// of the slips created from the day before since. A slip matches a record
// when its sales order, date, notes and lines are those sent; records
// alike claim the matching slips in the order they were sent, which is
// the order of their ids.
func (p *Pusher) findSlips(ctx context.Context, recs []sentRecord, since time.Time) (map[string]string, error) {
	found := map[string]string{}
	if len(recs) == 0 {
		return found, nil
	}
	known, err := p.knownIDs(ctx, slipScope(p.Opts.Scope))
	if err != nil {
		return nil, err
	}
	opts := &api.ListOptions{Filter: api.And(api.Where("created_at", ">=", since.Add(-sinceMargin).UTC())), Sort: []api.Sort{{Attr: "id"}}}
	var cands []*api.PackingSlip
	for page, err := range p.Opts.Client.PackingSlips.ListPages(ctx, opts) {
		if err != nil {
			return nil, fmt.Errorf("looking in the account for packing slips sent without an answer: %w", err)
		}
		for _, sl := range page.Records {
			if !sl.Deleted.Bool() && !known[string(sl.ID)] {
				cands = append(cands, sl)
			}
		}
	}
	slices.SortFunc(cands, func(a, b *api.PackingSlip) int { return idCompare(a.ID, b.ID) })
	claimed := map[api.ID]bool{}
	for _, r := range recs {
		want := sentSlipSignature(r)
		for _, c := range cands {
			if !claimed[c.ID] && readSlipSignature(c) == want {
				claimed[c.ID], found[r.Key] = true, string(c.ID)
				break
			}
		}
	}
	return found, nil
}

// knownIDs is the set of ids the state remembers in scope.
func (p *Pusher) knownIDs(ctx context.Context, scope string) (map[string]bool, error) {
	all, err := p.Opts.State.AllIDs(ctx, scope)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(all))
	for _, id := range all {
		out[id] = true
	}
	return out, nil
}

// idCompare orders ids as numbers.
func idCompare(a, b api.ID) int { return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b)) }

// slipSignature is what tells a slip lading created from another: its
// key (its local_id), order, date, notes and lines.
type slipSignature struct{ key, order, date, notes, lines string }

func sentSlipSignature(r sentRecord) slipSignature {
	f := r.Fields
	return slipSignature{key: r.Key, order: f[fOrder], date: instant(f[fDate]), notes: f[fNotes], lines: f[fLines]}
}

func readSlipSignature(s *api.PackingSlip) slipSignature {
	var lines []lineRef
	for _, l := range s.Links.Of(wire.LineItems) {
		lines = append(lines, lineRef{string(l.ID), string(l.Quantity)})
	}
	return slipSignature{key: string(s.LocalID), order: string(s.Links.First(wire.SalesOrders)), date: instant(string(s.PackingSlipDate)),
		notes: string(s.Notes), lines: linesText(lines)}
}

// instantLayouts are the forms of the date-times the service writes and
// lading sends.
var instantLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05-0700", "2006-01-02 15:04:05", "2006-01-02"}

// instant is a date-time in one form, to compare: UTC, ISO 8601; s as
// given when it is no date-time.
func instant(s string) string {
	s = strings.TrimSpace(s)
	for _, l := range instantLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC().Format(time.RFC3339)
		}
	}
	return s
}

// findPackages looks for the shipments recs created among the shipments
// of their slips that no key of the state names: one read of the slips by
// id, 250 a read, which carries their shipments. A shipment matches a
// record when the fields sent are its own; records alike claim the
// matching shipments in id order.
func (p *Pusher) findPackages(ctx context.Context, recs []sentRecord, _ time.Time) (map[string]string, error) {
	found := map[string]string{}
	if len(recs) == 0 {
		return found, nil
	}
	known, err := p.knownIDs(ctx, packageScope(p.Opts.Scope))
	if err != nil {
		return nil, err
	}
	var slipIDs []api.ID
	for _, r := range recs {
		slipIDs = append(slipIDs, api.ID(r.Slip))
	}
	slices.Sort(slipIDs)
	slipIDs = slices.Compact(slipIDs)
	cands := map[string][]*api.Package{}
	for chunk := range slices.Chunk(slipIDs, wire.MaxPageSize) {
		page, err := p.Opts.Client.PackingSlips.Get(ctx, chunk...)
		if err != nil {
			return nil, fmt.Errorf("looking in the account for shipments sent without an answer: %w", err)
		}
		for _, sl := range page.Records {
			for _, k := range page.PackagesOf(sl) {
				if !known[string(k.ID)] {
					cands[string(sl.ID)] = append(cands[string(sl.ID)], k)
				}
			}
		}
	}
	claimed := map[api.ID]bool{}
	for _, r := range recs {
		list := cands[r.Slip]
		slices.SortFunc(list, func(a, b *api.Package) int { return idCompare(a.ID, b.ID) })
		for _, k := range list {
			if !claimed[k.ID] && packageMatches(k, r.Fields) {
				claimed[k.ID], found[r.Key] = true, string(k.ID)
				break
			}
		}
	}
	return found, nil
}

// packageMatches reports whether shipment k holds every field sent.
func packageMatches(k *api.Package, sent map[string]string) bool {
	for f, v := range sent {
		var ok bool
		switch f {
		case fShipDate:
			ok = instant(string(k.ShipDate)) == instant(v)
		case fNumber:
			ok = string(k.TrackingNumber) == v
		case fLink:
			ok = string(k.TrackingLink) == v
		case fCost:
			ok = sameAmount(string(k.Cost), v)
		case fDelivered:
			ok = k.Delivered.Bool() == (v == "1")
		case fCarrier:
			ok = string(k.Links.First(wire.PackageCarrierTypes)) == v
		}
		if !ok {
			return false
		}
	}
	return true
}

// sameAmount compares two decimal amounts ("8.9" and "8.90"); empty
// equals empty only.
func sameAmount(a, b string) bool {
	if a == "" || b == "" {
		return a == b
	}
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	return errA == nil && errB == nil && x == y
}
