package shipments

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/state"
)

// kindShip is the kind of a shipments batch in the state's records.
const kindShip = "fulfillments.ship"

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

// sender posts a plan's shipments (none when pl is nil: it only checks
// what an earlier push sent) on the engine.
func (p *Pusher) sender(run *state.Run, pl *plan, lines []Line) *engine.Sender[*shipment, sentShipment] {
	settleRows := func(sh *shipment, a engine.Status, msg string) {
		for _, i := range sh.rows {
			lines[i].Set(a, msg)
		}
	}
	return &engine.Sender[*shipment, sentShipment]{
		State: p.Opts.State, Run: run, Kind: kindShip, Words: words,
		Size: p.Opts.BatchSize, Parallel: p.Opts.Concurrency, Progress: p.Opts.Progress,
		Record: func(sh *shipment) (string, sentShipment) {
			return string(sh.Fulfillment) + "\x00" + sh.Tracking, sentOf(sh)
		},
		Write: func(ctx context.Context, ships []*shipment) (*api.WriteResult, error) {
			writes := make([]api.ShipmentWrite, len(ships))
			now := p.now()
			for j, sh := range ships {
				writes[j] = writeOf(sh, now)
			}
			return p.Opts.Client.Fulfillments.PostShipments(ctx, writes)
		},
		Check: p.check,
		Keep:  p.keep,
		Took: func(sh *shipment, id api.ID) {
			for _, l := range sh.Lines {
				pl.live[l.Item] += l.Units
			}
			msg := "shipment " + string(id)
			if id == "" {
				msg = "the service gave no answer; reading the fulfillment back showed the shipment recorded"
			}
			settleRows(sh, Posted, msg)
		},
		Settle: settleRows,
	}
}

// keep is what the state keeps of a batch: the shipments the account
// holds.
func (p *Pusher) keep(sent []sentShipment, vs []engine.Verdict) state.Settlement {
	kv := map[string]string{}
	for j, s := range sent {
		if vs[j].Kind == engine.Took {
			s.remember(vs[j].ID, kv)
		}
	}
	return state.Settlement{Keys: []state.Keys{{Scope: shippedScope(p.Opts.Scope), Put: kv}}}
}

// sentOf is a shipment as the state records it.
func sentOf(sh *shipment) sentShipment {
	out := sentShipment{Fulfillment: sh.Fulfillment, Tracking: sh.Tracking}
	for _, l := range sh.Lines {
		out.Lines = append(out.Lines, sentLine(l))
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

// unclearMessage is a row's message when its shipment's answer was lost
// and the fulfillment holds a shipment of its tracking number with other
// lines.
func unclearMessage(s sentShipment) string {
	return fmt.Sprintf("the service gave no answer, and fulfillment %s holds a shipment with tracking number %s but other lines or units, so this one is not sent again: check the fulfillment in the account", s.Fulfillment, s.Tracking)
}
