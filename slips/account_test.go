package slips_test

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"lading/api"
	"lading/engine"
	"lading/sandbox"
	"lading/slips"
	"lading/state"
)

func withState(st *state.DB) func(*slips.Options) { return func(o *slips.Options) { o.State = st } }

// The account is the truth: the same file pushed with another state (a
// new host, cron in another folder, a lost disk) finds each slip in the
// account by its order and key, and each shipment by its tracking number,
// in one read of the orders (and one of the carriers' names), and creates
// nothing twice; the new state learns them, so that the next push reads
// nothing.
func TestPushWithAnotherStateFindsTheSlips(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.carriers()
	o1, l1 := e.order()
	o2, l2 := e.order()
	f := e.file("ship.csv",
		[]string{"WMS-1", o1, "2026-01-15 14:30", "leave at door", l1["MUG"], "1", "", "2026-01-16", "1Z001", "", "8.95", "UPS", "no"},
		[]string{"WMS-1", o1, "", "", l1["TEE"], "2"},
		[]string{"WMS-2", o2, "2026-01-15", "", l2["MUG"], "1", "A", "", "DHL-A", "", "4.5", "DHL", "yes"},
		[]string{"WMS-2", o2, "2026-01-15", "", "", "", "B", "", "DHL-B", "", "4.5", "DHL", "yes"},
	)
	if rep, err := e.push(f); err != nil || rep.Failed() > 0 {
		t.Fatalf("first push: %v %+v", err, rep.Lines)
	}
	before, pkgsBefore := e.slipsByOrder()
	st := e.OtherState("other.db")
	rep, err := e.push(f, withState(st))
	if err != nil {
		t.Fatal(err)
	}
	if a := actions(rep); !maps.Equal(a, map[engine.Status]int{engine.Unchanged: 4}) {
		t.Errorf("with another state: rows %v, want 4 unchanged: %+v", a, rep.Lines)
	}
	if rep.Writes != 0 || rep.Reads != 2 {
		t.Errorf("with another state: %d writes, %d reads; want none written, the orders and the carriers read once each", rep.Writes, rep.Reads)
	}
	after, pkgsAfter := e.slipsByOrder()
	if !maps.Equal(before, after) || !maps.Equal(pkgsBefore, pkgsAfter) || after[o1] != 1 || pkgsAfter[o2] != 2 {
		t.Errorf("slips %v and shipments %v by order, were %v and %v", after, pkgsAfter, before, pkgsBefore)
	}
	if again, err := e.push(f, withState(st)); err != nil || again.Requests != 0 {
		t.Errorf("again with the state it left: %v, %d requests; want none", err, again.Requests)
	}
}

// Rows that give one line item of a slip twice add up, as a shipments
// push adds a line given on two rows of one parcel.
func TestPushAddsALineGivenTwice(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	o, l := e.order()
	rep, err := e.push(e.file("ship.csv",
		[]string{"S1", o, "2026-02-01", "", l["TEE"], "1", "A", "", "T-A"},
		[]string{"S1", o, "", "", l["TEE"], "1", "B", "", "T-B"},
	))
	if err != nil || rep.Failed() > 0 {
		t.Fatalf("push: %v %+v", err, rep.Lines)
	}
	checkSlip(t, e, rep.Lines[0].SlipID, o, "2026-02-01T00:00:00+00:00", "", l["TEE"]+":2", []string{"T-A    <nil> 0", "T-B    <nil> 0"})
}

// A slip is checked against its order before it is sent, in one read of
// the orders: more units than the order has left to pack, a line item of
// another order, and an order the account does not have are refused on
// their rows; the others go.
func TestPushChecksSlipsAgainstTheirOrders(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	o1, l1 := e.order()
	o2, l2 := e.order()
	f := e.file("ship.csv",
		[]string{"OVER", o1, "2026-02-01", "", l1["TEE"], "3"},
		[]string{"OTHER", o1, "2026-02-01", "", l2["MUG"], "1"},
		[]string{"NONE", "999999999", "2026-02-01"},
		[]string{"GOOD", o1, "2026-02-01", "", l1["TEE"], "2"},
		[]string{"MORE", o2, "2026-02-01", "", l2["TEE"], "1"},
		[]string{"MORE", o2, "", "", l2["TEE"], "2"},
	)
	strict, err := e.push(f, func(o *slips.Options) { o.Strict = true })
	if !errors.Is(err, engine.ErrInvalid) || strict.Writes != 0 || strict.Lines[3].Action != engine.Skipped {
		t.Errorf("strict push: %v, %d writes, the good slip %s; want ErrInvalid, nothing sent", err, strict.Writes, strict.Lines[3].Action)
	}
	rep, err := e.push(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		action engine.Status
		msg    string
	}{
		{engine.Refused, "order " + o1 + " has 2 units of TEE to pack, 0 packed by its other slips, and this slip packs 3"},
		{engine.Refused, "line item " + l2["MUG"] + " is not a line of order " + o1},
		{engine.Refused, "the account has no sales order 999999999"},
		{engine.Created, "slip created"},
		{engine.Refused, "has 2 units of TEE to pack, 0 packed by its other slips, and this slip packs 3 (rows 6, 7)"},
		{engine.Refused, "this slip packs 3"},
	}
	for i, w := range want {
		if l := rep.Lines[i]; l.Action != w.action || !strings.Contains(l.Msg, w.msg) {
			t.Errorf("row %d: %s %q; want %s %q", l.Row, l.Action, l.Msg, w.action, w.msg)
		}
	}
	if rep.Writes != 1 || rep.Reads != 1 || rep.Failed() != 5 {
		t.Errorf("%d writes, %d reads, %d failed; want the good slip in 1 write after 1 read, 5 failed", rep.Writes, rep.Reads, rep.Failed())
	}
	if n, _ := e.slipsByOrder(); n[o1] != 1 || n[o2] != 0 {
		t.Errorf("slips by order %v, want GOOD alone", n)
	}
}

// A parcel a shipments push posted (a fulfillment shipment, which the
// account also records as a slip of the order) is not pushed again as a
// slip: the accountants' report would count it twice. The rows say so.
func TestPushRefusesAParcelAShipmentHolds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	o, l := e.order()
	_, err := e.C.Fulfillments.PostShipments(context.Background(), []api.ShipmentWrite{{ShippedAt: "2026-02-01T10:00:00+0000", TrackingNumber: "1ZSHIP",
		Links: api.ShipmentLinks{Fulfillments: []api.Ref{{ID: e.fulfillmentOf(l["MUG"])}}, LineItems: []api.LineItemRef{{ID: api.ID(l["MUG"]), Quantity: "1"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.push(e.file("ship.csv", []string{"S1", o, "2026-02-01", "", l["MUG"], "1", "", "", "1zship"}))
	if err != nil {
		t.Fatal(err)
	}
	l0 := rep.Lines[0]
	if l0.Action != engine.Refused || rep.Writes != 0 {
		t.Fatalf("row 2: %s %q, %d writes; want refused and nothing sent", l0.Action, l0.Msg, rep.Writes)
	}
	for _, sub := range []string{"tracking number 1zship", "shipments push", "twice"} {
		if !strings.Contains(l0.Msg, sub) {
			t.Errorf("row 2: %q, want it to say %q", l0.Msg, sub)
		}
	}
	if n, k := e.slipsByOrder(); n[o] != 1 || k[o] != 1 {
		t.Errorf("order %s has %d slips and %d shipments; want the shipment's one of each", o, n[o], k[o])
	}
}
