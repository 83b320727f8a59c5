package e2e

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"lading/api"
	"lading/app"
)

// corpus holds the malformed inputs and hostile mappings; see
// testdata/README.md for where each file comes from.
const corpus = "../testdata/malformed"

// exitCodeOf is the exit code main gives err (main.exitCode, which this
// package cannot import): 0 done, 1 fatal, 2 usage or mapping, 3 some rows
// failed, 130 interrupted.
func exitCodeOf(err error) int {
	var (
		u *app.UsageError
		p *app.PartialError
		i *app.InterruptedError
	)
	switch {
	case err == nil:
		return 0
	case errors.As(err, &u):
		return 2
	case errors.As(err, &p):
		return 3
	case errors.As(err, &i), errors.Is(err, context.Canceled):
		return 130
	}
	return 1
}

// failedRow is a row whose results line must say failed. The line's file
// and row columns name the input and the row; its message must name the
// column, the value and the rule, or the row at fault.
type failedRow struct {
	line     int
	key, sku string   // the line's product_key and sku
	want     []string // what its message must hold; {in} is the input's path
}

// malformedCase is one import of a corpus file.
type malformedCase struct {
	name     string   // the subtest; the file's name when empty
	file     string   // the input, in corpus
	mapping  string   // a mapping file in corpus; else template
	template string   // default "generic"
	flags    []string // more import flags; {in} and {dir} are replaced
	exit     int
	// errText is what the error must hold (exit 1 and 2); {in} and
	// {mapping} are the paths of the input and the mapping.
	errText []string
	// rows is the number of lines the results file must have (exit 0
	// and 3), failed the rows among them that must fail (no other may).
	rows   int
	failed []failedRow
	// skus are exactly the variants' SKUs the sandbox must hold, products
	// the number of its products. sameAs is a file under testdata whose
	// import with the same template must leave the same catalog.
	skus     []string
	products int
	sameAs   string
	// hold are patterns the sandbox's variants, described by liveText,
	// must match; results texts the results file must hold.
	hold, results []string
	within        time.Duration // the import must take less
}

var (
	goodSKUs = []string{"MUG-1", "TEE-M", "TEE-S"}
	withBag  = []string{"BAG-1", "MUG-1", "TEE-M", "TEE-S"}
	allGood  = []string{"BAG-1", "CAP-1", "CAP-2", "MUG-1", "TEE-M", "TEE-S"}
)

// capRows are the failed rows of a product "cap" whose second row, at
// line, cannot be read: the first row fails with it.
func capRows(line int, want ...string) []failedRow {
	return []failedRow{
		{line: line - 1, key: "cap", sku: "CAP-1", want: []string{"row " + strconv.Itoa(line)}},
		{line: line, key: "cap", sku: "CAP-2", want: want},
	}
}

// parseCases: rows that cannot be read are failed, with their product.
func parseCases() []malformedCase {
	return []malformedCase{
		{file: "invalid-utf8.csv", exit: 3, rows: 6, skus: withBag, products: 3,
			failed: capRows(6, `column "description"`, "UTF-8", "encoding")},
		{file: "nul-in-cell.csv", exit: 3, rows: 6, skus: withBag, products: 3,
			failed: capRows(6, `column "description"`, "NUL")},
		{file: "bare-quote.csv", exit: 3, rows: 6, skus: withBag, products: 3,
			failed: capRows(6, `column "description"`, "quote")},
		{file: "bare-quote-in-quoted.csv", exit: 3, rows: 6, skus: withBag, products: 3,
			failed: capRows(6, `column "description"`, "quote")},
		{file: "unclosed-quote.csv", exit: 3, rows: 6, skus: withBag, products: 3,
			failed: capRows(7, `column "description"`, "quote")},
		{file: "too-many-cells.csv", exit: 3, rows: 6, skus: withBag, products: 3,
			failed: capRows(6, "21 cells but the header has 19", `column 20 holds "extra"`)},
		{file: "short-rows.csv", exit: 3, rows: 6, skus: withBag, products: 3,
			failed: capRows(6, "11 cells but the header has 19")},
		{file: "cut-off.csv", exit: 3, rows: 5, skus: goodSKUs, products: 2,
			failed: capRows(6, "cut off")},
		{file: "cut-off-lone.csv", exit: 3, rows: 4, skus: goodSKUs, products: 2,
			failed: []failedRow{{line: 5, key: "hat", sku: "HAT-1", want: []string{"cut off"}}}},
		{file: "shared-string-range.xlsx", exit: 3, rows: 6, skus: withBag, products: 3,
			failed: capRows(6, `column "description"`, `shared text "99"`)},
		{file: "too-many-cells.xlsx", exit: 3, rows: 6, skus: withBag, products: 3,
			failed: capRows(6, "26 cells but the header has 19", `column 26 holds "extra"`)},
	}
}

