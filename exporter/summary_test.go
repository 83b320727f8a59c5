package exporter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"lading/api/wire"
	"lading/exporter"
	"lading/exporter/sheet/sheettest"
	"lading/sandbox"
	"lading/templates"
)

// slipsAccount is an account with two months of shipped orders (October
// and November 2026), some slips given a status (two spellings of one)
// and two made void: the same data at every run.
func slipsAccount(t *testing.T) *account {
	t.Helper()
	srv, _, a, base := catalogAccount(t)
	ctx := context.Background()
	none := 0
	var slips []string
	for _, s := range []sandbox.SeedSpec{{Orders: 12, Seed: 5, Month: "2026-10"}, {Orders: 7, Seed: 6, Month: "2026-11"}} {
		s.Token, s.Unshipped = "tok", &none
		res, err := srv.Seed(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		slips = append(slips, res.Slips...)
	}
	if len(slips) < 12 {
		t.Fatalf("%d slips seeded, want 12 or more", len(slips))
	}
	// The interface has no writer of status and void: the sandbox takes
	// them as the service shows them.
	marks := []map[string]any{
		{"id": slips[0], "status": "shipped"}, {"id": slips[1], "status": "Shipped"}, {"id": slips[2], "status": "on hold"},
		{"id": slips[3], "void": 1}, {"id": slips[len(slips)-1], "void": 1, "status": "shipped"},
	}
	body, _ := json.Marshal(map[string]any{"action": "write", wire.PackingSlips: marks})
	req, _ := http.NewRequest(http.MethodPost, base+wire.WritePath(wire.PackingSlips), bytes.NewReader(body))
	req.Header.Set("access_token", "tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("marking slips: %s", resp.Status)
	}
	return a
}

// The summary of the accounting report agrees with its detail sheets:
// every figure read back from the workbook is what the Slips and
// Shipments sheets add up to (void slips apart, months in the report's
// zone, a carrier's slips those it carried a parcel of); every formula,
// computed by excelize's engine, gives the value its cell holds; the
// status totals are the Slips sheet's totals row; and the chart draws the
// shipping cost of each carrier by month.
func TestSlipsSummary(t *testing.T) {
	t.Parallel()
	a := slipsAccount(t)
	text, err := templates.Get("accounting-slips")
	if err != nil {
		t.Fatal(err)
	}
	r, err := exporter.ParseReport("accounting-slips", text)
	if err != nil {
		t.Fatal(err)
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	out := filepath.Join(a.dir, "slips.xlsx")
	_, err = exporter.Export(context.Background(), exporter.Options{Client: a.c, Resource: exporter.PackingSlips, Report: r,
		Output: out, Location: berlin, Query: exporter.Query{Where: []string{"packing_slip_date >= 2026-10-01", "packing_slip_date < 2026-12-01"}}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); !slices.Equal(got, []string{"Summary", "Slips", "Line items", "Shipments"}) {
		t.Fatalf("sheets %q, want the summary first", got)
	}

	want := expectedSummary(t, f)
	got := readSummary(t, f)
	for table, rows := range want {
		for label, cells := range rows {
			for header, v := range cells {
				if g, ok := got[table][label][header]; !ok || math.Abs(g-v) > 1e-9 {
					t.Errorf("summary %s, %s, %s: %v (found %v), want %v", table, label, header, g, ok, v)
				}
			}
		}
		if len(got[table]) != len(rows) {
			t.Errorf("summary %s has rows %v, want %v", table, keys(got[table]), keys(rows))
		}
	}
	if lines := cellText(t, f, "Summary", "A2"); lines != "Packing slip date 2026-10-01 to 2026-11-30" {
		t.Errorf("summary line 2 %q, want the period in words", lines)
	}

	chart := sheettest.PartMatches(t, out, "xl/charts/chart", `<(?:f>|grouping val=")([^<"]+)`)["xl/charts/chart1.xml"]
	carriers := len(want["Shipping cost by month and carrier"]["Total"]) - 1
	if len(chart) != 1+3*carriers || chart[0] != "stacked" {
		t.Errorf("chart %q, want a stacked series for each of %d carriers", chart, carriers)
	}
}

// expectedSummary adds up the Slips and Shipments sheets of f as the
// summary should: table, row label, column header, value.
func expectedSummary(t *testing.T, f *excelize.File) map[string]map[string]map[string]float64 {
	t.Helper()
	slips, slipTotals := sheetRows(t, f, "Slips")
	shipments, _ := sheetRows(t, f, "Shipments")
	sum := map[string]map[string]map[string]float64{}
	add := func(table, label, header string, v float64) {
		if sum[table] == nil {
			sum[table] = map[string]map[string]float64{}
		}
		if sum[table][label] == nil {
			sum[table][label] = map[string]float64{}
		}
		sum[table][label][header] += v
	}
	type slip struct {
		month    string
		units    float64
		void     bool
		carriers map[string]bool
	}
	bySlip := map[string]*slip{}
	statuses := map[string]string{}
	for _, s := range slips {
		d, err := time.Parse("2006-01-02", s["Slip date"])
		if err != nil {
			t.Fatalf("slip %s: date %q", s["Reference"], s["Slip date"])
		}
		units, cost := number(t, s["Units"]), number(t, s["Shipping cost"])
		sl := &slip{month: d.Format("January 2006"), units: units, void: s["Void"] == "1", carriers: map[string]bool{}}
		bySlip[s["Slip"]] = sl
		status := "Void"
		if !sl.void {
			status = cmpOr(statuses[strings.ToLower(s["Status"])], s["Status"], "No status")
			statuses[strings.ToLower(s["Status"])] = status
			for _, label := range []string{sl.month, "Total"} {
				add("By month", label, "Slips", 1)
				add("By month", label, "Units", units)
				add("By month", label, "Shipping cost", cost)
			}
			add("By carrier", "Total", "Slips", 1)
			add("By carrier", "Total", "Units", units)
		}
		add("By status", status, "Slips", 1)
		add("By status", status, "Units", units)
		add("By status", status, "Shipping cost", cost)
	}
	for _, p := range shipments {
		sl := bySlip[p["Slip"]]
		if sl == nil {
			t.Fatalf("shipment of slip %s, which the Slips sheet lacks", p["Slip"])
		}
		if sl.void {
			continue
		}
		cost := number(t, p["Cost"])
		if !sl.carriers[p["Carrier"]] {
			sl.carriers[p["Carrier"]] = true
			add("By carrier", p["Carrier"], "Slips", 1)
			add("By carrier", p["Carrier"], "Units", sl.units)
		}
		for _, label := range []string{p["Carrier"], "Total"} {
			add("By carrier", label, "Shipments", 1)
			add("By carrier", label, "Shipping cost", cost)
		}
		for _, label := range []string{sl.month, "Total"} {
			add("Shipping cost by month and carrier", label, p["Carrier"], cost)
			add("Shipping cost by month and carrier", label, "Total", cost)
		}
	}
	for _, sl := range bySlip {
		if !sl.void && len(sl.carriers) == 0 {
			add("By carrier", "No shipment", "Slips", 1)
			add("By carrier", "No shipment", "Units", sl.units)
		}
	}
	// The status totals are the Slips sheet's: every slip, void ones too.
	add("By status", "Total", "Slips", float64(len(slips)))
	add("By status", "Total", "Units", number(t, slipTotals["Units"]))
	add("By status", "Total", "Shipping cost", number(t, slipTotals["Shipping cost"]))
	return sum
}

// readSummary reads the tables of the summary sheet of f, checking that
// each formula's value is the one excelize computes.
func readSummary(t *testing.T, f *excelize.File) map[string]map[string]map[string]float64 {
	t.Helper()
	rows, err := f.GetRows("Summary", excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]map[string]float64{}
	var table string
	var header []string
	for r := 0; r < len(rows); r++ {
		row := rows[r]
		switch {
		case len(row) == 0 || row[0] == "":
			table = ""
		case table == "" && len(row) == 1 && r+1 < len(rows) && len(rows[r+1]) > 1: // a title, then a header
			table, header = row[0], rows[r+1]
			out[table] = map[string]map[string]float64{}
			r++
		case table != "" && len(row) > 1:
			out[table][row[0]] = map[string]float64{}
			for c := 1; c < len(row) && c < len(header); c++ {
				ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
				out[table][row[0]][header[c]] = number(t, row[c])
				if fm, _ := f.GetCellFormula("Summary", ref); fm != "" {
					calc, err := f.CalcCellValue("Summary", ref, excelize.Options{RawCellValue: true})
					if err != nil || math.Abs(number(t, calc)-number(t, row[c])) > 1e-9 {
						t.Errorf("summary %s: %s computes %s (%v); the cell holds %s", ref, fm, calc, err, row[c])
					}
				}
			}
		}
	}
	return out
}

// sheetRows reads the data rows of a sheet of f as header → shown value,
// and its totals row.
func sheetRows(t *testing.T, f *excelize.File, name string) (rows []map[string]string, totals map[string]string) {
	t.Helper()
	all, err := f.GetRows(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all[1:] {
		m := map[string]string{}
		for c, v := range r {
			m[all[0][c]] = strings.ReplaceAll(v, ",", "")
		}
		if slices.Contains(r, "Total") {
			totals = m
			continue
		}
		rows = append(rows, m)
	}
	return rows, totals
}

func number(t *testing.T, s string) float64 {
	t.Helper()
	if s == "" {
		return 0
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return f
}

func cellText(t *testing.T, f *excelize.File, sheet, ref string) string {
	t.Helper()
	v, err := f.GetCellValue(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func cmpOr(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func keys[V any](m map[string]V) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	slices.Sort(k)
	return k
}
