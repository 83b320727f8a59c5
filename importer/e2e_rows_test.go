package importer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"lading/api"
	"lading/engine"
	"lading/importer"
	"lading/sandbox"
	"lading/state"
)

// editCSV rewrites the CSV file src into dst (in src's directory), calling
// edit on every data record; records edit returns false for are dropped.
func editCSV(t *testing.T, src, dst string, edit func(col map[string]int, rec []string) bool) string {
	t.Helper()
	col, recs := readCSV(t, src)
	header := make([]string, len(col))
	for h, i := range col {
		header[i] = h
	}
	var keep [][]string
	for _, r := range recs {
		if edit(col, r) {
			keep = append(keep, r)
		}
	}
	p := filepath.Join(filepath.Dir(src), dst)
	writeCSV(t, p, header, keep)
	return p
}

// lineOf is the line where the record holding sku starts.
func lineOf(t *testing.T, path, sku string) int {
	t.Helper()
	_, lines, recs := exportRecords(t, path, ',')
	for i, rec := range recs {
		if slices.Contains(rec, sku) {
			return lines[i]
		}
	}
	t.Fatalf("%s: no SKU %s", path, sku)
	return 0
}

// resultOf returns the results line of sku.
func resultOf(t *testing.T, results, sku string) []string {
	t.Helper()
	for _, r := range readResults(t, results) {
		if r[3] == sku {
			return r
		}
	}
	t.Fatalf("%s: no line for SKU %s", results, sku)
	return nil
}

