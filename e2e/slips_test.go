package e2e

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"lading/api/wire"
	"lading/sandbox"
)

// TestCLISlipsPush: lading slips push creates the file's slips and their
// shipments (one write of each), the same file again sends nothing, a file
// with a bad row exits 3 naming the results file, and a mapping without a
// slips section or a time zone that does not exist exit 2 before any
// request.
func TestCLISlipsPush(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{}, wire.APIPrefix)
	dir := t.TempDir()
	st := filepath.Join(dir, "state.db")
	common := []string{"--base-url", e.base, "--token", testToken, "--quiet"}
	ctx := context.Background()
	importGood(t, common, dir, st)
	seeded := e.order(t, "1 Seed St", sandbox.OrderLine{SKU: "MUG-1", Quantity: 1})
	if _, err := e.srv.CreateSlip(ctx, sandbox.SlipSpec{Token: testToken, Order: seeded,
		Packages: []sandbox.PackageSpec{{Carrier: "UPS", TrackingNumber: "1ZSEED"}}}); err != nil {
		t.Fatal(err)
	}
	o1 := e.order(t, "1 Main St", sandbox.OrderLine{SKU: "MUG-1", Quantity: 1})
	o2 := e.order(t, "2 Main St", sandbox.OrderLine{SKU: "TEE-S", Quantity: 2})
	header := []string{"slip_key", "order_id", "packing_slip_date", "tracking_number", "carrier", "cost", "delivered"}
	file := filepath.Join(dir, "shipped.csv")
	writeCSV(t, file, header,
		[]string{"WMS-1", o1, "2026-11-20 14:30", "1Z001", "UPS", "8.95", "no"},
		[]string{"WMS-2", o2, "2026-11-20 15:00", "1Z002", "ups", "", "yes"})
	push := func(extra ...string) (*run, map[string]any) {
		args := append(append(append([]string{}, common...), "slips", "push", "--template", "slips", "--state", st, "--json", "--settle", "0s"), extra...)
		r := lading(ctx, args...)
		var rep map[string]any
		if r.err == nil || exitCodeOf(r.err) == 3 {
			if err := json.Unmarshal([]byte(r.stdout.String()), &rep); err != nil {
				t.Fatalf("--json: %v\n%s", err, r.output())
			}
		}
		return r, rep
	}
	r, rep := push("--timezone", "Europe/Berlin", file)
	if r.err != nil {
		t.Fatalf("first push: %v\n%s", r.err, r.output())
	}
	if rows := rep["rows"].(map[string]any); rows["created"] != 2.0 || rep["writes"] != 2.0 || rep["reads"] != 2.0 {
		t.Errorf("first push: %v; want 2 rows created in 2 writes and 2 reads (the orders, the carriers)", rep)
	}
	slips := 0
	for p, err := range e.c.PackingSlips.ListPages(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range p.Records {
			if o := string(s.Links.First(wire.SalesOrders)); o != o1 && o != o2 {
				continue
			}
			slips++
			k := p.PackagesOf(s)
			if len(k) != 1 || p.Carrier(k[0]) != "UPS" || !strings.HasPrefix(string(s.PackingSlipDate), "2026-11-20T1") {
				t.Errorf("slip %s: date %s, shipments %+v", s.ID, s.PackingSlipDate, k)
			}
			if string(s.Links.First(wire.SalesOrders)) == o1 && string(s.PackingSlipDate) != "2026-11-20T13:30:00+00:00" {
				t.Errorf("slip of %s: date %s; want 14:30 in Berlin, 13:30 UTC", o1, s.PackingSlipDate)
			}
		}
	}
	if slips != 2 {
		t.Errorf("%d slips of the two orders; want 2", slips)
	}

	r, rep = push("--timezone", "Europe/Berlin", file)
	if r.err != nil || rep["requests"] != 0.0 || rep["rows"].(map[string]any)["unchanged"] != 2.0 {
		t.Errorf("the same file again: %v %v; want 2 rows unchanged and no request", r.err, rep)
	}

	bad := filepath.Join(dir, "bad.csv")
	writeCSV(t, bad, header, []string{"WMS-3", o1, "tomorrow"}, []string{"WMS-1", o1, "2026-11-20 14:30", "1Z001-B", "UPS", "8.95", "no"})
	r, rep = push("--timezone", "Europe/Berlin", bad)
	if exitCodeOf(r.err) != 3 || !strings.Contains(r.err.Error(), "1 of 2 rows failed; see "+bad+".results.csv") {
		t.Errorf("a bad row: exit %d (%v); want 3 naming the results file", exitCodeOf(r.err), r.err)
	}
	if rows := rep["rows"].(map[string]any); rows["invalid"] != 1.0 || rows["updated"] != 1.0 || rep["writes"] != 1.0 {
		t.Errorf("a bad row: %v; want 1 invalid, 1 updated (its tracking number) in 1 write", rep)
	}

	before := e.srv.Counters()
	for _, args := range [][]string{
		{"--template", "stock", file},
		{"--template", "slips", "--timezone", "Mars/Olympus", file},
		{"--template", "slips", file, "another.csv"},
	} {
		r := lading(ctx, append(append(append([]string{}, common...), "slips", "push", "--state", st), args...)...)
		if exitCodeOf(r.err) != 2 {
			t.Errorf("%v: exit %d (%v); want 2", args, exitCodeOf(r.err), r.err)
		}
	}
	if after := e.srv.Counters(); sum(after.Requests) != sum(before.Requests) {
		t.Errorf("usage errors sent %d requests", sum(after.Requests)-sum(before.Requests))
	}
}

func sum(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}
