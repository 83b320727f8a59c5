package shipments

import (
	"context"
	"fmt"
	"slices"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/parcels"
	"lading/state"
)

// check reads back the fulfillments of batches that got no answer, and
// tells for each shipment whether the service recorded it: it did when a
// shipment of its fulfillment under its tracking number holds its every
// line; it did not when there is none; and it is unclear (not sent again)
// when those there hold other lines.
func (p *Pusher) check(ctx context.Context, open []engine.Open[sentShipment]) ([][]engine.Verdict, error) {
	var ids []api.ID
	for _, b := range open {
		for _, s := range b.Recs {
			ids = append(ids, s.Fulfillment)
		}
	}
	fx, err := p.read(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([][]engine.Verdict, len(open))
	for k, b := range open {
		for _, s := range b.Recs {
			out[k] = append(out[k], checkOne(s, fx.posted(s.Fulfillment, s.Tracking)))
		}
	}
	return out, nil
}

// checkOne tells whether a sent shipment is among the shipments posted
// against its fulfillment under its tracking number.
func checkOne(s sentShipment, posted []*parcels.Parcel) engine.Verdict {
	for _, p := range posted {
		units, all := p.Units(), true
		for _, l := range s.Lines {
			all = all && units[l.Item] == l.Units
		}
		if all {
			return engine.Verdict{Kind: engine.Took, ID: p.Shipment.ID}
		}
	}
	if len(posted) == 0 {
		return engine.Verdict{Kind: engine.Again}
	}
	return engine.Verdict{Kind: engine.Fail, Msg: unclearMessage(s)}
}

// completed checks, for the fulfillments every line of which is now
// shipped, that they left the open list: it returns those that did and
// those still listed.
func (p *Pusher) completed(ctx context.Context, pl *plan, fx *facts) (done, open []api.ID, err error) {
	var full []api.ID
	for _, f := range sortedKeys(fx.fuls) {
		if fx.fuls[f].Complete.Bool() {
			continue // complete before this push
		}
		all := len(fx.lines[f]) > 0
		for _, li := range fx.lines[f] {
			all = all && pl.live[li.ID] >= pl.ordered[li.ID]
		}
		if all {
			full = append(full, f)
		}
	}
	done, open = []api.ID{}, []api.ID{}
	listed := map[api.ID]bool{}
	for chunk := range slices.Chunk(full, wire.MaxPageSize) {
		conds := make([]api.Cond, len(chunk))
		for i, id := range chunk {
			conds[i] = api.Where("id", "", id)
		}
		opts := &api.ListOptions{PageSize: wire.MaxPageSize, Filter: api.Or(conds...)}
		for f, err := range p.Opts.Client.Fulfillments.List(ctx, opts) {
			if err != nil {
				return nil, nil, fmt.Errorf("checking that the shipped fulfillments left the open list: %w", err)
			}
			listed[f.ID] = true
		}
	}
	for _, f := range full {
		if listed[f] {
			open = append(open, f)
		} else {
			done = append(done, f)
		}
	}
	return done, open, nil
}

// setStatuses sets the statuses the file gives that differ from the
// fulfillments' own (or, for fulfillments not read, from those an earlier
// push set), and notes the outcome on the rows that give them.
func (p *Pusher) setStatuses(ctx context.Context, pl *plan, fx *facts, lines []Line) (set int, err error) {
	scope := state.KeyFulfillmentStatuses(p.Opts.Scope)
	var fs []api.ID
	for f := range pl.statuses {
		fs = append(fs, f)
	}
	slices.Sort(fs)
	keys := make([]string, len(fs))
	for i, f := range fs {
		keys[i] = string(f)
	}
	last, err := p.Opts.State.IDs(ctx, scope, keys)
	if err != nil {
		return 0, err
	}
	var todo []api.FulfillmentStatus
	for _, f := range fs {
		want := pl.statuses[f].status
		if ful := fx.fuls[f]; (ful != nil && string(ful.Status) == want) || (ful == nil && last[string(f)] == want) {
			continue
		}
		todo = append(todo, api.FulfillmentStatus{ID: f, Status: want})
	}
	if len(todo) == 0 || p.Opts.DryRun {
		return len(todo), nil
	}
	done := map[string]string{}
	for chunk := range slices.Chunk(todo, wire.MaxWriteRecords) {
		res, err := p.Opts.Client.Fulfillments.SetStatuses(ctx, chunk)
		if err != nil {
			return set, fmt.Errorf("setting the status of %d fulfillments: %w", len(chunk), err)
		}
		for j, st := range chunk {
			row := pl.statuses[st.ID].row
			if !res.OK(j) {
				noteRow(lines, row, fmt.Sprintf("the service refused status %q for fulfillment %s", st.Status, st.ID))
				continue
			}
			done[string(st.ID)] = st.Status
			noteRow(lines, row, fmt.Sprintf("fulfillment %s's status set to %q", st.ID, st.Status))
			set++
		}
	}
	return set, p.Opts.State.PutIDs(ctx, scope, done)
}

// noteRow adds a note to the message of the line of row.
func noteRow(lines []Line, row int, note string) {
	for i := range lines {
		if l := &lines[i]; l.Row == row {
			if l.Msg != "" {
				note = l.Msg + "; " + note
			}
			l.Msg = note
			return
		}
	}
}