// readableCases: files that import whole.
func readableCases() []malformedCase {
	return []malformedCase{
		{file: "good.csv", exit: 0, rows: 6, skus: allGood, products: 4},
		{file: "cr-only.csv", exit: 0, rows: 3, skus: goodSKUs, products: 2},
		{file: "crlf.csv", exit: 0, rows: 3, skus: goodSKUs, products: 2},
		{file: "utf8-bom.csv", exit: 0, rows: 3, skus: goodSKUs, products: 2},
		{file: "utf16le-bom.csv", exit: 0, rows: 3, skus: goodSKUs, products: 2},
		{file: "utf16be-bom.csv", exit: 0, rows: 3, skus: goodSKUs, products: 2},
		{file: "trailing-empty-cells.csv", exit: 0, rows: 3, skus: goodSKUs, products: 2},
		{file: "header-only.csv", exit: 0, rows: 0, products: 0},
		{file: "header-only.xlsx", exit: 0, rows: 0, products: 0},
		{file: "shopify-apparel.xlsx", template: "shopify", exit: 0, rows: 22, products: 20,
			sameAs: "../testdata/catalogs/shopify-apparel.csv"},
		{file: "woocommerce-sample-products.xlsx", template: "woocommerce", exit: 0, rows: 25, products: 16,
			sameAs: "../testdata/catalogs/woocommerce-sample-products.csv"},
	}
}

// fatalCases: files that cannot be read at all, workbook bombs among them.
func fatalCases() []malformedCase {
	limit := "longer than 1 MiB (the XLSX cell size limit)"
	return []malformedCase{
		{file: "empty.csv", exit: 1, errText: []string{"{in}: ", "the file is empty"}},
		{file: "blank.csv", exit: 1, errText: []string{"{in}: ", "no header row"}},
		{file: "utf16-no-bom.csv", exit: 1, errText: []string{"{in}: ", "UTF-16", "encoding"}},
		{file: "empty.xlsx", exit: 1, errText: []string{"{in}: ", "not an XLSX workbook"}},
		{file: "not-a-workbook.xlsx", exit: 1, errText: []string{"{in}: ", "not an Excel workbook"}},
		{file: "opendocument.xlsx", exit: 1, errText: []string{"{in}: ", "OpenDocument"}},
		{file: "excel97.xlsx", exit: 1, errText: []string{"{in}: ", ".xls"}},
		{file: "excel97.xls", exit: 1, errText: []string{"{in}: ", ".xlsx or .csv"}},
		{file: "csv-named-xlsx.xlsx", exit: 1, errText: []string{"{in}: ", "not an XLSX workbook", "CSV"}},
		{file: "truncated.xlsx", exit: 1, errText: []string{"{in}: ", "damaged"}},
		{file: "bomb-sheet-whitespace.xlsx", exit: 1, errText: []string{"{in}: ", "part xl/worksheets/sheet1.xml", limit}},
		{file: "bomb-cell.xlsx", exit: 1, errText: []string{"{in}: ", "row 5 (part xl/worksheets/sheet1.xml)", limit}},
		{file: "bomb-row-cells.xlsx", exit: 1, errText: []string{"{in}: ", "row 5 (part xl/worksheets/sheet1.xml)", "longer than 4 MiB"}},
		{file: "bomb-shared-string.xlsx", exit: 1, errText: []string{"{in}: ", "part xl/sharedStrings.xml", limit}},
		{file: "bomb-styles-whitespace.xlsx", exit: 1, errText: []string{"{in}: ", "part xl/styles.xml", limit}},
		{file: "bomb-styles-declared.xlsx", exit: 1, errText: []string{"{in}: ", "part xl/styles.xml", "3 GiB", "64 MiB"}},
		{file: "bomb-content-types-declared.xlsx", exit: 1, errText: []string{"{in}: ", "part [Content_Types].xml", "3 GiB", "64 MiB"}},
		{file: "bomb-sheet-declared.xlsx", exit: 1, errText: []string{"{in}: ", "part xl/worksheets/sheet1.xml", "5 GiB", "4 GiB a part may hold (the XLSX part size limit)"}},
	}
}

