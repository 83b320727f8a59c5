package e2e

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"lading/app"
	"lading/source/sourcetest"
)

// Workbooks are read as the person sees them in Excel, or their rows are
// refused saying why. Each test writes its workbook part by part, as Excel
// and other programs write them (sourcetest.Workbook), imports or pushes it
// through the command line into a sandbox, and checks what the sandbox
// holds and what the results file says of each row.

// Cell styles of the workbooks below: 1 pads to 12 digits (a UPC), 2 is
// Excel's built-in #,##0.
const (
	bookNumFmts = `<numFmt numFmtId="164" formatCode="000000000000"/>`
	bookCellXfs = `<xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="3"/>`
)

// genericHeader is row 1 of a catalog in the generic template's layout.
var genericHeader = sourcetest.Row(1, sourcetest.Text("A1", "product_key"), sourcetest.Text("B1", "product_name"),
	sourcetest.Text("C1", "sku"), sourcetest.Text("D1", "upc"), sourcetest.Text("E1", "cost"), sourcetest.Text("F1", "stock"),
	sourcetest.Text("G1", "tier:Retail"), sourcetest.Text("H1", "description"), sourcetest.Text("I1", "note"))

// catalogRow is row r of such a catalog: key, name and SKU as text, and
// cells, the XML of the other cells.
func catalogRow(r int, key, name, sku string, cells ...string) string {
	n := fmt.Sprint(r)
	head := []string{sourcetest.Text("A"+n, key), sourcetest.Text("B"+n, name)}
	if sku != "" {
		head = append(head, sourcetest.Text("C"+n, sku))
	}
	return sourcetest.Row(r, append(head, cells...)...)
}

// bookRun runs lading against e's sandbox with its state in dir.
func bookRun(e *env, dir string, args ...string) *run {
	common := []string{"--base-url", e.base, "--token", testToken, "--rate", "1000", "--burst", "100", "--quiet"}
	return lading(context.Background(), append(common, args...)...)
}

// importBook imports path with the generic template, and more flags.
func importBook(e *env, dir, path string, more ...string) *run {
	args := append([]string{"import", "--template", "generic", "--state", filepath.Join(dir, "state.db")}, more...)
	return bookRun(e, dir, append(args, path)...)
}

// importSomeRows imports the workbook wb, written as catalog.xlsx, into a
// sandbox of its own with the generic template; some of its rows must
// fail (exit 3). It returns the workbook's path and the sandbox's variants
// by SKU.
func importSomeRows(t *testing.T, wb sourcetest.Workbook) (string, map[string]liveVariant) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "catalog.xlsx")
	wb.Write(t, path)
	e := newEnv(t, sandboxOpts(), "")
	if r := importBook(e, dir, path); exitCodeOf(r.err) != 3 {
		t.Fatalf("exit %d, want 3 (rows failed): %v\n%s", exitCodeOf(r.err), r.err, r.output())
	}
	return path, bySKU(t, e)
}

// stockAccount is a sandbox holding the corpus's good catalog, imported
// with --read-ids, and the folder holding the state file st.
func stockAccount(t *testing.T) (e *env, dir, st string) {
	t.Helper()
	e = newEnv(t, sandboxOpts(), "")
	dir = t.TempDir()
	st = filepath.Join(dir, "state.db")
	importGood(t, []string{"--base-url", e.base, "--token", testToken, "--quiet"}, dir, st, "--read-ids")
	return e, dir, st
}

// bySKU is the sandbox's variants by SKU.
func bySKU(t *testing.T, e *env) map[string]liveVariant {
	t.Helper()
	_, vs := liveCatalog(t, e)
	m := map[string]liveVariant{}
	for _, v := range vs {
		m[v.sku] = v
	}
	return m
}

// failedMessages are the messages of the results file's failed lines, by
// row; every line must name file.
func failedMessages(t *testing.T, results, file string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(b) {
		t.Errorf("%s is not valid UTF-8", results)
	}
	failed := map[string]string{}
	for _, l := range readRows(t, results) {
		if l["file"] != file {
			t.Errorf("results line of row %s names %q, want %q", l["row"], l["file"], file)
		}
		if l["action"] == "failed" || l["action"] == "invalid" {
			failed[l["row"]] = l["message"]
		}
	}
	return failed
}

