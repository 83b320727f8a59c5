package slips

import (
	"context"
	"fmt"
	"time"

	"lading/api"
	"lading/engine"
	"lading/state"
)

// sentRecord is one record of a batch as the state records it, so that a
// later push can look for it in the account.
type sentRecord struct {
	Key    string            `json:"key"`
	ID     string            `json:"id,omitempty"`   // the record edited; "" for a create
	Slip   string            `json:"slip,omitempty"` // a shipment's slip
	Order  string            `json:"order,omitempty"`
	Fields map[string]string `json:"fields"`
	// Memo is what the state remembers was sent for the key once the
	// record is taken: the fields confirmed before and those sent now.
	Memo map[string]string `json:"memo,omitempty"`
}

func recordOf(e *entity) sentRecord {
	return sentRecord{Key: e.key, ID: e.id, Slip: e.slipID, Order: e.order, Fields: e.sent, Memo: merged(e.memo, e.sent)}
}

// memo is what the state remembers of a record taken: its Memo, or, for
// a batch an older lading recorded, what it sent.
func (r sentRecord) memo() map[string]string {
	if r.Memo != nil {
		return r.Memo
	}
	return r.Fields
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
	return &kind{intent: "slips.write", what: "slip", idScope: slipScope(p.Opts.Scope), sentScope: slipSentScope(p.Opts.Scope),
		write: func(ctx context.Context, recs []sentRecord) (*api.WriteResult, error) {
			ws := make([]api.PackingSlipWrite, len(recs))
			for i, r := range recs {
				ws[i] = slipRecord(r.ID, r.Key, r.Fields)
			}
			return p.Opts.Client.PackingSlips.Write(ctx, ws)
		},
		find: p.findSlips}
}

func (p *Pusher) packageKind() *kind {
	return &kind{intent: "packages.write", what: "shipment", idScope: packageScope(p.Opts.Scope), sentScope: packageSentScope(p.Opts.Scope),
		write: func(ctx context.Context, recs []sentRecord) (*api.WriteResult, error) {
			ws := make([]api.PackageWrite, len(recs))
			for i, r := range recs {
				ws[i] = packageRecord(r.ID, r.Slip, r.Order, r.Fields)
			}
			return p.Opts.Client.Packages.Write(ctx, ws)
		},
		find: p.findPackages}
}

// sender sends the records of kind k on the engine, within run.
func (p *Pusher) sender(run *state.Run, k *kind) *engine.Sender[*entity, sentRecord] {
	w := words
	w.Record = k.what
	return &engine.Sender[*entity, sentRecord]{
		State: p.Opts.State, Run: run, Kind: k.intent, Words: w,
		Size: p.Opts.BatchSize, Parallel: p.Opts.Concurrency, Progress: p.Opts.Progress,
		Record: func(e *entity) (string, sentRecord) { return e.key, recordOf(e) },
		Write: func(ctx context.Context, b []*entity) (*api.WriteResult, error) {
			recs := make([]sentRecord, len(b))
			for j, e := range b {
				recs[j] = recordOf(e)
			}
			return k.write(ctx, recs)
		},
		Refused: func(e *entity, f api.RecordError) engine.Verdict {
			if f.NoSuchRecord() && !e.create {
				return engine.Verdict{Kind: engine.Fail, Forget: true, Msg: fmt.Sprintf("%s %s is no longer in the account (it was deleted there); lading forgot it: push again to create it anew, or remove its rows", k.what, e.id)}
			}
			return engine.Verdict{Kind: engine.Fail, Msg: w.RecordRefused(f)}
		},
		Check: func(ctx context.Context, open []engine.Open[sentRecord]) ([][]engine.Verdict, error) {
			return p.check(ctx, k, open)
		},
		Keep: func(recs []sentRecord, vs []engine.Verdict) state.Settlement { return k.keep(recs, vs) },
		Took: func(e *entity, id api.ID) {
			if e.create {
				if id == "" {
					e.action, e.msg = engine.Failed, fmt.Sprintf("the service answered without an id for this %s; push again (lading looks for it in the account first)", k.what)
					return
				}
				e.id = string(id)
			}
			e.done()
		},
		Settle: func(e *entity, st engine.Status, msg string) { e.action, e.msg = st, msg },
	}
}

