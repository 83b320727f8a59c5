package slips_test

import (
	"context"
	"encoding/csv"
	"maps"
	"os"
	"strings"
	"testing"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/sandbox"
	"lading/slips"
)

// The first push creates the slips and their shipments, in one write of
// slips and one of shipments, after one read of their orders (to check
// them against what the account holds) and one of the carriers' names;
// the same file pushed again sends nothing and reads nothing.
func TestPushCreatesThenSendsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	e.carriers()
	o1, l1 := e.order()
	o2, l2 := e.order()
	o3, _ := e.order()
	f := e.file("ship.csv",
		// shipment, order, packed, notes, line, units, parcel, shipped, tracking, link, cost, carrier, delivered
		[]string{"WMS-1", o1, "2026-01-15 14:30", "leave at door", l1["MUG"], "1", "", "2026-01-16T08:00:00+01:00", "1Z001", "https://ups.example/1Z001", "8.95", "ups", "no"},
		[]string{"WMS-1", o1, "", "", l1["TEE"], "2"},
		[]string{"WMS-2", o2, "2026-01-15", "", l2["MUG"], "1", "A", "", "DHL-A", "", "4.5", "DHL", "yes"},
		[]string{"WMS-2", o2, "2026-01-15", "", "", "", "B", "", "DHL-B", "", "4.5", "DHL", "yes"},
		[]string{"WMS-3", o3, "2026-01-17"},
	)
	rep, err := e.push(f)
	if err != nil {
		t.Fatal(err)
	}
	if a := actions(rep); !maps.Equal(a, map[engine.Status]int{engine.Created: 5}) {
		t.Fatalf("rows %v; want 5 created: %+v", a, rep.Lines)
	}
	if rep.Slips[engine.Created] != 3 || rep.Packages[engine.Created] != 3 || rep.Writes != 2 || rep.Reads != 2 {
		t.Errorf("slips %v, packages %v, %d writes, %d reads; want 3 and 3 created in 2 writes and 2 reads", rep.Slips, rep.Packages, rep.Writes, rep.Reads)
	}
	ids := map[string]*slips.Line{}
	for i := range rep.Lines {
		ids[rep.Lines[i].Values.Key] = &rep.Lines[i]
	}
	checkSlip(t, e, ids["WMS-1"].SlipID, o1, "2026-01-15T14:30:00+00:00", "leave at door", l1["MUG"]+":1,"+l1["TEE"]+":2",
		[]string{"1Z001 https://ups.example/1Z001 8.95 UPS 2026-01-16T07:00:00+00:00 0"})
	checkSlip(t, e, ids["WMS-2"].SlipID, o2, "2026-01-15T00:00:00+00:00", "", l2["MUG"]+":1",
		[]string{"DHL-A  4.5 DHL <nil> 1", "DHL-B  4.5 DHL <nil> 1"})
	checkSlip(t, e, ids["WMS-3"].SlipID, o3, "2026-01-17T00:00:00+00:00", "", "", nil)

	rep, err = e.push(f)
	if err != nil {
		t.Fatal(err)
	}
	if a := actions(rep); !maps.Equal(a, map[engine.Status]int{engine.Unchanged: 5}) || rep.Requests != 0 {
		t.Errorf("the same file again: rows %v, %d requests; want 5 unchanged and none", a, rep.Requests)
	}
	checkResults(t, rep.Results, "WMS-2", "B", "unchanged", "slip unchanged; shipment unchanged")
}