// valueCases: rows that read but hold values no product may have.
func valueCases() []malformedCase {
	row := func(line int, key, sku string, want ...string) failedRow {
		return failedRow{line: line, key: key, sku: sku, want: want}
	}
	return []malformedCase{
		{file: "tier-colon.csv", exit: 2, errText: []string{`column 20 of {in}, "tier:"`, "names no pricing tier"}},
		{file: "negative.csv", exit: 3, rows: 7, skus: goodSKUs, products: 2, failed: []failedRow{
			row(5, "np", "NP-1", `column "tier:Retail", value "-5"`),
			row(6, "nw", "NW-1", `column "weight", value "-0.2"`),
			row(7, "nc", "NC-1", `column "cost", value "-1"`),
			row(8, "ns", "NS-1", `column "stock", value "-3"`),
		}},
		// 1e3 is 1000; a stock no whole number holds is refused by the
		// service, which names the column and the value.
		{file: "huge-numbers.csv", exit: 3, rows: 7, skus: append([]string{"HX-1"}, goodSKUs...), products: 3,
			hold: []string{`(?m)^HX-1 .* stock=1000 `}, failed: []failedRow{
				row(5, "hn", "HN-1", `column "tier:Retail", value "NaN"`),
				row(6, "hi", "HI-1", `column "cost", value "Infinity"`),
				row(7, "hs", "HS-1", `column "stock"`, `"99999999999999999999"`),
			}},
		{file: "huge-exponents.csv", exit: 3, rows: 5, skus: goodSKUs, products: 2, failed: []failedRow{
			row(5, "hw", "HW-1", `column "weight", value "1e400"`),
			row(6, "hc", "HC-1", `column "cost", value "1e9999"`),
		}},
		{file: "date-time.csv", mapping: "date.yaml", exit: 3, rows: 5, skus: goodSKUs, products: 2, failed: []failedRow{
			row(5, "cap", "CAP-1", "row 6"),
			row(6, "cap", "CAP-2", `column "made", value "2024-03-01 14:30"`, "time of day"),
		}},
		{file: "date-time.xlsx", mapping: "date.yaml", exit: 3, rows: 5, skus: goodSKUs, products: 2, failed: []failedRow{
			row(5, "cap", "CAP-1", "row 6"),
			row(6, "cap", "CAP-2", `column "made", value "2024-03-01 14:30:00"`, "time of day"),
		}},
		{file: "duplicate-skus.csv", exit: 3, rows: 7, skus: goodSKUs, products: 2, failed: []failedRow{
			row(5, "p1", "DUP-1", `column "sku", value "DUP-1"`, "row 6"),
			row(6, "p2", "DUP-1", `column "sku", value "DUP-1"`, "row 5"),
			row(7, "p3", "BELT-1", `column "sku", value "BELT-1"`, "row 8"),
			row(8, "p3", "BELT-1", `column "sku", value "BELT-1"`, "row 7"),
		}},
		{file: "conflicting-product.csv", exit: 3, rows: 7, skus: goodSKUs, products: 2, failed: []failedRow{
			row(5, "vase", "VASE-S", "row 6"),
			row(6, "vase", "VASE-L", `column "product_name", value "Stone Vase"`, "Glass Vase"),
			row(7, "lamp", "LAMP-1", "row 8"),
			row(8, "lamp", "LAMP-2", `column "product_description", value "Steel desk lamp"`, "Brass desk lamp"),
		}},
		{file: "formula.csv", exit: 3, rows: 4, skus: []string{"+TEE-S", "-TEE-M", "@SUM(1+1)"}, products: 2,
			failed:  []failedRow{row(5, "cap", "'=2+5", `column "weight", value "heavy"`)},
			results: []string{`'=HYPERLINK(`, "'@SUM(1+1)", "'+TEE-S", "'-TEE-M"}},
		{file: "formula.xlsx", exit: 0, rows: 3, skus: []string{"+TEE-S", "-TEE-M", "@SUM(1+1)"}, products: 2,
			results: []string{`'=HYPERLINK(`, "'@SUM(1+1)", "'+TEE-S", "'-TEE-M"}},
	}
}

