package stock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"lading/api"
	"lading/pool"
	"lading/state"
)

// kindSetAvailable is the kind of a stock batch in the state's records.
const kindSetAvailable = "stock.set_available"

// maxRounds bounds how often levels that were not applied, or got no
// answer, are sent again within one push.
const maxRounds = 5

// sentLevel is one level of a batch as the state records it, so that a
// later push can check it against the live level.
type sentLevel struct {
	Variant api.ID `json:"variant"`
	Units   int64  `json:"units"`
}

// openBatch is a batch whose answer did not come: its levels are read back
// before any of them is sent again.
type openBatch struct {
	intent int64
	rows   []int
}

// sender sends one warehouse's levels in rounds.
type sender struct {
	p     *Pusher
	r     *reader
	run   *state.Run
	wh    api.ID
	scope string
	lines []Line

	mu         sync.Mutex
	again      []int       // rows to send in the next round
	unanswered []openBatch // batches with no answer
	relook     []int       // rows whose variant the service no longer has
	relooked   map[int]bool
}

// sendAll sends the rows todo and, round after round, what was not applied.
func (s *sender) sendAll(ctx context.Context, todo []int) error {
	for round := 1; len(todo) > 0; round++ {
		if round > maxRounds {
			for _, i := range todo {
				s.lines[i].set(Failed, fmt.Sprintf("not sent: the service did not take it in %d attempts (it was busy or unreachable); push again later", maxRounds))
			}
			return nil
		}
		batches := slices.Collect(slices.Chunk(todo, s.p.o.BatchSize))
		s.p.o.Progress.Writing(fmt.Sprintf("pushing %d levels", len(todo)), len(todo), len(batches), "levels")
		if err := pool.Run(ctx, batches, s.p.o.Concurrency, s.sendBatch, nil); err != nil {
			return err
		}
		if ctx.Err() != nil {
			s.stopped()
			return nil
		}
		var err error
		if todo, err = s.nextRound(ctx); err != nil {
			return err
		}
	}
	return nil
}

// stopped settles, after an interruption, the rows of batches that got no
// answer: they may have been applied, and the next push checks them.
func (s *sender) stopped() {
	for _, b := range s.unanswered {
		for _, i := range b.rows {
			s.lines[i].set(Failed, "the service gave no answer before the push was interrupted; the next push reads this level back before sending it again")
		}
	}
}

// sendBatch records one batch, sends it and records what became of it.
func (s *sender) sendBatch(ctx context.Context, rows []int) error {
	levels := make([]api.StockLevel, len(rows))
	sent := make([]sentLevel, len(rows))
	keys := make([]string, len(rows))
	for j, i := range rows {
		l := &s.lines[i]
		levels[j] = api.StockLevel{VariantID: l.VariantID, WarehouseID: s.wh, Units: float64(l.Units)}
		sent[j] = sentLevel{Variant: l.VariantID, Units: l.Units}
		keys[j] = string(l.VariantID)
	}
	body, err := json.Marshal(sent)
	if err != nil {
		return err
	}
	intent, err := s.p.o.State.RecordIntent(ctx, s.run.ID, kindSetAvailable, keys, body)
	if err != nil {
		return fmt.Errorf("recording a batch of levels before sending it: %w", err)
	}
	res, err := s.p.o.Client.Stock.SetAvailable(ctx, levels)
	s.p.o.Progress.Sent(len(rows), err == nil && len(res.Failed) == 0)
	return s.settle(ctx, rows, intent, res, err)
}

// settle records what became of a batch, in the state and on its rows.
func (s *sender) settle(ctx context.Context, rows []int, intent int64, res *api.WriteResult, err error) error {
	switch api.Classify(err) {
	case api.Applied:
		return s.settleAnswer(ctx, rows, intent, res)
	case api.Rejected:
		msg := refusedMessage(err)
		for _, i := range rows {
			s.lines[i].set(Failed, msg)
		}
		note, _ := json.Marshal(map[string]string{"refused": err.Error()})
		if rerr := s.p.o.State.RecordOutcome(ctx, intent, state.OutcomeRejected, note); rerr != nil {
			return rerr
		}
		if errors.Is(err, api.ErrAccessDenied) {
			return fmt.Errorf("the push stopped: the service refused access: %w", err)
		}
		return nil
	case api.Retryable:
		s.mu.Lock()
		s.again = append(s.again, rows...)
		s.mu.Unlock()
		note, _ := json.Marshal(map[string]string{"not_applied": err.Error()})
		return s.p.o.State.RecordOutcome(ctx, intent, state.OutcomeNotApplied, note)
	}
	s.mu.Lock()
	s.unanswered = append(s.unanswered, openBatch{intent: intent, rows: rows})
	s.mu.Unlock()
	return s.p.o.State.RecordOutcome(ctx, intent, state.OutcomeUnknown, nil)
}

