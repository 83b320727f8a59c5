package app

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"lading/exporter/sheet/sheettest"
)

// readRecords reads a CSV file the demo wrote, keyed by the value of the
// column key (the header is left out).
func readRecords(t *testing.T, path, key string) (header []string, byKey map[string][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("%s: %v (%d records)", path, err, len(recs))
	}
	col := slices.Index(recs[0], key)
	if col < 0 {
		t.Fatalf("%s has no column %q: %q", path, key, recs[0])
	}
	byKey = map[string][]string{}
	for _, r := range recs[1:] {
		byKey[r[col]] = r
	}
	return recs[0], byKey
}

func TestDemoStockPushes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errOut, err := run(t, "demo", "--out", dir)
	if err != nil {
		t.Fatalf("demo: %v\n%s\n%s", err, out, errOut)
	}
	if !strings.Contains(out, "go run . demo --ui") {
		t.Errorf("the demo does not end by offering lading ui:\n%s", out)
	}
	_, step5, ok := strings.Cut(out, "\n5. ")
	if !ok {
		t.Fatalf("demo output has no step 5:\n%s", out)
	}
	for _, want := range []string{
		"rows:     26 unchanged\n  levels sent: 0\n",
		"rows:     3 sent, 23 unchanged\n  levels sent: 3\n  requests: 1 request (1 write, 0 reads; 0 throttled)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}

	// The second file differs from the first in exactly 3 quantities, and
	// the results file says those 3 were sent, from the old level to the new.
	_, before := readRecords(t, filepath.Join(dir, "stock.csv"), "sku")
	_, after := readRecords(t, filepath.Join(dir, "stock-changed.csv"), "sku")
	hdr, res := readRecords(t, filepath.Join(dir, "stock-changed.csv.results.csv"), "sku")
	if len(before) != 26 || len(after) != 26 || len(res) != 26 {
		t.Fatalf("stock files of %d and %d SKUs, results of %d; want 26 each", len(before), len(after), len(res))
	}
	col := func(name string) int { return slices.Index(hdr, name) }
	var changed []string
	for sku, a := range after {
		b, r := before[sku], res[sku]
		if b == nil || r == nil {
			t.Fatalf("SKU %s is in stock-changed.csv but not in stock.csv or its results", sku)
		}
		wantAction := "unchanged"
		if a[1] != b[1] {
			changed = append(changed, sku)
			wantAction = "sent"
		}
		if got := r[col("action")]; got != wantAction {
			t.Errorf("%s (%s -> %s): action %q, want %q", sku, b[1], a[1], got, wantAction)
		}
		if r[col("old_level")] != b[1] || r[col("new_level")] != a[1] || r[col("variant_id")] == "" {
			t.Errorf("%s: results line %q, want old_level %s, new_level %s and a variant id", sku, r, b[1], a[1])
		}
	}
	if len(changed) != 3 {
		t.Errorf("%d SKUs changed between the stock files (%q), want 3", len(changed), changed)
	}
	// The demo prints the results lines of those 3, and no other.
	printed := strings.Count(step5, ",sent,")
	for _, sku := range changed {
		if !strings.Contains(step5, ","+sku+",") {
			t.Errorf("the demo did not print the results line of %s:\n%s", sku, step5)
		}
	}
	if printed != 3 || strings.Contains(step5, ",unchanged,") {
		t.Errorf("the demo printed %d sent lines (want 3) or unchanged ones:\n%s", printed, step5)
	}
}

func TestChangeLevels(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		units []int64
		want  []int64 // the levels after
	}{
		{"first three with stock", []int64{12, 30, 18, 9}, []int64{36, 0, 17, 9}},
		{"rows without stock are passed over", []int64{0, 5, 0, 1, 2, 7}, []int64{0, 29, 0, 0, 1, 7}},
		{"fewer than three with stock", []int64{0, 4}, []int64{0, 28}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			levels := make([]stockLevel, len(tc.units))
			for i, n := range tc.units {
				levels[i] = stockLevel{sku: string(rune('A' + i)), units: n, was: n}
			}
			later, changed := changeLevels(levels)
			got := make([]int64, len(later))
			for i, l := range later {
				got[i] = l.units
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("levels after %v, want %v", got, tc.want)
			}
			for i, l := range levels {
				if l.units != tc.units[i] {
					t.Errorf("changeLevels changed its input: %v", levels)
					break
				}
			}
			for _, c := range changed {
				if c.was == c.units {
					t.Errorf("%s reported changed but kept %d", c.sku, c.units)
				}
			}
			if n := min(3, countPositive(tc.units)); len(changed) != n {
				t.Errorf("%d changed, want %d", len(changed), n)
			}
		})
	}
}

func countPositive(ns []int64) int {
	n := 0
	for _, v := range ns {
		if v > 0 {
			n++
		}
	}
	return n
}

