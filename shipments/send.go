package shipments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/pool"
	"lading/state"
)

// kindShip is the kind of a shipments batch in the state's records.
const kindShip = "fulfillments.ship"

// maxRounds bounds how often a wave's shipments that were not applied, or
// got no answer, are sent again within one push.
const maxRounds = 5

// sentShipment is one shipment of a batch as the state records it, so
// that a later push can check it against the fulfillment.
type sentShipment struct {
	Fulfillment api.ID     `json:"fulfillment"`
	Tracking    string     `json:"tracking"`
	Lines       []sentLine `json:"lines"`
}

// sentLine is a line item of a sent shipment and its units.
type sentLine struct {
	Item  api.ID `json:"item"`
	SKU   string `json:"sku"`
	Units int64  `json:"units"`
}

// remember is what the state keeps of a shipment the service recorded
// (id "" when it was found by reading the fulfillment back).
func (s sentShipment) remember(id api.ID, kv map[string]string) {
	for _, l := range s.Lines {
		v := unclear
		if id != unclear {
			v = string(id) + "/" + strconv.FormatInt(l.Units, 10)
		}
		for _, k := range keysOf(s.Fulfillment, l.Item, l.SKU, s.Tracking) {
			kv[k] = v
		}
	}
}

// sender posts a plan's shipments, wave after wave.
type sender struct {
	p   *Pusher
	run *state.Run
	pl  *plan
	ls  []Line

	mu         sync.Mutex
	again      []*shipment // not applied: send again
	unanswered []*batch    // no answer: read back first
}

// batch is one write: its shipments as sent, and its intent.
type batch struct {
	intent int64
	ships  []*shipment
	sent   []sentShipment
}

// sendAll sends the waves in turn.
func (s *sender) sendAll(ctx context.Context) error {
	for _, wave := range s.pl.waves {
		if err := s.sendWave(ctx, wave); err != nil || ctx.Err() != nil {
			return err
		}
	}
	return nil
}

