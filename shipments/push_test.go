package shipments_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"lading/api"
	"lading/sandbox"
	"lading/shipments"
)

// A file completes the fulfillments it ships in full, leaves the others
// open with what is left, and run again posts nothing.
func TestPushCompletesAndPostsOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed("TEE-S", "TEE-M", "MUG")
	a := e.order("TEE-S", 2, "MUG", 1)
	b := e.order("TEE-M", 4, "MUG", 2)
	c := e.order("MUG", 3)
	file := e.file("ship.csv", header,
		[]string{a.id, "", "TEE-S", "2", "1Z-A", "UPS", "8.95", "2026-11-21 14:30", "shipped"},
		[]string{a.id, "", "MUG", "1", "1Z-A", "", "", "", ""},
		[]string{b.id, "", "TEE-M", "1", "1Z-B1", "UPS", "", "", ""},
		[]string{b.id, "", "TEE-M", "2", "1Z-B2", "UPS", "", "", "partially shipped"},
		[]string{"", c.number, "MUG", "3", "DHL-C", "DHL", "", "", ""},
	)
	rep, err := e.push(file)
	if err != nil {
		t.Fatal(err, dump(rep))
	}
	if want := []string{"posted", "posted", "posted", "posted", "posted"}; !reflect.DeepEqual(actions(rep), want) {
		t.Fatalf("actions %v, want %v%s", actions(rep), want, dump(rep))
	}
	if rep.Shipments != 4 || !reflect.DeepEqual(rep.Completed, []api.ID{api.ID(a.id), api.ID(c.id)}) || len(rep.StillOpen) != 0 || rep.Statuses != 2 {
		t.Errorf("shipments %d, completed %v, still open %v, statuses %d", rep.Shipments, rep.Completed, rep.StillOpen, rep.Statuses)
	}
	// 1 read of the fulfillments, 1 of the open list for the order
	// number, 2 waves of writes (b has two parcels), 1 completion check, 1
	// status write.
	if rep.Reads != 3 || rep.Writes != 3 {
		t.Errorf("%d reads and %d writes, want 3 and 3", rep.Reads, rep.Writes)
	}
	units, complete := e.shipped(a, b, c)
	want := map[string]int64{a.id + "/TEE-S": 2, a.id + "/MUG": 1, b.id + "/TEE-M": 3, b.id + "/MUG": 0, c.id + "/MUG": 3}
	if !reflect.DeepEqual(units, want) {
		t.Errorf("shipped %v, want %v", units, want)
	}
	if !complete[a.id] || complete[b.id] || !complete[c.id] {
		t.Errorf("complete %v", complete)
	}
	if open := e.open(); open[a.id] != nil || open[b.id] == nil || open[c.id] != nil {
		t.Errorf("open list %v: want b only", open)
	}
	if got := e.parcels(); !reflect.DeepEqual(got, map[string]int{"1Z-A": 1, "1Z-B1": 1, "1Z-B2": 1, "DHL-C": 1}) {
		t.Errorf("parcels %v", got)
	}

	again, err := e.push(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range again.Lines {
		if l.Action != shipments.AlreadyShipped {
			t.Errorf("second push, row %d: %s (%s), want already shipped", l.Row, l.Action, l.Msg)
		}
	}
	if again.Requests != 0 || again.Shipments != 0 {
		t.Errorf("the second push sent %d requests, %d shipments; want none", again.Requests, again.Shipments)
	}
	if got := e.parcels(); len(got) != 4 || got["1Z-A"] != 1 {
		t.Errorf("parcels after the second push %v", got)
	}
}