// wantFailed checks that exactly the rows of want failed, each message
// holding every text want gives it.
func wantFailed(t *testing.T, failed map[string]string, want map[string][]string) {
	t.Helper()
	for row, msg := range failed {
		if _, ok := want[row]; !ok {
			t.Errorf("row %s failed: %s", row, msg)
		}
	}
	for row, texts := range want {
		msg, ok := failed[row]
		if !ok {
			t.Errorf("row %s did not fail; want %q", row, texts)
		}
		for _, w := range texts {
			if ok && !strings.Contains(msg, w) {
				t.Errorf("row %s: message does not hold %q:\n%s", row, w, msg)
			}
		}
	}
}

// A hidden sheet (an old price list kept for reference) is not read: the
// first visible sheet is, and the summary and the results name it.
// --sheet reads the hidden one when it is what is wanted.
func TestCLIWorkbookHiddenSheet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "prices.xlsx")
	sourcetest.Workbook{Sheets: []sourcetest.Sheet{
		{Name: "Old prices", State: "hidden", Rows: genericHeader +
			catalogRow(2, "tee", "Old Tee", "TEE-1", sourcetest.Cell("F2", "", 0, "", "3"))},
		{Name: "Prices", Rows: genericHeader +
			catalogRow(2, "tee", "Classic Tee", "TEE-1", sourcetest.Cell("F2", "", 0, "", "9"))},
	}}.Write(t, path)

	e := newEnv(t, sandboxOpts(), "")
	r := importBook(e, dir, path)
	if r.err != nil {
		t.Fatalf("import: %v\n%s", r.output(), r.err)
	}
	if v := bySKU(t, e)["TEE-1"]; v.product != "Classic Tee" || v.stock != "9" {
		t.Errorf("TEE-1 = %+v, want Classic Tee with 9 in stock, from the visible sheet", v)
	}
	label := path + `, sheet "Prices"`
	if !strings.Contains(r.stdout.String(), "import of "+label) {
		t.Errorf("the summary does not name the sheet read:\n%s", r.stdout.String())
	}
	failedMessages(t, path+".results.csv", label)

	old := newEnv(t, sandboxOpts(), "")
	oldDir := t.TempDir()
	if r := importBook(old, oldDir, path, "--sheet", "old prices", "--results", filepath.Join(oldDir, "r.csv")); r.err != nil {
		t.Fatalf("import --sheet: %v\n%s", r.err, r.output())
	}
	if v := bySKU(t, old)["TEE-1"]; v.product != "Old Tee" || v.stock != "3" {
		t.Errorf("with --sheet, TEE-1 = %+v, want Old Tee with 3 in stock", v)
	}
	failedMessages(t, filepath.Join(oldDir, "r.csv"), path+`, sheet "Old prices"`)
}

// A formula saved without its value, and an error value (in a mapped
// column or not), fail their row, naming the formula and saying what to
// do; a formula with its value reads that value.
func TestCLIWorkbookFormulasAndErrors(t *testing.T) {
	t.Parallel()
	path, skus := importSomeRows(t, sourcetest.Workbook{Sheets: []sourcetest.Sheet{{Name: "Catalog", Rows: genericHeader +
		catalogRow(2, "mug", "Mug", "MUG-1", sourcetest.Cell("E2", "", 0, "2*3", "6")) +
		catalogRow(3, "cap", "Cap", "CAP-1", sourcetest.Cell("E3", "", 0, "B4*C4", "")) +
		sourcetest.Row(4, sourcetest.Text("A4", "hat"), sourcetest.Cell("B4", "e", 0, "VLOOKUP(A4,Names!A:B,2,FALSE)", "#N/A"), sourcetest.Text("C4", "HAT-1")) +
		sourcetest.Row(5, sourcetest.Text("A5", "bag"), sourcetest.Text("B5", "Bag"), sourcetest.Cell("C5", "e", 0, "", "#REF!")) +
		catalogRow(6, "pen", "Pen", "PEN-1", sourcetest.Cell("I6", "e", 0, "1/0", "#DIV/0!")),
	}}})
	if v, ok := skus["MUG-1"]; !ok || v.cost != "6" || len(skus) != 1 {
		t.Errorf("the sandbox holds %+v, want MUG-1 alone, costing 6", skus)
	}
	wantFailed(t, failedMessages(t, path+".results.csv", path+`, sheet "Catalog"`), map[string][]string{
		"3": {`column "cost"`, "the formula =B4*C4 but not the value it computes", "open it in your spreadsheet program and save it again"},
		"4": {`column "product_name"`, "error value #N/A, from its formula =VLOOKUP(A4,Names!A:B,2,FALSE)", "correct the formula"},
		"5": {`column "sku"`, "error value #REF!"},
		"6": {`column "note"`, "error value #DIV/0!, from its formula =1/0"},
	})
}

