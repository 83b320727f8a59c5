package e2e

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/internal/syncbuf"
	"lading/sandbox"
)

// TestCLIFulfillmentsPull: the open fulfillments come out one line per
// line item with what is left to ship, --new pulls a fulfillment once and
// writes no file when nothing is new, and a status set from the command
// line shows on the next pull.
func TestCLIFulfillmentsPull(t *testing.T) {
	t.Parallel()
	e, common, dir, st := pullAccount(t)
	ctx := context.Background()
	addr := map[string]string{"company": "Acme", "street1": "1 Main St", "city": "Springfield", "zip": "12345", "country": "US"}
	order := func(lines ...sandbox.OrderLine) {
		if _, err := e.srv.CreateOrder(ctx, sandbox.OrderSpec{Token: testToken, ShippingAddress: addr, Lines: lines}); err != nil {
			t.Fatal(err)
		}
	}
	order(sandbox.OrderLine{SKU: "MUG-1", Quantity: 2}, sandbox.OrderLine{SKU: "TEE-S", Quantity: 1})
	pull := func(name string, extra ...string) (rows []map[string]string, records int) {
		t.Helper()
		out := filepath.Join(dir, name)
		r := lading(ctx, append(append(common, "fulfillments", "pull", "--state", st, "--json", "-o", out), extra...)...)
		if r.err != nil {
			t.Fatalf("pull: %v\n%s", r.err, r.output())
		}
		var sum struct{ Records int }
		if err := json.Unmarshal([]byte(r.stdout.String()), &sum); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(out); sum.Records == 0 && slices.Contains(extra, "--new") && errors.Is(err, fs.ErrNotExist) {
			return nil, 0 // nothing new: no file
		}
		return readRows(t, out), sum.Records
	}
	// A plain pull is a look: it marks nothing, so the --new pull cron
	// runs still hands the order to the warehouse.
	if rows, n := pull("look.csv"); n != 1 || len(rows) != 2 {
		t.Fatalf("a plain pull: %d fulfillments, rows %v; want 1 and 2 lines", n, rows)
	}
	rows, n := pull("first.csv", "--new")
	if n != 1 || len(rows) != 2 {
		t.Fatalf("first pull: %d fulfillments, rows %v; want 1 and 2 lines", n, rows)
	}
	for _, r := range rows {
		want := map[string]string{"MUG-1": "2", "TEE-S": "1"}[r["sku"]]
		if r["quantity"] != want || r["quantity_left"] != want || r["quantity_shipped"] != "0" || r["ship_to_company"] != "Acme" || r["fulfillment_id"] == "" {
			t.Errorf("line %v", r)
		}
	}
	order(sandbox.OrderLine{SKU: "CAP-1", Quantity: 1})
	if rows, n := pull("second.csv", "--new"); n != 1 || len(rows) != 1 || rows[0]["sku"] != "CAP-1" {
		t.Errorf("a second --new pull: %d fulfillments, %v; want only the new one", n, rows)
	}
	if rows, n := pull("third.csv", "--new"); n != 0 || len(rows) != 0 {
		t.Errorf("a third --new pull: %d fulfillments, %v; want none", n, rows)
	}
	if _, err := os.Stat(filepath.Join(dir, "third.csv")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a --new pull that found nothing new wrote a file (%v): it would replace one the warehouse has not read", err)
	}
	id := rows[0]["fulfillment_id"]
	if r := lading(ctx, append(common, "fulfillments", "status", id, "picking")...); r.err != nil {
		t.Fatalf("status: %v\n%s", r.err, r.output())
	}
	all, n := pull("all.csv")
	if n != 2 {
		t.Errorf("a pull without --new: %d fulfillments, want 2", n)
	}
	for _, r := range all {
		if r["fulfillment_id"] == id && r["status"] != "picking" {
			t.Errorf("fulfillment %s: status %q after status picking", id, r["status"])
		}
	}
}

