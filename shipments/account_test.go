package shipments_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"lading/engine"
	"lading/sandbox"
	"lading/shipments"
	"lading/state"
)

func withState(st *state.DB) func(*shipments.Options) {
	return func(o *shipments.Options) { o.State = st }
}

var lineHeader = []string{"fulfillment_id", "line_item_id", "sku", "quantity", "tracking_number"}

// A row whose line_item_id and sku name different lines of its
// fulfillment is invalid: nothing of its parcel is sent, and the message
// names both and what each is.
func TestPushRefusesALineItemAndSKUThatDisagree(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed("TEE-S", "MUG")
	f := e.order("TEE-S", 2, "MUG", 1)
	file := e.file("ship.csv", lineHeader,
		[]string{f.id, f.items["MUG"], "TEE-S", "1", "P1"},
		[]string{f.id, f.items["TEE-S"], "", "1", "P1"},
		[]string{f.id, f.items["TEE-S"], "TEE-S", "1", "P2"},
	)
	rep, err := e.push(file)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"invalid", "refused", "posted"}; !reflect.DeepEqual(actions(rep), want) {
		t.Fatalf("actions %v, want %v%s", actions(rep), want, dump(rep))
	}
	for _, sub := range []string{"line item " + f.items["MUG"] + " is SKU MUG", "row's sku is TEE-S", "SKU TEE-S is line item " + f.items["TEE-S"]} {
		if !strings.Contains(rep.Lines[0].Msg, sub) {
			t.Errorf("row 2: %q, want it to say %q", rep.Lines[0].Msg, sub)
		}
	}
	if rep.Lines[0].SKU != "TEE-S" || rep.Lines[0].LineItem != "" {
		t.Errorf("row 2 reports SKU %q, line item %q: it names no line that shipped", rep.Lines[0].SKU, rep.Lines[0].LineItem)
	}
	units, _ := e.shipped(f)
	if units[f.id+"/MUG"] != 0 || units[f.id+"/TEE-S"] != 1 {
		t.Errorf("shipped %v: only P2's TEE-S may have gone", units)
	}
	if got := e.parcels(); !reflect.DeepEqual(got, map[string]int{"P2": 1}) {
		t.Errorf("parcels %v, want P2 only", got)
	}
}

// The account is the truth: a partial parcel pushed again with another
// state (a new host, cron in another folder, a lost disk) is found among
// the fulfillment's shipments in the one read of its fulfillment, and not
// posted again, whether its rows name the line by SKU or by id; the new
// state learns it, so that a third push reads nothing.
func TestPushWithAnotherStateFindsWhatTheAccountShipped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed("A", "B")
	f := e.order("A", 3, "B", 1)
	bySKU := e.file("by-sku.csv", lineHeader, []string{f.id, "", "A", "2", "1Z-1"}, []string{f.id, "", "B", "1", "1Z-1"})
	byID := e.file("by-id.csv", lineHeader, []string{f.id, f.items["A"], "", "2", "1z-1 "}, []string{f.id, f.items["B"], "", "1", "1Z-1"})
	if rep, err := e.push(bySKU); err != nil || rep.Failed() > 0 {
		t.Fatalf("first push: %v%s", err, dump(rep))
	}
	for i, file := range []string{bySKU, byID} {
		st := e.OtherState(filepath.Base(file) + ".db")
		rep, err := e.push(file, withState(st))
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"already shipped", "already shipped"}; !reflect.DeepEqual(actions(rep), want) {
			t.Errorf("push %d with another state: %v, want %v%s", i+2, actions(rep), want, dump(rep))
		}
		if !strings.Contains(rep.Lines[0].Msg, "2 units of") || !strings.Contains(rep.Lines[0].Msg, "shipment ") {
			t.Errorf("push %d, row 2: %q; want it to name the shipment and its units", i+2, rep.Lines[0].Msg)
		}
		if rep.Reads != 1 || rep.Writes != 0 {
			t.Errorf("push %d with another state: %d reads, %d writes; want the fulfillment read once and nothing written", i+2, rep.Reads, rep.Writes)
		}
		if again, err := e.push(file, withState(st)); err != nil || again.Requests != 0 {
			t.Errorf("push %d again with the state it left: %v, %d requests; want none", i+2, err, again.Requests)
		}
	}
	units, _ := e.shipped(f)
	if units[f.id+"/A"] != 2 || units[f.id+"/B"] != 1 {
		t.Errorf("shipped %v, want A 2 and B 1", units)
	}
	if got := e.parcels(); !reflect.DeepEqual(got, map[string]int{"1Z-1": 1}) {
		t.Errorf("parcels %v, want 1Z-1 once", got)
	}
}