// Numbers read at the 15 digits Excel shows (12.199999999999999 is 12.2;
// =0.1*30 is 3, a whole stock), a UPC formatted 000000000000 keeps its
// leading zero, a grouped number reads grouped where text is wanted, a
// boolean is TRUE where text is wanted and an error where a number is,
// and a SKU whose digits Excel has lost is refused.
func TestCLIWorkbookNumbers(t *testing.T) {
	t.Parallel()
	tenth := func(ref string) string { return sourcetest.Cell(ref, "", 0, "0.1*30", "3.0000000000000004") }
	path, skus := importSomeRows(t, sourcetest.Workbook{NumFmts: bookNumFmts, CellXfs: bookCellXfs, Sheets: []sourcetest.Sheet{{Name: "Catalog", Rows: genericHeader +
		catalogRow(2, "tee", "Tee", "TEE-1", sourcetest.Cell("D2", "", 1, "", "36000291452"),
			sourcetest.Cell("E2", "", 0, "", "12.199999999999999"), tenth("F2"), tenth("G2"), sourcetest.Cell("H2", "b", 0, "", "1")) +
		catalogRow(3, "hat", "Hat", "HAT-1", sourcetest.Cell("H3", "", 2, "", "1234567"), sourcetest.Cell("G3", "", 2, "", "1234")) +
		sourcetest.Row(4, sourcetest.Text("A4", "mug"), sourcetest.Text("B4", "Mug"), sourcetest.Cell("C4", "", 0, "", "1.2345678901234568E+19")) +
		catalogRow(5, "cap", "Cap", "CAP-1", sourcetest.Cell("F5", "b", 0, "", "1")),
	}}})
	tee, hat := skus["TEE-1"], skus["HAT-1"]
	if tee.upc != "036000291452" || tee.cost != "12.2" || tee.stock != "3" || tee.prices != "Retail:3" || tee.description != "TRUE" {
		t.Errorf("TEE-1 = %+v\nwant UPC 036000291452, cost 12.2, stock 3, Retail 3, description TRUE", tee)
	}
	if hat.description != "1,234,567" || hat.prices != "Retail:1234" {
		t.Errorf("HAT-1 = %+v, want description 1,234,567 and Retail 1234", hat)
	}
	if len(skus) != 2 {
		t.Errorf("the sandbox holds %d variants, want TEE-1 and HAT-1", len(skus))
	}
	wantFailed(t, failedMessages(t, path+".results.csv", path+`, sheet "Catalog"`), map[string][]string{
		"4": {`column "sku", value "1.23456789012346E+19"`, "scientific notation, not a SKU", "digits are already lost", "format the column as text"},
		"5": {`column "stock", value "TRUE"`},
	})
}

