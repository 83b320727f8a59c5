package exporter

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"lading/api"
	"lading/api/wire"
	"lading/exporter/sheet"
	"lading/sandbox"
	"lading/source/sourcetest"
)

// Benchmarks of exports of 100,000 variants (LADING_BENCH_ROWS changes the
// number) from an unthrottled sandbox seeded once per process into a
// SQLite file, side by side in one run:
//
//	go test -run '^$' -bench Export -benchtime 3x ./exporter
//
// variants-xlsx, variants-csv, products-xlsx and products-csv run Export
// with an unpaced client. The in-process sandbox shares the 2 cores, and
// builds its pages one at a time: variants-xlsx-replayed and
// variants-csv-replayed are the same exports against the sandbox's
// answers, recorded once (untimed) into files and served from them, which
// measures lading's own work, the HTTP exchange included, without the
// sandbox's. bare-streamwriter writes the variants export's
// cells with excelize's StreamWriter alone, as its documentation shows
// (a bold header, then SetRow per row, Flush, SaveAs): the rows are taken
// once, untimed, from a CSV export of the variants into memory, and the
// timed loop turns each cell into its column's kind (numbers parsed,
// money, whole numbers and dates with their number formats) and writes it.
// It has none of the export's widths, frozen header, autofilter or totals.
//
// Each reports rows/s, peak-RSS-MB (the process's, which holds the
// sandbox too) and peak-rise-MB (how far the work raised the RSS); the
// exports also report requests/op and pages/op, and fail unless every
// pass wrote every row in at most ceil(records ÷ 250) requests: 400 for
// 100,000 variants, 4 for their 1,000 products.
//
// Seeding takes about 10 s on 2 cores; the benchmark logs it.

// TestMain removes what the benchmarks wrote into sourcetest.BenchDir.
func TestMain(m *testing.M) { sourcetest.Main(m) }

// benchPerProduct is how many variants each seeded product has.
const benchPerProduct = 100

// benchAccount is a sandbox account holding seeded variants.
type benchAccount struct {
	srv      *sandbox.Server
	hs       *httptest.Server
	url      string
	variants int
	products int
	// replay serves the sandbox's recorded answers, through rs at
	// replayURL.
	replay    *replay
	rs        *httptest.Server
	replayURL string
}

var benchShared struct {
	once sync.Once
	acct *benchAccount
	err  error
}

// seededBench returns the process's sandbox holding rows variants,
// seeding them on first use.
func seededBench(b *testing.B) *benchAccount {
	b.Helper()
	rows := sourcetest.BenchRows(b)
	dir := sourcetest.BenchDir(b)
	benchShared.once.Do(func() {
		start := time.Now()
		benchShared.acct, benchShared.err = newBenchAccount(filepath.Join(dir, "export-sandbox.db"), dir, rows)
		b.Logf("seeded %d variants in %v", rows, time.Since(start).Round(time.Millisecond))
	})
	switch {
	case benchShared.err != nil:
		b.Fatal(benchShared.err)
	case benchShared.acct.variants != rows:
		b.Fatalf("the sandbox holds %d variants; LADING_BENCH_ROWS changed to %d within the process", benchShared.acct.variants, rows)
	}
	return benchShared.acct
}

// newBenchAccount starts a sandbox on the file db ("" keeps it in memory),
// with its replay recording into replayDir, and seeds it with variants
// variants. The process's shared account is never closed; others are,
// with close.
func newBenchAccount(db, replayDir string, variants int) (*benchAccount, error) {
	srv, err := sandbox.New(sandbox.Options{DBPath: db})
	if err != nil {
		return nil, err
	}
	hs := httptest.NewServer(srv)
	a := &benchAccount{srv: srv, hs: hs, url: hs.URL + "/api2", variants: variants,
		products: (variants + benchPerProduct - 1) / benchPerProduct}
	a.replay = &replay{next: srv, dir: replayDir}
	a.rs = httptest.NewServer(a.replay)
	a.replayURL = a.rs.URL + "/api2"
	_, err = srv.RegisterToken("tok")
	if err == nil {
		err = a.seed()
	}
	if err != nil {
		a.close()
		return nil, fmt.Errorf("seeding the sandbox: %w", err)
	}
	return a, nil
}

