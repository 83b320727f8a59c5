package undo

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/state"
)

// kindLevels is the kind of an undo's batch of levels in the state.
const kindLevels = "undo.set_available"

// fieldAvailable is the field of a level in a run's changes.
const fieldAvailable = "available"

// sentLevel is a level an undo sets, as the state records it.
type sentLevel struct {
	Variant   api.ID `json:"variant"`
	Warehouse api.ID `json:"warehouse"`
	Units     string `json:"units"`
}

// readLevels reads the live levels of the lines' variants, 250 a read.
func readLevels(ctx context.Context, c *api.Client, lines []Line) error {
	byVariant := map[api.ID][]*Line{}
	for i := range lines {
		if l := &lines[i]; l.Pending() && l.Resource == state.ResourceLevel && l.RecordID != "" {
			byVariant[api.ID(l.RecordID)] = append(byVariant[api.ID(l.RecordID)], l)
		}
	}
	ids := slices.Sorted(func(yield func(api.ID) bool) {
		for id := range byVariant {
			if !yield(id) {
				return
			}
		}
	})
	for chunk := range slices.Chunk(ids, wire.MaxPageSize) {
		p, err := c.Variants.Get(ctx, chunk...)
		if err != nil {
			return fmt.Errorf("reading the live levels of %d variants: %w", len(chunk), err)
		}
		for _, v := range p.Records {
			units := p.Available(v)
			for _, l := range byVariant[v.ID] {
				l.Now = map[string]string{fieldAvailable: number(units[api.ID(l.ParentID)])}
				l.Read, l.Gone = true, v.Deleted.Bool()
			}
		}
	}
	for _, ls := range byVariant {
		for _, l := range ls {
			if !l.Read {
				l.Read, l.Gone = true, true // not in the answer: deleted
			}
		}
	}
	return nil
}

// number is units as a run's changes write them.
func number(units float64) string { return strconv.FormatFloat(units, 'f', -1, 64) }

// levelSender sets levels back on the engine, within the undo's run.
func levelSender(o Options, run *state.Run) *engine.Sender[*Line, sentLevel] {
	return &engine.Sender[*Line, sentLevel]{
		State: o.State, Run: run, Kind: kindLevels, Words: words,
		Size: wire.MaxWriteRecords, Parallel: o.Concurrency, Progress: o.Progress,
		Record: func(l *Line) (string, sentLevel) {
			return l.Key, sentLevel{Variant: api.ID(l.RecordID), Warehouse: api.ID(l.ParentID), Units: l.Restore[fieldAvailable]}
		},
		Change: func(l *Line) *state.Change {
			return &state.Change{Op: state.OpUpdate, Resource: state.ResourceLevel, Key: l.Key, RecordID: l.RecordID, ParentID: l.ParentID,
				Before: map[string]string{fieldAvailable: l.Now[fieldAvailable]}, After: map[string]string{fieldAvailable: l.Restore[fieldAvailable]}}
		},
		Write: func(ctx context.Context, b []*Line) (*api.WriteResult, error) {
			levels := make([]api.StockLevel, len(b))
			for j, l := range b {
				units, err := strconv.ParseFloat(l.Restore[fieldAvailable], 64)
				if err != nil {
					return nil, fmt.Errorf("undo: the level before of %s: %w: %w", l.Key, api.ErrInvalid, err)
				}
				levels[j] = api.StockLevel{VariantID: api.ID(l.RecordID), WarehouseID: api.ID(l.ParentID), Units: units}
			}
			return o.Client.Stock.SetAvailable(ctx, levels)
		},
		Check: func(ctx context.Context, open []engine.Open[sentLevel]) ([][]engine.Verdict, error) {
			return checkLevels(ctx, o.Client, open)
		},
		Keep:   func(recs []sentLevel, vs []engine.Verdict) state.Settlement { return keepLevels(o.Scope, recs, vs) },
		Took:   func(l *Line, _ api.ID) { l.Set(Restored, l.restoreText()) },
		Settle: func(l *Line, s engine.Status, msg string) { l.Set(s, msg) },
	}
}

// sendLevels sets back the levels the plan restores.
func sendLevels(ctx context.Context, o Options, run *state.Run, lines []Line) error {
	var todo []*Line
	for i := range lines {
		if l := &lines[i]; l.Pending() && l.Resource == state.ResourceLevel && l.Undo != "" {
			todo = append(todo, l)
		}
	}
	return levelSender(o, run).Send(ctx, todo)
}

// levelRequests is how many writes the plan's levels take.
func levelRequests(lines []Line) int {
	n := 0
	for i := range lines {
		if l := &lines[i]; l.Resource == state.ResourceLevel && l.Undo != "" {
			n++
		}
	}
	return (n + wire.MaxWriteRecords - 1) / wire.MaxWriteRecords
}

// resume checks what an earlier attempt of the undo sent without an
// answer: levels and catalog records.
func resume(ctx context.Context, o Options, run *state.Run) error {
	if err := levelSender(o, run).Resume(ctx); err != nil {
		return err
	}
	return resumeCatalog(ctx, o, run)
}

// checkLevels reads back the levels of batches that got no answer: a
// level the account holds was taken; the others go again.
func checkLevels(ctx context.Context, c *api.Client, open []engine.Open[sentLevel]) ([][]engine.Verdict, error) {
	var ids []api.ID
	for _, b := range open {
		for _, r := range b.Recs {
			ids = append(ids, r.Variant)
		}
	}
	live := map[api.ID]map[api.ID]float64{}
	for chunk := range slices.Chunk(ids, wire.MaxPageSize) {
		p, err := c.Variants.Get(ctx, chunk...)
		if err != nil {
			return nil, fmt.Errorf("reading back the levels an undo sent: %w", err)
		}
		for _, v := range p.Records {
			live[v.ID] = p.Available(v)
		}
	}
	out := make([][]engine.Verdict, len(open))
	for k, b := range open {
		for _, r := range b.Recs {
			v := engine.Verdict{Kind: engine.Again}
			if units, ok := live[r.Variant]; ok && number(units[r.Warehouse]) == r.Units {
				v = engine.Verdict{Kind: engine.Took}
			}
			out[k] = append(out[k], v)
		}
	}
	return out, nil
}

// keepLevels is what the state keeps of a batch: the levels the account
// now holds, as the levels lading last set in each warehouse (a stock
// push of the same file after the undo sends them again).
func keepLevels(scope string, recs []sentLevel, vs []engine.Verdict) state.Settlement {
	byWarehouse := map[api.ID]map[string]float64{}
	for j, r := range recs {
		units, err := strconv.ParseFloat(r.Units, 64)
		if vs[j].Kind != engine.Took || err != nil {
			continue
		}
		if byWarehouse[r.Warehouse] == nil {
			byWarehouse[r.Warehouse] = map[string]float64{}
		}
		byWarehouse[r.Warehouse][string(r.Variant)] = units
	}
	var st state.Settlement
	for wh, levels := range byWarehouse {
		st.Levels = append(st.Levels, state.Levels{Scope: state.KeyLevels(scope, string(wh)), Put: levels})
	}
	return st
}