// pullAccount is a sandbox account holding the corpus catalog with 20
// units of each variant in the token's warehouse (so that its orders'
// fulfillments open), the flags that reach it, a folder for the test's
// files and the state file.
func pullAccount(t *testing.T) (e *env, common []string, dir, st string) {
	t.Helper()
	e = newEnv(t, sandbox.Options{}, wire.APIPrefix)
	dir = t.TempDir()
	common = []string{"--base-url", e.base, "--token", testToken, "--quiet"}
	st = filepath.Join(dir, "state.db")
	importGood(t, common, dir, st)
	var levels []api.StockLevel
	for v, err := range e.c.Variants.List(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		levels = append(levels, api.StockLevel{VariantID: v.ID, WarehouseID: api.ID(e.acct.WarehouseID), Units: 20})
	}
	if _, err := e.c.Stock.SetAvailable(context.Background(), levels); err != nil {
		t.Fatal(err)
	}
	return e, common, dir, st
}

// readRows reads a CSV order file into rows by header.
func readRows(t *testing.T, path string) []map[string]string {
	t.Helper()
	header, recs := readCSV(t, path)
	var rows []map[string]string
	for _, rec := range recs {
		row := map[string]string{}
		for i, h := range header {
			row[h] = rec[i]
		}
		rows = append(rows, row)
	}
	return rows
}

// readCSV reads a CSV file's header and rows; rows may have more or fewer
// cells than the header.
func readCSV(t *testing.T, path string) (header []string, rows [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s: no header", path)
	}
	return recs[0], recs[1:]
}