func (a *benchAccount) close() {
	a.rs.Close()
	a.hs.Close()
	a.srv.Close()
}

// client is a client of the account, unpaced: the benchmarks measure
// lading and the sandbox, not the pacing.
func (a *benchAccount) client(tb testing.TB) *api.Client { return a.clientOf(tb, a.url) }

// clientOf is an unpaced client of the account at url.
func (a *benchAccount) clientOf(tb testing.TB, url string) *api.Client {
	c, err := api.NewClient(url, "tok", api.WithRate(1e6, 1000))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// seed creates the account's variants SKU-000000 ..., in products of
// benchPerProduct variants (one Size attribute) with two tags each, every
// variant with a UPC, weight, cost, opening stock and prices in two tiers,
// 20 products a write.
func (a *benchAccount) seed() error {
	c, err := api.NewClient(a.url, "tok", api.WithRate(1e6, 1000))
	if err != nil {
		return err
	}
	var prods []api.ProductWrite
	for p := range a.products {
		prods = append(prods, benchProduct(p, min(benchPerProduct, a.variants-p*benchPerProduct)))
		if len(prods) == 20 || p == a.products-1 {
			res, err := c.Products.Write(context.Background(), prods)
			if err != nil {
				return err
			}
			if len(res.Failed) > 0 {
				return fmt.Errorf("%d products refused: %v", len(res.Failed), res.Failed)
			}
			prods = prods[:0]
		}
	}
	return nil
}

// benchProduct is product p of the seeded catalog, with n variants.
func benchProduct(p, n int) api.ProductWrite {
	s := func(v string) *string { return &v }
	w := api.ProductWrite{Name: s(fmt.Sprintf("Product %d", p)), Description: s(fmt.Sprintf("Organic cotton, cut %d", p%7)),
		Links: &api.ProductLinks{Attributes: []api.AttributeRef{{Name: "Size"}},
			ProductTags: []api.TagRef{{Name: "bench"}, {Name: fmt.Sprintf("group-%d", p%10)}}}}
	for j := range n {
		i := p*benchPerProduct + j
		w.Links.Variants = append(w.Links.Variants, api.VariantWrite{
			SKU: s(fmt.Sprintf("SKU-%06d", i)), UPC: s(strconv.Itoa(400000000000 + i*7919)),
			Weight: s(strconv.FormatFloat(0.1+float64(i%40)/100, 'f', 2, 64)),
			Cost:   s(strconv.FormatFloat(3.5+float64(i%300)/4, 'f', 2, 64)), Quantity: s(strconv.Itoa(i % 250)),
			Links: &api.VariantLinks{
				AttributeOptions: []api.OptionRef{{Value: fmt.Sprint("S", i), Attribute: "Size"}},
				PricingTiers: []api.TierValue{{Name: "Retail", Value: strconv.FormatFloat(9.99+float64(i%500), 'f', 2, 64)},
					{Name: "Wholesale", Value: strconv.FormatFloat(4.5+float64(i%200), 'f', 2, 64)}},
			},
		})
	}
	return w
}

// pagesFor is how many pages of wire.MaxPageSize records n records take:
// the most requests an export of them may send.
func pagesFor(n int) int64 { return int64((n + wire.MaxPageSize - 1) / wire.MaxPageSize) }

// exportRun is one export the benchmarks and tests make, and what it must
// cost: rows rows in at most maxRequests requests.
type exportRun struct {
	resource, ext string
	rows          int
	maxRequests   int64
	// replayed runs against the recorded answers (benchAccount.replay).
	replayed bool
}

// name is the sub-benchmark's name.
func (r exportRun) name() string {
	n := r.resource + "-" + r.ext
	if r.replayed {
		n += "-replayed"
	}
	return n
}

// exportRuns are the exports of a seeded account: variants and products,
// to XLSX and CSV, and with replayed the variants' against the recorded
// answers.
func (a *benchAccount) exportRuns(replayed bool) []exportRun {
	var runs []exportRun
	for _, res := range []string{Variants, Products} {
		// The bound is the issue's, by variants, for both: a products
		// export reads pages of about a thousand variants (and a first
		// page of ten products to size them), not 250 products of any
		// size.
		records := a.variants
		for _, again := range []bool{false, true} {
			for _, ext := range []string{"xlsx", "csv"} {
				if !again || replayed && res == Variants {
					runs = append(runs, exportRun{resource: res, ext: ext, rows: a.variants, maxRequests: pagesFor(records), replayed: again})
				}
			}
		}
	}
	return runs
}

// export runs r into a file of dir and checks what it cost.
func (a *benchAccount) export(tb testing.TB, c *api.Client, dir string, r exportRun) *Summary {
	tb.Helper()
	out := filepath.Join(dir, r.resource+"."+r.ext)
	sum, err := Export(context.Background(), Options{Client: c, Resource: r.resource, Output: out})
	switch {
	case err != nil:
		tb.Fatalf("export of %s to %s: %v", r.resource, r.ext, err)
	case sum.Rows != r.rows:
		tb.Fatalf("export of %s to %s wrote %d rows, want %d", r.resource, r.ext, sum.Rows, r.rows)
	case sum.Requests > r.maxRequests || int64(sum.Pages) > r.maxRequests:
		tb.Fatalf("export of %s to %s sent %d requests for %d pages; want at most ceil(%d ÷ %d) = %d",
			r.resource, r.ext, sum.Requests, sum.Pages, r.rows, wire.MaxPageSize, r.maxRequests)
	case sum.Throttled > 0:
		tb.Fatalf("export of %s to %s: %d answers throttled by an unthrottled sandbox", r.resource, r.ext, sum.Throttled)
	}
	return sum
}

func BenchmarkExport(b *testing.B) {
	rows := sourcetest.BenchRows(b)
	for _, r := range (&benchAccount{variants: rows, products: (rows + benchPerProduct - 1) / benchPerProduct}).exportRuns(true) {
		b.Run(r.name(), func(b *testing.B) { benchExport(b, r) })
	}
	b.Run("bare-streamwriter", benchBareStreamWriter)
}

// benchExport runs the export r b.N times and reports rows/s, the peak
// RSS, requests/op, pages/op and the file's size.
func benchExport(b *testing.B, r exportRun) {
	a := seededBench(b)
	c, dir := a.client(b), b.TempDir()
	if r.replayed {
		c = a.clientOf(b, a.replayURL)
		a.export(b, c, dir, r) // records the answers
	}
	b.ReportAllocs()
	rss, cpu := sourcetest.StartPeakRSS(), sourcetest.StartCPU()
	var requests, pages int64
	n, passes := 0, 0
	for b.Loop() {
		sum := a.export(b, c, dir, r)
		n, requests, pages = n+sum.Rows, requests+sum.Requests, pages+int64(sum.Pages)
		passes++
	}
	b.StopTimer()
	cpu.Report(b, passes, time.Second, "cpu-s/op")
	sourcetest.ReportRows(b, r.rows, n, passes)
	rss.Report(b)
	b.ReportMetric(float64(requests)/float64(passes), "requests/op")
	b.ReportMetric(float64(pages)/float64(passes), "pages/op")
	reportFileSize(b, filepath.Join(dir, r.resource+"."+r.ext))
}

func reportFileSize(b *testing.B, path string) {
	if fi, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(fi.Size())/(1<<20), "file-MB")
	}
}

