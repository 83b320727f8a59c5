package e2e

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/internal/syncbuf"
	"lading/sandbox"
	"lading/sandbox/sandboxtest"
)

// The 3PL fault soak: a shipments file and a slips file of a few hundred
// rows pushed by lading processes (lading's command line, run by this test
// binary: see childLading) into a sandbox that fails 10% of calls (500),
// throttles 5% (429 without Retry-After, so that lading backs off on its
// own, for milliseconds, rather than a second each time) and drops the
// answer of 2% of writes after applying them, while the process is killed
// (SIGKILL) at random moments and the state file is deleted once midway.
// Pushing each file again until it exits 0 must leave the account exactly
// as the files say: every line shipped and packed once, one shipment per
// tracking number, one slip per key, no shipment (package) twice.
const (
	soakShipOrders = 80 // 5 rows, 3 parcels each
	soakSlipOrders = 50 // 2 slips, 4 rows, 3 shipments each
	soakBatch      = 2
	soakKills      = 6
)

func TestShipmentsAndSlipsFaultSoak(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the 3PL fault soak takes several seconds; run without -short")
	}
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	t.Logf("seed %d", seed)
	e := sandboxtest.New(t, sandbox.Options{})
	s := newSoak(t, e)
	ship, slip := s.shipmentsFile(), s.slipsFile()
	e.Restart(sandbox.Options{FailRate: 0.1, ThrottleRate: 0.05, NoRetryAfter: true, DropRate: 0.02, Seed: seed, Latency: time.Millisecond})
	start := time.Now()

	jobs := []soakJob{{"shipments", ship, []string{wire.WritePath(wire.Shipments)}, 3 * soakShipOrders / soakBatch},
		{"slips", slip, []string{wire.WritePath(wire.PackingSlips), wire.WritePath(wire.Packages)}, 5 * soakSlipOrders / soakBatch}}
	// Kill moments: after a share of the writes a job has left, taken by
	// the sandbox since its process started.
	var kills []string
	for i := range soakKills {
		j := jobs[i%2]
		left := max(2, j.writes-int(s.writes(j.paths)))
		k := int64(1 + rng.IntN(left*3/4))
		if s.killAt(j, k) {
			kills = append(kills, fmt.Sprintf("%s after %d writes", j.name, k))
		}
		if i == soakKills/2-1 {
			s.forgetState()
			kills = append(kills, "state deleted")
		}
	}
	runs := 0
	for _, j := range jobs {
		for n := 1; ; n++ {
			runs++
			code, out := s.push(j)
			if code == 0 {
				break
			}
			if n == 8 {
				t.Fatalf("%s push still exits %d after %d runs:\n%s", j.name, code, n, out)
			}
		}
	}
	c := e.Srv.Counters()
	t.Logf("kills: %s; then %d runs to finish; %s in all; faults %v, %d throttled, %d requests", strings.Join(kills, ", "), runs,
		time.Since(start).Round(time.Millisecond), c.Faults, c.Throttled, allRequests(c.Requests))
	// Dropped answers are 2% of some 250 writes: a run meets none less
	// than once in a hundred, and then proves the rest.
	if c.Faults["fail"] == 0 || c.Throttled == 0 {
		t.Errorf("faults %v, %d throttled: the soak met no failure or no throttling", c.Faults, c.Throttled)
	}
	e.Restart(sandbox.Options{})
	s.checkShipments()
	s.checkSlips()
}

