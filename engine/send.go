package engine

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
	"lading/progress"
	"lading/state"
)

// MaxRounds bounds how often records that were not applied, or got no
// answer, are sent again within one run.
const MaxRounds = 5

// Verdict is what became of one record of a batch: from the service's
// answer, or from reading the account when the answer was lost.
type Verdict struct {
	Kind VerdictKind
	// ID is the id the service gave a record it took ("" when it gave
	// none, or the record was found by reading the account).
	ID api.ID
	// Msg is what the record's rows say when it failed.
	Msg string
	// Forget, on a record the service refused, says the record it named
	// is no longer in the account: the state forgets what it knew of it.
	Forget bool
	// why is, for Again, why the record was not written.
	why Setback
}

// VerdictKind says what is done next with a record.
type VerdictKind uint8

// Verdict kinds.
const (
	// Took: the account holds the record.
	Took VerdictKind = iota + 1
	// Again: the account does not hold it; it goes in the next round.
	Again
	// Fail: it is not sent again; its rows fail, saying Msg.
	Fail
	// Later: the job looks it up again (Relook) before the next round.
	Later
)

// Open is a batch whose answer was lost, as the state recorded it: the
// account is read for its records before any of them is sent again.
type Open[P any] struct {
	Intent int64
	At     time.Time // when it was sent
	Recs   []P
}

// Sender sends a job's records R in batches, in rounds: each batch is
// recorded in the state (each record as P) before it is sent and its
// answer after; records not applied go again in the next round, and the
// records of batches that got no answer are first checked against the
// account (Check). A run sends at most MaxRounds rounds.
//
// The callbacks that settle rows (Record, Took, Settle, Refused) are called
// one at a time; Write, Check, Keep and Relook may run concurrently with
// each other but not with those.
type Sender[R, P any] struct {
	State *state.DB
	Run   *state.Run
	// Kind names the batches in the state's intents, e.g. "stock.set_available".
	Kind     string
	Words    Words
	Size     int // records per batch
	Parallel int // batches in flight at once
	Progress *progress.Progress

	// Record is r as the state records it, and its key.
	Record func(r R) (key string, p P)
	// Change is what r changes in the account, for the run's history and
	// undo (its Seq is set here); nil, or a nil Change, records none.
	Change func(r R) *state.Change
	// Write sends a batch.
	Write func(ctx context.Context, batch []R) (*api.WriteResult, error)
	// Refused gives the verdict on a record the service refused on its
	// own; nil fails it saying what the service said.
	Refused func(r R, f api.RecordError) Verdict
	// Check reads the account for the records of batches whose answer
	// was lost, and gives a verdict on each: Took, Again or Fail.
	Check func(ctx context.Context, open []Open[P]) ([][]Verdict, error)
	// Keep is what the state keeps of a batch's records once they have
	// their verdicts (ids, memos, levels, files), written in the one
	// transaction that records the batch's outcome and which records the
	// account took (state.Settle); nil keeps nothing.
	Keep func(recs []P, vs []Verdict) state.Settlement
	// Took settles a record the account holds.
	Took func(r R, id api.ID)
	// Settle gives a record's rows a status and message.
	Settle func(r R, s Status, msg string)
	// Relook looks up again the records a verdict set aside (Later), and
	// returns those to send again; nil when no verdict says Later.
	Relook func(ctx context.Context, rs []R) ([]R, error)

	mu         sync.Mutex
	again      []retry[R]
	later      []R
	unanswered []unanswered[R, P]
	notStarted []R
}

// retry is a record to send again in the next round, and why it was not
// written in this one.
type retry[R any] struct {
	r   R
	why Setback
}

type unanswered[R, P any] struct {
	Open[P]
	batch []R
	why   Setback
}