// sendSlips sends the slips to create or change.
func (p *Pusher) sendSlips(ctx context.Context, run *state.Run, slips []*slip) error {
	var todo []*entity
	for _, sl := range slips {
		if sl.action == "" && sl.sent != nil {
			todo = append(todo, &sl.entity)
		}
	}
	return p.sender(run, p.slipKind()).Send(ctx, todo)
}

// sendPackages sends the shipments to create or change, of the slips
// that exist now.
func (p *Pusher) sendPackages(ctx context.Context, run *state.Run, slips []*slip) error {
	var todo []*entity
	for _, sl := range slips {
		if sl.id == "" || sl.action.Failed() {
			continue
		}
		for _, k := range sl.packages {
			if k.action == "" && k.sent != nil {
				k.slipID, k.order = sl.id, sl.fields[fOrder].value
				todo = append(todo, &k.entity)
			}
		}
	}
	return p.sender(run, p.packageKind()).Send(ctx, todo)
}

// done settles a record the service took: what it sent is what the
// state remembers for its key from now on.
func (e *entity) done() {
	e.action = engine.Updated
	if e.create {
		e.action = engine.Created
	}
	e.memo = merged(e.memo, e.sent)
}

// check looks in the account for what the batches without an answer
// created: a create found was taken; the rest go again (sending an edit
// again changes nothing twice).
func (p *Pusher) check(ctx context.Context, k *kind, open []engine.Open[sentRecord]) ([][]engine.Verdict, error) {
	var creates []sentRecord
	since := open[0].At
	for _, b := range open {
		if b.At.Before(since) {
			since = b.At
		}
		for _, r := range b.Recs {
			if r.ID == "" {
				creates = append(creates, r)
			}
		}
	}
	found, err := k.find(ctx, creates, since)
	if err != nil {
		return nil, err
	}
	out := make([][]engine.Verdict, len(open))
	for i, b := range open {
		for _, r := range b.Recs {
			v := engine.Verdict{Kind: engine.Again}
			if id := found[r.Key]; r.ID == "" && id != "" {
				v = engine.Verdict{Kind: engine.Took, ID: api.ID(id)}
			}
			out[i] = append(out[i], v)
		}
	}
	return out, nil
}

// keep is what the state keeps of a batch: the ids its creates got, and
// what was sent for the records taken; the state forgets the records the
// account no longer has.
func (k *kind) keep(recs []sentRecord, vs []engine.Verdict) state.Settlement {
	ids, memos := map[string]string{}, map[string]string{}
	var gone []string
	for j, r := range recs {
		switch {
		case vs[j].Forget:
			gone = append(gone, r.Key)
		case vs[j].Kind != engine.Took || (r.ID == "" && vs[j].ID == ""):
		default:
			if r.ID == "" {
				ids[r.Key] = string(vs[j].ID)
			}
			memos[r.Key] = memoText(r.memo())
		}
	}
	return state.Settlement{Keys: []state.Keys{{Scope: k.idScope, Put: ids, Forget: gone}, {Scope: k.sentScope, Put: memos, Forget: gone}}}
}

// resume looks in the account for what the batches an earlier push left
// without an answer created (it was killed, or lost its connection), and
// remembers those found, so that they are not created again.
func (p *Pusher) resume(ctx context.Context, run *state.Run) error {
	for _, k := range []*kind{p.slipKind(), p.packageKind()} {
		if err := p.sender(run, k).Resume(ctx); err != nil {
			return err
		}
	}
	return nil
}