// benchBareStreamWriter writes the variants export's rows with the bare
// StreamWriter loop, b.N times.
func benchBareStreamWriter(b *testing.B) {
	a := seededBench(b)
	rows := capturedRows(b, a)
	path := filepath.Join(b.TempDir(), "bare.xlsx")
	b.ReportAllocs()
	rss, cpu := sourcetest.StartPeakRSS(), sourcetest.StartCPU()
	n, passes := 0, 0
	for b.Loop() {
		if err := bareStreamWriter(path, variantColumns(), rows); err != nil {
			b.Fatal(err)
		}
		n += rows.len()
		passes++
	}
	b.StopTimer()
	cpu.Report(b, passes, time.Second, "cpu-s/op")
	sourcetest.ReportRows(b, a.variants, n, passes)
	rss.Report(b)
	reportFileSize(b, path)
}

// variantColumns are the columns of the variants export, with their kinds.
func variantColumns() []sheet.Column {
	cols := make([]sheet.Column, len(variantEntity.fields))
	for i, f := range variantEntity.fields {
		cols[i] = sheet.Column{Header: f.name, Kind: f.kind}
	}
	return cols
}

// rowSet holds rows of text cells compactly: each row one string, its
// cells separated by cellSep.
type rowSet []string

// cellSep separates the cells of a rowSet row; no exported cell has it.
const cellSep = "\x1f"