// The demo runs the 3PL's loop, one line a step, then ends with the
// catalog in the import layout and the packing slips report (which has the
// loop's parcels), both named in its output.
func TestDemoLoopAndExports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errOut, err := run(t, "demo", "--out", dir)
	if err != nil {
		t.Fatalf("demo: %v\n%s\n%s", err, out, errOut)
	}
	catalog, slips := filepath.Join(dir, "catalog-export.csv"), filepath.Join(dir, "slips-report.xlsx")
	for _, want := range []string{"6. the 3PL's loop", "3 × TEE-BLA-M and 1 × TEE-BLA-S: it waits", "(TEE-BLA-M 0 -> 12): 1 level sent, 25 unchanged; the order's fulfillment",
		"1 open fulfillment, 2 lines to ship", "1 shipment posted; fulfillment", "1 shipment posted, 1 row already shipped; fulfillment",
		"is complete, and gone from the open list", "3 rows already shipped, 0 shipments posted, 0 requests",
		"shipments from step 6: 1ZDEMO0001 (UPS, cost 8.95) and 1ZDEMO0002 (UPS, cost 6.5)",
		"7. export", "file:     " + catalog, "file:     " + slips} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "unexpected") {
		t.Errorf("a step of the loop went wrong:\n%s", out)
	}
	// The results of the last push (step f): every row already shipped.
	hdr, rows := readRecords(t, filepath.Join(dir, "shipped.csv.results.csv"), "row")
	action := slices.Index(hdr, "action")
	if len(rows) != 3 {
		t.Errorf("shipments results: %d rows, want 3", len(rows))
	}
	for row, r := range rows {
		if r[action] != "already shipped" {
			t.Errorf("shipments results, row %s: %q, want already shipped", row, r)
		}
	}
	// The order file names whom the order goes to.
	hdr, lines := readRecords(t, filepath.Join(dir, "orders.csv"), "line_item_id")
	for id, r := range lines {
		if name := r[slices.Index(hdr, "ship_to_name")]; name != "Ada Lovelace" {
			t.Errorf("orders.csv, line item %s: ship_to_name %q, want Ada Lovelace", id, name)
		}
	}
	hdr, byKey := readRecords(t, catalog, "sku")
	if hdr[0] != "product_key" || len(byKey) != 26 {
		t.Errorf("catalog export: header %q, %d SKUs; want the import layout and the 26 SKUs", hdr, len(byKey))
	}
	book, err := excelize.OpenFile(slips)
	if err != nil {
		t.Fatal(err)
	}
	defer book.Close()
	if got := book.GetSheetList(); !slices.Equal(got, []string{"Summary", "Slips", "Line items", "Shipments"}) {
		t.Errorf("slips report sheets %q", got)
	}
}

// The demo's packing slips report as an accountant prints it: LibreOffice
// prints it to PDF, a page a sheet for the demo's few rows (the issue had
// 8 pages for 12 slips), each one page wide: the first and last printed
// columns of a sheet are on its page, and the slips' ids, kept off print,
// are not. Every page has the footer: the title, the conditions, the
// account, the time made, the sheet and "Page N of M". Printed again with
// every formula recomputed by LibreOffice, the pages read the same: the
// summary's formulas give the values lading wrote.
func TestDemoReportPrints(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if out, errOut, err := run(t, "demo", "--out", dir); err != nil {
		t.Fatalf("demo: %v\n%s\n%s", err, out, errOut)
	}
	report := filepath.Join(dir, "slips-report.xlsx")
	_, pages := sheettest.PDF(t, report, false)
	book, err := excelize.OpenFile(report)
	if err != nil {
		t.Fatal(err)
	}
	defer book.Close()
	sheets := book.GetSheetList()
	if len(pages) != len(sheets) {
		t.Fatalf("%d pages, want one a sheet (%q):\n%s", len(pages), sheets, strings.Join(pages, "\n----\n"))
	}
	slips, err := book.GetRows("Slips")
	if err != nil {
		t.Fatal(err)
	}
	footer := regexp.MustCompile(`(?s)Packing slips, line items and shipments\s+Account 127\.0\.0\.1:\d+\s+(\S.*\S)\s*\n\s*every packing slip\s+Made \d{4}-\d\d-\d\d \d\d:\d\d \S+\s+Page (\d+) of (\d+)\s*$`)
	for i, page := range pages {
		m := footer.FindStringSubmatch(page)
		if m == nil || m[1] != sheets[i] || m[2] != strconv.Itoa(i+1) || m[3] != strconv.Itoa(len(pages)) {
			t.Errorf("page %d: footer %q, want the title, the conditions, the account, the time made, sheet %q and page %d of %d:\n%s",
				i+1, m, sheets[i], i+1, len(pages), page)
		}
	}
	for i, want := range [][]string{
		{"Packing slips, line items and shipments", "By month", "By carrier", "By status", "Shipping cost by month and carrier", "DHL", "Void"},
		{"Reference", "Notes", "PS1036", slips[len(slips)-2][1], "Total"},
		{"Slip", "Sales order", "TEE-BLA-M", "Total"},
		{"Slip", "Cost", "1ZDEMO0001", "Total"},
	} {
		for _, w := range want {
			if !strings.Contains(pages[i], w) {
				t.Errorf("page %d (%s) lacks %q: it is not the whole width of the sheet:\n%s", i+1, sheets[i], w, pages[i])
			}
		}
	}
	for _, r := range slips[1 : len(slips)-1] {
		if strings.Contains(pages[1], r[0]) {
			t.Errorf("the slips page shows slip id %s, which the report keeps off print", r[0])
		}
		if n := strings.Count(strings.Join(pages, ""), r[1]); n != 1 {
			t.Errorf("slip %s is on %d pages, want 1", r[1], n)
		}
	}
	_, recalculated := sheettest.PDF(t, report, true)
	if strings.Join(recalculated, "\f") != strings.Join(pages, "\f") {
		t.Errorf("recomputed, the report prints otherwise:\n%s\nwant\n%s", strings.Join(recalculated, "\n----\n"), strings.Join(pages, "\n----\n"))
	}
}