// TestCLIPullShipStream: --template shipstream writes the header of
// ShipStream's published order import sample, cell for cell, and one row
// per line to ship with the ship-to address, the name split in two, both
// street lines in street1, the phone (the address's, else the customer's)
// and the quantity left; shipping_method is empty.
func TestCLIPullShipStream(t *testing.T) {
	t.Parallel()
	e, common, dir, st := pullAccount(t)
	ctx := context.Background()
	for _, o := range []sandbox.OrderSpec{
		{ShippingAddress: map[string]string{"contact": "Ana María Pérez", "street1": "1 Main St", "street2": "Apt 4",
			"city": "Springfield", "state": "IL", "zip": "62701", "country": "US"},
			Contact: map[string]string{"name": "Ana Pérez", "email": "ana@example.com", "phone": "217-555-0199"},
			Lines:   []sandbox.OrderLine{{SKU: "MUG-1", Quantity: 2}, {SKU: "TEE-S", Quantity: 1}}},
		{ShippingAddress: map[string]string{"contact": "Bo", "company": "Acme GmbH", "street1": "Hauptstr. 5",
			"city": "Berlin", "zip": "10115", "country": "DE", "phone": "+49 30 1234567"},
			Lines: []sandbox.OrderLine{{SKU: "CAP-1", Quantity: 3}}},
	} {
		o.Token = testToken
		if _, err := e.srv.CreateOrder(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	// The tee ships in full: the order file asks only for what is left.
	for f, err := range e.c.Fulfillments.ListPages(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range f.Records {
			for _, li := range f.FulfillmentLines(x) {
				if li.SKU == "TEE-S" {
					_, err := e.c.Fulfillments.PostShipments(ctx, []api.ShipmentWrite{{ShippedAt: "2026-11-21T10:00:00+0000", TrackingNumber: "T1",
						Links: api.ShipmentLinks{Fulfillments: []api.Ref{{ID: x.ID}}, LineItems: []api.LineItemRef{{ID: li.ID, Quantity: "1"}}}}})
					if err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	out, own := filepath.Join(dir, "shipstream.csv"), filepath.Join(dir, "lading.csv")
	for _, args := range [][]string{{"--template", "shipstream", "-o", out}, {"-o", own}} {
		r := lading(ctx, append(append(common, "fulfillments", "pull", "--state", st), args...)...)
		if r.err != nil {
			t.Fatalf("pull %v: %v\n%s", args, r.err, r.output())
		}
	}
	want, _ := readCSV(t, filepath.Join("..", "testdata", "orders", "shipstream-order-import-sample.csv"))
	got, rows := readCSV(t, out)
	if !slices.Equal(got, want) {
		t.Errorf("header\n %q\nwant ShipStream's\n %q", got, want)
	}
	// The order numbers are the account's; lading's own layout says them.
	orderOf := map[string]string{}
	for _, r := range readRows(t, own) {
		orderOf[r["sku"]] = r["order_number"]
		if r["sku"] == "TEE-S" && r["quantity_left"] != "0" {
			t.Errorf("lading's layout: the tee has %s left, want its line with 0", r["quantity_left"])
		}
	}
	wantRows := map[string][]string{ // by sku: shipping_method ... qty, order_ref apart
		"MUG-1": {"", "Ana María", "Pérez", "", "1 Main St, Apt 4", "Springfield", "IL", "62701", "US", "217-555-0199", "MUG-1", "2"},
		"CAP-1": {"", "Bo", "", "Acme GmbH", "Hauptstr. 5", "Berlin", "", "10115", "DE", "+49 30 1234567", "CAP-1", "3"},
	}
	if len(rows) != len(wantRows) {
		t.Fatalf("%d rows, want %d:\n%q", len(rows), len(wantRows), rows)
	}
	for _, row := range rows {
		sku := row[11]
		if w, ok := wantRows[sku]; !ok || !slices.Equal(row[1:], w) || row[0] == "" || row[0] != orderOf[sku] {
			t.Errorf("row %q\nwant [%s] + %q", row, orderOf[sku], w)
		}
	}
	if orderOf["MUG-1"] != orderOf["TEE-S"] || orderOf["MUG-1"] == orderOf["CAP-1"] {
		t.Errorf("order numbers %v: want the mug and the tee in one order, the cap in another", orderOf)
	}

	// A copy of the template, edited: --template takes a file too.
	show := lading(ctx, "templates", "show", "shipstream")
	mine := filepath.Join(dir, "mine.yaml")
	text := strings.Replace(show.stdout.String(), `{header: shipping_method, value: ""}`, `{header: shipping_method, value: "Ground"}`, 1)
	if err := os.WriteFile(mine, []byte(text), 0o644); err != nil || !strings.Contains(text, "Ground") {
		t.Fatalf("editing the template: %v\n%s", err, text)
	}
	edited := filepath.Join(dir, "edited.csv")
	if r := lading(ctx, append(common, "fulfillments", "pull", "--state", st, "--template", mine, "-o", edited)...); r.err != nil {
		t.Fatalf("pull with %s: %v\n%s", mine, r.err, r.output())
	}
	if _, rows := readCSV(t, edited); len(rows) != 2 || rows[0][1] != "Ground" {
		t.Errorf("pull with an edited template: %q, want shipping_method Ground", rows)
	}
}

// built is the lading command, built once for the tests that run it as a
// process of its own, into a folder TestMain removes.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// ladingBinary builds the lading command, once for all the tests that run
// it as a process of its own (signals, exit codes), and returns its path.
func ladingBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			built.err = fmt.Errorf("building lading needs the go command: %w", err)
			return
		}
		if built.dir, built.err = os.MkdirTemp("", "lading-e2e-"); built.err != nil {
			return
		}
		bin := filepath.Join(built.dir, "lading")
		cmd := exec.Command(goTool, "build", "-o", bin, "lading")
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %w\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// pullLine is what a pull prints with --json.
type pullLine struct {
	Files   []string `json:"files"`
	Records int      `json:"records"`
}

// TestCLIPullEvery runs lading fulfillments pull --new --every 1s as a
// process: an order entered between two pulls is in the next pull's file
// only, a pull that finds nothing new writes no file, a second --new pull
// meanwhile exits 4 naming the running one, and SIGTERM between pulls
// ends it with exit 0.
func TestCLIPullEvery(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("SIGTERM is not sent on Windows")
	}
	bin := ladingBinary(t)
	e, _, dir, st := pullAccount(t)
	order := func(sku string) {
		t.Helper()
		_, err := e.srv.CreateOrder(context.Background(), sandbox.OrderSpec{Token: testToken,
			ShippingAddress: map[string]string{"contact": "Ana Pérez", "street1": "1 Main St", "city": "Springfield", "country": "US"},
			Lines:           []sandbox.OrderLine{{SKU: sku, Quantity: 1}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	order("MUG-1")
	outDir := filepath.Join(dir, "out")
	if err := os.Mkdir(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	pullArgs := []string{"--base-url", e.base, "--token", testToken, "fulfillments", "pull", "--new", "--state", st, "--json"}
	cmd := exec.Command(bin, append(pullArgs, "--every", "1s", "--template", "shipstream", "-o", filepath.Join(outDir, "orders-{time}.csv"))...)
	var stdout, stderr syncbuf.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	waited := false
	defer func() {
		if !waited {
			cmd.Process.Kill()
			<-exited
		}
	}()
	// next waits for the pull after the n read so far and returns it.
	n := 0
	next := func() pullLine {
		t.Helper()
		n++
		lines := waitLines(t, &stdout, &stderr, n)
		var l pullLine
		if err := json.Unmarshal([]byte(lines[n-1]), &l); err != nil {
			t.Fatalf("pull %d printed %q: %v", n, lines[n-1], err)
		}
		return l
	}
	skus := func(l pullLine) []string {
		t.Helper()
		if len(l.Files) != 1 {
			t.Fatalf("pull %d wrote %q, want one file", n, l.Files)
		}
		_, rows := readCSV(t, l.Files[0])
		var out []string
		for _, r := range rows {
			out = append(out, r[11])
		}
		return out
	}
	first := next()
	if got := skus(first); !slices.Equal(got, []string{"MUG-1"}) {
		t.Errorf("the first pull wrote %q, want the mug's order", got)
	}

	// A second --new pull while the first process runs: exit 4, nothing written.
	other := filepath.Join(dir, "other.csv")
	out, err := exec.Command(bin, append(pullArgs, "-o", other)...).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 4 {
		t.Errorf("a second --new pull: %v, want exit 4\n%s", err, out)
	}
	holder := regexp.MustCompile(`another lading process \(pid (\d+) on .*\) is running a fulfillments pull`).FindSubmatch(out)
	if holder == nil || string(holder[1]) != strconv.Itoa(cmd.Process.Pid) {
		t.Errorf("the second pull says %q, want it to name pid %d", out, cmd.Process.Pid)
	}
	if _, err := os.Stat(other); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the locked-out pull wrote %s (%v)", other, err)
	}

	order("CAP-1")
	var second pullLine
	for second = next(); second.Records == 0; second = next() {
		if second.Files != nil {
			t.Errorf("pull %d found nothing new but wrote %q", n, second.Files)
		}
		if n > 20 {
			t.Fatal("the new order was not pulled in 20 pulls")
		}
	}
	if got := skus(second); !slices.Equal(got, []string{"CAP-1"}) || second.Files[0] == first.Files[0] {
		t.Errorf("the pull after a new order wrote %q to %s, want only the cap's order, in a file of its own", got, second.Files[0])
	}
	if l := next(); l.Records != 0 || l.Files != nil {
		t.Errorf("a pull with nothing new: %+v, want no file", l)
	}
	names, err := os.ReadDir(outDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 2 {
		t.Errorf("the folder holds %v, want the two order files only", names)
	}

	// SIGTERM once the last pull has said when the next one is.
	waitFor(t, &stderr, regexp.MustCompile(fmt.Sprintf(`(?s)((?:next pull at [\d:]+\n.*){%d})`, n)))
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		waited = true
		if err != nil {
			t.Errorf("SIGTERM between pulls: %v, want exit 0\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no exit within 10 s of SIGTERM")
	}
}

// waitLines waits until out holds n whole lines, and returns them.
func waitLines(t *testing.T, out, errs *syncbuf.Buffer, n int) []string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if lines := strings.SplitAfter(out.String(), "\n"); len(lines) > n {
			return lines[:n]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no %d lines of output within 15 s:\n%s\n%s", n, out.String(), errs.String())
	return nil
}