// A row that gives a tracking number already shipped with another
// quantity of its line fails (exit 3), saying what was shipped under that
// tracking number, what the row says and what to do; the account keeps
// what it has, with the state that posted it or without.
func TestPushFailsACorrectedQuantity(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed("A")
	f := e.order("A", 5)
	if rep, err := e.push(e.file("a.csv", lineHeader, []string{f.id, "", "A", "2", "T1"})); err != nil || rep.Failed() > 0 {
		t.Fatalf("first push: %v%s", err, dump(rep))
	}
	corrected := e.file("b.csv", lineHeader, []string{f.id, "", "A", "3", "T1"})
	for _, st := range []*state.DB{e.State, e.OtherState("other.db")} {
		rep, err := e.push(corrected, withState(st))
		if err != nil {
			t.Fatal(err)
		}
		l := rep.Lines[0]
		if l.Action != engine.Failed || rep.Failed() != 1 || rep.Writes != 0 {
			t.Errorf("corrected quantity: %s (%s), %d failed, %d writes; want failed and nothing sent", l.Action, l.Msg, rep.Failed(), rep.Writes)
		}
		for _, sub := range []string{"tracking number T1", "2 units of SKU A", "this row says 3", "own tracking number"} {
			if !strings.Contains(l.Msg, sub) {
				t.Errorf("corrected quantity: %q, want it to say %q", l.Msg, sub)
			}
		}
	}
	if units, _ := e.shipped(f); units[f.id+"/A"] != 2 {
		t.Errorf("shipped %v, want the 2 units of T1", units)
	}
}

// A parcel the account already holds as a packing slip's shipment (a
// slips push recorded it) is not posted as a fulfillment shipment too:
// the accountants' report would count it twice. The row says so.
func TestPushRefusesAParcelASlipHolds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed("A")
	f := e.order("A", 2)
	if _, err := e.Srv.CreateSlip(context.Background(), sandbox.SlipSpec{Token: "tok", Order: f.order,
		Packages: []sandbox.PackageSpec{{TrackingNumber: "SLIP-1", Carrier: "UPS", Cost: "5"}}}); err != nil {
		t.Fatal(err)
	}
	rep, err := e.push(e.file("ship.csv", lineHeader, []string{f.id, "", "A", "2", "SLIP-1"}))
	if err != nil {
		t.Fatal(err)
	}
	l := rep.Lines[0]
	if l.Action != engine.Refused || rep.Writes != 0 {
		t.Fatalf("row 2: %s (%s), %d writes; want refused and nothing sent", l.Action, l.Msg, rep.Writes)
	}
	for _, sub := range []string{"tracking number SLIP-1", "packing slip", "twice", "slips push"} {
		if !strings.Contains(l.Msg, sub) {
			t.Errorf("row 2: %q, want it to say %q", l.Msg, sub)
		}
	}
	if got := e.parcels(); !reflect.DeepEqual(got, map[string]int{"SLIP-1": 1}) {
		t.Errorf("parcels %v, want SLIP-1 once", got)
	}
}

// A shipments file's bad counts are refused in a shipment's words, not a
// stock level's.
func TestPushRefusesBadUnitsInItsOwnWords(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed("A")
	f := e.order("A", 5)
	rep, err := e.push(e.file("ship.csv", lineHeader, []string{f.id, "", "A", "-1", "T1"}, []string{f.id, "", "A", "1e3", "T2"}))
	if err != nil {
		t.Fatal(err)
	}
	for i, sub := range []string{"must be 1 or more: the units this row ships", "must be written out, like 1000"} {
		if l := rep.Lines[i]; l.Action != engine.Invalid || !strings.Contains(l.Msg, sub) || strings.Contains(l.Msg, "stock") {
			t.Errorf("row %d: %s %q, want invalid saying %q", l.Row, l.Action, l.Msg, sub)
		}
	}
	if rep.Writes != 0 {
		t.Errorf("%d writes, want none", rep.Writes)
	}
}