func TestImportBadRow(t *testing.T) {
	t.Parallel()
	const badSKU = "P000004-Red-M"
	e := newEnv(t, sandbox.Options{})
	gen := e.generate("gen.csv", 10, 3)
	in := editCSV(t, gen, "bad.csv", func(col map[string]int, r []string) bool {
		if r[col["sku"]] == badSKU {
			r[col["weight"]] = "heavy"
		}
		return true
	})
	line := lineOf(t, in, badSKU)

	t.Run("strict sends nothing", func(t *testing.T) {
		before := e.srv.Counters().Requests
		rep, err := e.importFile(context.Background(), "generic", in, func(o *importer.Options) {
			o.Strict = true
			o.ResultsFile = filepath.Join(e.dir, "strict.results.csv")
		})
		if !errors.Is(err, engine.ErrInvalid) {
			t.Fatalf("err = %v, want ErrInvalid", err)
		}
		if w := writes(before, e.srv.Counters().Requests); w != 0 {
			t.Errorf("--strict with an invalid row sent %d writes", w)
		}
		if s := e.read(); len(s.Products) != 0 {
			t.Errorf("--strict: %d products in the sandbox", len(s.Products))
		}
		if rep.Rows[engine.Failed] != 3 || rep.Rows[engine.Skipped] != 27 {
			t.Errorf("--strict rows %v, want the bad product's 3 failed and 27 skipped", rep.Rows)
		}
		// Every row skipped says why: the variants' lines as the products'.
		for _, l := range readResults(t, rep.Results)[1:] {
			if l[4] == string(engine.Skipped) && !strings.Contains(l[7], "rows of the input are invalid and this import is strict") {
				t.Errorf("--strict: results line %q: want it to say the import is strict", l)
			}
		}
	})

	t.Run("the others go ahead", func(t *testing.T) {
		rep, err := e.importFile(context.Background(), "generic", in, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Products[engine.Failed] != 1 || rep.Products[engine.Created] != 9 || rep.Rows[engine.Failed] != 3 {
			t.Errorf("products %v rows %v: want 1 failed (3 rows), 9 created", rep.Products, rep.Rows)
		}
		s := e.read()
		if len(s.Products) != 9 || len(s.Variants) != 27 {
			t.Errorf("sandbox: %d products, %d variants; want 9 and 27", len(s.Products), len(s.Variants))
		}
		if _, ok := s.bySKU(t)["P000004-Red-S"]; ok {
			t.Error("a variant of the failed product was written")
		}
		// The catalog drops an invalid row's cells, its SKU included: the
		// line is found by its row number.
		var r []string
		for _, l := range readResults(t, rep.Results) {
			if l[1] == strconv.Itoa(line) {
				r = l
			}
		}
		if r == nil {
			t.Fatalf("no results line for row %d", line)
		}
		msg := r[7]
		if r[4] != string(engine.Failed) || r[0] != "bad.csv" && r[0] != in || r[1] != strconv.Itoa(line) {
			t.Errorf("results line %q: want failed at %s row %d", r, filepath.Base(in), line)
		}
		for _, want := range []string{"bad.csv", strconv.Itoa(line), "weight", "heavy"} {
			if !strings.Contains(msg, want) {
				t.Errorf("message %q does not name %q", msg, want)
			}
		}
		// The product's other rows say why they were not written.
		if r := resultOf(t, rep.Results, "P000004-Red-S"); r[4] != string(engine.Failed) || !strings.Contains(r[7], "weight") {
			t.Errorf("sibling row %q: want failed, naming the bad weight", r)
		}
	})
}

func TestImportEmptyCellKeepsValue(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	gen := e.generate("gen.csv", 5, 2)
	if _, err := e.importFile(context.Background(), "generic", gen, nil); err != nil {
		t.Fatal(err)
	}
	s := e.read()
	blank := editCSV(t, gen, "blank.csv", func(col map[string]int, r []string) bool {
		for _, c := range []string{"product_description", "product_notes", "description", "weight", "cost", "upc", "tier:Retail", "tags"} {
			r[col[c]] = ""
		}
		return true
	})
	before := e.srv.Counters().Requests
	rep, err := e.importFile(context.Background(), "generic", blank, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := writes(before, e.srv.Counters().Requests); w != 0 || rep.Rows[engine.Unchanged] != 10 {
		t.Errorf("empty cells: %d writes, rows %v; want none, all unchanged", w, rep.Rows)
	}
	if got := e.read(); !slices.Equal(got.Variants, s.Variants) {
		t.Error("empty cells changed the catalog")
	}
}

// modesFixture imports the first 6 of 10 generated products and returns
// the whole file with one price of an imported product changed.
func modesFixture(t *testing.T, e *env) string {
	t.Helper()
	gen := e.generate("gen.csv", 10, 2)
	first := editCSV(t, gen, "first.csv", func(col map[string]int, r []string) bool {
		n, _ := strconv.Atoi(strings.TrimPrefix(r[col["product_key"]], "P"))
		return n <= 6
	})
	if _, err := e.importFile(context.Background(), "generic", first, nil); err != nil {
		t.Fatal(err)
	}
	return editCSV(t, gen, "all.csv", func(col map[string]int, r []string) bool {
		if r[col["sku"]] == "P000002-Red-M" {
			r[col["tier:Retail"]] = "99.5"
		}
		return true
	})
}

func TestImportModes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode               importer.Mode
		products, variants engine.Counts
		writes             int64
		liveProducts       int
		price              string // Retail of P000002-Red-M afterwards
		reason             string // in the skipped rows' messages
	}{
		{
			mode:     importer.ModeCreateOnly,
			products: engine.Counts{engine.Created: 4, engine.Unchanged: 6},
			variants: engine.Counts{engine.Created: 8, engine.Skipped: 1, engine.Unchanged: 11},
			writes:   1, liveProducts: 10, price: "11.25", reason: "only creates what is new (mode create-only)",
		},
		{
			mode:     importer.ModeUpdateOnly,
			products: engine.Counts{engine.Skipped: 4, engine.Unchanged: 5, engine.Updated: 1},
			variants: engine.Counts{engine.Skipped: 8, engine.Updated: 1, engine.Unchanged: 11},
			writes:   1, liveProducts: 6, price: "99.5", reason: "only updates what exists (mode update-only)",
		},
	}
	for _, tc := range cases {
		t.Run(string(tc.mode), func(t *testing.T) {
			e := newEnv(t, sandbox.Options{})
			all := modesFixture(t, e)
			before := e.srv.Counters().Requests
			rep, err := e.importFile(context.Background(), "generic", all, func(o *importer.Options) { o.Mode = tc.mode })
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range []engine.Status{engine.Created, engine.Updated, engine.Unchanged, engine.Skipped} {
				if rep.Variants[a] != tc.variants[a] || rep.Products[a] != tc.products[a] {
					t.Errorf("products %v, variants %v; want %v and %v", rep.Products, rep.Variants, tc.products, tc.variants)
					break
				}
			}
			if w := writes(before, e.srv.Counters().Requests); w != tc.writes {
				t.Errorf("%d writes, want %d", w, tc.writes)
			}
			s := e.read()
			if len(s.Products) != tc.liveProducts {
				t.Errorf("%d products in the sandbox, want %d", len(s.Products), tc.liveProducts)
			}
			if v := s.bySKU(t)["P000002-Red-M"]; !strings.Contains(v.Prices, "Retail:"+tc.price) {
				t.Errorf("P000002-Red-M prices %s, want Retail %s", v.Prices, tc.price)
			}
			skipped := 0
			for _, r := range readResults(t, rep.Results) {
				if r[4] == string(engine.Skipped) {
					skipped++
					if !strings.Contains(r[7], tc.reason) || r[3] == "" {
						t.Errorf("skipped row %q: want its SKU and %q", r, tc.reason)
					}
				}
			}
			if skipped != tc.variants[engine.Skipped] {
				t.Errorf("%d skipped result lines, want %d", skipped, tc.variants[engine.Skipped])
			}
		})
	}
}

