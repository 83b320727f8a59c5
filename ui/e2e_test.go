package ui_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/xuri/excelize/v2"

	"lading/api"
	"lading/app"
	"lading/internal/syncbuf"
	"lading/ops"
	"lading/sandbox"
	"lading/ui"
)

type css = chromedp.CSS

// A person imports the sample catalog (a wrong layout chosen first, the
// right one taken from the page's suggestion), sees its preview, a dry
// run's diff filtered to one product, runs it, reads the results and
// downloads them; pushes a stock file with a bad row; exports variants
// with a condition (a wrong one first, shown at its row); reads the runs
// and the dry run of an undo. A form from another page and a request for
// another host name are refused. No page shows the token.
func TestPageEndToEnd(t *testing.T) {
	fx := newFixture(t, sandbox.Options{}, ui.Config{Jobs: jobsFile(t)})
	tb := newTab(t, fx)
	t.Run("import", func(t *testing.T) { tb.t = t; importCatalog(tb) })
	t.Run("changes", func(t *testing.T) { tb.t = t; importChanges(tb) })
	t.Run("invalid cells", func(t *testing.T) { tb.t = t; invalidCells(tb) })
	t.Run("stock", func(t *testing.T) { tb.t = t; pushStock(tb) })
	t.Run("shipments", func(t *testing.T) { tb.t = t; pushShipments(tb) })
	t.Run("slips", func(t *testing.T) { tb.t = t; pushSlips(tb) })
	t.Run("export", func(t *testing.T) { tb.t = t; exportVariants(tb) })
	t.Run("runs", func(t *testing.T) { tb.t = t; runsAndUndo(tb) })
	t.Run("jobs", func(t *testing.T) { tb.t = t; listJobs(tb) })
	t.Run("forged", func(t *testing.T) { tb.t = t; forgedRequests(tb) })
	tb.t = t
	tb.noToken()
}

func importCatalog(tb *tab) {
	fx := tb.fx
	tb.open("/", "h1")
	tb.look("home")
	tb.open("/import", "#file")
	tb.look("import")
	tb.follow("#mapping-problem", chromedp.SetUploadFiles(chromedp.ID("file"), []string{fx.catalog}), chromedp.SetValue(chromedp.ID("template"), "shopify"),
		chromedp.Click(css("form.panel button[type=submit]")))
	tb.has("#mapping-problem", "cannot be read through this mapping", "generic layout")
	if tb.count(".listing li.bad .msg") == 0 {
		tb.t.Error("the mapping's problems are not shown at their lines")
	}
	tb.look("import-mapping")
	tb.follow("#preview-h", chromedp.Click(css("#mapping-problem button")))
	tb.has("#preview", "26 rows read", "8 products", "Classic Cotton Tee", "TEE-BLA-S", "Color: Black", "Retail 24", "2 images")
	tb.look("import-preview")

	tb.follow("#diff-h", chromedp.Click(css("form[action$='/dry-run'] button")))
	tb.has(".summary", "8 created", "6 requests")
	tb.has("#diff", "Classic Cotton Tee", "new variant")
	tb.look("import-dry-run")

	tb.follow("#results-h", chromedp.Click(css(".actions form[action$='/run'] button")))
	tb.has(".summary", "8 created", "requests")
	tb.look("import-results")
	lines := readCSV(tb.t, tb.download("a[href$='run/download?format=csv']"))
	if len(lines) < 27 || strings.Join(lines[0][:3], ",") != "file,row,product_key" {
		tb.t.Errorf("the results CSV: %d lines, header %q", len(lines), lines[0])
	} else if lines[1][0] != "catalog.csv" {
		tb.t.Errorf("the results CSV names the file %q, want it as uploaded, catalog.csv", lines[1][0])
	}
	if x := tb.download("a[href$='run/download?format=xlsx']"); !bytes.HasPrefix(x, []byte("PK")) {
		tb.t.Errorf("the results XLSX is not a workbook: %q", x[:min(20, len(x))])
	}
}

