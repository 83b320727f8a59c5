package e2e

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/app"
	"lading/internal/syncbuf"
	"lading/ops"
	"lading/sandbox"
	"lading/sandbox/sandboxtest"
	"lading/state"
)

// The 3PL of issue 21: three merchants' accounts on one sandbox, each
// with its own token: acme (sandboxtest.Token) and globex, which the
// sandbox knows, and broken, whose token it refuses.
const (
	globexToken = "globex-token-0123456789"
	brokenToken = "refused-token-0123456789"
)

// threePL is a 3PL's world for lading run: the sandbox, the user's
// folders (config and data), the folders and files its jobs file names.
type threePL struct {
	t      *testing.T
	e      *sandboxtest.Env
	globex *api.Client
	dir    string
	home   map[string]string // XDG_CONFIG_HOME, XDG_DATA_HOME, HOME
	// fulfillments are acme's open fulfillments, with their line items
	// by SKU.
	fulfillments []api.ID
	items        map[api.ID]map[string]api.ID
}

func newThreePL(t *testing.T, opts sandbox.Options, orders int) *threePL {
	t.Helper()
	e := sandboxtest.New(t, opts)
	if _, err := e.Srv.RegisterToken(globexToken); err != nil {
		t.Fatal(err)
	}
	w := &threePL{t: t, e: e, globex: e.Client(globexToken), dir: e.Dir, items: map[api.ID]map[string]api.ID{}}
	w.home = map[string]string{"HOME": filepath.Join(w.dir, "home"), "XDG_CONFIG_HOME": filepath.Join(w.dir, "config"), "XDG_DATA_HOME": filepath.Join(w.dir, "data")}
	for name, token := range map[string]string{"acme": sandboxtest.Token, "globex": globexToken, "broken": brokenToken} {
		w.write(name+".token", token+"\n")
	}
	for _, sub := range []string{"in", "orders", "reports"} {
		if err := os.MkdirAll(filepath.Join(w.dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.seedSKUs(e.C, 3)
	w.seedSKUs(w.globex, 3)
	for range orders {
		_, err := e.Srv.CreateOrder(t.Context(), sandbox.OrderSpec{Token: sandboxtest.Token, ShippingAddress: map[string]string{"contact": "Ada", "city": "London"},
			Lines: []sandbox.OrderLine{{SKU: "SKU-0", Quantity: 1}, {SKU: "SKU-1", Quantity: 2}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	w.readFulfillments()
	if len(w.fulfillments) != orders {
		t.Fatalf("%d open fulfillments of %d orders", len(w.fulfillments), orders)
	}
	return w
}

// seedSKUs gives the account of c a product with n variants SKU-0 ...,
// 1,000 units each.
func (w *threePL) seedSKUs(c *api.Client, n int) {
	w.t.Helper()
	p := api.ProductWrite{Name: api.String("Tee"), Links: &api.ProductLinks{Attributes: []api.AttributeRef{{Name: "Size"}}}}
	for i := range n {
		p.Links.Variants = append(p.Links.Variants, api.VariantWrite{SKU: api.String(fmt.Sprint("SKU-", i)), Quantity: api.String("1000"),
			Links: &api.VariantLinks{AttributeOptions: []api.OptionRef{{Value: fmt.Sprint("S", i), Attribute: "Size"}}}})
	}
	if res, err := c.Products.Write(w.t.Context(), []api.ProductWrite{p}); err != nil || len(res.Failed) > 0 {
		w.t.Fatalf("seeding: %v %v", err, res)
	}
}

func (w *threePL) readFulfillments() {
	for p, err := range w.e.C.Fulfillments.ListPages(w.t.Context(), &api.ListOptions{PageSize: wire.MaxPageSize}) {
		if err != nil {
			w.t.Fatal(err)
		}
		for _, f := range p.Records {
			w.fulfillments = append(w.fulfillments, f.ID)
			w.items[f.ID] = map[string]api.ID{}
			for _, li := range p.FulfillmentLines(f) {
				w.items[f.ID][string(li.SKU)] = li.ID
			}
		}
	}
}

// write writes a file of the world and returns its path.
func (w *threePL) write(name, text string) string {
	w.t.Helper()
	p := filepath.Join(w.dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return p
}

// drop writes a file into a drop folder as a warehouse system does: under
// a name the runner does not take, then renamed into place.
func (w *threePL) drop(name, text string) {
	w.t.Helper()
	part := w.write(name+".part", text)
	if err := os.Rename(part, filepath.Join(w.dir, name)); err != nil {
		w.t.Fatal(err)
	}
}

// shipments is a confirmation file shipping each fulfillment of fs in
// full, one parcel each, tracked as prefix and the fulfillment's number.
func (w *threePL) shipments(prefix string, fs []api.ID) string {
	var b strings.Builder
	cw := csv.NewWriter(&b)
	cw.Write([]string{"fulfillment_id", "line_item_id", "quantity", "tracking_number", "carrier"})
	for i, f := range fs {
		t := fmt.Sprintf("%s%04d", prefix, i)
		cw.Write([]string{string(f), string(w.items[f]["SKU-0"]), "1", t, "UPS"})
		cw.Write([]string{string(f), string(w.items[f]["SKU-1"]), "2", t, "UPS"})
	}
	cw.Flush()
	return b.String()
}

// jobsFile writes the jobs file text, with DIR the world's folder and URL
// the sandbox's, and returns its path.
func (w *threePL) jobsFile(text string) string {
	w.t.Helper()
	return w.write("jobs.yaml", strings.NewReplacer("DIR", w.dir, "URL", w.e.URL).Replace(text))
}

// accounts is the accounts: section of the three accounts.
const accounts = `accounts:
  acme: {base_url: "URL", token_file: DIR/acme.token, rate: 200, burst: 20}
  globex: {base_url: "URL", token_file: DIR/globex.token, rate: 200, burst: 20}
  broken: {base_url: "URL", token_file: DIR/broken.token}
`

// getenv reads the world's environment.
func (w *threePL) getenv(k string) string { return w.home[k] }

// environ is the environment of a lading process of the world.
func (w *threePL) environ() []string {
	env := os.Environ()
	for k, v := range w.home {
		env = append(env, k+"="+v)
	}
	return env
}

// shipmentWrites counts the shipment writes the sandbox took.
func (w *threePL) shipmentWrites() int64 {
	return w.e.Srv.Counters().Requests[wire.WritePath(wire.Shipments)]
}

// shipped counts the shipments of each of acme's fulfillments by
// tracking number.
func (w *threePL) shipped() map[string]int {
	w.t.Helper()
	n := map[string]int{}
	for i := 0; i < len(w.fulfillments); i += wire.MaxPageSize {
		p, err := w.e.C.Fulfillments.Get(w.t.Context(), w.fulfillments[i:min(i+wire.MaxPageSize, len(w.fulfillments))]...)
		if err != nil {
			w.t.Fatal(err)
		}
		for _, f := range p.Records {
			for _, s := range p.ShipmentsOf(f) {
				n[string(s.TrackingNumber)]++
			}
		}
	}
	return n
}

// until waits, up to a minute, for cond; what says what is awaited, and
// out, if given, what lading said meanwhile.
func until(t *testing.T, what string, cond func() bool, out ...fmt.Stringer) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s; lading said:\n%v", what, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// answered waits until srv has answered every call that arrived, so that
// no write of a lading stopped midway is applied after the next one has
// looked in the account for it (a late write the service applies after
// that look is one no client can tell from a lost one).
func answered(t *testing.T, srv *sandbox.Server) {
	t.Helper()
	until(t, "the sandbox to answer the calls of the lading stopped", func() bool { return srv.Counters().InFlight == 0 })
}

// exists reports whether the world has the file name.
func (w *threePL) exists(name string) bool {
	_, err := os.Stat(filepath.Join(w.dir, name))
	return err == nil
}

// The jobs file of the issue, for three accounts, under lading run: stock
// pushes (a refused token among them), a pull of new fulfillments, a
// shipments drop folder and a monthly export that is due. Files dropped
// while it runs are run once and moved with their results; the same file
// dropped again under another name posts nothing; the refused account
// stops no other and shows in the metrics; SIGHUP's reload adds a job.
func TestRunJobsOfThreeAccounts(t *testing.T) {
	w := newThreePL(t, sandbox.Options{}, 4)
	w.write("acme-stock.csv", "sku,quantity\nSKU-0,7\nSKU-1,8\nSKU-2,9\n")
	w.write("globex-stock.csv", "sku,quantity\nSKU-0,17\nSKU-1,18\n")
	file := w.jobsFile(accounts + `jobs:
  - {account: acme, job: stock push, file: DIR/acme-stock.csv, template: stock, every: 100ms, settle: 0s}
  - {account: globex, job: stock push, file: DIR/globex-stock.csv, template: stock, every: 100ms, settle: 0s}
  - {account: broken, job: stock push, file: DIR/globex-stock.csv, template: stock, every: 100ms, settle: 0s, results: DIR/broken.results.csv}
  - {account: acme, job: fulfillments pull, output: "DIR/orders/{time}.csv", new: true, every: 100ms}
  - {account: acme, job: shipments push, folder: DIR/in, template: shipments, every: 100ms, settle: 100ms}
  - {account: acme, job: export, report: packing-slips, template: accounting-slips, output: "DIR/reports/{month}.xlsx", schedule: "0 6 1 * *", zone: Europe/Berlin}
`)
	// The export was first seen 40 days ago and has not run since: its
	// time on the 1st was missed, and it is caught up at start.
	berlin, _ := time.LoadLocation("Europe/Berlin")
	seenExport(t, w, time.Now().Add(-40*24*time.Hour))

	stderr := &syncbuf.Buffer{}
	reload := make(chan struct{})
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- app.Run(ctx, app.Env{Stdout: io.Discard, Stderr: stderr, Getenv: w.getenv, Local: time.UTC,
			APIOptions: fastClient, Reload: func() <-chan struct{} { return reload }},
			[]string{"lading", "run", file, "--metrics-addr", "127.0.0.1:0", "--log-format", "json"})
	}()
	metrics := "http://" + waitFor(t, stderr, regexp.MustCompile(`"metrics_addr":"([^"]+)"`)) + "/metrics"

	until(t, "both accounts' levels pushed", func() bool {
		return level(t, w.e.C, "SKU-2") == 9 && level(t, w.globex, "SKU-1") == 18
	})
	until(t, "the orders file and the monthly export", func() bool {
		orders, _ := filepath.Glob(filepath.Join(w.dir, "orders", "*.csv"))
		return len(orders) == 1 && w.exists(filepath.Join("reports", time.Now().In(berlin).Format("2006-01")+".xlsx"))
	})

	// Two fulfillments shipped in one file, then the same file again
	// under another name.
	w0 := w.shipmentWrites()
	text := w.shipments("1ZRUN", w.fulfillments[:2])
	w.drop("in/shipped-1.csv", text)
	until(t, "shipped-1.csv moved to done/ with its results", func() bool {
		return w.exists("in/done/shipped-1.csv") && w.exists("in/done/shipped-1.csv.results.csv")
	})
	if n := w.shipmentWrites() - w0; n != 1 {
		t.Errorf("shipped-1.csv took %d shipment writes, want 1 (two shipments)", n)
	}
	w.drop("in/shipped-again.csv", text)
	until(t, "shipped-again.csv moved to done/", func() bool { return w.exists("in/done/shipped-again.csv.results.csv") })
	if n := w.shipmentWrites() - w0; n != 1 {
		t.Errorf("the same file under another name took %d more shipment writes, want none", n-1)
	}
	if res := readFile(t, filepath.Join(w.dir, "in/done/shipped-again.csv.results.csv")); strings.Count(res, ",already shipped,") != 4 {
		t.Errorf("the second file's results do not say its 4 rows were already shipped:\n%s", res)
	}
	for tracking, n := range w.shipped() {
		if n != 1 {
			t.Errorf("tracking number %s shipped %d times", tracking, n)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(w.dir, "in", "*.csv")); len(left) != 0 {
		t.Errorf("files left in the drop folder: %v", left)
	}

	// The refused account: its runs fail, the others' go on, and the
	// metrics say so.
	m := scrape(t, metrics)
	for _, want := range []string{`lading_job_runs_total{account="broken",job_name="stock push",outcome="failed"}`,
		`lading_job_runs_total{account="acme",job_name="stock push",outcome="ok"}`, `lading_job_runs_total{account="globex",job_name="stock push",outcome="ok"}`,
		`lading_job_rows_total{account="acme",action="posted",job_name="shipments push"}`, `lading_job_requests_total{account="acme",job_name="shipments push"}`} {
		if m[want] < 1 {
			t.Errorf("%s = %v, want 1 or more", want, m[want])
		}
	}
	if m[`lading_job_last_success_timestamp_seconds{account="broken",job_name="stock push"}`] != 0 ||
		m[`lading_job_last_success_timestamp_seconds{account="acme",job_name="export"}`] < float64(time.Now().Add(-time.Minute).Unix()) {
		t.Errorf("the last successes: broken %v, acme's export %v", m[`lading_job_last_success_timestamp_seconds{account="broken",job_name="stock push"}`],
			m[`lading_job_last_success_timestamp_seconds{account="acme",job_name="export"}`])
	}
	if _, ok := m[`lading_folder_files_waiting{account="acme",folder="`+filepath.Join(w.dir, "in")+`",job_name="shipments push"}`]; !ok {
		t.Error("no lading_folder_files_waiting for acme's drop folder")
	}
	if res, err := http.Get(strings.TrimSuffix(metrics, "/metrics") + "/healthz"); err != nil || res.StatusCode != 200 {
		t.Errorf("/healthz: %v %v", res, err)
	}

	// SIGHUP: the file gains an export of globex's products.
	w.jobsFile(strings.Replace(readFile(t, file), "jobs:\n", "jobs:\n  - {account: globex, job: export, report: products, output: DIR/reports/globex.csv, every: 1h}\n", 1))
	reload <- struct{}{}
	until(t, "globex's export after the reload", func() bool { return w.exists("reports/globex.csv") })

	stop()
	if err := <-done; err != nil {
		t.Fatalf("lading run stopped with %v", err)
	}
	checkRunLines(t, stderr.String())
}

// seenExport records in acme's state that its export job was first seen
// at seen, as a runner started then would have.
func seenExport(t *testing.T, w *threePL, seen time.Time) {
	t.Helper()
	dirs := ops.Dirs{Config: w.home["XDG_CONFIG_HOME"], Data: w.home["XDG_DATA_HOME"]}
	st, err := state.Open(dirs.StatePath("acme"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, _ := json.Marshal(ops.Times{Seen: seen})
	if err := st.PutIDs(t.Context(), state.KeyJobTimes("acme"), map[string]string{"export": string(b)}); err != nil {
		t.Fatal(err)
	}
}

// checkRunLines checks lading run's JSON log: one object a line, one line
// a run naming its account and job, and no token anywhere.
func checkRunLines(t *testing.T, log string) {
	t.Helper()
	runs := 0
	for line := range strings.Lines(log) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		if m["outcome"] != nil {
			runs++
			if m["account"] == "" || m["job"] == "" || m["kind"] == "" {
				t.Errorf("a run's line without its account or job: %s", line)
			}
		}
	}
	for _, token := range []string{sandboxtest.Token + "\"", globexToken, brokenToken} {
		if strings.Contains(log, token) {
			t.Errorf("the log shows the token %s", token)
		}
	}
	if runs < 10 {
		t.Errorf("%d run lines in the log", runs)
	}
}

// level is the units of sku available in c's account (all in the
// token's warehouse).
func level(t *testing.T, c *api.Client, sku string) float64 {
	t.Helper()
	vs, err := c.Variants.BySKU(t.Context(), []string{sku})
	if err != nil || vs[sku] == nil {
		t.Fatalf("reading %s: %v", sku, err)
	}
	f, _ := vs[sku].Available.Float()
	return f
}

// scrape reads the metrics at url: each series with its labels, as
// Prometheus's text format writes it, and its value.
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		i := strings.LastIndexByte(line, ' ')
		if strings.HasPrefix(line, "#") || i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err == nil {
			out[line[:i]] = v
		}
	}
	return out
}

// readFile is the text of the file at path.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// seedMany gives the account of c n more variants, prefix0000 ..., in
// products of 100, 100 units each.
func (w *threePL) seedMany(c *api.Client, prefix string, n int) {
	w.t.Helper()
	var prods []api.ProductWrite
	for start := 0; start < n; start += 100 {
		p := api.ProductWrite{Name: api.String(prefix + fmt.Sprint(start)), Links: &api.ProductLinks{Attributes: []api.AttributeRef{{Name: "Size"}}}}
		for i := start; i < min(start+100, n); i++ {
			p.Links.Variants = append(p.Links.Variants, api.VariantWrite{SKU: api.String(fmt.Sprintf("%s%04d", prefix, i)), Quantity: api.String("100"),
				Links: &api.VariantLinks{AttributeOptions: []api.OptionRef{{Value: fmt.Sprint("S", i), Attribute: "Size"}}}})
		}
		prods = append(prods, p)
	}
	if res, err := c.Products.Write(w.t.Context(), prods); err != nil || len(res.Failed) > 0 {
		w.t.Fatalf("seeding: %v %v", err, res)
	}
}

// runner is a lading run process of the world.
type runner struct {
	cmd  *exec.Cmd
	out  *syncbuf.Buffer
	done chan error
}

func (w *threePL) start(bin string, args ...string) *runner {
	w.t.Helper()
	r := &runner{cmd: exec.Command(bin, append([]string{"run"}, args...)...), out: &syncbuf.Buffer{}, done: make(chan error, 1)}
	r.cmd.Env = w.environ()
	r.cmd.Stdout, r.cmd.Stderr = r.out, r.out
	if err := r.cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	go func() { r.done <- r.cmd.Wait() }()
	w.t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			r.cmd.Process.Kill()
			<-r.done
		}
	})
	return r
}

// stop sends sig and returns the exit code, within a minute. It waits
// for lading run to say that it is running its jobs first: a signal that
// came before lading listens for it would end the process as Go's default
// does (the writes of a run killed just before may reach the sandbox
// after the next one started, but before it listens).
func (r *runner) stop(t *testing.T, sig os.Signal) int {
	t.Helper()
	until(t, "lading run to start its jobs", func() bool { return strings.Contains(r.out.String(), "running ") })
	if err := r.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-r.done:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return r.cmd.ProcessState.ExitCode()
	case <-time.After(time.Minute):
		r.cmd.Process.Kill()
		t.Fatalf("lading run did not stop within a minute of %v:\n%s", sig, r.out)
	}
	return 0
}

// writes counts the stock and shipment writes the sandbox took.
func (w *threePL) writes() int64 { return w.e.Srv.Counters().StockWrites + w.shipmentWrites() }

// lading run killed (SIGKILL) while it pushes stock and posts the files of
// a drop folder, started again, stopped (SIGTERM) midway and started
// again, leaves every level set once, every fulfillment shipped once, and
// every file in done/ with its results; SIGHUP reads the jobs file again,
// and SIGTERM ends it with exit 0.
func TestRunKilledAndStartedAgain(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGTERM is not sent on Windows")
	}
	bin := ladingBinary(t)
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	const (
		files, perFile = 6, 10
		skus, batch    = 600, 10
	)
	w := newThreePL(t, sandbox.Options{}, files*perFile)
	w.seedMany(w.e.C, "K", skus)
	var stock strings.Builder
	stock.WriteString("sku,quantity\n")
	for i := range skus {
		fmt.Fprintf(&stock, "K%04d,%d\n", i, 200+i)
	}
	w.write("stock.csv", stock.String())
	for i := range files {
		w.write(fmt.Sprintf("in/shipped-%d.csv", i), w.shipments(fmt.Sprintf("1ZK%d-", i), w.fulfillments[i*perFile:(i+1)*perFile]))
	}
	file := w.jobsFile(accounts + `jobs:
  - {account: acme, job: stock push, file: DIR/stock.csv, template: stock, batch-size: 10, every: 100ms, settle: 0s}
  - {account: acme, job: shipments push, folder: DIR/in, template: shipments, batch-size: 1, every: 100ms, settle: 0s}
`)
	// Latency keeps the writes slow enough to be caught midway.
	w.e.Restart(sandbox.Options{Latency: 3 * time.Millisecond})
	levels0 := w.e.Srv.Counters().LevelsSet
	total := int64(skus/batch + files*perFile)
	k1 := int64(3 + rng.IntN(int(total/2)))
	k2 := k1 + int64(3+rng.IntN(int(total/4)))
	t.Logf("seed %d: SIGKILL after %d writes, SIGTERM after %d, of %d", seed, k1, k2, total)

	r := w.start(bin, "--log-format", "json", file)
	until(t, fmt.Sprintf("%d writes", k1), func() bool { return w.writes() >= k1 })
	if err := r.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-r.done
	answered(t, w.e.Srv)
	r = w.start(bin, "--log-format", "json", file)
	until(t, fmt.Sprintf("%d writes", k2), func() bool { return w.writes() >= k2 })
	if code := r.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("SIGTERM during the runs: exit %d, want 0:\n%s", code, r.out)
	}
	answered(t, w.e.Srv)
	r = w.start(bin, "--log-format", "json", file)
	until(t, "every level set and every file moved", func() bool {
		moved, _ := filepath.Glob(filepath.Join(w.dir, "in", "done", "shipped-*.csv.results.csv"))
		failed, _ := filepath.Glob(filepath.Join(w.dir, "in", "failed", "shipped-*.csv.results.csv"))
		return w.e.Srv.Counters().LevelsSet-levels0 >= skus && len(moved)+len(failed) == files
	}, r.out)
	// SIGHUP reads the jobs file again: it gains an export.
	w.jobsFile(strings.Replace(readFile(t, file), "jobs:\n", "jobs:\n  - {account: globex, job: export, report: tags, output: DIR/tags.csv, every: 1h}\n", 1))
	if err := r.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	until(t, "globex's export after SIGHUP", func() bool { return w.exists("tags.csv") }, r.out)
	if code := r.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("SIGTERM: exit %d, want 0:\n%s", code, r.out)
	}
	if n := w.e.Srv.Counters().LevelsSet - levels0; n != skus {
		t.Errorf("%d levels set for %d rows: some were sent twice", n, skus)
	}
	shipped := w.shipped()
	if len(shipped) != files*perFile {
		t.Errorf("%d tracking numbers shipped, want %d", len(shipped), files*perFile)
	}
	for tracking, n := range shipped {
		if n != 1 {
			t.Errorf("%s shipped %d times", tracking, n)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(w.dir, "in", "*.csv")); len(left) > 0 {
		t.Errorf("files left in the drop folder: %v", left)
	}
	if failed, _ := filepath.Glob(filepath.Join(w.dir, "in", "failed", "*.results.csv")); len(failed) > 0 {
		t.Errorf("files moved to failed/: %v\n%s", failed, readFile(t, failed[0]))
	}
	if got := level(t, w.e.C, "K0599"); got != 799 {
		t.Errorf("K0599: %v units, want 799", got)
	}
}

// lading run --once runs the jobs that are due and exits 0 when they all
// did their work, 1 when a run failed, 3 when rows failed; --only runs one
// account's.
func TestRunOnce(t *testing.T) {
	bin := ladingBinary(t)
	w := newThreePL(t, sandbox.Options{}, 0)
	w.write("acme.csv", "sku,quantity\nSKU-0,5\n")
	w.write("globex.csv", "sku,quantity\nSKU-0,6\n")
	w.write("unknown.csv", "sku,quantity\nSKU-0,5\nNO-SUCH-SKU,1\n")
	for _, tc := range []struct {
		name string
		jobs string
		args []string
		code int
	}{
		{"all well", `  - {account: acme, job: stock push, file: DIR/acme.csv, template: stock, every: 1h, settle: 0s}
  - {account: globex, job: stock push, file: DIR/globex.csv, template: stock, every: 1h, settle: 0s}`, nil, 0},
		{"a refused token", `  - {account: acme, job: stock push, file: DIR/acme.csv, template: stock, every: 1h, settle: 0s}
  - {account: broken, job: stock push, file: DIR/globex.csv, template: stock, every: 1h, settle: 0s}`, nil, 1},
		{"only another account", `  - {account: globex, job: stock push, name: again, file: DIR/globex.csv, template: stock, every: 1h, settle: 0s}
  - {account: broken, job: stock push, name: again, file: DIR/globex.csv, results: DIR/broken.results.csv, template: stock, every: 1h, settle: 0s}`, []string{"--only", "globex"}, 0},
		{"a row that fails", `  - {account: acme, job: stock push, name: unknown, file: DIR/unknown.csv, template: stock, every: 1h, settle: 0s}`, nil, 3},
		{"a mistake in the file", `  - {account: acme, job: stock push, file: DIR/acme.csv, tempalte: stock, every: 1h}`, nil, 2},
	} {
		file := w.jobsFile(accounts + "jobs:\n" + tc.jobs + "\n")
		cmd := exec.Command(bin, append(append([]string{"run", "--once"}, tc.args...), file)...)
		cmd.Env = w.environ()
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d:\n%s", tc.name, code, tc.code, out)
		}
	}
	if level(t, w.e.C, "SKU-0") != 5 || level(t, w.globex, "SKU-0") != 6 {
		t.Error("the levels were not pushed")
	}
}