func TestImportDryRunPlan(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	gen := e.generate("gen.csv", 4, 2)
	plan := filepath.Join(e.dir, "plan.json")
	before := e.srv.Counters().Requests
	rep, err := e.importFile(context.Background(), "generic", gen, func(o *importer.Options) {
		o.DryRun, o.PlanFile = true, plan
	})
	if err != nil {
		t.Fatal(err)
	}
	if w := writes(before, e.srv.Counters().Requests); w != 0 {
		t.Errorf("--dry-run sent %d writes", w)
	}
	if _, err := os.Stat(engine.DefaultResultsPath(gen)); !os.IsNotExist(err) {
		t.Errorf("--dry-run wrote the default results file (%v)", err)
	}
	if rep.Variants[engine.Created] != 8 || rep.RequestsPlanned != 1 {
		t.Errorf("dry run: variants %v, %d requests planned; want 8 created, 1", rep.Variants, rep.RequestsPlanned)
	}
	var p struct {
		Products []struct {
			Key      string `json:"key"`
			Action   string `json:"action"`
			Variants []struct {
				SKU     string            `json:"sku"`
				Action  string            `json:"action"`
				Changes []importer.Change `json:"changes"`
			} `json:"variants"`
		} `json:"products"`
	}
	readPlan := func() {
		b, err := os.ReadFile(plan)
		if err != nil {
			t.Fatal(err)
		}
		p.Products = nil
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
	}
	readPlan()
	if len(p.Products) != 4 || p.Products[0].Action != "created" || len(p.Products[0].Variants) != 2 {
		t.Fatalf("plan = %+v, want 4 products to create with 2 variants each", p)
	}

	// After a real import, a changed cost shows up as a field diff.
	if _, err := e.importFile(context.Background(), "generic", gen, nil); err != nil {
		t.Fatal(err)
	}
	changed := editCSV(t, gen, "changed.csv", func(col map[string]int, r []string) bool {
		if r[col["sku"]] == "P000003-Red-S" {
			r[col["cost"]] = "7.25"
		}
		return true
	})
	before = e.srv.Counters().Requests
	results := filepath.Join(e.dir, "dry.results.csv")
	_, err = e.importFile(context.Background(), "generic", changed, func(o *importer.Options) {
		o.DryRun, o.PlanFile, o.ResultsFile = true, plan, results
	})
	if err != nil {
		t.Fatal(err)
	}
	if w := writes(before, e.srv.Counters().Requests); w != 0 {
		t.Errorf("--dry-run sent %d writes", w)
	}
	readPlan()
	var diffs []string
	for _, pp := range p.Products {
		for _, v := range pp.Variants {
			for _, c := range v.Changes {
				diffs = append(diffs, v.SKU+" "+v.Action+" "+c.String())
			}
		}
	}
	if want := []string{`P000003-Red-S updated cost "5" → "7.25"`}; !slices.Equal(diffs, want) {
		t.Errorf("plan diffs = %q, want %q", diffs, want)
	}
	if r := resultOf(t, results, "P000003-Red-S"); r[4] != "updated" || !strings.Contains(r[7], "7.25") {
		t.Errorf("dry-run results line %q: want updated with the change", r)
	}
	if v := e.read().bySKU(t)["P000003-Red-S"]; v.SKU == "" {
		t.Error("P000003-Red-S missing")
	}
}

