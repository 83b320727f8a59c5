package sheet

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The CSV files of the report, byte for byte: one per sheet, numbers as
// given, text neutralised, no totals row.
func TestCSVGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		o    Options
	}{
		{"report", Options{Title: "ignored in CSV"}},
		{"report-bom-semicolon", Options{BOM: true, Delimiter: ';'}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			paths := writeReport(t, filepath.Join(t.TempDir(), tt.name+".csv"), tt.o)
			if len(paths) != 2 {
				t.Fatalf("Paths %q: want one file per sheet", paths)
			}
			for _, p := range paths {
				got, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Base(p), got)
			}
		})
	}
}

// Each cell, alone in a column of its kind: what the CSV file holds.
func TestCSVNeutralises(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind Kind
		in   string
		want string
	}{
		{Text, `=HYPERLINK("http://x","y")`, `'=HYPERLINK("http://x","y")`},
		{Text, "+1", "'+1"},
		{Text, "-x", "'-x"},
		{Text, "@x", "'@x"},
		{Text, "\tx", "'\tx"},
		{Text, "\rx", "'\rx"},
		{Text, "-3", "'-3"}, // text that looks like a number is still text
		{Text, "a=b", "a=b"},
		{Text, "", ""},
		{Number, "-3", "-3"},
		{Number, "+4", "+4"},
		{Number, "-0.5e-3", "-0.5e-3"},
		{Integer, "-12", "-12"},
		{Integer, "-12.5", "-12.5"}, // a number, if not a whole one
		{Money, "-7.25", "-7.25"},
		{Money, "-x", "'-x"},
		{Money, "-Inf", "'-Inf"},
		{Number, "+1+2", "'+1+2"},
		{Number, "-3+cmd|' /C calc'!A0", "'-3+cmd|' /C calc'!A0"},
		{Number, "=1+2", "'=1+2"},
		{Date, "2026-01-05", "2026-01-05"},
		{Date, "=TODAY()", "'=TODAY()"},
		{DateTime, "2016-02-08T22:57:11+00:00", "2016-02-08T22:57:11+00:00"},
		{DateTime, "@now", "'@now"},
	}
	for _, tt := range tests {
		t.Run(tt.kind.String()+" "+tt.in, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.csv")
			w, err := Create(path, Options{}, Sheet{Name: "x", Columns: []Column{{Header: "h", Kind: tt.kind}, {Header: "end"}}})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Row(0, tt.in, "end"); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			recs := readCSV(t, path, ',')
			if len(recs) != 2 || recs[1][0] != tt.want || recs[1][1] != "end" {
				t.Errorf("records %q, want the cell %q", recs, tt.want)
			}
		})
	}
}

// A header a spreadsheet would run is neutralised too.
func TestCSVNeutralisesHeaders(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x.csv")
	w, err := Create(path, Options{}, Sheet{Name: "x", Columns: []Column{{Header: "=cmd"}, {Header: "+VAT", Kind: Money}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if recs := readCSV(t, path, ','); len(recs) != 1 || recs[0][0] != "'=cmd" || recs[0][1] != "'+VAT" {
		t.Errorf("records %q, want the header neutralised", recs)
	}
}

func readCSV(t *testing.T, path string, comma rune) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(data), bom)))
	r.Comma = comma
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestCSVPath(t *testing.T) {
	t.Parallel()
	tests := []struct{ path, name, want string }{
		{"out/slips.csv", "Lines", "out/slips-Lines.csv"},
		{"slips.tsv", "Line items", "slips-Line items.tsv"},
		{"slips", "Lines", "slips-Lines"},
		{"a.b/slips.CSV", "x", "a.b/slips-x.CSV"},
	}
	for _, tt := range tests {
		if got := CSVPath(tt.path, tt.name); got != tt.want {
			t.Errorf("CSVPath(%q, %q) = %q, want %q", tt.path, tt.name, got, tt.want)
		}
	}
}