// sendWave sends one wave and, round after round, what was not applied.
func (s *sender) sendWave(ctx context.Context, todo []*shipment) error {
	for round := 1; len(todo) > 0; round++ {
		if round > maxRounds {
			for _, sh := range todo {
				s.settleRows(sh, Failed, fmt.Sprintf("not sent: the service did not take it in %d attempts (it was busy or unreachable); push again later", maxRounds))
			}
			return nil
		}
		batches := slices.Collect(slices.Chunk(todo, s.p.o.BatchSize))
		s.p.o.Progress.Writing(fmt.Sprintf("posting %d shipments", len(todo)), len(todo), len(batches), "shipments")
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

// sendBatch records one batch, posts it and records what became of it.
func (s *sender) sendBatch(ctx context.Context, ships []*shipment) error {
	b := &batch{ships: ships}
	writes := make([]api.ShipmentWrite, len(ships))
	keys := make([]string, len(ships))
	now := s.p.now()
	for j, sh := range ships {
		b.sent = append(b.sent, sentOf(sh))
		writes[j] = writeOf(sh, now)
		keys[j] = string(sh.Fulfillment) + "\x00" + sh.Tracking
	}
	body, err := json.Marshal(b.sent)
	if err != nil {
		return err
	}
	if b.intent, err = s.p.o.State.RecordIntent(ctx, s.run.ID, kindShip, keys, body); err != nil {
		return fmt.Errorf("recording a batch of shipments before sending it: %w", err)
	}
	res, err := s.p.o.Client.Fulfillments.PostShipments(ctx, writes)
	s.p.o.Progress.Sent(len(ships), err == nil && len(res.Failed) == 0)
	return s.settle(ctx, b, res, err)
}

// sentOf is a shipment as the state records it.
func sentOf(sh *shipment) sentShipment {
	out := sentShipment{Fulfillment: sh.Fulfillment, Tracking: sh.Tracking}
	for _, l := range sh.Lines {
		out.Lines = append(out.Lines, sentLine{Item: l.Item, SKU: l.SKU, Units: l.Units})
	}
	return out
}

// writeOf is the shipment's write; shipped_at is now unless the file
// gave it.
func writeOf(sh *shipment, now time.Time) api.ShipmentWrite {
	at := sh.ShippedAt
	if at.IsZero() {
		at = now
	}
	w := api.ShipmentWrite{ShippedAt: at.Format(wire.TimeLayout), TrackingNumber: sh.Tracking, TrackingLink: sh.Link,
		Carrier: sh.Carrier, Cost: sh.Cost, Links: api.ShipmentLinks{Fulfillments: []api.Ref{{ID: sh.Fulfillment}}}}
	for _, l := range sh.Lines {
		w.Links.LineItems = append(w.Links.LineItems, api.LineItemRef{ID: l.Item, Quantity: api.Flex(strconv.FormatInt(l.Units, 10))})
	}
	return w
}

// settle records what became of a batch, in the state and on its rows.
func (s *sender) settle(ctx context.Context, b *batch, res *api.WriteResult, err error) error {
	switch api.Classify(err) {
	case api.Applied:
		return s.settleAnswer(ctx, b, res)
	case api.Rejected:
		for _, sh := range b.ships {
			s.settleRows(sh, Failed, refusedMessage(err))
		}
		note, _ := json.Marshal(map[string]string{"refused": err.Error()})
		if rerr := s.p.o.State.RecordOutcome(ctx, b.intent, state.OutcomeRejected, note); rerr != nil {
			return rerr
		}
		if errors.Is(err, api.ErrAccessDenied) {
			return fmt.Errorf("the push stopped: the service refused access: %w", err)
		}
		return nil
	case api.Retryable:
		s.mu.Lock()
		s.again = append(s.again, b.ships...)
		s.mu.Unlock()
		note, _ := json.Marshal(map[string]string{"not_applied": err.Error()})
		return s.p.o.State.RecordOutcome(ctx, b.intent, state.OutcomeNotApplied, note)
	}
	s.mu.Lock()
	s.unanswered = append(s.unanswered, b)
	s.mu.Unlock()
	return s.p.o.State.RecordOutcome(ctx, b.intent, state.OutcomeUnknown, nil)
}

// settleAnswer records a batch the service answered shipment by shipment:
// the shipments it recorded are remembered with the outcome, in one
// transaction.
func (s *sender) settleAnswer(ctx context.Context, b *batch, res *api.WriteResult) error {
	failed := map[int]api.RecordError{}
	for _, f := range res.Failed {
		failed[f.Index] = f
	}
	kv := map[string]string{}
	n := 0
	for j, sh := range b.ships {
		f, bad := failed[j]
		switch {
		case !bad && res.OK(j):
			b.sent[j].remember(res.IDs[j], kv)
			s.landed(sh, string(res.IDs[j]))
			n++
		case bad && f.Whole:
			s.mu.Lock()
			s.again = append(s.again, sh)
			s.mu.Unlock()
		default:
			s.settleRows(sh, Failed, recordMessage(f))
		}
	}
	outcome := state.OutcomePartial
	switch n {
	case len(b.ships):
		outcome = state.OutcomeApplied
	case 0:
		outcome = state.OutcomeRejected
	}
	results, _ := json.Marshal(map[string]any{"ids": res.IDs, "failed": res.Failed})
	return s.p.o.State.ConfirmIDs(ctx, b.intent, outcome, results, shippedScope(s.p.o.Scope), kv)
}

// landed settles a shipment the service recorded: its rows are posted
// and its units count as shipped.
func (s *sender) landed(sh *shipment, id string) {
	s.mu.Lock()
	for _, l := range sh.Lines {
		s.pl.live[l.Item] += l.Units
	}
	s.mu.Unlock()
	msg := "shipment " + id
	if id == "" {
		msg = "the service gave no answer; reading the fulfillment back showed the shipment recorded"
	}
	s.settleRows(sh, Posted, msg)
}

// settleRows gives every row of sh the action.
func (s *sender) settleRows(sh *shipment, a Action, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, i := range sh.rows {
		s.ls[i].set(a, msg)
	}
}

// stopped settles, after an interruption, the rows of batches that got no
// answer: they may have been recorded, and the next push checks them.
func (s *sender) stopped() {
	for _, b := range s.unanswered {
		for _, sh := range b.ships {
			s.settleRows(sh, Failed, "the service gave no answer before the push was interrupted; the next push checks the fulfillment's shipped units before sending it again")
		}
	}
	for _, sh := range s.again {
		s.settleRows(sh, Failed, "not sent: the push was interrupted; push again to send it")
	}
}

// nextRound settles the batches that got no answer by reading their
// fulfillments back, and returns the shipments to send again.
func (s *sender) nextRound(ctx context.Context) ([]*shipment, error) {
	todo, open := s.again, s.unanswered
	s.again, s.unanswered = nil, nil
	for _, b := range open {
		back, err := s.p.checkBatch(ctx, b.intent, b.sent)
		if err != nil {
			return nil, err
		}
		for j, sh := range b.ships {
			switch back[j] {
			case checkLanded:
				s.landed(sh, "")
			case checkNotLanded:
				todo = append(todo, sh)
			default:
				s.settleRows(sh, Failed, unclearMessage(sh))
			}
		}
	}
	return todo, nil
}

// unclearMessage is a row's message when its shipment's answer was lost
// and the fulfillment holds a shipment of its tracking number with other
// lines.
func unclearMessage(sh *shipment) string {
	return fmt.Sprintf("the service gave no answer, and fulfillment %s holds a shipment with tracking number %s but other lines or units, so this one is not sent again: check the fulfillment in the account", sh.Fulfillment, sh.Tracking)
}

// refusedMessage is a row's message when the service refused its whole
// write.
func refusedMessage(err error) string {
	var ae *api.APIError
	if !errors.As(err, &ae) {
		return fmt.Sprintf("not sent: lading could not send this shipment (%s); this is a fault in lading, please report it", err)
	}
	switch ae.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Sprintf("not sent: the service refused the access token (%s); log in again or give a valid token, then push again", ae.Status())
	}
	return fmt.Sprintf("not sent: the service refused the request (%s)", ae.Status())
}

// recordMessage is a row's message when the service refused its shipment.
func recordMessage(f api.RecordError) string {
	msg := f.Message
	if f.Field != "" {
		msg = f.Field + ": " + msg
	}
	return fmt.Sprintf("the service refused this shipment (%s); correct the row and push again", msg)
}