// importChanges uploads the catalog again, after the import, with the
// tee's name and prices changed and the mug's name: the dry run says what
// would change, field by field, against the account.
func importChanges(tb *tab) {
	text, err := os.ReadFile(tb.fx.catalog)
	if err != nil {
		tb.t.Fatal(err)
	}
	changed := strings.Replace(string(text), "Classic Cotton Tee", "Classic Organic Tee", 1)
	changed = regexp.MustCompile(`(?m)^(tee-classic,.*),24,12\.5,`).ReplaceAllString(changed, "$1,26,13,")
	changed = strings.Replace(changed, "Enamel Camp Mug,", "Enamel Camp Mug 350 ml,", 1)
	if strings.Count(changed, ",26,13,") != 6 || !strings.Contains(changed, "Mug 350 ml") {
		tb.t.Fatal("the sample catalog is not as the test expects")
	}
	tb.upload("import", "catalog-spring.csv", changed, false)
	tb.follow("#diff-h", chromedp.Click(css("form[action$='/dry-run'] button")))
	tb.has(".summary", "2 updated", "6 unchanged", "variants6 updated20 unchanged")
	tb.has("#diff", "Classic Organic Tee", "Classic Cotton Tee", "26", "Enamel Camp Mug 350 ml")
	if n := tb.count("table.diff td.from"); n < 7 {
		tb.t.Errorf("%d changes shown, want the name's and the six variants' prices at least", n)
	}
	if strings.Contains(tb.text("main"), tb.fx.srv.Dir()) {
		tb.t.Errorf("the page names lading ui's private folder %s", tb.fx.srv.Dir())
	}
	tb.follow("#diff-h", chromedp.SetValue(chromedp.ID("action"), "updated"), chromedp.Click(css("form.filter button")))
	if n := tb.count("table.diff tbody"); n != 2 {
		tb.t.Errorf("the products to update: %d shown, want 2", n)
	}
	tb.look("import-dry-run-changes")
	tb.part("import-dry-run-diff", "#diff")
	tb.follow("#diff-h", chromedp.SetValue(chromedp.ID("action"), ""), chromedp.SetValue(chromedp.ID("q"), "mug"), chromedp.Click(css("form.filter button")))
	if n := tb.count("table.diff tbody"); n != 1 {
		tb.t.Errorf("searching mug shows %d products, want 1", n)
	}
	tb.has("table.diff", "Enamel")
}

// invalidCells uploads a copy of the catalog with a price and a weight
// that are not numbers: the preview marks their cells with their
// messages.
func invalidCells(tb *tab) {
	text, err := os.ReadFile(tb.fx.catalog)
	if err != nil {
		tb.t.Fatal(err)
	}
	bad := strings.Replace(string(text), "TEE-BLA-M,Black / M,0.22,7.5,084012300111,30,Color,Black,Size,M,,,24,", "TEE-BLA-M,Black / M,heavy,7.5,084012300111,30,Color,Black,Size,M,,,24 EUR,", 1)
	if bad == string(text) {
		tb.t.Fatal("the sample catalog's second row is not as the test expects")
	}
	tb.upload("import", "catalog-broken.csv", bad, false)
	tb.has("#preview", "1 with invalid values")
	if n := tb.count("tbody.invalid td.bad mark"); n < 2 {
		tb.t.Errorf("%d invalid cells marked, want the price's and the weight's", n)
	}
	tb.has("tbody.invalid", "heavy", "24 EUR")
	tb.look("import-preview-invalid")
}