// mappingCases: hostile mapping files, read with good.csv.
func mappingCases() []malformedCase {
	return []malformedCase{
		{mapping: "mapping-shift.yaml", exit: 2, errText: []string{"{mapping}:19:11: ", "30 places"}},
		{mapping: "mapping-repeat.yaml", exit: 2, errText: []string{"{mapping}:18:11: ", "1 MiB"}},
		{mapping: "mapping-repeat-row.yaml", exit: 3, rows: 6, products: 0,
			failed: everyRow(6, `column "sku"`, "1 MiB", "{mapping}:19:11")},
		{mapping: "mapping-unknown-column.yaml", exit: 2, errText: []string{"{mapping}:18:11: ", `"Weigth"`, `did you mean "weight"?`}},
		{mapping: "mapping-lookup-duplicate.yaml", exit: 2, errText: []string{"{mapping}:23:5: ", `"MUG-1"`, "lines 21 and 23"}},
		{mapping: "mapping-braces.yaml", exit: 2, errText: []string{"{mapping}:18:134: ", "nested more than 32 deep"}},
		{mapping: "mapping-aliases.yaml", exit: 2, errText: []string{"{mapping}:19:14: ", "aliases"}},
		// The 1 MB line of [ is refused for its length before its depth.
		{mapping: "mapping-nested.yaml", exit: 2, errText: []string{"{mapping}:11:1: ", "256 KiB"}},
		{mapping: "mapping-deep-indent.yaml", exit: 2, errText: []string{"{mapping}:", "120 columns"}},
		{mapping: "mapping-many-lines.yaml", exit: 2, errText: []string{"{mapping}:2001:1: ", "2000 lines"}},
		{mapping: "mapping-lookup-200k.yaml", exit: 0, rows: 6, skus: allGood, products: 4, within: 10 * time.Second,
			hold: []string{`(?m)^MUG-1 description=Speckled enamel `, `(?m)^TEE-S description=Small linen tee `, `(?m)^TEE-M description=none `}},
	}
}

// everyRow are the failed rows 2 to rows+1 of good.csv, each wanting want.
func everyRow(rows int, want ...string) []failedRow {
	keys := []string{"mug", "tee", "tee", "cap", "cap", "bag"}
	skus := []string{"MUG-1", "TEE-S", "TEE-M", "CAP-1", "CAP-2", "BAG-1"}
	var out []failedRow
	for i := range rows {
		out = append(out, failedRow{line: i + 2, key: keys[i], sku: skus[i], want: want})
	}
	return out
}

// pathCases: outputs that would overwrite the input or cannot be written.
func pathCases() []malformedCase {
	return []malformedCase{
		{name: "results is the input", flags: []string{"--results", "{in}"}, exit: 2, errText: []string{"--results {in}", "same file"}},
		{name: "plan is the input", flags: []string{"--plan", "{in}"}, exit: 2, errText: []string{"--plan {in}", "same file"}},
		{name: "dry run, results is the input", flags: []string{"--dry-run", "--results", "{in}"}, exit: 2, errText: []string{"--results {in}", "same file"}},
		{name: "results under a file", flags: []string{"--results", "{in}/r.csv"}, exit: 2, errText: []string{"--results {in}/r.csv", "not a directory"}},
		{name: "results in a missing directory", flags: []string{"--results", "{dir}/missing/r.csv"}, exit: 2, errText: []string{"--results {dir}/missing/r.csv"}},
		{name: "results is a directory", flags: []string{"--results", "{dir}"}, exit: 2, errText: []string{"--results {dir}", "is a directory"}},
	}
}