func TestImportResultsXLSX(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	in := e.copyTo("../samples/catalog.csv", nil)
	out := filepath.Join(e.dir, "results.xlsx")
	rep, err := e.importFile(context.Background(), "generic", in, func(o *importer.Options) { o.ResultsFile = out })
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(f.GetSheetList()[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 || !slices.Equal(rows[0], []string{"file", "row", "product_key", "sku", "action", "product_id", "variant_id", "message"}) {
		t.Fatalf("header %q", rows[0])
	}
	total := 0
	for _, n := range rep.Rows {
		total += n
	}
	if len(rows)-1 != total || rep.Rows[engine.Created] != total {
		t.Errorf("%d result rows, report %v", len(rows)-1, rep.Rows)
	}
	for _, r := range rows[1:] {
		if len(r) < 6 || r[4] != "created" || r[5] == "" {
			t.Errorf("results row %q: want created with its product id", r)
			break
		}
	}
}

func TestImportSamplesCSVAndXLSXAlike(t *testing.T) {
	t.Parallel()
	csvEnv := newEnv(t, sandbox.Options{})
	if _, err := csvEnv.importFile(context.Background(), "generic", csvEnv.copyTo("../samples/catalog.csv", nil), nil); err != nil {
		t.Fatal(err)
	}
	xlsxEnv := newEnv(t, sandbox.Options{})
	xlsx := xlsxEnv.copyTo("../samples/catalog.xlsx", nil)
	if _, err := xlsxEnv.importFile(context.Background(), "generic", xlsx, nil); err != nil {
		t.Fatal(err)
	}
	a, b := csvEnv.read(), xlsxEnv.read()
	if len(a.Variants) == 0 || !slices.Equal(a.Variants, b.Variants) {
		t.Errorf("CSV and XLSX samples import differently:\n csv %v\nxlsx %v", a.Variants, b.Variants)
	}
	// The XLSX over the CSV's import: nothing to write.
	before := csvEnv.srv.Counters().Requests
	rep, err := csvEnv.importFile(context.Background(), "generic", csvEnv.copyTo("../samples/catalog.xlsx", nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := writes(before, csvEnv.srv.Counters().Requests); w != 0 || rep.Rows[engine.Unchanged] != len(a.Variants) {
		t.Errorf("XLSX after CSV: %d writes, rows %v", w, rep.Rows)
	}
}

func TestImportTokenNeverShown(t *testing.T) {
	t.Parallel()
	const secret = "s3cret-T0KEN-value"
	e := newEnv(t, sandbox.Options{})
	if _, err := e.srv.RegisterToken(secret); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	gen := e.generate("gen.csv", 3, 2)
	bad := editCSV(t, gen, "bad.csv", func(col map[string]int, r []string) bool {
		if r[col["sku"]] == "P000001-Red-S" {
			r[col["cost"]] = "cheap"
		}
		return true
	})
	plan := filepath.Join(e.dir, "plan.json")
	var outputs []string
	for _, token := range []string{secret, secret + "-wrong"} {
		c, err := api.NewClient(e.url+"/api2", token, api.WithRate(1000, 100), api.WithLogger(logger), api.WithDebug(&logs))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := e.importFile(context.Background(), "generic", bad, func(o *importer.Options) {
			o.Client, o.Logger, o.PlanFile = c, logger, plan
		})
		if err != nil {
			outputs = append(outputs, err.Error())
		}
		if token == secret {
			if err != nil || rep.Products[engine.Created] != 2 {
				t.Fatalf("import with the right token: %v, %+v", err, rep)
			}
			b, _ := os.ReadFile(rep.Results)
			p, _ := os.ReadFile(plan)
			outputs = append(outputs, string(b), string(p))
		} else if err == nil {
			t.Error("a wrong token did not fail the import")
		}
	}
	outputs = append(outputs, logs.String())
	if logs.Len() == 0 {
		t.Error("nothing was logged: the test proves nothing")
	}
	for _, o := range outputs {
		if strings.Contains(o, secret) {
			t.Errorf("the token appears in an output: %.300s", o[max(0, strings.Index(o, secret)-100):])
		}
	}
}

// By default an import sends its writes and the one read that plans them,
// nothing else: created products get their ids in the results, their
// variants none. With ReadIDs, one read per 250 created products at the end
// gives every row its variant's id and fills the state's SKU cache.
func TestImportReadsCreatedBack(t *testing.T) {
	t.Parallel()
	for _, readIDs := range []bool{false, true} {
		t.Run(fmt.Sprintf("ReadIDs=%v", readIDs), func(t *testing.T) {
			e := newEnv(t, sandbox.Options{})
			in := e.generate("gen.csv", 250, 2)
			before := e.srv.Counters().Requests
			rep, err := e.importFile(context.Background(), "generic", in, func(o *importer.Options) {
				o.BatchSize, o.ReadIDs = 30, readIDs
			})
			if err != nil {
				t.Fatal(err)
			}
			after := e.srv.Counters().Requests
			total, w := requests(before, after), writes(before, after)
			// One read of the catalog's size; with ReadIDs, 250 products
			// read back in one.
			wantReads := int64(1)
			if readIDs {
				wantReads = 2
			}
			if w != 9 || total-w != wantReads {
				t.Errorf("%d writes and %d reads, want 9 and %d", w, total-w, wantReads)
			}
			if rep.Writes != w || rep.Reads != total-w || rep.Requests != total {
				t.Errorf("report: %d requests, %d writes, %d reads; the sandbox counted %d, %d and %d", rep.Requests, rep.Writes, rep.Reads, total, w, total-w)
			}
			lines := readResults(t, rep.Results)
			if len(lines) != 500 {
				t.Fatalf("%d results lines, want 500", len(lines))
			}
			skuOf := map[string]string{}
			for _, pg := range pages(t, e.c.Variants.ListPages(context.Background(), nil)) {
				for _, v := range pg.Records {
					skuOf[string(v.ID)] = string(v.SKU)
				}
			}
			for _, r := range lines {
				if r[4] != "created" || r[5] == "" {
					t.Fatalf("results line %q: want created with its product id", r)
				}
				if readIDs && skuOf[r[6]] != r[3] {
					t.Fatalf("results line %q: SKU %s has variant id %q, which the sandbox gives SKU %q", r, r[3], r[6], skuOf[r[6]])
				}
				if !readIDs && r[6] != "" {
					t.Fatalf("results line %q: a variant id without reading it back", r)
				}
			}
			cached, err := e.state.IDs(context.Background(), state.KeySKUs(e.url), slices.Collect(maps.Values(skuOf)))
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{false: 0, true: 500}[readIDs]; len(cached) != want {
				t.Errorf("%d SKUs in the state's cache, want %d", len(cached), want)
			}
			for sku, id := range cached {
				if skuOf[id] != sku {
					t.Errorf("cache: SKU %s → %s, which the sandbox gives SKU %q", sku, id, skuOf[id])
				}
			}
		})
	}
}
