package sheet

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lading/exporter/sheet/sheettest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with the file testdata/name, or rewrites it with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	sheettest.Golden(t, filepath.Join("testdata", name), got, *update)
}

// The report of the golden files: the sheets of an accounting export, with
// the cells that matter (numbers that do not read as numbers, formulas to
// neutralise, dates with and without offsets, wide and multi-line text).
var reportSheets = []Sheet{
	{Name: "Slips", Columns: []Column{
		{Header: "Slip", Kind: Text},
		{Header: "Date", Kind: Date},
		{Header: "Shipped at", Kind: DateTime},
		{Header: "Customer", Kind: Text},
		{Header: "Items", Kind: Integer, Total: true},
		{Header: "Weight (kg)", Kind: Number, Total: true},
		{Header: "Shipping", Kind: Money, Total: true},
		{Header: "Notes", Kind: Text, Width: 30},
	}},
	{Name: "Line items", Columns: []Column{
		{Header: "Slip", Kind: Text},
		{Header: "SKU", Kind: Text},
		{Header: "Quantity", Kind: Integer, Total: true},
		{Header: "Price", Kind: Money},
		{Header: "Ordered", Kind: Date},
	}},
}

// reportRows are the rows of reportSheets, sheet index first, the sheets
// interleaved.
var reportRows = []struct {
	sheet int
	cells []string
}{
	{0, []string{"PS-1001", "2026-01-05", "2026-01-05 14:30:00", "Acme GmbH", "3", "12.5", "1234.5", "leave at the door"}},
	{1, []string{"PS-1001", "TEE-BLA-S", "2", "19.99", "2026-01-02"}},
	{1, []string{"PS-1001", "MUG-350", "1", "8", "2026-01-02"}},
	{0, []string{"PS-1002", "2026-01-06", "2016-02-08T22:57:11+00:00", `=HYPERLINK("http://x","y")`, "-3", "+4", "-7.25", "+1"}},
	{1, []string{"PS-1002", "-x", "-3", "+4", "2026-01-03T23:30:00-02:00"}},
	{0, []string{"PS-1003", "2026-01-07", "2024-05-01T10:00:00+0000", "@x", "n/a", "0.125", "0", "-x"}},
	{0, []string{"PS-1004", "not a date", "2024-05-01T10:00:00.5Z", "\tTab Ltd", "2.5", "12345678901234567", "1e3", "line one\nline two"}},
	{0, []string{"PS-1005", "", "", "\rCR Ltd", "", "", "", ""}},
	{1, []string{"PS-1004", "東京-TEE", "1000000", "0.1"}},
	{0, []string{"PS-1006", "1899-12-31", "2026-01-08T09:00:00+02:00", "東京商事", "1", "0.1", "0.2", "@"}},
}