// TestMalformedCorpus imports every file of testdata/malformed through the
// command line into a sandbox of its own, and checks the exit code, that
// what the user reads names the file and where in it things went wrong
// (row and column, part, or line of the mapping), that the results file
// has one line per row and neutralises formulas, and that the sandbox holds
// exactly what should have been written: nothing after a fatal or usage
// error, the valid products only after row errors.
func TestMalformedCorpus(t *testing.T) {
	t.Parallel()
	var cases []malformedCase
	for _, family := range [][]malformedCase{parseCases(), readableCases(), fatalCases(), valueCases(), mappingCases(), pathCases()} {
		cases = append(cases, family...)
	}
	seen := map[string]bool{}
	for _, tc := range cases {
		name := cmp.Or(tc.name, tc.file, tc.mapping)
		tc.file = cmp.Or(tc.file, "good.csv")
		seen[tc.file], seen[tc.mapping] = true, true
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := &checker{t: t}
			c.run(tc)
			c.done()
		})
	}
	// Every file of the corpus is used by a case.
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() && !seen[e.Name()] {
			t.Errorf("%s/%s is in no case", corpus, e.Name())
		}
	}
}

// checker runs one case and gathers what is wrong.
type checker struct {
	t        *testing.T
	problems []string
}

func (c *checker) errorf(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func (c *checker) done() {
	for _, p := range c.problems {
		c.t.Error(p)
	}
}

// copyIn copies the corpus file name into dir and returns its path.
func copyIn(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus, name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// command is the command line importing in (in dir) for tc into the
// sandbox at base, with the paths of the mapping and of the results file.
func (c *checker) command(tc malformedCase, base, dir, in string) (args []string, mappingPath, resultsPath string) {
	// The exports saved as workbooks name images; what is looked at here
	// is how their rows are read.
	args = []string{"--base-url", base, "--token", testToken, "--rate", "1000", "--burst", "100", "--quiet",
		"import", "--state", filepath.Join(dir, "state.db"), "--no-images"}
	if tc.mapping != "" {
		mappingPath = copyIn(c.t, dir, tc.mapping)
		args = append(args, "--mapping", mappingPath)
	} else {
		args = append(args, "--template", cmp.Or(tc.template, "generic"))
	}
	resultsPath = in + ".results.csv"
	subst := strings.NewReplacer("{in}", in, "{dir}", dir)
	for i, f := range tc.flags {
		f = subst.Replace(f)
		args = append(args, f)
		if i > 0 && tc.flags[i-1] == "--results" {
			resultsPath = f
		}
	}
	return append(args, in), mappingPath, resultsPath
}

func (c *checker) run(tc malformedCase) {
	t := c.t
	e := newEnv(t, sandboxOpts(), "")
	dir := t.TempDir()
	in := copyIn(t, dir, tc.file)
	before, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	args, mappingPath, resultsPath := c.command(tc, e.base, dir, in)
	_, statErr := os.Stat(resultsPath)
	hadResults := statErr == nil
	start := time.Now()
	r := lading(t.Context(), args...)
	took := time.Since(start)

	code := exitCodeOf(r.err)
	t.Logf("exit %d: %v", code, r.err)
	if code != tc.exit {
		c.errorf("exit code %d, want %d; error: %v\n%s", code, tc.exit, r.err, r.stderr.String())
	}
	if tc.within > 0 && took > tc.within {
		c.errorf("the import took %v, want less than %v", took.Round(time.Millisecond), tc.within)
	}
	if after, err := os.ReadFile(in); err != nil || !bytes.Equal(after, before) {
		c.errorf("the input changed (%v)", err)
	}
	subst := strings.NewReplacer("{in}", in, "{dir}", dir, "{mapping}", mappingPath)
	if tc.exit == 1 || tc.exit == 2 {
		c.checkError(r.err, tc.errText, subst)
		if _, err := os.Stat(resultsPath); err == nil && !hadResults {
			c.errorf("a results file was written: %s", resultsPath)
		}
	} else {
		c.checkResults(resultsPath, in, tc, subst)
	}
	if n := totalRequests(e); tc.exit == 2 && n != 0 {
		c.errorf("%d requests sent before the usage error, want none", n)
	}
	c.checkSandbox(e, tc)
}

func totalRequests(e *env) int64 {
	var n int64
	for _, v := range e.srv.Counters().Requests {
		n += v
	}
	return n
}

// checkError checks the error a fatal or usage exit printed.
func (c *checker) checkError(err error, want []string, subst *strings.Replacer) {
	if err == nil {
		c.errorf("no error")
		return
	}
	if len(want) == 0 {
		c.errorf("the case names nothing the error must hold")
	}
	for _, w := range want {
		if w = subst.Replace(w); !strings.Contains(err.Error(), w) {
			c.errorf("the error does not hold %q:\n%v", w, err)
		}
	}
}

// checkResults checks the results file: one line per row, each naming the
// input, the failed rows exactly those of the case, saying what they must,
// and no cell a spreadsheet program would run as a formula.
func (c *checker) checkResults(path, in string, tc malformedCase, subst *strings.Replacer) {
	b, err := os.ReadFile(path)
	if err != nil {
		c.errorf("no results file: %v", err)
		return
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(recs) == 0 {
		c.errorf("results file %s: %v (%d lines)", path, err, len(recs))
		return
	}
	if lines := len(recs) - 1; lines != tc.rows {
		c.errorf("%d results lines, want %d (one per row)", lines, tc.rows)
	}
	want := map[int]failedRow{}
	for _, f := range tc.failed {
		want[f.line] = f
	}
	for _, rec := range recs[1:] {
		l := map[string]string{}
		for i, h := range recs[0] {
			l[h] = rec[i]
		}
		row, _ := strconv.Atoi(l["row"])
		f, ok := want[row]
		delete(want, row)
		c.checkLine(row, l, in, f, ok, subst)
	}
	for row := range want {
		c.errorf("row %d has no results line", row)
	}
	for _, w := range tc.results {
		if !bytes.Contains(b, []byte(w)) {
			c.errorf("the results file does not hold %q:\n%s", w, b)
		}
	}
}

// checkLine checks the results line l (by column) of row: it names the
// input (and the sheet read of a workbook), holds no formula, and is failed, saying what f wants, exactly
// when shouldFail.
func (c *checker) checkLine(row int, l map[string]string, in string, f failedRow, shouldFail bool, subst *strings.Replacer) {
	// A workbook's lines name the sheet read too.
	if l["file"] != in && !(strings.HasSuffix(in, ".xlsx") && strings.HasPrefix(l["file"], in+`, sheet "`)) {
		c.errorf("row %d: results line names file %q, want %q", row, l["file"], in)
	}
	for h, cell := range l {
		if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
			c.errorf("row %d: results cell %s %q would run as a formula in a spreadsheet", row, h, cell)
		}
	}
	switch failed := l["action"] == "failed"; {
	case shouldFail && !failed:
		c.errorf("row %d: %s %q, want failed", row, l["action"], l["message"])
	case !shouldFail && failed:
		c.errorf("row %d failed, want it done: %s", row, l["message"])
	case shouldFail:
		if l["product_key"] != f.key || l["sku"] != f.sku {
			c.errorf("row %d: product key %q, SKU %q; want %q, %q", row, l["product_key"], l["sku"], f.key, f.sku)
		}
		for _, w := range f.want {
			if w = subst.Replace(w); !strings.Contains(l["message"], w) {
				c.errorf("row %d: message does not hold %q:\n%s", row, w, l["message"])
			}
		}
	}
}

// checkSandbox checks that the sandbox holds exactly what the case wants.
func (c *checker) checkSandbox(e *env, tc malformedCase) {
	products, variants := liveCatalog(c.t, e)
	if len(products) != tc.products {
		c.errorf("the sandbox holds %d products %v, want %d", len(products), products, tc.products)
	}
	var skus []string
	for _, v := range variants {
		if v.sku != "" {
			skus = append(skus, v.sku)
		}
	}
	slices.Sort(skus)
	want := slices.Sorted(slices.Values(tc.skus))
	if tc.sameAs == "" && !slices.Equal(skus, want) {
		c.errorf("the sandbox holds SKUs %q, want %q", skus, want)
	}
	text := liveText(variants)
	for _, h := range tc.hold {
		if !regexp.MustCompile(h).MatchString(text) {
			c.errorf("no variant in the sandbox matches %s:\n%s", h, text)
		}
	}
	if tc.sameAs != "" {
		if want := c.importedAs(tc.sameAs, tc.template); text != want {
			c.errorf("the sandbox differs from an import of %s:\n got %s\nwant %s", tc.sameAs, text, want)
		}
	}
}

// importedAs imports file (a path under testdata) with template into a
// sandbox of its own and returns its variants as liveText describes them.
func (c *checker) importedAs(file, template string) string {
	t := c.t
	ref := newEnv(t, sandboxOpts(), "")
	dir := t.TempDir()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, filepath.Base(file))
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	r := lading(t.Context(), "--base-url", ref.base, "--token", testToken, "--rate", "1000", "--burst", "100", "--quiet",
		"import", "--state", filepath.Join(dir, "state.db"), "--template", template, in)
	if r.err != nil {
		t.Fatalf("importing %s: %v", file, r.err)
	}
	_, variants := liveCatalog(t, ref)
	return liveText(variants)
}

// liveVariant is a variant as the sandbox holds it, reduced to what an
// import sets.
type liveVariant struct {
	sku, product, options, prices, stock, weight, description string
	upc, cost                                                 string
}

// liveCatalog lists the sandbox's product names and its variants.
func liveCatalog(t *testing.T, e *env) ([]string, []liveVariant) {
	t.Helper()
	ctx := t.Context()
	var products []string
	for _, p := range collect(t, e.c.Products.List(ctx, nil)) {
		if !p.Deleted.Bool() {
			products = append(products, string(p.Name))
		}
	}
	var out []liveVariant
	pages := 0
	for pg, err := range e.c.Variants.ListPages(ctx, nil) {
		if err != nil {
			t.Fatalf("listing variants: %v", err)
		}
		if pages++; pages > maxListed {
			t.Fatal(errEndless)
		}
		for _, v := range pg.Records {
			if !v.Deleted.Bool() {
				out = append(out, describe(&pg.Sideloads, v))
			}
		}
	}
	slices.Sort(products)
	return products, out
}

func describe(s *api.Sideloads, v *api.Variant) liveVariant {
	var opts, prices []string
	for _, o := range s.Options(v) {
		opts = append(opts, o.Attribute+"="+o.Value)
	}
	for tier, p := range s.Prices(v) {
		prices = append(prices, tier+":"+trimZeros(string(p)))
	}
	slices.Sort(opts)
	slices.Sort(prices)
	lv := liveVariant{sku: string(v.SKU), options: strings.Join(opts, ","), prices: strings.Join(prices, ","),
		stock: trimZeros(string(v.Stock)), weight: trimZeros(string(v.Weight)), description: string(v.Description),
		upc: string(v.UPC), cost: trimZeros(string(v.Cost))}
	if p := s.Product(v); p != nil {
		lv.product = string(p.Name)
	}
	return lv
}

// liveText is one line per variant, sorted: "SKU description=… product=…".
func liveText(vs []liveVariant) string {
	lines := make([]string, len(vs))
	for i, v := range vs {
		lines[i] = fmt.Sprintf("%s description=%s product=%s options=%s prices=%s stock=%s weight=%s",
			v.sku, v.description, v.product, v.options, v.prices, v.stock, v.weight)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// trimZeros drops a number's trailing decimal zeros: "25.00" → "25".
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}
