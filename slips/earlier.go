package slips

import (
	"context"
	"encoding/json"
	"fmt"

	"lading/state"
)

// settleEarlier looks in the account for what the batches an earlier push
// left without an answer created (it was killed, or lost its connection),
// and remembers those found, so that they are not created again. Their
// edits are not looked for: this push sends what differs from what was
// confirmed.
func (p *Pusher) settleEarlier(ctx context.Context, run *state.Run) error {
	open, err := p.o.State.OpenIntents(ctx, run.ID)
	if err != nil || len(open) == 0 {
		return err
	}
	for _, k := range []*kind{p.slipKind(), p.packageKind()} {
		for _, it := range open {
			if it.Kind != k.intent {
				continue
			}
			if err := p.settleIntent(ctx, k, it); err != nil {
				return err
			}
		}
	}
	return nil
}

// settleIntent looks for what one batch of an earlier push created, and
// records its outcome with the ids found.
func (p *Pusher) settleIntent(ctx context.Context, k *kind, it state.Intent) error {
	var recs []sentRecord
	if err := json.Unmarshal(it.Payload, &recs); err != nil {
		return fmt.Errorf("reading batch %d of an earlier push: %w", it.Seq, err)
	}
	var creates []sentRecord
	for _, r := range recs {
		if r.ID == "" {
			creates = append(creates, r)
		}
	}
	found, err := k.find(ctx, creates, it.CreatedAt)
	if err != nil {
		return err
	}
	ids, memos := map[string]string{}, map[string]string{}
	for _, r := range creates {
		if id := found[r.Key]; id != "" {
			ids[r.Key], memos[r.Key] = id, memoText(r.Fields)
		}
	}
	note, _ := json.Marshal(map[string]any{"looked_up": "by a later push: the records created were looked for in the account", "found": len(ids), "of": len(recs)})
	if err := p.o.State.ConfirmIDs(ctx, it.ID, foundOutcome(len(ids), len(recs)-len(ids)), note, k.idScope, ids); err != nil {
		return err
	}
	return p.o.State.PutIDs(ctx, k.sentScope, memos)
}