func allRequests(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// soak is the account of the soak and what its files say.
type soak struct {
	t     *testing.T
	e     *sandboxtest.Env
	state string
	// ships are the shipments file's parcels: tracking number → the
	// fulfillment and the units of each line item.
	ships map[string]soakParcel
	// slips are the slips file's slips: key → order, lines (id:units) and
	// tracking numbers.
	slips map[string]soakSlip
	// fulfillments of the shipments file's orders.
	fulfillments []api.ID
}

type soakParcel struct {
	fulfillment api.ID
	units       map[api.ID]int64
}

type soakSlip struct {
	order    string
	lines    string
	tracking []string
}

// soakJob is one push of the soak: its command, file and write paths, and
// about how many writes it takes.
type soakJob struct {
	name   string
	file   string
	paths  []string
	writes int
}

func newSoak(t *testing.T, e *sandboxtest.Env) *soak {
	ctx := context.Background()
	p := api.ProductWrite{Name: api.String("Soak"), Links: &api.ProductLinks{Attributes: []api.AttributeRef{{Name: "Kind"}}}}
	for _, sku := range []string{"A", "B", "C"} {
		p.Links.Variants = append(p.Links.Variants, api.VariantWrite{SKU: api.String(sku), Quantity: api.String("100000"),
			Links: &api.VariantLinks{AttributeOptions: []api.OptionRef{{Value: sku, Attribute: "Kind"}}}})
	}
	if res, err := e.C.Products.Write(ctx, []api.ProductWrite{p}); err != nil || len(res.Failed) > 0 {
		t.Fatalf("seeding: %v %v", err, res)
	}
	for range soakShipOrders + soakSlipOrders {
		_, err := e.Srv.CreateOrder(ctx, sandbox.OrderSpec{Token: sandboxtest.Token, ShippingAddress: map[string]string{"contact": "Ada", "city": "London"},
			Lines: []sandbox.OrderLine{{SKU: "A", Quantity: 2}, {SKU: "B", Quantity: 1}, {SKU: "C", Quantity: 3}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	return &soak{t: t, e: e, state: filepath.Join(e.Dir, "soak-state.db"), ships: map[string]soakParcel{}, slips: map[string]soakSlip{}}
}

// open reads the open fulfillments: each one's order and its line items
// by SKU, in order of creation.
func (s *soak) open() (ids []api.ID, orders map[api.ID]string, items map[api.ID]map[string]api.ID) {
	orders, items = map[api.ID]string{}, map[api.ID]map[string]api.ID{}
	for p, err := range s.e.C.Fulfillments.ListPages(context.Background(), &api.ListOptions{PageSize: wire.MaxPageSize}) {
		if err != nil {
			s.t.Fatal(err)
		}
		for _, f := range p.Records {
			ids = append(ids, f.ID)
			orders[f.ID] = string(f.Links.First(wire.SalesOrders))
			items[f.ID] = map[string]api.ID{}
			for _, li := range p.FulfillmentLines(f) {
				items[f.ID][string(li.SKU)] = li.ID
			}
		}
	}
	if len(ids) != soakShipOrders+soakSlipOrders {
		s.t.Fatalf("%d open fulfillments, want %d", len(ids), soakShipOrders+soakSlipOrders)
	}
	return ids, orders, items
}

// shipmentsFile writes the shipments of the first orders' fulfillments:
// three parcels each, the lines by SKU or by id.
func (s *soak) shipmentsFile() string {
	ids, _, items := s.open()
	rows := [][]string{{"fulfillment_id", "line_item_id", "sku", "quantity", "tracking_number", "carrier", "cost"}}
	for i, f := range ids[:soakShipOrders] {
		s.fulfillments = append(s.fulfillments, f)
		it := items[f]
		for p, parcel := range [][]struct {
			sku   string
			units int64
		}{{{"A", 1}, {"B", 1}}, {{"A", 1}, {"C", 1}}, {{"C", 2}}} {
			t := fmt.Sprintf("1ZSOAK%03d%d", i, p)
			sp := soakParcel{fulfillment: f, units: map[api.ID]int64{}}
			for _, l := range parcel {
				id, sku := string(it[l.sku]), l.sku
				if (i+p)%2 == 0 {
					sku = ""
				} else {
					id = ""
				}
				rows = append(rows, []string{string(f), id, sku, fmt.Sprint(l.units), t, "UPS", "4.5"})
				sp.units[it[l.sku]] += l.units
			}
			s.ships[t] = sp
		}
	}
	return s.write("shipped.csv", rows)
}

// slipsFile writes the slips of the other orders: two each, the first
// packing A and B in one shipment, the second C in two.
func (s *soak) slipsFile() string {
	ids, orders, items := s.open()
	rows := [][]string{{"slip_key", "order_id", "packing_slip_date", "line_item_id", "quantity", "package", "tracking_number", "cost"}}
	for i, f := range ids[soakShipOrders:] {
		o, it := orders[f], items[f]
		k1, k2 := fmt.Sprintf("WMS-%03d-1", i), fmt.Sprintf("WMS-%03d-2", i)
		t1, t2a, t2b := fmt.Sprintf("DHL%03d1", i), fmt.Sprintf("DHL%03d2A", i), fmt.Sprintf("DHL%03d2B", i)
		rows = append(rows,
			[]string{k1, o, "2026-11-20", string(it["A"]), "2", "", t1, "3.5"},
			[]string{k1, o, "2026-11-20", string(it["B"]), "1", "", t1, "3.5"},
			[]string{k2, o, "2026-11-21", string(it["C"]), "3", "1", t2a, "2"},
			[]string{k2, o, "2026-11-21", "", "", "2", t2b, "2"})
		s.slips[k1] = soakSlip{o, string(it["A"]) + ":2," + string(it["B"]) + ":1", []string{t1}}
		s.slips[k2] = soakSlip{o, string(it["C"]) + ":3", []string{t2a, t2b}}
	}
	return s.write("packed.csv", rows)
}

func (s *soak) write(name string, rows [][]string) string {
	path := filepath.Join(s.e.Dir, name)
	f, err := os.Create(path)
	if err != nil {
		s.t.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.WriteAll(rows)
	if err := f.Close(); err != nil {
		s.t.Fatal(err)
	}
	return path
}

// command is the lading process pushing j's file.
func (s *soak) command(j soakJob) *exec.Cmd {
	args := []string{"--base-url", s.e.URL, "--token", sandboxtest.Token, "--quiet", "--rate", "400", "--burst", "40",
		j.name, "push", "--template", j.name, "--state", s.state, "--batch-size", fmt.Sprint(soakBatch), "--settle", "0s"}
	return ladingProcess(append(args, j.file)...)
}

// push runs j's push to its end and gives its exit code and output.
func (s *soak) push(j soakJob) (int, string) {
	out, err := s.command(j).CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out)
	case errors.As(err, &ee):
		return ee.ExitCode(), string(out)
	}
	s.t.Fatalf("%s push: %v\n%s", j.name, err, out)
	return 0, ""
}

// writes counts the writes the sandbox took on paths.
func (s *soak) writes(paths []string) int64 {
	c := s.e.Srv.Counters()
	var n int64
	for _, p := range paths {
		n += c.Requests[p]
	}
	return n
}

// killAt starts j's push and kills it (SIGKILL) once the sandbox has taken
// k of its writes; it reports false when the push finished first.
func (s *soak) killAt(j soakJob, k int64) bool {
	s.t.Helper()
	cmd := s.command(j)
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	start := s.writes(j.paths)
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(time.Minute)
	for s.writes(j.paths)-start < k {
		select {
		case <-done:
			s.t.Logf("%s push finished before its %d-th write:\n%s", j.name, k, out)
			return false
		case <-deadline:
			cmd.Process.Kill()
			<-done
			s.t.Fatalf("the %s push sent fewer than %d writes in a minute:\n%s", j.name, k, out)
		case <-time.After(200 * time.Microsecond):
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		s.t.Fatal(err)
	}
	<-done
	answered(s.t, s.e.Srv)
	return true
}

// forgetState deletes the state file, as a lost disk or a new host does.
func (s *soak) forgetState() {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(s.state + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			s.t.Fatal(err)
		}
	}
}

// checkShipments reads the shipments file's fulfillments: each is
// complete, shipped exactly as the file says, one shipment per tracking
// number with its lines.
func (s *soak) checkShipments() {
	got := map[string][]*api.Shipment{}
	for chunk := range slices.Chunk(s.fulfillments, wire.MaxPageSize) {
		p, err := s.e.C.Fulfillments.Get(context.Background(), chunk...)
		if err != nil {
			s.t.Fatal(err)
		}
		for _, f := range p.Records {
			if !f.Complete.Bool() {
				s.t.Errorf("fulfillment %s is not complete", f.ID)
			}
			for _, sh := range p.ShipmentsOf(f) {
				got[string(sh.TrackingNumber)] = append(got[string(sh.TrackingNumber)], sh)
			}
		}
	}
	for t, want := range s.ships {
		shs := got[t]
		if len(shs) != 1 {
			s.t.Errorf("tracking number %s: %d shipments, want 1", t, len(shs))
			continue
		}
		units := map[api.ID]int64{}
		for _, l := range shs[0].Links.Of(wire.LineItems) {
			n, _ := l.Quantity.Int()
			units[l.ID] += n
		}
		if fmt.Sprint(units) != fmt.Sprint(want.units) {
			s.t.Errorf("tracking number %s shipped %v, want %v", t, units, want.units)
		}
	}
	if len(got) != len(s.ships) {
		s.t.Errorf("%d tracking numbers shipped, want %d", len(got), len(s.ships))
	}
}

// checkSlips reads every slip and shipment (Packages) of the account: one
// slip per key, with its order and lines, and one shipment per tracking
// number of the files.
func (s *soak) checkSlips() {
	byKey := map[string][]string{}
	packages := map[string]int{}
	for p, err := range s.e.C.PackingSlips.ListPages(context.Background(), &api.ListOptions{PageSize: wire.MaxPageSize}) {
		if err != nil {
			s.t.Fatal(err)
		}
		for _, sl := range p.Records {
			var lines, tracking []string
			for _, l := range sl.Links.Of(wire.LineItems) {
				lines = append(lines, string(l.ID)+":"+string(l.Quantity))
			}
			for _, k := range p.PackagesOf(sl) {
				tracking = append(tracking, string(k.TrackingNumber))
				packages[string(k.TrackingNumber)]++
			}
			slices.Sort(tracking)
			byKey[string(sl.LocalID)] = append(byKey[string(sl.LocalID)],
				string(sl.Links.First(wire.SalesOrders))+" "+strings.Join(lines, ",")+" "+strings.Join(tracking, ","))
		}
	}
	for k, want := range s.slips {
		w := want.order + " " + want.lines + " " + strings.Join(want.tracking, ",")
		if got := byKey[k]; len(got) != 1 || got[0] != w {
			s.t.Errorf("slip %s: %q, want once %q", k, got, w)
		}
	}
	for t, n := range packages {
		if n != 1 {
			s.t.Errorf("tracking number %s is on %d shipments, want 1", t, n)
		}
	}
	if want := len(s.ships) + 3*soakSlipOrders; len(packages) != want {
		s.t.Errorf("%d tracking numbers in the account's shipments, want %d", len(packages), want)
	}
}