// writeReport writes the report to path and returns the files written.
func writeReport(t *testing.T, path string, o Options) []string {
	t.Helper()
	w, err := Create(path, o, reportSheets...)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reportRows {
		if err := w.Row(r.sheet, r.cells...); err != nil {
			w.Discard()
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.Paths()
}

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

func TestCreateRefuses(t *testing.T) {
	t.Parallel()
	col := []Column{{Header: "a"}}
	tests := []struct {
		name   string
		path   string
		o      Options
		sheets []Sheet
		want   string
	}{
		{"no sheet", "x.csv", Options{}, nil, "no sheet"},
		{"no name", "x.xlsx", Options{}, []Sheet{{Columns: col}}, "a sheet has no name"},
		{"long name", "x.xlsx", Options{}, []Sheet{{Name: strings.Repeat("n", 32), Columns: col}}, "1 to 31 characters"},
		{"slash", "x.csv", Options{}, []Sheet{{Name: "a", Columns: col}, {Name: "b/c", Columns: col}}, `sheet name "b/c"`},
		{"quote", "x.xlsx", Options{}, []Sheet{{Name: "Bob's", Columns: col}}, `sheet name "Bob's"`},
		{"same name", "x.xlsx", Options{}, []Sheet{{Name: "Lines", Columns: col}, {Name: "lines", Columns: col}}, `two sheets are named "lines"`},
		{"no columns", "x.csv", Options{}, []Sheet{{Name: "a"}}, `sheet "a" has no columns`},
		{"total of text", "x.xlsx", Options{}, []Sheet{{Name: "a", Columns: []Column{{Header: "SKU", Total: true}}}},
			`column "SKU" of sheet "a" holds text: only integer, number and money columns have a total`},
		{"unknown kind", "x.csv", Options{}, []Sheet{{Name: "a", Columns: []Column{{Header: "k", Kind: 9}}}}, "unknown kind 9"},
		{"summary named as a sheet", "x.xlsx", Options{Summary: "slips"}, []Sheet{{Name: "Slips", Columns: col}}, `two sheets are named "Slips"`},
		{"summary name", "x.xlsx", Options{Summary: "Sum/mary"}, []Sheet{{Name: "Slips", Columns: col}}, `sheet name "Sum/mary"`},
		{"nothing printed", "x.xlsx", Options{}, []Sheet{{Name: "a", Columns: []Column{{Header: "id", NoPrint: true}}}}, `sheet "a" prints none of its columns`},
		{"a gap in print", "x.xlsx", Options{}, []Sheet{{Name: "a", Columns: []Column{{Header: "SKU"}, {Header: "id", NoPrint: true}, {Header: "Qty"}}}},
			`column "id" of sheet "a" is left off the printed pages between printed columns`},
		{"check box with a total", "x.csv", Options{}, []Sheet{{Name: "a", Columns: []Column{{Header: "Done", Kind: Integer, Check: true, Total: true}}}},
			`column "Done" of sheet "a" is a check box: it holds text and has no total`},
		{"quote delimiter", "x.csv", Options{Delimiter: '"'}, []Sheet{{Name: "a", Columns: col}}, "cannot separate the cells"},
		{"newline delimiter", "x.csv", Options{Delimiter: '\n'}, []Sheet{{Name: "a", Columns: col}}, "cannot separate the cells"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := Create(filepath.Join(dir, tt.path), tt.o, tt.sheets...)
			if err == nil {
				w.Discard()
				t.Fatalf("Create succeeded, want an error containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.path) {
				t.Errorf("error %q: want it to name %s and say %q", err, tt.path, tt.want)
			}
			if names := entries(t, dir); len(names) != 0 {
				t.Errorf("files left behind: %v", names)
			}
		})
	}
}

func TestRowRefuses(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"r.csv", "r.xlsx"} {
		t.Run(path, func(t *testing.T) {
			dir := t.TempDir()
			w, err := Create(filepath.Join(dir, path), Options{}, reportSheets...)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Discard()
			if err := w.Row(2, "x"); err == nil || !strings.Contains(err.Error(), "no sheet 2: the file has 2") {
				t.Errorf("Row(2): %v, want no sheet 2", err)
			}
			if err := w.Row(1, "a", "b", "1", "2", "2026-01-01", "extra"); err == nil ||
				!strings.Contains(err.Error(), `a row of sheet "Line items" has 6 cells, the sheet 5 columns`) {
				t.Errorf("Row with 6 cells: %v, want the count named", err)
			}
			if err := w.Row(1, "a", "b"); err != nil {
				t.Errorf("Row with fewer cells than columns: %v", err)
			}
		})
	}
}

// Discard and a failed Close leave nothing: no final file, no temporary
// one.
func TestDiscardLeavesNothing(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"r.csv", "r.xlsx"} {
		t.Run(path, func(t *testing.T) {
			dir := t.TempDir()
			w, err := Create(filepath.Join(dir, path), Options{}, reportSheets...)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 300 { // past the rows an XLSX sheet holds to measure
				if err := w.Row(i%2, "PS", "2026-01-01"); err != nil {
					t.Fatal(err)
				}
			}
			w.Discard()
			if err := w.Close(); err != nil {
				t.Errorf("Close after Discard: %v", err)
			}
			if names := entries(t, dir); len(names) != 0 {
				t.Errorf("files left behind: %v", names)
			}
		})
	}
}

// Until Close, only temporary files exist: the final paths appear all at
// once.
func TestFilesAppearOnClose(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		path string
		want []string
	}{
		{"report.csv", []string{"report-Line items.csv", "report.csv"}},
		{"report.XLSX", []string{"report.XLSX"}},
		{"report", []string{"report", "report-Line items"}},
	} {
		t.Run(tt.path, func(t *testing.T) {
			dir := t.TempDir()
			w, err := Create(filepath.Join(dir, tt.path), Options{}, reportSheets...)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range w.Paths() {
				if _, err := os.Stat(p); !os.IsNotExist(err) {
					t.Errorf("%s exists before Close (%v)", p, err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got := entries(t, dir)
			want := slices.Sorted(slices.Values(tt.want))
			if !slices.Equal(got, want) {
				t.Errorf("files after Close %q, want %q", got, want)
			}
			var paths []string
			for _, p := range w.Paths() {
				paths = append(paths, filepath.Base(p))
			}
			if slices.Sort(paths); !slices.Equal(paths, want) {
				t.Errorf("Paths %q, want %q", paths, want)
			}
		})
	}
}