// checkSlip reads slip id and compares it with what was pushed: its order,
// date, notes, lines (id:units) and shipments (number, link, cost,
// carrier, ship date, delivered).
func checkSlip(t *testing.T, e *env, id, order, date, notes, lines string, packages []string) {
	t.Helper()
	p, err := e.C.PackingSlips.Get(context.Background(), api.ID(id))
	if err != nil || len(p.Records) != 1 {
		t.Fatalf("slip %q: %v", id, err)
	}
	s := p.Records[0]
	var got []string
	for _, l := range s.Links.Of(wire.LineItems) {
		got = append(got, string(l.ID)+":"+string(l.Quantity))
	}
	if o := string(s.Links.First(wire.SalesOrders)); o != order || string(s.PackingSlipDate) != date || string(s.Notes) != notes || strings.Join(got, ",") != lines {
		t.Errorf("slip %s: order %s date %s notes %q lines %v; want %s %s %q %s", id, o, s.PackingSlipDate, s.Notes, got, order, date, notes, lines)
	}
	got = nil
	for _, k := range p.PackagesOf(s) {
		ship := string(k.ShipDate)
		if ship == "" {
			ship = "<nil>"
		}
		got = append(got, strings.Join([]string{string(k.TrackingNumber), string(k.TrackingLink), string(k.Cost), p.Carrier(k), ship, string(k.Delivered)}, " "))
	}
	if strings.Join(got, "|") != strings.Join(packages, "|") {
		t.Errorf("slip %s: shipments\n%q\nwant\n%q", id, got, packages)
	}
}

// checkResults finds the results line of key and package and compares
// its action and message.
func checkResults(t *testing.T, path, key, pkg, action, msg string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != "file,row,key,package,slip_id,package_id,action,message" {
		t.Fatalf("results header %q", recs[0])
	}
	for _, r := range recs[1:] {
		if r[2] == key && r[3] == pkg {
			if r[6] != action || r[7] != msg || r[4] == "" {
				t.Errorf("results line %q; want action %q, message %q and the slip's id", r, action, msg)
			}
			return
		}
	}
	t.Errorf("no results line of %s %s in %q", key, pkg, recs)
}

// A file in which one slip's notes and another's tracking number changed
// sends those two fields alone: one write of one slip, one of one
// shipment, and nothing else.
func TestPushSendsOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	var rows [][]string
	orders := make([]string, 5)
	for i := range orders {
		orders[i], _ = e.order()
		rows = append(rows, []string{rowf("S%d", i), orders[i], "2026-02-01", "note", "", "", "", "", rowf("T%d", i), "", "1.5", "", "0"})
	}
	if _, err := e.push(e.file("a.csv", rows...)); err != nil {
		t.Fatal(err)
	}
	rows[1][3] = "new note"
	rows[3][8] = "T3-again"
	c0 := e.Srv.Counters()
	rep, err := e.push(e.file("b.csv", rows...))
	if err != nil {
		t.Fatal(err)
	}
	c1 := e.Srv.Counters()
	if a := actions(rep); !maps.Equal(a, map[engine.Status]int{engine.Updated: 2, engine.Unchanged: 3}) {
		t.Errorf("rows %v", a)
	}
	if rep.Writes != 2 || rep.Reads != 0 || rep.Slips[engine.Updated] != 1 || rep.Packages[engine.Updated] != 1 {
		t.Errorf("%d writes, %d reads, slips %v, packages %v; want 2 writes of one update each", rep.Writes, rep.Reads, rep.Slips, rep.Packages)
	}
	slipWrites := c1.Requests[wire.WritePath(wire.PackingSlips)] - c0.Requests[wire.WritePath(wire.PackingSlips)]
	pkgWrites := c1.Requests[wire.WritePath(wire.Packages)] - c0.Requests[wire.WritePath(wire.Packages)]
	if slipWrites != 1 || pkgWrites != 1 {
		t.Errorf("the sandbox saw %d slip writes and %d shipment writes; want 1 and 1 (requests %v)", slipWrites, pkgWrites, c1.Requests)
	}
	if l := rep.Lines[1]; l.Msg != "slip updated (notes); shipment unchanged" {
		t.Errorf("row of S1: %q", l.Msg)
	}
	if l := rep.Lines[3]; l.Msg != "slip unchanged; shipment updated (tracking number)" {
		t.Errorf("row of S3: %q", l.Msg)
	}
	p, _ := e.C.PackingSlips.Get(context.Background(), api.ID(rep.Lines[3].SlipID))
	if k := p.PackagesOf(p.Records[0]); len(k) != 1 || k[0].TrackingNumber != "T3-again" || k[0].Cost != "1.5" {
		t.Errorf("S3's shipments %+v", k)
	}
}

