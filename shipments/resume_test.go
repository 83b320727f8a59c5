package shipments_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"lading/api"
	"lading/engine"
	"lading/sandbox"
	"lading/shipments"
)

// A push killed after recording a batch is resumed by the next push, which
// reads the fulfillments back before posting anything: a shipment the
// service recorded is not posted again, one it never got is posted once.
func TestPushResumesAKilledRun(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		landed bool
		want   engine.Status
	}{
		{"the killed push's write was recorded", true, shipments.AlreadyShipped},
		{"the killed push died before its write went", false, shipments.Posted},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, sandbox.Options{})
			e.seed("A")
			f := e.order("A", 2)
			// What a push leaves when killed between recording its batch
			// and recording the answer: an unfinished run, an open batch.
			run, _, err := e.State.StartRun(ctx, "shipments push\x00"+scope, "shipments push", nil)
			if err != nil {
				t.Fatal(err)
			}
			sent := []map[string]any{{"fulfillment": f.id, "tracking": "K1",
				"lines": []map[string]any{{"item": f.items["A"], "sku": "A", "units": 2, "before": 0}}}}
			body, _ := json.Marshal(sent)
			if _, err := e.State.RecordIntent(ctx, run.ID, "fulfillments.ship", []string{f.id + "\x00K1"}, body); err != nil {
				t.Fatal(err)
			}
			if c.landed {
				_, err := e.C.Fulfillments.PostShipments(ctx, []api.ShipmentWrite{{ShippedAt: "2026-11-21T10:00:00+0000", TrackingNumber: "K1",
					Links: api.ShipmentLinks{Fulfillments: []api.Ref{{ID: api.ID(f.id)}}, LineItems: []api.LineItemRef{{ID: api.ID(f.items["A"]), Quantity: "2"}}}}})
				if err != nil {
					t.Fatal(err)
				}
			}
			e.State.LeaveRun(run.ID)

			file := e.file("ship.csv", header, []string{f.id, "", "A", "2", "K1", "", "", "", ""})
			rep, err := e.push(file)
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Lines[0].Action; got != c.want {
				t.Errorf("row: %s (%s), want %s", got, rep.Lines[0].Msg, c.want)
			}
			if got := e.parcels(); !reflect.DeepEqual(got, map[string]int{"K1": 1}) {
				t.Errorf("parcels %v, want K1 once", got)
			}
			open, err := e.State.OpenIntents(ctx, run.ID)
			if err != nil || len(open) != 0 {
				t.Errorf("the killed push's batch is still open: %v %v", open, err)
			}
		})
	}
}

// A dry run posts nothing and says what it would post.
func TestDryRun(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed("A")
	f := e.order("A", 2)
	file := e.file("ship.csv", header, []string{f.id, "", "A", "2", "K1", "", "", "", "packed"})
	rep, err := e.push(file, func(o *shipments.Options) { o.DryRun = true })
	if err != nil {
		t.Fatal(err)
	}
	if rep.Lines[0].Action != shipments.ToPost || rep.Writes != 0 || rep.Shipments != 1 || rep.Statuses != 1 {
		t.Errorf("dry run: %s, %d writes, %d shipments, %d statuses", rep.Lines[0].Action, rep.Writes, rep.Shipments, rep.Statuses)
	}
	if got := e.parcels(); len(got) != 0 {
		t.Errorf("a dry run posted %v", got)
	}
}
