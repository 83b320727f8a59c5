package stock

import (
	"context"
	"fmt"
	"strconv"

	"lading/api"
	"lading/engine"
	"lading/state"
)

// kindSetAvailable is the kind of a stock batch in the state's records.
const kindSetAvailable = "stock.set_available"

// FieldAvailable is the field of a level change in a run's history: the
// available units of a variant in a warehouse.
const FieldAvailable = "available"

// sentLevel is one level of a batch as the state records it, so that a
// later push can check it against the live level.
type sentLevel struct {
	Variant api.ID `json:"variant"`
	Units   int64  `json:"units"`
}

// sender sends one warehouse's levels (rows, by index into lines) on the
// engine.
type sender struct {
	p     *Pusher
	r     *reader
	wh    api.ID
	scope string
	lines []Line
	// relooked are the rows whose SKU was looked up again once already.
	relooked map[int]bool
}

// engine is the engine's sender of this warehouse's levels within run.
func (s *sender) engine(run *state.Run) *engine.Sender[int, sentLevel] {
	o := s.p.Opts
	return &engine.Sender[int, sentLevel]{
		State: o.State, Run: run, Kind: kindSetAvailable, Words: words,
		Size: o.BatchSize, Parallel: o.Concurrency, Progress: o.Progress,
		Record: func(i int) (string, sentLevel) {
			l := &s.lines[i]
			return string(l.VariantID), sentLevel{Variant: l.VariantID, Units: l.Units}
		},
		Change: func(i int) *state.Change {
			l := &s.lines[i]
			c := &state.Change{Op: state.OpUpdate, Resource: state.ResourceLevel, Key: l.SKU, RecordID: string(l.VariantID),
				ParentID: string(s.wh), After: map[string]string{FieldAvailable: strconv.FormatInt(l.Units, 10)}}
			if before, ok := s.before(l); ok {
				c.Before = map[string]string{FieldAvailable: strconv.FormatFloat(before, 'f', -1, 64)}
			}
			return c
		},
		Write:   s.write,
		Refused: s.refused,
		Check:   s.check,
		Keep:    s.keep,
		Took:    func(i int, _ api.ID) { s.lines[i].Set(Sent, "") },
		Settle:  func(i int, st engine.Status, msg string) { s.lines[i].Set(st, msg) },
		Relook:  s.lookAgain,
	}
}

// before is a row's level before the push, for the run's history: the
// live level when the push read it, else the level last pushed and
// confirmed; ok is false when neither is known.
func (s *sender) before(l *Line) (float64, bool) {
	if units, ok := s.r.f.liveLevel(l.VariantID, s.wh); ok {
		return units, true
	}
	return l.Old, l.HasOld
}

// write sends a batch of levels.
func (s *sender) write(ctx context.Context, rows []int) (*api.WriteResult, error) {
	levels := make([]api.StockLevel, len(rows))
	for j, i := range rows {
		l := &s.lines[i]
		levels[j] = api.StockLevel{VariantID: l.VariantID, WarehouseID: s.wh, Units: float64(l.Units)}
	}
	return s.p.Opts.Client.Stock.SetAvailable(ctx, levels)
}

// refused decides on a level the service refused: a variant the service
// no longer has is looked up again by its SKU, once.
func (s *sender) refused(i int, f api.RecordError) engine.Verdict {
	if f.NoSuchRecord() && !s.relooked[i] {
		return engine.Verdict{Kind: engine.Later}
	}
	return engine.Verdict{Kind: engine.Fail, Msg: words.RecordRefused(f)}
}

// keep is what the state keeps of a batch: the levels the service now
// holds.
func (s *sender) keep(sent []sentLevel, vs []engine.Verdict) state.Settlement {
	held := map[string]float64{}
	for j, l := range sent {
		if vs[j].Kind == engine.Took {
			held[string(l.Variant)] = float64(l.Units)
		}
	}
	return state.Settlement{Levels: []state.Levels{{Scope: s.scope, Put: held}}}
}

// check reads back the levels of batches that got no answer: a level the
// service holds was taken; the others go again.
func (s *sender) check(ctx context.Context, open []engine.Open[sentLevel]) ([][]engine.Verdict, error) {
	var ids []api.ID
	for _, b := range open {
		for _, l := range b.Recs {
			ids = append(ids, l.Variant)
		}
	}
	if err := s.r.check(ctx, ids); err != nil {
		return nil, err
	}
	out := make([][]engine.Verdict, len(open))
	for k, b := range open {
		out[k] = make([]engine.Verdict, len(b.Recs))
		for j, l := range b.Recs {
			out[k][j] = engine.Verdict{Kind: engine.Again}
			if units, ok := s.r.f.liveLevel(l.Variant, s.wh); ok && units == float64(l.Units) {
				out[k][j] = engine.Verdict{Kind: engine.Took}
			}
		}
	}
	return out, nil
}

// lookAgain looks up, once, the SKUs of rows whose variant id the service
// no longer has: a SKU found under a new id is sent again with it; one not
// found is unknown now. The state forgets the stale ids and their levels.
func (s *sender) lookAgain(ctx context.Context, rows []int) ([]int, error) {
	skus := make([]string, len(rows))
	stale := make([]string, len(rows))
	for j, i := range rows {
		s.relooked[i] = true
		skus[j], stale[j] = s.lines[i].SKU, string(s.lines[i].VariantID)
		delete(s.r.f.ids, s.lines[i].SKU)
	}
	if err := s.p.Opts.State.DeleteIDs(ctx, state.KeySKUs(s.p.Opts.Scope), skus); err != nil {
		return nil, err
	}
	if err := s.p.Opts.State.ForgetStock(ctx, s.scope, stale); err != nil {
		return nil, err
	}
	for p, err := range s.p.Opts.Client.Variants.BySKUPages(ctx, skus) {
		if err != nil {
			return nil, err
		}
		s.r.f.digest(p)
	}
	var found []int
	fresh := map[string]string{}
	for _, i := range rows {
		l := &s.lines[i]
		id := s.r.f.ids[l.SKU]
		if id == "" {
			l.Set(engine.Unknown, fmt.Sprintf("SKU %q is no longer in the account (its variant was deleted); a stock push never creates variants: import the product again if it should exist", l.SKU))
			continue
		}
		l.VariantID = id
		fresh[l.SKU] = string(id)
		found = append(found, i)
	}
	return found, s.p.Opts.State.PutIDs(ctx, state.KeySKUs(s.p.Opts.Scope), fresh)
}