func pushStock(tb *tab) {
	tb.pushFile("stock", "stock.csv", "sku,quantity\nTEE-BLA-M,40\nTEE-BLA-L,many\nTEE-WHI-S,0\nNOPE-1,3\n", func(step string) {
		switch step {
		case "preview":
			tb.has("#layout-h + p", "stock")
			if n := tb.count("tr.invalid td.bad mark"); n != 1 {
				tb.t.Errorf("%d cells marked invalid, want the quantity many", n)
			}
			tb.has("tr.invalid", "many", "invalid")
		case "dry-run":
			tb.has(".summary", "2 to send", "1 invalid", "1 unknown")
		case "results":
			tb.has(".summary", "2 sent")
			if first := tb.text("table.results tbody tr:first-child"); !strings.Contains(first, "invalid") && !strings.Contains(first, "unknown") {
				tb.t.Errorf("the first line of the results is not a failed one: %q", first)
			}
		}
	})
}

// pushFile writes text as name, uploads it on the page of kind, and
// previews, dry-runs and runs it, each page screenshotted (kind,
// kind-preview, kind-dry-run, kind-results) after check looks at it.
func (tb *tab) pushFile(kind, name, text string, check func(step string)) {
	tb.t.Helper()
	tb.upload(kind, name, text, true)
	check("preview")
	tb.look(kind + "-preview")
	tb.follow("#results-h", chromedp.Click(css("form[action$='/dry-run'] button")))
	check("dry-run")
	tb.look(kind + "-dry-run")
	tb.follow("#results-h", chromedp.Click(css(".actions form[action$='/run'] button")))
	check("results")
	tb.look(kind + "-results")
}

// upload writes text as name in the test's folder and uploads it on the
// page of kind (screenshotted first, as kind, when shoot), and waits for
// its preview.
func (tb *tab) upload(kind, name, text string, shoot bool) {
	tb.t.Helper()
	path := filepath.Join(tb.fx.dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		tb.t.Fatal(err)
	}
	tb.open("/"+kind, "#file")
	if shoot {
		tb.look(kind)
	}
	tb.follow("#preview-h", chromedp.SetUploadFiles(chromedp.ID("file"), []string{path}), chromedp.Click(css("form.panel button[type=submit]")))
}

// order creates an order for qty of sku (as a sales channel would) and
// returns its id, and a client of the account.
func (tb *tab) order(po, sku string, qty int64) (string, *api.Client) {
	tb.t.Helper()
	id, err := tb.fx.sb.CreateOrder(tb.t.Context(), sandbox.OrderSpec{Token: token, PONum: po,
		ShippingAddress: map[string]string{"contact": "Ada Lovelace", "street1": "12 Analytical Way", "city": "London", "zip": "N1 7GU", "country": "GB"},
		Lines:           []sandbox.OrderLine{{SKU: sku, Quantity: qty}}})
	if err != nil {
		tb.t.Fatal(err)
	}
	client, err := api.NewClient(tb.fx.base, token)
	if err != nil {
		tb.t.Fatal(err)
	}
	return id, client
}

// pushShipments: an order for 2 tees arrives, its fulfillment opens (the
// stock push left them in stock); a warehouse's confirmation file ships
// them, with a row for a fulfillment the account does not have. The
// preview, the dry run, the push and its results say so.
func pushShipments(tb *tab) {
	ctx := tb.t.Context()
	_, client := tb.order("PO-UI-1", "TEE-BLA-M", 2)
	var fulfillment api.ID
	for pg, err := range client.Fulfillments.ListPages(ctx, nil) {
		if err != nil {
			tb.t.Fatal(err)
		}
		for _, f := range pg.Records {
			fulfillment = f.ID
		}
	}
	if fulfillment == "" {
		tb.t.Fatal("the order's fulfillment did not open")
	}
	text := "fulfillment_id,sku,quantity,tracking_number,carrier\n" + string(fulfillment) + ",TEE-BLA-M,2,1ZUI0001,UPS\n999999999,TEE-BLA-M,1,1ZUI0002,UPS\n"
	tb.pushFile("shipments", "shipped.csv", text, func(step string) {
		switch step {
		case "preview":
			tb.has("#preview", "2 rows read", "1ZUI0001")
		case "dry-run":
			tb.has(".summary", "1 shipment to post")
		case "results":
			tb.has(".summary", "1 shipment posted", "1 fulfillment completed")
			if first := tb.text("table.results tbody tr:first-child"); !strings.Contains(first, "999999999") {
				tb.t.Errorf("the first line of the results is not the failed one: %q", first)
			}
		}
	})
}

