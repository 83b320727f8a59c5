package stock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"lading/api"
	"lading/state"
)

// holdAll takes the locks of pushes to the warehouses whs of the account,
// but those this pusher holds already; it keeps them until Close. A dry
// run takes none.
func (p *Pusher) holdAll(whs []api.ID) error {
	if p.o.DryRun {
		return nil
	}
	for _, wh := range whs {
		if p.locks[wh] != nil {
			continue
		}
		l, err := p.o.State.Hold(state.KeyJob("stock push", p.o.Scope, string(wh)), fmt.Sprintf("a stock push to warehouse %s of this account", wh))
		if err != nil {
			return err
		}
		p.locks[wh] = l
	}
	return nil
}

// warehouses are the warehouses with rows to push, in order.
func (pl *placed) warehouses() []api.ID {
	return slices.Sorted(maps.Keys(pl.groups))
}

// runFingerprint names the runs of pushes to a warehouse of an account:
// one at a time, under the warehouse's lock, and the next push resumes
// one that was killed, to check the batches it left without an answer.
func runFingerprint(scope string, wh api.ID) string {
	sum := sha256.Sum256([]byte(state.KeyJob("stock push", scope, string(wh))))
	return hex.EncodeToString(sum[:])
}

// pushWarehouse pushes the rows (one per SKU) whose warehouse is wh.
func (p *Pusher) pushWarehouse(ctx context.Context, f *facts, wh api.ID, lines []Line, rows []int) (err error) {
	scope := levelScope(p.o.Scope, wh)
	r := &reader{c: p.o.Client, f: f}
	var run *state.Run
	if !p.o.DryRun {
		if run, err = p.startRun(ctx, r, wh, scope); err != nil {
			return err
		}
		defer func() { err = p.endRun(ctx, run, lines, rows, err) }()
	}
	old, err := p.o.State.Stock(ctx, scope)
	if err != nil {
		return err
	}
	todo, repaired := p.plan(f, wh, lines, rows, old)
	if len(repaired) > 0 && !p.o.DryRun {
		// The live levels that match the file are the levels pushed now.
		if err := p.o.State.PutStock(ctx, scope, repaired); err != nil {
			return err
		}
	}
	if p.o.DryRun {
		for _, i := range todo {
			lines[i].set(ToSend, "")
		}
		return nil
	}
	s := &sender{p: p, r: r, run: run, wh: wh, scope: scope, lines: lines, relooked: map[int]bool{}}
	return s.sendAll(ctx, todo)
}

// startRun starts the run of this push to wh, or resumes the one a killed
// push left, first settling the batches it sent without an answer.
func (p *Pusher) startRun(ctx context.Context, r *reader, wh api.ID, scope string) (*state.Run, error) {
	run, resumed, err := p.o.State.StartRun(ctx, runFingerprint(p.o.Scope, wh), "stock push",
		map[string]string{"input": p.o.Input, "warehouse": string(wh)})
	if err != nil {
		return nil, err
	}
	if resumed {
		p.log.Info("an earlier push to this warehouse stopped before it finished; reading back the levels it sent without an answer", "run", run.ID)
		if err := p.settleEarlier(ctx, r, run, scope, wh); err != nil {
			p.o.State.LeaveRun(run.ID)
			return nil, err
		}
	}
	return run, nil
}

// endRun finishes the run, unless the push was interrupted (the next one
// resumes it) or failed.
func (p *Pusher) endRun(ctx context.Context, run *state.Run, lines []Line, rows []int, err error) error {
	if err != nil || ctx.Err() != nil {
		p.o.State.LeaveRun(run.ID)
		return err
	}
	status := state.StatusDone
	for _, i := range rows {
		if lines[i].Action.failed() {
			status = "partial"
			break
		}
	}
	return p.o.State.FinishRun(context.WithoutCancel(ctx), run.ID, status)
}

// settleEarlier reads back the levels of the batches an earlier push left
// without an answer (it was killed, or lost its connection) and remembers
// those the service holds, so that they are not sent again.
func (p *Pusher) settleEarlier(ctx context.Context, r *reader, run *state.Run, scope string, wh api.ID) error {
	open, err := p.o.State.OpenIntents(ctx, run.ID)
	if err != nil || len(open) == 0 {
		return err
	}
	batches := make([][]sentLevel, len(open))
	var ids []api.ID
	for k, it := range open {
		if err := json.Unmarshal(it.Payload, &batches[k]); err != nil {
			return fmt.Errorf("reading back batch %d of an earlier push: %w", it.Seq, err)
		}
		for _, l := range batches[k] {
			ids = append(ids, l.Variant)
		}
	}
	if err := r.check(ctx, ids); err != nil {
		return err
	}
	for k, it := range open {
		held := map[string]float64{}
		for _, l := range batches[k] {
			if units, ok := r.f.liveLevel(l.Variant, wh); ok && units == float64(l.Units) {
				held[string(l.Variant)] = units
			}
		}
		s := &sender{p: p, scope: scope}
		if err := s.confirmChecked(ctx, it.ID, len(batches[k]), held); err != nil {
			return err
		}
	}
	return nil
}

// plan compares each row's level with the one last pushed and confirmed
// (old), or, verifying, with the live one, and returns the rows to send.
// Verifying, repaired are the live levels that match the file but were
// not remembered as such.
func (p *Pusher) plan(f *facts, wh api.ID, lines []Line, rows []int, old map[string]float64) (todo []int, repaired map[string]float64) {
	repaired = map[string]float64{}
	for _, i := range rows {
		l := &lines[i]
		units := float64(l.Units)
		if p.o.Verify {
			live, ok := f.liveLevel(l.VariantID, wh)
			l.Old, l.HasOld = live, ok
			if ok && live == units && !p.o.Full {
				l.set(Unchanged, "the live level is already this")
				if o, had := old[string(l.VariantID)]; !had || o != units {
					repaired[string(l.VariantID)] = units
				}
				continue
			}
		} else {
			o, ok := old[string(l.VariantID)]
			l.Old, l.HasOld = o, ok
			if ok && o == units && !p.o.Full {
				l.set(Unchanged, "")
				continue
			}
		}
		todo = append(todo, i)
	}
	return todo, repaired
}