// stock push and mapping init take --sheet and --header-row; a header not
// found names the workbook's sheets, and the advice the flags; a stock of
// =0.1*30 pushes 3; the results name the sheet read.
func TestCLIStockWorkbookSheetFlags(t *testing.T) {
	t.Parallel()
	e, dir, st := stockAccount(t)
	path := filepath.Join(dir, "stock.xlsx")
	sourcetest.Workbook{Sheets: []sourcetest.Sheet{
		{Name: "Notes", Rows: sourcetest.Row(1, sourcetest.Text("A1", "read me first"))},
		{Name: "Archive", State: "veryHidden", Rows: sourcetest.Row(1, sourcetest.Text("A1", "sku"))},
		{Name: "Levels", Rows: sourcetest.Row(1, sourcetest.Text("A1", "Stock export, 1 March")) +
			sourcetest.Row(3, sourcetest.Text("A3", "sku"), sourcetest.Text("B3", "quantity")) +
			sourcetest.Row(4, sourcetest.Text("A4", "MUG-1"), sourcetest.Cell("B4", "", 0, "0.1*30", "3.0000000000000004")) +
			sourcetest.Row(5, sourcetest.Text("A5", "TEE-S"), sourcetest.Cell("B5", "b", 0, "", "1"))},
	}}.Write(t, path)
	push := func(more ...string) *run {
		args := append([]string{"stock", "push", "--template", "stock", "--state", st, "--settle", "0"}, more...)
		return bookRun(e, dir, append(args, path)...)
	}
	sheets := `"Notes", "Archive" (hidden) and "Levels"`
	for _, tc := range []struct {
		flags []string
		exit  int
		want  string
	}{
		{nil, 2, `(the header was read from row 1 of sheet "Notes" of ` + path + `, whose sheets are ` + sheets + ")"},
		{[]string{"--sheet", "Levels", "--header-row", "9"}, 1, `sheet "Levels": no header row found at or below row 9: the sheet is empty there; the workbook's sheets are ` + sheets},
		{[]string{"--sheet", "Stock"}, 1, `no sheet named "Stock": the workbook has "Notes", "Archive" (hidden) and "Levels"`},
	} {
		r := push(tc.flags...)
		if exitCodeOf(r.err) != tc.exit || r.err == nil || !strings.Contains(r.err.Error(), tc.want) {
			t.Errorf("stock push %q: exit %d, %v\nwant exit %d and %q", tc.flags, exitCodeOf(r.err), r.err, tc.exit, tc.want)
		}
		if advice := app.Advice(r.err); !strings.Contains(advice, "--sheet NAME") || !strings.Contains(advice, "--header-row N") {
			t.Errorf("stock push %q: advice %q does not name --sheet and --header-row", tc.flags, advice)
		}
	}

	r := push("--sheet", "levels", "--header-row", "2")
	if exitCodeOf(r.err) != 3 {
		t.Fatalf("stock push --sheet levels: exit %d, want 3 (the boolean's row): %v\n%s", exitCodeOf(r.err), r.err, r.output())
	}
	if v := bySKU(t, e)["MUG-1"]; v.stock != "3" {
		t.Errorf("MUG-1 stock %q, want 3", v.stock)
	}
	label := path + `, sheet "Levels"`
	if !strings.Contains(r.stdout.String(), "stock push of "+label) {
		t.Errorf("the summary does not name the sheet read:\n%s", r.stdout.String())
	}
	wantFailed(t, failedMessages(t, path+".results.csv", label), map[string][]string{
		"5": {`column "quantity" value "TRUE"`, "must be a number"},
	})

	init := lading(context.Background(), "mapping", "init", "--out", "-", "--sheet", "Levels", "--header-row", "2", path)
	if init.err != nil || !strings.Contains(init.stdout.String(), "quantity") {
		t.Errorf("mapping init --sheet Levels --header-row 2: %v\n%s", init.err, init.output())
	}
}

// Every file lading writes is valid UTF-8: a windows-1252 stock file read
// as UTF-8 fails its row, and its bytes reach the results file as U+FFFD.
// A SKU a spreadsheet saved in scientific notation fails its row.
func TestCLIStockResultsValidUTF8(t *testing.T) {
	t.Parallel()
	e, dir, st := stockAccount(t)
	for _, results := range []string{"r.csv", "r.xlsx"} {
		path := filepath.Join(dir, "stock.csv")
		if err := os.WriteFile(path, []byte("sku,quantity\nMUG-1,4\nCAF\xc9-1,2\n4.00001E+12,1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, results)
		r := bookRun(e, dir, "stock", "push", "--template", "stock", "--state", st, "--settle", "0", "--results", out, path)
		if exitCodeOf(r.err) != 3 {
			t.Fatalf("exit %d, want 3: %v\n%s", exitCodeOf(r.err), r.err, r.output())
		}
		if results == "r.csv" {
			wantFailed(t, failedMessages(t, out, path), map[string][]string{
				"3": {`column "sku"`, "not valid UTF-8", "encoding"},
				"4": {`column "sku" value "4.00001E+12"`, "scientific notation, not a SKU"},
			})
			if l := readRows(t, out)[1]; l["sku"] != "CAF\uFFFD-1" {
				t.Errorf("row 3's SKU reads %q in the results, want CAF\uFFFD-1", l["sku"])
			}
			continue
		}
		cells := xlsxText(t, out)
		if !utf8.ValidString(cells) || !strings.Contains(cells, "CAF\uFFFD-1") {
			t.Errorf("%s: not valid UTF-8, or without U+FFFD for the byte that is not:\n%q", results, cells)
		}
	}
	if v := bySKU(t, e)["MUG-1"]; v.stock != "4" {
		t.Errorf("MUG-1 stock %q, want 4", v.stock)
	}
}

// xlsxText is the text of the parts of the workbook at path, sheets and
// shared strings, as stored.
func xlsxText(t *testing.T, path string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var b strings.Builder
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, "xl/worksheets/") && f.Name != "xl/sharedStrings.xml" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.Copy(&b, rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}