// pushSlips: another order arrives; a warehouse's file gives its packing
// slip with the parcel it went in. The page previews it, dry-runs it,
// pushes it, and the account holds the slip.
func pushSlips(tb *tab) {
	ctx := tb.t.Context()
	order, client := tb.order("PO-UI-2", "TEE-WHI-M", 1)
	o, err := client.SalesOrders.Get(ctx, api.ID(order))
	if err != nil || len(o.Records) != 1 || len(o.OrderLines(o.Records[0])) != 1 {
		tb.t.Fatalf("reading order %s: %v", order, err)
	}
	line := o.OrderLines(o.Records[0])[0].ID
	text := "slip_key,order_id,packing_slip_date,line_item_id,quantity,package,tracking_number,cost,carrier\n" +
		"WMS-UI-1," + order + ",2026-11-20," + string(line) + ",1,1,1ZUISLIP1,4.50,UPS\n"
	tb.pushFile("slips", "slips.csv", text, func(step string) {
		switch step {
		case "preview":
			tb.has("#preview", "1 row read", "WMS-UI-1")
		case "dry-run":
			tb.has(".summary", "slips")
		case "results":
			tb.has("table.results", "WMS-UI-1", "slip created; shipment created")
		}
	})
	var found bool
	for pg, err := range client.PackingSlips.ListPages(ctx, nil) {
		if err != nil {
			tb.t.Fatal(err)
		}
		for _, pk := range pg.Packages {
			found = found || string(pk.TrackingNumber) == "1ZUISLIP1"
		}
	}
	if !found {
		tb.t.Errorf("the account holds no parcel 1ZUISLIP1 after the page pushed its slip:\n%s", tb.text("main"))
	}
}

func exportVariants(tb *tab) {
	tb.open("/export", "#resource")
	tb.follow("#attr-0 option[value=sku]", chromedp.SetValue(chromedp.ID("resource"), "variants"), chromedp.Click(css("form[method=get] button")))
	tb.follow("#cond-err-0", chromedp.SetValue(chromedp.ID("attr-0"), "stock"), chromedp.SetValue(chromedp.ID("op-0"), ">="), chromedp.SetValue(chromedp.ID("value-0"), "lots"),
		chromedp.Click(css("button.go")))
	tb.has("#cond-err-0", "stock is a number")
	tb.look("export-condition")
	tb.follow("a.button.go", chromedp.SetValue(chromedp.ID("value-0"), "20"), chromedp.Click(css("button.go")))
	tb.has("main", "variants-", "--where \"stock >= 20\"")
	tb.look("export-done")
	book, err := excelize.OpenReader(bytes.NewReader(tb.download("a.button.go")))
	if err != nil {
		tb.t.Fatal(err)
	}
	rows, err := book.GetRows(book.GetSheetName(0))
	if err != nil || len(rows) < 2 {
		tb.t.Fatalf("the export: %d rows, %v", len(rows), err)
	}
	col := -1
	for i, h := range rows[0] {
		if h == "stock" {
			col = i
		}
	}
	for _, r := range rows[1:] {
		if n, err := strconv.ParseFloat(r[col], 64); err != nil || n < 20 {
			tb.t.Errorf("a variant with stock %q in an export of stock >= 20", r[col])
		}
	}
	if len(rows)-1 >= 26 {
		tb.t.Errorf("the export of stock >= 20 holds %d variants: all of them", len(rows)-1)
	}
}