func (s rowSet) len() int { return len(s) }

// cells splits row i into buf.
func (s rowSet) cells(i int, buf []string) []string {
	buf = buf[:0]
	rest := s[i]
	for {
		cell, after, found := strings.Cut(rest, cellSep)
		buf = append(buf, cell)
		if !found {
			return buf
		}
		rest = after
	}
}

// capturedRows exports the account's variants to CSV once, untimed, and
// returns the file's rows after the header. The CSV holds the cells the
// XLSX export is given: its cells are neutralised only when text starts
// like a formula, which no seeded cell does (checked).
func capturedRows(b testing.TB, a *benchAccount) rowSet {
	b.Helper()
	dir := b.TempDir()
	a.export(b, a.client(b), dir, exportRun{resource: Variants, ext: "csv", rows: a.variants, maxRequests: pagesFor(a.variants)})
	rows, err := readRowSet(filepath.Join(dir, Variants+".csv"), len(variantEntity.fields))
	if err != nil {
		b.Fatal(err)
	}
	if len(rows) != a.variants {
		b.Fatalf("the CSV export holds %d rows, want %d", len(rows), a.variants)
	}
	return rows
}

// readRowSet reads the CSV file at path, whose rows have width cells, into
// a rowSet, without the header.
func readRowSet(path string, width int) (rowSet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReaderSize(f, 256<<10))
	r.FieldsPerRecord = width
	r.ReuseRecord = true
	var rows rowSet
	for n := 0; ; n++ {
		rec, err := r.Read()
		switch {
		case errors.Is(err, io.EOF):
			return rows, nil
		case err != nil:
			return nil, err
		case n == 0:
			continue // the header
		}
		for c, v := range rec {
			if strings.HasPrefix(v, "'") || strings.Contains(v, cellSep) {
				return nil, fmt.Errorf("%s, row %d, column %d: %q is not a cell the bare loop can be given as is", path, n+1, c+1, v)
			}
		}
		rows = append(rows, strings.Join(rec, cellSep))
	}
}