// settleAnswer records a batch the service answered level by level: the
// levels it took are remembered with the outcome, in one transaction.
func (s *sender) settleAnswer(ctx context.Context, rows []int, intent int64, res *api.WriteResult) error {
	failed := make(map[int]api.RecordError, len(res.Failed))
	for _, f := range res.Failed {
		failed[f.Index] = f
	}
	confirmed := make(map[string]float64, len(rows))
	s.mu.Lock()
	for j, i := range rows {
		l := &s.lines[i]
		f, bad := failed[j]
		switch {
		case !bad:
			confirmed[string(l.VariantID)] = float64(l.Units)
			l.set(Sent, "")
		case f.Whole:
			s.again = append(s.again, i)
		case f.NoSuchRecord() && !s.relooked[i]:
			s.relook = append(s.relook, i)
		default:
			l.set(Failed, levelRefusedMessage(f))
		}
	}
	s.mu.Unlock()
	outcome := state.OutcomePartial
	switch len(confirmed) {
	case len(rows):
		outcome = state.OutcomeApplied
	case 0:
		outcome = state.OutcomeRejected
	}
	results, _ := json.Marshal(map[string]any{"failed": res.Failed})
	return s.p.o.State.ConfirmStock(ctx, intent, outcome, results, s.scope, confirmed)
}

// nextRound settles the batches that got no answer by reading their
// levels back, looks up again the SKUs whose variants are gone, and
// returns the rows to send again.
func (s *sender) nextRound(ctx context.Context) ([]int, error) {
	todo := s.again
	s.again = nil
	open := s.unanswered
	s.unanswered = nil
	back, err := s.checkBatches(ctx, open)
	if err != nil {
		return nil, err
	}
	todo = append(todo, back...)
	relook := s.relook
	s.relook = nil
	found, err := s.lookAgain(ctx, relook)
	if err != nil {
		return nil, err
	}
	todo = append(todo, found...)
	slices.Sort(todo)
	return todo, nil
}

// checkBatches reads back the levels of batches that got no answer:
// those the service holds are confirmed (and remembered) with their
// batch; the rows of the others are returned, to send again.
func (s *sender) checkBatches(ctx context.Context, open []openBatch) ([]int, error) {
	if len(open) == 0 {
		return nil, nil
	}
	var ids []api.ID
	for _, b := range open {
		for _, i := range b.rows {
			ids = append(ids, s.lines[i].VariantID)
		}
	}
	if err := s.r.check(ctx, ids); err != nil {
		return nil, err
	}
	var again []int
	for _, b := range open {
		held := map[string]float64{}
		for _, i := range b.rows {
			l := &s.lines[i]
			if units, ok := s.r.f.liveLevel(l.VariantID, s.wh); ok && units == float64(l.Units) {
				held[string(l.VariantID)] = units
				l.set(Sent, "")
			} else {
				again = append(again, i)
			}
		}
		if err := s.confirmChecked(ctx, b.intent, len(b.rows), held); err != nil {
			return nil, err
		}
	}
	return again, nil
}

// confirmChecked records what reading back a batch of n levels showed:
// held are the levels the service holds.
func (s *sender) confirmChecked(ctx context.Context, intent int64, n int, held map[string]float64) error {
	outcome := state.OutcomePartial
	switch len(held) {
	case n:
		outcome = state.OutcomeApplied
	case 0:
		outcome = state.OutcomeNotApplied
	}
	note, _ := json.Marshal(map[string]any{"read_back": "levels read from the service", "held": len(held), "of": n})
	return s.p.o.State.ConfirmStock(ctx, intent, outcome, note, s.scope, held)
}

// lookAgain looks up, once, the SKUs of rows whose variant id the service
// no longer has: a SKU found under a new id is sent again with it; one not
// found is unknown now. The state forgets the stale ids and their levels.
func (s *sender) lookAgain(ctx context.Context, rows []int) ([]int, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	skus := make([]string, len(rows))
	stale := make([]string, len(rows))
	for j, i := range rows {
		s.relooked[i] = true
		skus[j], stale[j] = s.lines[i].SKU, string(s.lines[i].VariantID)
		delete(s.r.f.ids, s.lines[i].SKU)
	}
	if err := s.p.o.State.DeleteIDs(ctx, state.KeySKUs(s.p.o.Scope), skus); err != nil {
		return nil, err
	}
	if err := s.p.o.State.ForgetStock(ctx, s.scope, stale); err != nil {
		return nil, err
	}
	for p, err := range s.p.o.Client.Variants.BySKUPages(ctx, skus) {
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
			l.set(Unknown, fmt.Sprintf("SKU %q is no longer in the account (its variant was deleted); a stock push never creates variants: import the product again if it should exist", l.SKU))
			continue
		}
		l.VariantID = id
		fresh[l.SKU] = string(id)
		found = append(found, i)
	}
	return found, s.p.o.State.PutIDs(ctx, state.KeySKUs(s.p.o.Scope), fresh)
}