// A row asking for more than is left is refused on its row, with the
// other rows of its parcel; nothing of that parcel is sent.
func TestPushRefusesOverLeft(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.seed("TEE-S", "MUG")
	a := e.order("TEE-S", 2, "MUG", 1)
	b := e.order("MUG", 1)
	file := e.file("ship.csv", header,
		[]string{a.id, "", "TEE-S", "1", "P1", "", "", "", ""},
		[]string{a.id, "", "MUG", "5", "P1", "", "", "", ""},
		[]string{b.id, "", "MUG", "1", "P2", "", "", "", ""},
		[]string{b.id, "", "CAP", "1", "P3", "", "", "", ""},
		[]string{"999999", "", "MUG", "1", "P4", "", "", "", ""},
		[]string{a.id, "", "TEE-S", "", "P5", "", "", "", ""},
		[]string{a.id, "", "TEE-S", "1", "P6", "", "", "yesterday", ""},
	)
	rep, err := e.push(file)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"refused", "refused", "posted", "refused", "refused", "invalid", "invalid"}
	if !reflect.DeepEqual(actions(rep), want) {
		t.Fatalf("actions %v, want %v%s", actions(rep), want, dump(rep))
	}
	for i, sub := range map[int]string{
		0: "row 3 of the same parcel", 1: "quantity 5 is more than the 1 unit left to ship of SKU MUG",
		3: "has no SKU CAP; its lines are MUG", 4: "no fulfillment 999999", 5: "quantity", 6: "must be a date",
	} {
		if !strings.Contains(rep.Lines[i].Msg, sub) {
			t.Errorf("row %d: %q, want it to say %q", rep.Lines[i].Row, rep.Lines[i].Msg, sub)
		}
	}
	if rep.Failed() != 6 {
		t.Errorf("failed %d", rep.Failed())
	}
	if got := e.parcels(); !reflect.DeepEqual(got, map[string]int{"P2": 1}) {
		t.Errorf("parcels %v: only P2 may have gone", got)
	}
	if units, _ := e.shipped(a); units[a.id+"/TEE-S"] != 0 || units[a.id+"/MUG"] != 0 {
		t.Errorf("fulfillment a shipped %v; nothing of it may have gone", units)
	}
}

// Under lost answers and failures, pushes run until nothing fails ship
// every line exactly once: each parcel is one shipment, and no line has
// more shipped than the file says.
func TestPushExactlyOnceUnderFaults(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	skus := []string{"A", "B", "C"}
	e.seed(skus...)
	var fs []*fulfillment
	var first, second [][]string
	for i, f := range e.orders(30, "A", 2, "B", 1, "C", 3) {
		fs = append(fs, f)
		first = append(first, []string{f.id, "", "A", "1", fmt.Sprint("T1-", i), "", "", "", ""},
			[]string{f.id, "", "C", "3", fmt.Sprint("T1-", i), "", "", "", ""})
		second = append(second, []string{f.id, "", "A", "1", fmt.Sprint("T2-", i), "", "", "", ""},
			[]string{f.id, "", "B", "1", fmt.Sprint("T2-", i), "", "", "", ""})
	}
	e.Restart(sandbox.Options{DropRate: 0.3, FailRate: 0.2, Seed: 7})
	// One file with both parcels of each fulfillment, in two waves.
	file := e.file("ship.csv", header, append(first, second...)...)
	for run := 1; ; run++ {
		rep, err := e.push(file)
		t.Logf("run %d: %v %v reqs %d faults %v", run, err, rep.Rows, rep.Requests, e.Srv.Counters().Faults)
		if err == nil && rep.Failed() == 0 {
			break
		}
		if run == 12 {
			t.Fatalf("still failing after %d pushes: %v%s", run, err, dump(rep))
		}
	}
	if f := e.Srv.Counters().Faults; f["drop"] == 0 || f["fail"] == 0 {
		t.Fatalf("faults %v: the sandbox dropped no answer or failed no call", f)
	}
	e.Restart(sandbox.Options{})
	units, complete := e.shipped(fs...)
	parcels := e.parcels()
	for i, f := range fs {
		for s, want := range map[string]int64{"A": 2, "B": 1, "C": 3} {
			if got := units[f.id+"/"+s]; got != want {
				t.Errorf("fulfillment %s, %s: %d shipped, want %d", f.id, s, got, want)
			}
		}
		if !complete[f.id] {
			t.Errorf("fulfillment %s is not complete", f.id)
		}
		for _, tr := range []string{fmt.Sprint("T1-", i), fmt.Sprint("T2-", i)} {
			if parcels[tr] != 1 {
				t.Errorf("parcel %s posted %d times", tr, parcels[tr])
			}
		}
	}
	if rep, err := e.push(file); err != nil || rep.Requests != 0 {
		t.Errorf("a push after all went: %v, %d requests", err, rep.Requests)
	}
}