// bareStreamWriter writes rows with excelize's StreamWriter alone, as its
// documentation shows: a bold header, then each row's cells in their
// columns' kinds (numbers parsed; whole numbers, money and dates with
// their number formats; text as text), Flush and SaveAs.
func bareStreamWriter(path string, cols []sheet.Column, rows rowSet) error {
	f := excelize.NewFile()
	defer f.Close()
	st, err := bareStyles(f)
	if err != nil {
		return err
	}
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	for c, col := range cols {
		vals[c] = excelize.Cell{StyleID: st[len(st)-1], Value: col.Header}
	}
	if err := sw.SetRow("A1", vals); err != nil {
		return err
	}
	var buf []string
	for i := range rows.len() {
		buf = rows.cells(i, buf)
		for c, col := range cols {
			vals[c] = nil
			if c < len(buf) {
				vals[c] = bareCell(buf[c], col.Kind, st)
			}
		}
		if err := sw.SetRow("A"+strconv.Itoa(i+2), vals); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.SaveAs(path)
}

// bareStyles are the style ids of each kind's cells, and last the bold
// header's.
func bareStyles(f *excelize.File) ([sheet.DateTime + 2]int, error) {
	var st [sheet.DateTime + 2]int
	date, dateTime := "yyyy-mm-dd", "yyyy-mm-dd hh:mm:ss"
	styles := map[int]*excelize.Style{
		int(sheet.Integer): {NumFmt: 1}, int(sheet.Money): {NumFmt: 4},
		int(sheet.Date): {CustomNumFmt: &date}, int(sheet.DateTime): {CustomNumFmt: &dateTime},
		len(st) - 1: {Font: &excelize.Font{Bold: true}},
	}
	for i, s := range styles {
		id, err := f.NewStyle(s)
		if err != nil {
			return st, err
		}
		st[i] = id
	}
	return st, nil
}

// bareCell is the value of v in a column of kind k: what the bare loop
// writes.
func bareCell(v string, k sheet.Kind, st [sheet.DateTime + 2]int) any {
	switch {
	case v == "":
		return nil
	case k == sheet.Number:
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			return n
		}
	case k == sheet.Integer || k == sheet.Money:
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			return excelize.Cell{StyleID: st[k], Value: n}
		}
	case k == sheet.Date || k == sheet.DateTime:
		for _, layout := range []string{time.RFC3339, time.DateTime, time.DateOnly} {
			if t, err := time.Parse(layout, v); err == nil {
				if t = t.UTC(); k == sheet.Date {
					t = t.Truncate(24 * time.Hour)
				}
				return excelize.Cell{StyleID: st[k], Value: t}
			}
		}
	}
	return v
}

// The request bound and the bare loop's cells at a size a test affords:
// 2,000 variants, 8 pages of the listing.
const testVariants = 2000

func newTestAccount(t *testing.T) *benchAccount {
	t.Helper()
	a, err := newBenchAccount("", t.TempDir(), testVariants)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.close)
	return a
}

// TestExportRequestBound: each export sends one request a page, no more
// than the bound; a replayed export (twice: recording, then from the
// files) writes the file the sandbox's export writes.
func TestExportRequestBound(t *testing.T) {
	t.Parallel()
	a := newTestAccount(t)
	want := map[string]int64{Variants: 8, Products: 8} // 2,000 variants ÷ 250
	for _, r := range a.exportRuns(true) {
		t.Run(r.name(), func(t *testing.T) {
			if r.maxRequests != want[r.resource] {
				t.Fatalf("bound %d requests, want %d", r.maxRequests, want[r.resource])
			}
			c, dir := a.client(t), t.TempDir()
			passes := 1
			if r.replayed {
				c, passes = a.clientOf(t, a.replayURL), 2
			}
			for range passes {
				sum := a.export(t, c, dir, r) // fails beyond the bound
				// A variants export reads one page a request, to the
				// bound; a products export one more, the page that sizes
				// its pages.
				probe := int64(0)
				if r.resource == Products {
					probe = 1
				}
				if sum.Requests != int64(sum.Pages)+probe || r.resource == Variants && sum.Requests != r.maxRequests {
					t.Errorf("%d requests, %d pages; want a request a page (and one to size the pages of products), %d for variants", sum.Requests, sum.Pages, r.maxRequests)
				}
			}
			if r.replayed && r.ext == "csv" {
				direct := a.export(t, a.client(t), t.TempDir(), exportRun{resource: r.resource, ext: r.ext, rows: r.rows, maxRequests: r.maxRequests})
				if !sameFile(t, direct.Files[0], filepath.Join(dir, r.resource+"."+r.ext)) {
					t.Error("the replayed export differs from the sandbox's")
				}
			}
		})
	}
	if a.replay.n.Load() != want[Variants] {
		t.Errorf("the replay recorded %d answers; want one per page, %d", a.replay.n.Load(), want[Variants])
	}
}

func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	da, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	db, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	return len(da) > 0 && string(da) == string(db)
}

