package slips

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"lading/api"
	"lading/engine"
	"lading/state"
)

// Scopes of what a push remembers for an account: the ids its keys got,
// and what was last sent and confirmed for each.
func slipScope(account string) string        { return state.KeySlips(account) }
func slipSentScope(account string) string    { return state.KeySlipsSent(account) }
func packageScope(account string) string     { return state.KeyPackages(account) }
func packageSentScope(account string) string { return state.KeyPackagesSent(account) }

// remembered loads what earlier pushes made for the slips' keys and their
// shipments' keys: ids and what was sent.
func (p *Pusher) remembered(ctx context.Context, slips []*slip) error {
	var keys, pkeys []string
	for _, s := range slips {
		keys = append(keys, s.key)
		for _, k := range s.packages {
			pkeys = append(pkeys, k.key)
		}
	}
	ids, memos, err := p.memory(ctx, slipScope(p.Opts.Scope), slipSentScope(p.Opts.Scope), keys)
	if err != nil {
		return err
	}
	pids, pmemos, err := p.memory(ctx, packageScope(p.Opts.Scope), packageSentScope(p.Opts.Scope), pkeys)
	if err != nil {
		return err
	}
	for _, s := range slips {
		s.id, s.memo = ids[s.key], memos[s.key]
		for _, k := range s.packages {
			k.id, k.memo = pids[k.key], pmemos[k.key]
		}
	}
	return nil
}

// memory reads the ids of keys in scope and what was sent for them.
func (p *Pusher) memory(ctx context.Context, scope, sentScope string, keys []string) (map[string]string, map[string]map[string]string, error) {
	ids, err := p.Opts.State.IDs(ctx, scope, keys)
	if err != nil {
		return nil, nil, err
	}
	raw, err := p.Opts.State.IDs(ctx, sentScope, keys)
	if err != nil {
		return nil, nil, err
	}
	memos := make(map[string]map[string]string, len(raw))
	for k, v := range raw {
		var m map[string]string
		if json.Unmarshal([]byte(v), &m) == nil {
			memos[k] = m
		}
	}
	return ids, memos, nil
}

// want is what the file gives for the slip, as it is sent.
func (s *slip) want() map[string]string {
	out := make(map[string]string, len(s.fields)+1)
	for f, g := range s.fields {
		out[f] = g.value
	}
	if len(s.lines) > 0 {
		out[fLines] = linesText(s.lines)
	}
	return out
}

// linesText is lines as the state remembers them: id:units, in order.
func linesText(lines []lineRef) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = l.id + ":" + l.quantity
	}
	return strings.Join(parts, ",")
}

// want is what the file gives for the shipment, its carrier resolved to
// the carrier type's id.
func (k *pkg) want(carrierID string) map[string]string {
	out := make(map[string]string, len(k.fields))
	for f, g := range k.fields {
		out[f] = g.value
	}
	if carrierID != "" {
		out[fCarrier] = carrierID
	}
	return out
}

// plan compares what the file gives for e with what was last sent and
// confirmed for its key: a record without an id is created with every
// field; one with an id is sent the fields that changed, if any.
func plan(e *entity, want map[string]string) {
	e.create = e.id == ""
	if e.create {
		e.sent = want
		return
	}
	e.sent = map[string]string{}
	for f, v := range want {
		if old, ok := e.memo[f]; !ok || old != v {
			e.sent[f] = v
		}
	}
	if len(e.sent) == 0 {
		e.sent = nil
		e.action = engine.Unchanged
	}
}

// changedFields names the fields an edit sends, for messages.
func changedFields(sent map[string]string) string {
	names := slices.Sorted(maps.Keys(sent))
	for i, n := range names {
		names[i] = strings.ReplaceAll(n, "_", " ")
	}
	return strings.Join(names, ", ")
}

// slipRecord is the write record of a slip: its id when it exists, else
// its key as its local_id (by which a later push finds it in the
// account), and the fields sent.
func slipRecord(id, key string, f map[string]string) api.PackingSlipWrite {
	w := api.PackingSlipWrite{ID: api.ID(id)}
	if id == "" {
		w.LocalID = api.String(key)
	}
	if v, ok := f[fDate]; ok {
		w.PackingSlipDate = api.String(v)
	}
	if v, ok := f[fNotes]; ok {
		w.Notes = api.String(v)
	}
	links := &api.PackingSlipLinks{}
	if v, ok := f[fOrder]; ok {
		links.SalesOrders = api.Refs(api.ID(v))
	}
	for _, l := range parseLines(f[fLines]) {
		links.LineItems = append(links.LineItems, api.LineItemRef{ID: api.ID(l.id), Quantity: api.Flex(l.quantity)})
	}
	if links.SalesOrders != nil || links.LineItems != nil {
		w.Links = links
	}
	return w
}

// parseLines reads linesText's form back.
func parseLines(s string) []lineRef {
	if s == "" {
		return nil
	}
	var out []lineRef
	for part := range strings.SplitSeq(s, ",") {
		id, q, _ := strings.Cut(part, ":")
		out = append(out, lineRef{id, q})
	}
	return out
}

// packageRecord is the write record of a shipment: its id when it exists,
// else the slip and order it is linked to, and the fields sent.
func packageRecord(id, slipID, order string, f map[string]string) api.PackageWrite {
	w := api.PackageWrite{ID: api.ID(id)}
	for name, dst := range map[string]**string{fShipDate: &w.ShipDate, fNumber: &w.TrackingNumber, fLink: &w.TrackingLink,
		fCost: &w.Cost, fDelivered: &w.Delivered} {
		if v, ok := f[name]; ok {
			*dst = api.String(v)
		}
	}
	links := &api.PackageLinks{}
	if id == "" {
		links.PackingSlips = api.Refs(api.ID(slipID))
		if order != "" {
			links.SalesOrders = api.Refs(api.ID(order))
		}
	}
	if v, ok := f[fCarrier]; ok {
		links.PackageCarrierTypes = api.Refs(api.ID(v))
	}
	if links.PackingSlips != nil || links.PackageCarrierTypes != nil || links.SalesOrders != nil {
		w.Links = links
	}
	return w
}

// merged is what is remembered as sent once sent is confirmed over memo.
func merged(memo, sent map[string]string) map[string]string {
	out := maps.Clone(memo)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, sent)
	return out
}

// memoText is a memo as the state keeps it.
func memoText(m map[string]string) string {
	b, _ := json.Marshal(m)
	return string(b)
}
