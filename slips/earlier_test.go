package slips

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"lading/api"
	"lading/engine"
	"lading/mapping"
	"lading/sandbox"
	"lading/sandbox/sandboxtest"
)

// A push killed after sending a batch of creates, before their answer was
// recorded, leaves its run open: the next push looks for those slips in
// the account first, remembers the one it finds and creates only the one
// that was never made.
func TestNextPushFindsWhatAKilledPushCreated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := sandboxtest.New(t, sandbox.Options{})
	c, st, dir := e.C, e.State, e.Dir
	res, err := c.Products.Write(ctx, []api.ProductWrite{{Name: api.String("Mug"), Links: &api.ProductLinks{Variants: []api.VariantWrite{{SKU: api.String("MUG"), Quantity: api.String("10")}}}}})
	if err != nil || len(res.Failed) > 0 {
		t.Fatal(err, res)
	}
	var orders [2]string
	for i := range orders {
		if orders[i], err = e.Srv.CreateOrder(ctx, sandbox.OrderSpec{Token: sandboxtest.Token, Lines: []sandbox.OrderLine{{SKU: "MUG", Quantity: 1}}}); err != nil {
			t.Fatal(err)
		}
	}
	m, err := mapping.Parse("m.yaml", []byte("slips:\n  key: key\n  order: order\n  notes: notes\n  packing_slip_date: date\n"))
	if err != nil {
		t.Fatal(err)
	}
	input := filepath.Join(dir, "ship.csv")
	if err := os.WriteFile(input, []byte("key,order,notes,date\nK1,"+orders[0]+",first,2026-04-01\nK2,"+orders[1]+",second,2026-04-01\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// The killed push: both creates recorded, the first sent and applied.
	run, _, err := st.StartRun(ctx, runFingerprint("acct"), "slips push", nil)
	if err != nil {
		t.Fatal(err)
	}
	recs := []sentRecord{
		{Key: "K1", Fields: map[string]string{fOrder: orders[0], fNotes: "first", fDate: "2026-04-01T00:00:00+0000"}},
		{Key: "K2", Fields: map[string]string{fOrder: orders[1], fNotes: "second", fDate: "2026-04-01T00:00:00+0000"}},
	}
	body, _ := json.Marshal(recs)
	if _, err := st.RecordIntent(ctx, run.ID, "slips.write", []string{"K1", "K2"}, body); err != nil {
		t.Fatal(err)
	}
	res, err = c.PackingSlips.Write(ctx, []api.PackingSlipWrite{slipRecord("", recs[0].Key, recs[0].Fields)})
	if err != nil || len(res.Failed) > 0 {
		t.Fatal(err, res)
	}
	made := string(res.IDs[0])
	st.LeaveRun(run.ID)

	rep, err := Push(ctx, Options{Options: engine.Options{Client: c, State: st, Scope: "acct", Mapping: m, Input: input}})
	if err != nil {
		t.Fatal(err)
	}
	l1, l2 := rep.Lines[0], rep.Lines[1]
	if l1.Action != engine.Unchanged || l1.SlipID != made || l2.Action != engine.Created || l2.SlipID == "" || l2.SlipID == made {
		t.Errorf("K1: %s %s (%s); K2: %s %s; want K1 unchanged as %s, K2 created", l1.Action, l1.SlipID, l1.Msg, l2.Action, l2.SlipID, made)
	}
	if rep.Slips[engine.Created] != 1 || rep.Writes != 1 {
		t.Errorf("slips %v in %d writes; want 1 created in 1 write", rep.Slips, rep.Writes)
	}
	n := 0
	for p, err := range c.PackingSlips.ListPages(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		n += len(p.Records)
	}
	if n != 2 {
		t.Errorf("the account has %d slips; want 2", n)
	}
	open, err := st.OpenIntents(ctx, run.ID)
	if err != nil || len(open) != 0 {
		t.Errorf("the killed push's batch is still open: %v %v", open, err)
	}
}