// TestBareStreamWriterCells: the bare loop writes the cells the variants
// export writes, of the same types and shown the same, so that the
// benchmark compares the same work.
func TestBareStreamWriterCells(t *testing.T) {
	t.Parallel()
	a := newTestAccount(t)
	dir := t.TempDir()
	a.export(t, a.client(t), dir, exportRun{resource: Variants, ext: "xlsx", rows: a.variants, maxRequests: pagesFor(a.variants)})
	bare := filepath.Join(dir, "bare.xlsx")
	if err := bareStreamWriter(bare, variantColumns(), capturedRows(t, a)); err != nil {
		t.Fatal(err)
	}
	want, got := readCells(t, filepath.Join(dir, Variants+".xlsx")), readCells(t, bare)
	if len(got) != len(want) || len(got) != a.variants+1 {
		t.Fatalf("the bare loop wrote %d rows, the export %d; want %d", len(got), len(want), a.variants+1)
	}
	// A number cell has no type attribute: it reads back as unset.
	text, numbers := 0, 0
	for r := range want {
		for c := range want[r] {
			if got[r][c] != want[r][c] {
				t.Fatalf("row %d, column %d: the bare loop wrote %+v, the export %+v", r+1, c+1, got[r][c], want[r][c])
			}
			switch w := want[r][c]; {
			case w.shown == "":
			case w.typ == excelize.CellTypeUnset:
				numbers++
			case w.typ == excelize.CellTypeInlineString || w.typ == excelize.CellTypeSharedString:
				text++
			}
		}
	}
	if text == 0 || numbers == 0 {
		t.Errorf("the export has %d text cells and %d number cells; want both", text, numbers)
	}
}

// xcell is a cell read back: its type and its value as shown.
type xcell struct {
	typ   excelize.CellType
	shown string
}

// readCells reads the first sheet of the workbook at path, every cell of
// the header's width.
func readCells(t *testing.T, path string) [][]xcell {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := f.GetSheetList()[0]
	rows, err := f.GetRows(name)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]xcell, len(rows))
	for r := range rows {
		out[r] = make([]xcell, len(rows[0]))
		for c := range out[r] {
			cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
			typ, err := f.GetCellType(name, cell)
			if err != nil {
				t.Fatal(err)
			}
			shown := "" // GetRows gives each cell as shown, and ends a row at its last value
			if c < len(rows[r]) {
				shown = rows[r][c]
			}
			out[r][c] = xcell{typ, shown}
		}
	}
	return out
}

// replay serves each request the answer next gave it the first time:
// recorded into a file of dir, and served from the file after.
type replay struct {
	next http.Handler
	dir  string
	n    atomic.Int64
	mu   sync.Mutex
	seen map[string]recorded
}

// recorded is an answer kept in a file.
type recorded struct {
	header http.Header
	file   string
}

func (rp *replay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	key := r.URL.RequestURI() + "\n" + string(body)
	rp.mu.Lock()
	rec, ok := rp.seen[key]
	rp.mu.Unlock()
	if !ok {
		rp.record(w, r, body, key)
		return
	}
	f, err := os.Open(rec.file)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer f.Close()
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	io.Copy(w, f)
}

// record has next answer r and passes the answer on, keeping it when it
// is a success.
func (rp *replay) record(w http.ResponseWriter, r *http.Request, body []byte, key string) {
	rr := httptest.NewRecorder()
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	rp.next.ServeHTTP(rr, r)
	if rr.Code == http.StatusOK {
		file := filepath.Join(rp.dir, fmt.Sprintf("replay-%d.json", rp.n.Add(1)))
		if err := os.WriteFile(file, rr.Body.Bytes(), 0o600); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		rp.mu.Lock()
		if rp.seen == nil {
			rp.seen = map[string]recorded{}
		}
		rp.seen[key] = recorded{header: rr.Header().Clone(), file: file}
		rp.mu.Unlock()
	}
	for k, v := range rr.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rr.Code)
	w.Write(rr.Body.Bytes())
}