// Send sends todo and, round after round, what was not applied. Its error
// is fatal (the state could not be written, the service refused the
// token); an interruption is not: the rows say what became of them.
func (s *Sender[R, P]) Send(ctx context.Context, todo []R) error {
	first := make([]retry[R], len(todo))
	for i, r := range todo {
		first[i].r = r
	}
	err := s.rounds(ctx, first)
	msg := s.Words.Interrupted()
	if err != nil {
		msg = s.Words.Stopped()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.notStarted {
		s.Settle(r, Skipped, msg)
	}
	s.notStarted = nil
	return err
}

func (s *Sender[R, P]) rounds(ctx context.Context, todo []retry[R]) error {
	for round := 1; len(todo) > 0; round++ {
		if round > MaxRounds {
			s.mu.Lock()
			for _, t := range todo {
				s.Settle(t.r, Failed, s.Words.GaveUp(t.why, MaxRounds))
			}
			s.mu.Unlock()
			return nil
		}
		rs := make([]R, len(todo))
		for i, t := range todo {
			rs[i] = t.r
		}
		batches := slices.Collect(slices.Chunk(rs, max(1, s.Size)))
		s.Progress.Writing("sending "+s.Words.Records(len(todo)), len(todo), len(batches), s.Words.Record)
		skipped := func(b []R) {
			s.mu.Lock()
			s.notStarted = append(s.notStarted, b...)
			s.mu.Unlock()
		}
		if err := pool.Run(ctx, batches, s.Parallel, s.sendBatch, skipped); err != nil {
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

func (s *Sender[R, P]) settleAll(rs []R, st Status, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range rs {
		s.Settle(r, st, msg)
	}
}

// Posted is a batch that was recorded and sent: its intent in the state,
// when it was sent, and the answer.
type Posted struct {
	Intent int64
	At     time.Time
	Result *api.WriteResult
	Err    error
	// Class says what the answer means: Applied (the service answered
	// record by record, in Result), Rejected (refused as a whole: it
	// would be again), Retryable (nothing applied) or Unknown (no answer:
	// look in the account before sending any of it again).
	Class api.Outcome
}

// Post records a batch of run in the state (kind, the records' keys, and
// body, the records as the state keeps them, in JSON) before it is sent,
// sends it with write, and records what became of it (refused or not
// applied: its changes not written, with the outcome), but for an answer
// record by record (Applied): the caller records that, with what it keeps
// of the answer (ids, levels). The error is the state's: the answer is in
// Posted. A caller that keeps the records it sends gives body as write
// sends it (api.Encode), so that they are encoded once.
func Post(ctx context.Context, st *state.DB, run *state.Run, kind string, keys []string, body []byte,
	changes []state.Change, write func(context.Context) (*api.WriteResult, error)) (*Posted, error) {
	intent, err := st.RecordIntent(ctx, run.ID, kind, keys, body, changes...)
	if err != nil {
		return nil, fmt.Errorf("recording a batch before sending it: %w", err)
	}
	p := &Posted{Intent: intent, At: time.Now()}
	p.Result, p.Err = write(ctx)
	p.Class = api.Classify(p.Err)
	switch p.Class {
	case api.Applied:
		return p, nil
	case api.Rejected:
		note, _ := json.Marshal(map[string]string{"refused": p.Err.Error()})
		return p, st.Settle(ctx, intent, state.Settlement{Outcome: state.OutcomeRejected, Results: note, Took: noneTaken(changes)})
	case api.Retryable:
		note, _ := json.Marshal(map[string]string{"not_applied": p.Err.Error()})
		return p, st.Settle(ctx, intent, state.Settlement{Outcome: state.OutcomeNotApplied, Results: note, Took: noneTaken(changes)})
	}
	return p, st.RecordOutcome(ctx, intent, state.OutcomeUnknown, nil)
}

// noneTaken is what a batch of changes the account took none of took (an
// empty map: each change not written), or nil for a batch that recorded
// no changes.
func noneTaken(changes []state.Change) map[int]string {
	if len(changes) == 0 {
		return nil
	}
	return map[int]string{}
}

// sendBatch records one batch, sends it and settles what became of it.
func (s *Sender[R, P]) sendBatch(ctx context.Context, batch []R) error {
	keys, recs := make([]string, len(batch)), make([]P, len(batch))
	var changes []state.Change
	s.mu.Lock()
	for j, r := range batch {
		keys[j], recs[j] = s.Record(r)
		if s.Change == nil {
			continue
		}
		if c := s.Change(r); c != nil {
			c.Seq = j
			changes = append(changes, *c)
		}
	}
	s.mu.Unlock()
	// What the state keeps of the records (P) is not what Write sends, so
	// it is encoded on its own, as Resume reads it back.
	body, err := json.Marshal(recs)
	if err != nil {
		return err
	}
	p, err := Post(ctx, s.State, s.Run, s.Kind, keys, body, changes, func(ctx context.Context) (*api.WriteResult, error) {
		return s.Write(ctx, batch)
	})
	if err != nil {
		return err
	}
	s.Progress.Sent(len(batch), p.Err == nil && len(p.Result.Failed) == 0)
	switch p.Class {
	case api.Applied:
		return s.answered(ctx, p.Intent, batch, recs, p.Result)
	case api.Rejected:
		s.settleAll(batch, Failed, s.Words.Refused(p.Err))
		if errors.Is(p.Err, api.ErrAccessDenied) {
			return &StoppedError{Job: s.Words.Job, Err: p.Err}
		}
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Class == api.Retryable {
		s.retry(batch, SetbackOf(p.Err))
		return nil
	}
	s.unanswered = append(s.unanswered, unanswered[R, P]{Open[P]{p.Intent, p.At, recs}, batch, SetbackOf(p.Err)})
	return nil
}

// retry sends rs again in the next round, why not now. The caller holds
// s.mu.
func (s *Sender[R, P]) retry(rs []R, why Setback) {
	for _, r := range rs {
		s.again = append(s.again, retry[R]{r, why})
	}
}

// answered settles a batch the service answered record by record.
func (s *Sender[R, P]) answered(ctx context.Context, intent int64, batch []R, recs []P, res *api.WriteResult) error {
	failed := make(map[int]api.RecordError, len(res.Failed))
	for _, f := range res.Failed {
		failed[f.Index] = f
	}
	vs := make([]Verdict, len(batch))
	s.mu.Lock()
	for j, r := range batch {
		f, bad := failed[j]
		switch {
		case !bad:
			vs[j] = Verdict{Kind: Took}
			if j < len(res.IDs) {
				vs[j].ID = res.IDs[j]
			}
		case f.Whole:
			vs[j] = Verdict{Kind: Again, why: Setback{WithOthers, f.Message}}
		case s.Refused != nil:
			vs[j] = s.Refused(r, f)
		default:
			vs[j] = Verdict{Kind: Fail, Msg: s.Words.RecordRefused(f)}
		}
		s.apply(r, vs[j])
	}
	s.mu.Unlock()
	note, _ := json.Marshal(map[string]any{"ids": res.IDs, "failed": res.Failed})
	return s.confirm(ctx, intent, answeredOutcome(vs), note, recs, vs)
}

// confirm settles a batch in the state, in one transaction: its outcome,
// which of its records the account took (with the ids of those it
// created) for the run's history, and what the job keeps of them (Keep).
func (s *Sender[R, P]) confirm(ctx context.Context, intent int64, o state.Outcome, note []byte, recs []P, vs []Verdict) error {
	var st state.Settlement
	if s.Keep != nil {
		st = s.Keep(recs, vs)
	}
	st.Outcome, st.Results = o, note
	if s.Change != nil {
		st.Took = map[int]string{}
		for j, v := range vs {
			if v.Kind == Took {
				st.Took[j] = string(v.ID)
			}
		}
	}
	return s.State.Settle(ctx, intent, st)
}

// apply carries out a verdict on r. The caller holds s.mu.
func (s *Sender[R, P]) apply(r R, v Verdict) {
	switch v.Kind {
	case Took:
		s.Took(r, v.ID)
	case Again:
		s.again = append(s.again, retry[R]{r, v.why})
	case Later:
		s.later = append(s.later, r)
	default:
		s.Settle(r, Failed, v.Msg)
	}
}

// StoppedError is a run that stopped because the service refused access.
type StoppedError struct {
	Job string
	Err error
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("the %s stopped: the service refused access: %v", e.Job, e.Err)
}

func (e *StoppedError) Unwrap() error { return e.Err }

// stopped settles, after an interruption, what the round left: records
// of batches without an answer fail (they may have been applied, and the
// next run checks them); records waiting for another round are skipped.
func (s *Sender[R, P]) stopped() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.unanswered {
		for _, r := range u.batch {
			s.Settle(r, Failed, s.Words.NoAnswer())
		}
	}
	for _, t := range s.again {
		s.Settle(t.r, Skipped, s.Words.Interrupted())
	}
	for _, r := range s.later {
		s.Settle(r, Skipped, s.Words.Interrupted())
	}
	s.unanswered, s.again, s.later = nil, nil, nil
}

// nextRound checks the batches that got no answer against the account,
// looks up again what was set aside, and returns the records to send
// again.
func (s *Sender[R, P]) nextRound(ctx context.Context) ([]retry[R], error) {
	todo, later, open := s.again, s.later, s.unanswered
	s.again, s.later, s.unanswered = nil, nil, nil
	if len(open) > 0 {
		opens := make([]Open[P], len(open))
		for k, u := range open {
			opens[k] = u.Open
		}
		vss, err := s.check(ctx, opens)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		for k, u := range open {
			for j, r := range u.batch {
				v := vss[k][j]
				if v.Kind == Again {
					v.why = u.why
				}
				s.apply(r, v)
			}
		}
		todo = append(todo, s.again...)
		s.again = nil
		s.mu.Unlock()
	}
	if len(later) > 0 {
		found, err := s.Relook(ctx, later)
		if err != nil {
			return nil, err
		}
		for _, r := range found {
			todo = append(todo, retry[R]{r: r})
		}
	}
	return todo, nil
}

// check reads the account for open batches and records their outcomes.
func (s *Sender[R, P]) check(ctx context.Context, open []Open[P]) ([][]Verdict, error) {
	vss, err := s.Check(ctx, open)
	if err != nil {
		return nil, err
	}
	if len(vss) != len(open) {
		return nil, fmt.Errorf("engine: %d verdicts for %d batches read back", len(vss), len(open))
	}
	for k, o := range open {
		vs := vss[k]
		if len(vs) != len(o.Recs) {
			return nil, fmt.Errorf("engine: %d verdicts for %d records read back", len(vs), len(o.Recs))
		}
		took := countTook(vs)
		note, _ := json.Marshal(map[string]any{"read_back": "the records were looked for in the account", "found": took, "of": len(vs)})
		if err := s.confirm(ctx, o.Intent, checkedOutcome(took, len(vs)), note, o.Recs, vs); err != nil {
			return nil, err
		}
	}
	return vss, nil
}

// Resume checks against the account the batches of Kind that an earlier
// attempt of the run left without an answer (it was killed, or lost its
// connection), and records what the account showed, before anything of
// the run is planned again.
func (s *Sender[R, P]) Resume(ctx context.Context) error {
	intents, err := s.State.OpenIntents(ctx, s.Run.ID)
	if err != nil {
		return err
	}
	var open []Open[P]
	for _, it := range intents {
		if it.Kind != s.Kind {
			continue
		}
		var recs []P
		if err := json.Unmarshal(it.Payload, &recs); err != nil {
			return fmt.Errorf("the state holds a batch of %ss (%d) that lading cannot read back (%v); it was written by another version of lading: check the account by hand, then delete the state file", s.Words.Record, it.ID, err)
		}
		open = append(open, Open[P]{Intent: it.ID, At: it.CreatedAt, Recs: recs})
	}
	if len(open) == 0 {
		return nil
	}
	n := 0
	for _, o := range open {
		n += len(o.Recs)
	}
	s.Progress.Say("checking %s an earlier %s sent without an answer", s.Words.Records(n), s.Words.Job)
	_, err = s.check(ctx, open)
	return err
}

func countTook(vs []Verdict) int {
	n := 0
	for _, v := range vs {
		if v.Kind == Took {
			n++
		}
	}
	return n
}

// answeredOutcome is a batch's outcome from its answer.
func answeredOutcome(vs []Verdict) state.Outcome {
	switch countTook(vs) {
	case len(vs):
		return state.OutcomeApplied
	case 0:
		return state.OutcomeRejected
	}
	return state.OutcomePartial
}

// checkedOutcome is a batch's outcome once its records were looked for:
// took of n found.
func checkedOutcome(took, n int) state.Outcome {
	switch took {
	case n:
		return state.OutcomeApplied
	case 0:
		return state.OutcomeNotApplied
	}
	return state.OutcomePartial
}