// Bad rows are reported on their rows, and nothing of their slip is
// written; the other slips are. A strict push writes nothing.
func TestPushReportsBadRowsAndWritesNothingOfTheirSlip(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	o, l := e.order()
	rows := [][]string{
		{"BAD-DATE", o, "2026-02-30"},
		{"BAD-DATE", o, "", "", l["MUG"], "1"},
		{"TWICE", o, "2026-02-01", "a"},
		{"TWICE", o, "2026-02-01", "b"},
		{"NO-CARRIER", o, "", "", "", "", "", "", "X1", "", "", "Pigeon Post"},
		{"GOOD", o, "2026-02-01"},
	}
	f := e.file("bad.csv", rows...)
	rep, err := e.push(f, func(o *slips.Options) { o.Strict = true })
	if err == nil || rep.Writes != 0 {
		t.Fatalf("strict push: err %v, %d writes; want an error and no write", err, rep.Writes)
	}
	rep, err = e.push(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		action engine.Status
		msg    string
	}{
		{engine.Invalid, `column "packed" value "2026-02-30" (slips.packing_slip_date): must be a date`},
		{engine.Skipped, `not sent: slip "BAD-DATE" has invalid rows (2)`},
		{engine.Invalid, `slip "TWICE" is given two ways (row 4 gives notes "a", row 5 gives "b")`},
		{engine.Invalid, `slip "TWICE" is given two ways`},
		{engine.Invalid, `carrier "Pigeon Post" is not one this account's shipments use (known: none yet)`},
		{engine.Created, "slip created"},
	}
	for i, w := range want {
		if l := rep.Lines[i]; l.Action != w.action || !strings.Contains(l.Msg, w.msg) {
			t.Errorf("row %d: %s %q; want %s %q", l.Row, l.Action, l.Msg, w.action, w.msg)
		}
	}
	if n, _ := e.slipsByOrder(); n[o] != 1 || rep.Failed() != 4 {
		t.Errorf("the order has %d slips, %d rows failed; want 1 slip (GOOD), 4 failed", n[o], rep.Failed())
	}
}

// Writes whose answers are lost (applied, then the connection dropped; or
// a 500 before anything is applied) are looked for before anything of
// them is sent again: after pushes repeated until every row is done, each
// slip and each shipment exists once.
func TestPushWithLostAnswersCreatesEachSlipOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	const n = 60
	var rows [][]string
	orders := make([]string, n)
	for i := range orders {
		orders[i], _ = e.order()
		rows = append(rows, []string{rowf("S%02d", i), orders[i], "2026-03-01", "", "", "", "", "", rowf("T%02d", i), "", "2"})
	}
	f := e.file("ship.csv", rows...)
	e.Restart(sandbox.Options{DropRate: 0.4, FailRate: 0.2, Seed: 3})
	done := false
	for run := 0; run < 6 && !done; run++ {
		rep, err := e.push(f, func(o *slips.Options) { o.BatchSize = 7 })
		if err != nil {
			t.Logf("push %d: %v", run, err)
		}
		done = err == nil && rep.Failed() == 0
	}
	if c := e.Srv.Counters(); c.Faults["drop"] == 0 || c.Faults["fail"] == 0 {
		t.Fatalf("faults %v: the test proves nothing", c.Faults)
	}
	e.Restart(sandbox.Options{})
	if !done {
		t.Fatal("six pushes did not settle every row")
	}
	slipsOf, packagesOf := e.slipsByOrder()
	for _, o := range orders {
		if slipsOf[o] != 1 || packagesOf[o] != 1 {
			t.Errorf("order %s has %d slips and %d shipments; want 1 and 1", o, slipsOf[o], packagesOf[o])
		}
	}
}