func runsAndUndo(tb *tab) {
	// A level the first push set (TEE-WHI-S, 0) pushed again: its undo
	// knows the value to set back.
	tb.upload("stock", "stock-later.csv", "sku,quantity\nTEE-WHI-S,5\n", false)
	tb.follow("#results-h", chromedp.Click(css(".actions form[action$='/run'] button")))
	tb.has(".summary", "1 sent")
	tb.open("/runs", "table")
	tb.has("table", "import", "stock push", "stock.csv (given to this page)")
	if strings.Contains(tb.text("main"), tb.fx.srv.Dir()) {
		tb.t.Errorf("the runs name lading ui's private folder %s", tb.fx.srv.Dir())
	}
	tb.look("runs")
	tb.follow("#undo-h", void(chromedp.Evaluate[bool](`[...document.querySelectorAll("tbody tr")].find(r => r.textContent.includes("stock push")).querySelector("a").click() || true`)))
	tb.has("main", "stock push", "available", "stock-later.csv (given to this page)")
	tb.look("run")
	tb.follow("#results-h", chromedp.Click(css("button[name=dry]")))
	tb.has("h1", "Dry run of the undo")
	tb.has(".summary", "1 to restore")
	if n := tb.count("table.results tbody tr"); n != 1 {
		tb.t.Errorf("the undo's dry run lists %d records, want the level the push set", n)
	}
	tb.look("undo-dry-run")
	tb.follow("#results-h", chromedp.Click(css("form[action$='/undo'] button.stop")))
	tb.has("h1", "Undo of run")
	tb.has(".summary", "1 restored")
	tb.has("table.results", "TEE-WHI-S")
	tb.look("undone")
}

