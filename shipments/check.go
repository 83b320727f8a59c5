package shipments

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"lading/api"
	"lading/api/wire"
	"lading/parcels"
	"lading/plural"
	"lading/state"
)

// checked is what reading a fulfillment back shows of a shipment whose
// answer was lost.
type checked int

const (
	checkLanded    checked = iota // a shipment of its tracking number holds its lines
	checkNotLanded                // no shipment has its tracking number: not recorded
	checkUnclear                  // one has, with other lines
)

// checkBatch reads back the fulfillments of a batch that got no answer,
// tells for each shipment whether the service recorded it (a shipment of
// its fulfillment under its tracking number), and records the batch's
// outcome with the shipments found (in one transaction).
func (p *Pusher) checkBatch(ctx context.Context, intent int64, sent []sentShipment) ([]checked, error) {
	ids := make([]api.ID, len(sent))
	for i, s := range sent {
		ids[i] = s.Fulfillment
	}
	fx, err := p.read(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]checked, len(sent))
	kv := map[string]string{}
	n := 0
	for i, s := range sent {
		var id api.ID
		out[i], id = checkOne(s, fx.posted(s.Fulfillment, s.Tracking))
		if out[i] == checkLanded {
			s.remember(id, kv)
			n++
		}
	}
	outcome := state.OutcomePartial
	switch n {
	case len(sent):
		outcome = state.OutcomeApplied
	case 0:
		outcome = state.OutcomeNotApplied
	}
	note, _ := json.Marshal(map[string]any{"read_back": "fulfillments read from the service", "recorded": n, "of": len(sent)})
	return out, p.o.State.ConfirmIDs(ctx, intent, outcome, note, shippedScope(p.o.Scope), kv)
}

// checkOne tells whether a sent shipment is among the shipments posted
// against its fulfillment under its tracking number, and gives its id: it
// landed when one holds its every line, it did not when there is none, and
// it is unclear when those there hold other lines.
func checkOne(s sentShipment, posted []*parcels.Parcel) (checked, api.ID) {
	for _, p := range posted {
		units, all := p.Units(), true
		for _, l := range s.Lines {
			all = all && units[l.Item] == l.Units
		}
		if all {
			return checkLanded, p.Shipment.ID
		}
	}
	if len(posted) == 0 {
		return checkNotLanded, ""
	}
	return checkUnclear, ""
}

// resume checks the batches a killed push left without an answer: what
// they shipped is remembered before anything of the file is planned.
func (p *Pusher) resume(ctx context.Context, run *state.Run) error {
	open, err := p.o.State.OpenIntents(ctx, run.ID)
	if err != nil {
		return err
	}
	for _, in := range open {
		var sent []sentShipment
		if err := json.Unmarshal(in.Payload, &sent); err != nil || in.Kind != kindShip {
			return fmt.Errorf("the state holds a batch of shipments (%d) lading cannot read back (%v); it was written by another version of lading: check the fulfillments in the account", in.ID, err)
		}
		if len(sent) == 0 {
			continue
		}
		p.o.Progress.Say("checking %s an earlier push sent without an answer", plural.Count(len(sent), "shipment"))
		if _, err := p.checkBatch(ctx, in.ID, sent); err != nil {
			return err
		}
	}
	return nil
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
		for f, err := range p.o.Client.Fulfillments.List(ctx, opts) {
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
	scope := state.KeyFulfillmentStatuses(p.o.Scope)
	var fs []api.ID
	for f := range pl.statuses {
		fs = append(fs, f)
	}
	slices.Sort(fs)
	keys := make([]string, len(fs))
	for i, f := range fs {
		keys[i] = string(f)
	}
	last, err := p.o.State.IDs(ctx, scope, keys)
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
	if len(todo) == 0 || p.o.DryRun {
		return len(todo), nil
	}
	done := map[string]string{}
	for chunk := range slices.Chunk(todo, wire.MaxWriteRecords) {
		res, err := p.o.Client.Fulfillments.SetStatuses(ctx, chunk)
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
	return set, p.o.State.PutIDs(ctx, scope, done)
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
