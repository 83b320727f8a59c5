package slips

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"lading/api"
	"lading/pool"
	"lading/state"
)

// maxRounds bounds how often records that were not applied, or got no
// answer, are sent again within one push.
const maxRounds = 5

// sentRecord is one record of a batch as the state records it, so that a
// later push can look for it in the account.
type sentRecord struct {
	Key    string            `json:"key"`
	ID     string            `json:"id,omitempty"`   // the record edited; "" for a create
	Slip   string            `json:"slip,omitempty"` // a shipment's slip
	Order  string            `json:"order,omitempty"`
	Fields map[string]string `json:"fields"`
}

func recordOf(e *entity) sentRecord {
	return sentRecord{Key: e.key, ID: e.id, Slip: e.slipID, Order: e.order, Fields: e.sent}
}

// kind is what differs between sending slips and sending shipments.
type kind struct {
	intent             string // the kind of the state's intents
	what               string // "slip" or "shipment", for messages
	idScope, sentScope string
	write              func(ctx context.Context, recs []sentRecord) (*api.WriteResult, error)
	// find looks in the account for the records recs created, written
	// since then; it returns their ids by key.
	find func(ctx context.Context, recs []sentRecord, since time.Time) (map[string]string, error)
}

func (p *Pusher) slipKind() *kind {
	return &kind{intent: "slips.write", what: "slip", idScope: slipScope(p.o.Scope), sentScope: slipSentScope(p.o.Scope),
		write: func(ctx context.Context, recs []sentRecord) (*api.WriteResult, error) {
			ws := make([]api.PackingSlipWrite, len(recs))
			for i, r := range recs {
				ws[i] = slipRecord(r.ID, r.Key, r.Fields)
			}
			return p.o.Client.PackingSlips.Write(ctx, ws)
		},
		find: p.findSlips}
}

func (p *Pusher) packageKind() *kind {
	return &kind{intent: "packages.write", what: "shipment", idScope: packageScope(p.o.Scope), sentScope: packageSentScope(p.o.Scope),
		write: func(ctx context.Context, recs []sentRecord) (*api.WriteResult, error) {
			ws := make([]api.PackageWrite, len(recs))
			for i, r := range recs {
				ws[i] = packageRecord(r.ID, r.Slip, r.Order, r.Fields)
			}
			return p.o.Client.Packages.Write(ctx, ws)
		},
		find: p.findPackages}
}

// openBatch is a batch whose answer did not come: what it created is
// looked for before any of it is sent again.
type openBatch struct {
	intent int64
	at     time.Time
	recs   []*entity
}

// sender sends records in rounds.
type sender struct {
	p     *Pusher
	run   *state.Run
	lines []Line

	mu         sync.Mutex
	again      []*entity   // to send in the next round
	unanswered []openBatch // batches with no answer
}

// sendSlips sends the slips to create or change.
func (s *sender) sendSlips(ctx context.Context, slips []*slip) error {
	var todo []*entity
	for _, sl := range slips {
		if sl.action == "" && sl.sent != nil {
			todo = append(todo, &sl.entity)
		}
	}
	return s.sendAll(ctx, s.p.slipKind(), todo)
}

// sendPackages sends the shipments to create or change, of the slips
// that exist now.
func (s *sender) sendPackages(ctx context.Context, slips []*slip) error {
	var todo []*entity
	for _, sl := range slips {
		if sl.id == "" || sl.action.failed() {
			continue
		}
		for _, k := range sl.packages {
			if k.action == "" && k.sent != nil {
				k.slipID, k.order = sl.id, sl.fields[fOrder].value
				todo = append(todo, &k.entity)
			}
		}
	}
	return s.sendAll(ctx, s.p.packageKind(), todo)
}