// jobsFile is a jobs file of three jobs, one of them a folder's with two
// files waiting, as lading ui --jobs reads it (lading ui's own test of
// the flag, in app, reads one through the commands' kinds).
func jobsFile(t *testing.T) func(context.Context) (*ui.JobsPlan, error) {
	dir := t.TempDir()
	for name, text := range map[string]string{"acme.token": "acme-token", "in/a.csv": "x", "in/b.csv": "x"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	text := strings.ReplaceAll(`accounts:
  acme: {base_url: "https://host/api2", token_file: DIR/acme.token}
jobs:
  - {account: acme, job: stock push, file: DIR/stock.csv, every: 15m}
  - {account: acme, job: export, name: daily tags, schedule: "30 2 * * *", zone: America/New_York}
  - {account: acme, job: shipments push, folder: DIR/in}
`, "DIR", dir)
	bind := func(*ops.Job) (ops.Task, error) { return ops.Task{}, nil }
	kinds := ops.Kinds{"stock push": {File: true, Bind: bind}, "shipments push": {File: true, Bind: bind}, "export": {Bind: bind}}
	jobs, err := ops.Parse(filepath.Join(dir, "jobs.yaml"), []byte(text), ops.Setup{Kinds: kinds, Registry: &ops.Registry{Accounts: map[string]ops.Account{}}, Local: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	dirs := ops.Dirs{Config: filepath.Join(dir, "config"), Data: filepath.Join(dir, "data")}
	return func(ctx context.Context) (*ui.JobsPlan, error) {
		now := time.Now()
		plan, err := ops.Plan(ctx, jobs, dirs, now)
		return &ui.JobsPlan{Path: jobs.Path, Jobs: plan, Now: now}, err
	}
}

func listJobs(tb *tab) {
	tb.open("/jobs", "table")
	tb.has("table", "stock push", "every 15m", "daily tags", "(export)", "never", "as files come (2 files waiting)")
	tb.look("jobs")
}

// forgedRequests: a page served elsewhere (on another port of this
// computer: the same site to a browser) posts a form to the page, and a
// name made to point at 127.0.0.1 asks for it; both are refused.
func forgedRequests(tb *tab) {
	runs := func() int { tb.open("/runs", "table"); return tb.count("tbody tr") }
	before := runs()
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!DOCTYPE html><title>prize</title><form method="post" action="%s/runs/1/undo"><input name="force" value="1"></form><script>document.forms[0].submit()</script>`, tb.fx.url)
	}))
	defer evil.Close()
	tb.do(chromedp.Navigate(evil.URL), chromedp.WaitVisible(css("body")))
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(tb.text("body"), "did not come from lading ui's own page") {
		if time.Now().After(deadline) {
			tb.t.Fatalf("a forged form was not refused: %s", tb.text("body"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if after := runs(); after != before {
		tb.t.Errorf("a forged form ran something: %d runs, %d before", after, before)
	}
	port := tb.fx.url[strings.LastIndex(tb.fx.url, ":"):]
	tb.do(chromedp.Navigate("http://rebind.test"+port+"/runs"), chromedp.WaitVisible(css("body")))
	if body := tb.text("body"); !strings.Contains(body, "answers only requests for its own address") {
		tb.t.Errorf("a request for rebind.test was answered: %s", body)
	}
}

// The page is used with the keyboard alone: Tab goes from the skip link
// through the menu to the form in reading order, each stop showing its
// focus; the skip link moves to the content; a file is uploaded with
// Enter; choosing what to export with the arrows does not leave the page
// until its button is pressed.
func TestPageByKeyboard(t *testing.T) {
	fx := newFixture(t, sandbox.Options{}, ui.Config{})
	tb := newTab(t, fx)
	key := func(k string) { tb.do(chromedp.KeyEvent(k)) }
	focused := func() string {
		s, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`(e => {
			if (getComputedStyle(e).outlineStyle === "none") return "NO FOCUS RING: " + e.outerHTML.slice(0, 80);
			return e.id ? "#" + e.id : e.textContent.trim() })(document.activeElement)`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tb.open("/jobs", "h1") // lading ui given no jobs file says how to give one
	tb.has("main", "started without one", "ui --jobs")
	tb.look("jobs-none")
	tb.open("/stock", "#file")
	var order []string
	for range 20 {
		key(kb.Tab)
		order = append(order, focused())
		if order[len(order)-1] == "Upload and preview" {
			break
		}
	}
	want := []string{"Skip to content", "lading", "Import", "Stock", "Shipments", "Slips", "Export", "Runs", "Jobs", "#file", "#template", "Upload and preview"}
	if !slices.Equal(order, want) {
		t.Errorf("Tab goes through\n%q\nwant\n%q", order, want)
	}

	tb.open("/stock", "#file")
	key(kb.Tab)
	key(kb.Enter)
	tb.until(`document.activeElement.id === "main"`)

	path := filepath.Join(fx.dir, "stock.csv")
	if err := os.WriteFile(path, []byte("sku,quantity\nTEE-BLA-M,40\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tb.do(chromedp.SetUploadFiles(chromedp.ID("file"), []string{path}), chromedp.Focus(chromedp.ID("template")))
	tb.follow("#preview-h", chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Enter))
	tb.has("#preview", "1 row read")

	tb.open("/export", "#resource")
	// A script's submit is counted rather than made: the form's button
	// submits without it.
	tb.do(void(chromedp.Evaluate[bool](`HTMLFormElement.prototype.submit = function () { window.ladingSubmits = (window.ladingSubmits || 0) + 1 }; true`)),
		chromedp.Focus(chromedp.ID("resource")), chromedp.KeyEvent(kb.ArrowDown))
	if got := tb.text("#resource option:checked"); got == "products" {
		t.Fatalf("ArrowDown did not change what to export (%q)", got)
	}
	if n, err := chromedp.Run(tb.ctx, chromedp.Evaluate[int](`window.ladingSubmits || 0`)); err != nil || n != 0 {
		t.Errorf("ArrowDown on what to export submitted its form (%d, %v): the page changes under the keyboard", n, err)
	}
	key(kb.Tab)
	if got := focused(); got != "Choose" {
		t.Fatalf("after ArrowDown and Tab: focus on %q, want the Choose button", got)
	}
	tb.follow("#attr-0", chromedp.KeyEvent(kb.Enter))
	if !strings.Contains(tb.location(), "resource=") || strings.Contains(tb.location(), "resource=products") {
		t.Errorf("Enter on Choose went to %s", tb.location())
	}
}

// void is an action whose value is not wanted.
func void[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}

func readCSV(t *testing.T, b []byte) [][]string {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1
	lines, err := r.ReadAll()
	if err != nil || len(lines) == 0 {
		t.Fatalf("reading a CSV download: %v\n%s", err, b)
	}
	return lines
}

// A run stopped in the page stops as Ctrl-C would; run again from the page
// it continues, and stopped again it continues from the command line: the
// catalog ends whole, nothing written twice. The page is lading ui itself,
// started as the command is.
func TestPageStopsARunThatContinuesHereOrInATerminal(t *testing.T) {
	_, base := newSandbox(t, sandbox.Options{Latency: 150 * time.Millisecond})
	dir := t.TempDir()
	var text strings.Builder
	text.WriteString("product_key,product_name,sku,stock\n")
	const products = 800
	for i := range products {
		fmt.Fprintf(&text, "p%04d,Product %d,SKU-%04d,%d\n", i, i, i, i%9)
	}
	catalog := filepath.Join(dir, "big.csv")
	if err := os.WriteFile(catalog, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	stateFile := filepath.Join(dir, "state.db")
	flags := []string{"lading", "--base-url", base, "--token", token, "--rate", "500", "--burst", "50", "--concurrency", "1"}
	url := startUI(t, append(flags, "ui", "--addr", "127.0.0.1:0", "--state", stateFile))
	tb := newTab(t, &fixture{url: url})

	stop := func(name string) {
		tb.until(`document.getElementById("bar").value > 0`)
		if name != "" {
			tb.look(name)
		}
		tb.follow("#results-h", chromedp.Click(css("button.stop")))
		tb.has("p.warning", "Stopped")
	}
	tb.open("/import", "#file")
	tb.follow("#preview-h", chromedp.SetUploadFiles(chromedp.ID("file"), []string{catalog}), chromedp.Click(css("form.panel button[type=submit]")))
	tb.follow("#bar", chromedp.Click(css(".actions form[action$='/run'] button")))
	stop("import-progress")
	tb.look("import-stopped")
	tb.follow("#bar", chromedp.Click(css(".actions button.go")))
	stop("")
	tb.has("main", "continued an unfinished one")

	var out, errOut bytes.Buffer
	env := app.Env{Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}
	if err := app.New(env).RunContext(t.Context(), append(flags, "import", "--template", "generic", "--state", stateFile, catalog)); err != nil {
		t.Fatalf("lading import: %v\n%s%s", err, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "resumed an unfinished run") {
		t.Errorf("the command line did not continue the page's run:\n%s", out.String())
	}
	client, err := api.NewClient(base, token)
	if err != nil {
		t.Fatal(err)
	}
	for pg, err := range client.Products.ListPages(t.Context(), &api.ListOptions{PageSize: 1, MaxPages: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		if pg.Meta.Total != products {
			t.Errorf("the account holds %d products, want %d: none twice, none left out", pg.Meta.Total, products)
		}
	}
}

// startUI runs lading ui with args until the test ends, and returns the
// address it prints.
func startUI(t *testing.T, args []string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncbuf.Buffer{}
	done := make(chan error, 1)
	go func() {
		done <- app.New(app.Env{Stdout: out, Stderr: out, Getenv: func(string) string { return "" }}).RunContext(ctx, args)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("lading ui: %v", err)
		}
	})
	addr := regexp.MustCompile(`lading ui: (http://\S+)`)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := addr.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-done:
			t.Fatalf("lading ui ended: %v\n%s", err, out.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("lading ui printed no address:\n%s", out.String())
		}
	}
}
