package stock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"

	"lading/api"
	"lading/engine"
	"lading/state"
)

// holdAll takes the locks of pushes to the warehouses whs of the account,
// but those this pusher holds already; it keeps them until Close. A dry
// run takes none.
func (p *Pusher) holdAll(whs []api.ID) error {
	if p.Opts.DryRun {
		return nil
	}
	for _, wh := range whs {
		if err := p.Locks.Hold(state.KeyJob("stock push", p.Opts.Scope, string(wh)), fmt.Sprintf("a stock push to warehouse %s of this account", wh)); err != nil {
			return err
		}
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
func (p *Pusher) pushWarehouse(ctx context.Context, f *facts, wh api.ID, lines []Line, g toPush) (err error) {
	rows := g.rows
	s := &sender{p: p, r: &reader{c: p.Opts.Client, f: f}, wh: wh, scope: levelScope(p.Opts.Scope, wh), lines: lines, relooked: map[int]bool{}}
	var run *state.Run
	if !p.Opts.DryRun {
		run, _, err = engine.StartRun(ctx, p.Opts.State, runFingerprint(p.Opts.Scope, wh), "stock push",
			map[string]string{"input": p.Opts.Input, "warehouse": string(wh)},
			func(run *state.Run) error { return s.engine(run).Resume(ctx) })
		if err != nil {
			return err
		}
		defer func() { err = engine.EndRun(ctx, p.Opts.State, run, rowCounts(lines, rows), err) }()
	}
	old, err := p.rememberedLevels(ctx, s.scope, lines, g)
	if err != nil {
		return err
	}
	todo, repaired := p.plan(f, wh, lines, rows, old)
	if len(repaired) > 0 && !p.Opts.DryRun {
		// The live levels that match the file are the levels pushed now.
		if err := p.Opts.State.PutStock(ctx, s.scope, repaired); err != nil {
			return err
		}
	}
	if p.Opts.DryRun {
		for _, i := range todo {
			lines[i].Set(ToSend, "")
		}
		return nil
	}
	if err := s.engine(run).Send(ctx, todo); err != nil {
		return err
	}
	// The next push reads the levels confirmed now at once.
	return p.Opts.State.PackStock(ctx, s.scope)
}

// rowCounts counts the rows of lines by status.
func rowCounts(lines []Line, rows []int) engine.Counts {
	c := engine.Counts{}
	for _, i := range rows {
		c[lines[i].Action]++
	}
	return c
}

// level is a level remembered for a row, if any.
type level struct {
	units float64
	ok    bool
}

// rememberedLevels are the levels last pushed and confirmed in scope for
// the variants of rows, in the order of rows. The state's levels stream
// by and only those of rows are kept.
func (p *Pusher) rememberedLevels(ctx context.Context, scope string, lines []Line, g toPush) ([]level, error) {
	old := make([]level, len(g.rows))
	m := g.matcher(func(i int) string { return string(lines[i].VariantID) })
	err := p.Opts.State.EachStock(ctx, scope, func(k []byte, units float64) {
		m.each(k, func(j int) { old[j] = level{units, true} })
	})
	return old, err
}

// plan compares each row's level with the one last pushed and confirmed
// (old, in the order of rows), or, verifying, with the live one, and
// returns the rows to send. A row none of whose levels is remembered (a
// new state) is compared with the live level when this push's reads
// brought it (the look-up of its SKU): the account is the truth.
// repaired are the live levels that match the file but were not
// remembered as such.
func (p *Pusher) plan(f *facts, wh api.ID, lines []Line, rows []int, old []level) (todo []int, repaired map[string]float64) {
	repaired = map[string]float64{}
	for j, i := range rows {
		l := &lines[i]
		units := float64(l.Units)
		var live float64
		var read bool
		if p.Opts.Verify || !old[j].ok {
			live, read = f.liveLevel(l.VariantID, wh)
		}
		if p.Opts.Verify || read {
			l.Old, l.HasOld = live, read
			if read && live == units && !p.Opts.Full {
				l.Set(engine.Unchanged, "the live level is already this")
				if o := old[j]; !o.ok || o.units != units {
					repaired[string(l.VariantID)] = units
				}
				continue
			}
		} else {
			l.Old, l.HasOld = old[j].units, old[j].ok
			if old[j].ok && old[j].units == units && !p.Opts.Full {
				l.Set(engine.Unchanged, "")
				continue
			}
		}
		todo = append(todo, i)
	}
	return todo, repaired
}