// sendAll sends todo and, round after round, what was not applied.
func (s *sender) sendAll(ctx context.Context, k *kind, todo []*entity) error {
	for round := 1; len(todo) > 0; round++ {
		if round > maxRounds {
			for _, e := range todo {
				e.fail(fmt.Sprintf("not sent: the service did not take this %s in %d attempts (it was busy or unreachable); push again later", k.what, maxRounds))
			}
			return nil
		}
		batches := slices.Collect(slices.Chunk(todo, s.p.o.BatchSize))
		s.p.o.Progress.Writing(fmt.Sprintf("sending %d %ss", len(todo), k.what), len(todo), len(batches), k.what+"s")
		send := func(ctx context.Context, b []*entity) error { return s.sendBatch(ctx, k, b) }
		if err := pool.Run(ctx, batches, s.p.o.Concurrency, send, nil); err != nil {
			return err
		}
		if ctx.Err() != nil {
			s.stopped(k)
			return nil
		}
		var err error
		if todo, err = s.nextRound(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

func (e *entity) fail(msg string) { e.action, e.msg = Failed, msg }

// done settles a record the service took: what it sent is what the
// state remembers for its key from now on.
func (e *entity) done() {
	e.action = Updated
	if e.create {
		e.action = Created
	}
	e.memo = merged(e.memo, e.sent)
}

// stopped settles, after an interruption, the records of batches that got
// no answer: they may have been applied, and the next push looks for them.
func (s *sender) stopped(k *kind) {
	for _, b := range s.unanswered {
		for _, e := range b.recs {
			e.fail(fmt.Sprintf("the service gave no answer before the push was interrupted; the next push looks for this %s in the account before sending it again", k.what))
		}
	}
	s.unanswered = nil
}

// sendBatch records one batch, sends it and records what became of it.
func (s *sender) sendBatch(ctx context.Context, k *kind, b []*entity) error {
	recs := make([]sentRecord, len(b))
	keys := make([]string, len(b))
	for j, e := range b {
		recs[j], keys[j] = recordOf(e), e.key
	}
	body, err := json.Marshal(recs)
	if err != nil {
		return err
	}
	intent, err := s.p.o.State.RecordIntent(ctx, s.run.ID, k.intent, keys, body)
	if err != nil {
		return fmt.Errorf("recording a batch of %ss before sending it: %w", k.what, err)
	}
	at := time.Now()
	res, err := k.write(ctx, recs)
	s.p.o.Progress.Sent(len(b), err == nil && len(res.Failed) == 0)
	switch api.Classify(err) {
	case api.Applied:
		return s.settleAnswer(ctx, k, b, intent, res)
	case api.Rejected:
		msg := refusedMessage(err, k.what)
		for _, e := range b {
			e.fail(msg)
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
		s.again = append(s.again, b...)
		s.mu.Unlock()
		note, _ := json.Marshal(map[string]string{"not_applied": err.Error()})
		return s.p.o.State.RecordOutcome(ctx, intent, state.OutcomeNotApplied, note)
	}
	s.mu.Lock()
	s.unanswered = append(s.unanswered, openBatch{intent: intent, at: at, recs: b})
	s.mu.Unlock()
	return s.p.o.State.RecordOutcome(ctx, intent, state.OutcomeUnknown, nil)
}

// settleAnswer records a batch the service answered record by record: the
// ids it made and what it took are remembered with the outcome.
func (s *sender) settleAnswer(ctx context.Context, k *kind, b []*entity, intent int64, res *api.WriteResult) error {
	failed := make(map[int]api.RecordError, len(res.Failed))
	for _, f := range res.Failed {
		failed[f.Index] = f
	}
	var gone []string
	took := 0
	for j, e := range b {
		f, bad := failed[j]
		switch {
		case !bad && res.OK(j):
			if e.create {
				e.id = string(res.IDs[j])
			}
			e.done()
			took++
		case !bad:
			e.fail(fmt.Sprintf("the service answered without an id for this %s; push again (lading looks for it first)", k.what))
		case f.Whole:
			s.mu.Lock()
			s.again = append(s.again, e)
			s.mu.Unlock()
		case f.NoSuchRecord() && !e.create:
			gone = append(gone, e.key)
			e.fail(fmt.Sprintf("%s %s is no longer in the account (it was deleted there); lading forgot it: push again to create it anew, or remove its rows", k.what, e.id))
		default:
			e.fail(recordRefusedMessage(k.what, f))
		}
	}
	if err := s.forget(ctx, k, gone); err != nil {
		return err
	}
	outcome := state.OutcomePartial
	switch took {
	case len(b):
		outcome = state.OutcomeApplied
	case 0:
		outcome = state.OutcomeRejected
	}
	results, _ := json.Marshal(map[string]any{"failed": res.Failed})
	return s.confirm(ctx, k, intent, outcome, results, b)
}

// confirm records a batch's outcome with the ids its creates got, then
// what was sent for the records it took (Created, Updated).
func (s *sender) confirm(ctx context.Context, k *kind, intent int64, o state.Outcome, results []byte, b []*entity) error {
	ids, memos := map[string]string{}, map[string]string{}
	for _, e := range b {
		if e.action != Created && e.action != Updated {
			continue
		}
		if e.create {
			ids[e.key] = e.id
		}
		memos[e.key] = memoText(e.memo)
	}
	if err := s.p.o.State.ConfirmIDs(ctx, intent, o, results, k.idScope, ids); err != nil {
		return err
	}
	return s.p.o.State.PutIDs(ctx, k.sentScope, memos)
}

// forget drops the ids, and what was sent, of keys whose records the
// service no longer has.
func (s *sender) forget(ctx context.Context, k *kind, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	if err := s.p.o.State.DeleteIDs(ctx, k.idScope, keys); err != nil {
		return err
	}
	return s.p.o.State.DeleteIDs(ctx, k.sentScope, keys)
}

// nextRound looks in the account for what the batches without an answer
// created, and returns the records to send again: those not applied, the
// creates not found, and the edits of unanswered batches (sending an edit
// again changes nothing twice).
func (s *sender) nextRound(ctx context.Context, k *kind) ([]*entity, error) {
	todo := s.again
	s.again = nil
	open := s.unanswered
	s.unanswered = nil
	if len(open) == 0 {
		return todo, nil
	}
	var creates []sentRecord
	since := open[0].at
	for _, b := range open {
		if b.at.Before(since) {
			since = b.at
		}
		for _, e := range b.recs {
			if e.create {
				creates = append(creates, recordOf(e))
			}
		}
	}
	found, err := k.find(ctx, creates, since)
	if err != nil {
		return nil, err
	}
	for _, b := range open {
		again, err := s.settleFound(ctx, k, b, found)
		if err != nil {
			return nil, err
		}
		todo = append(todo, again...)
	}
	return todo, nil
}

// settleFound records what looking for a batch's records found, and
// returns those to send again.
func (s *sender) settleFound(ctx context.Context, k *kind, b openBatch, found map[string]string) ([]*entity, error) {
	var again []*entity
	n := 0
	for _, e := range b.recs {
		if id := found[e.key]; e.create && id != "" {
			e.id = id
			e.done()
			n++
		} else {
			again = append(again, e)
		}
	}
	note, _ := json.Marshal(map[string]any{"looked_up": "the records created were looked for in the account", "found": n, "sent_again": len(again)})
	return again, s.confirm(ctx, k, b.intent, foundOutcome(n, len(again)), note, b.recs)
}

// foundOutcome is a batch's outcome once looked for: n records found,
// again to send again.
func foundOutcome(n, again int) state.Outcome {
	switch {
	case again == 0:
		return state.OutcomeApplied
	case n == 0:
		return state.OutcomeNotApplied
	}
	return state.OutcomePartial
}
