package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/xuri/excelize/v2"
)

// readCSV returns the records of a CSV file.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// readXLSX returns the raw cell values of the "Catalog" sheet, rows padded
// to width.
func readXLSX(t *testing.T, path string, width int) [][]string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Catalog", excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		for len(r) < width {
			r = append(r, "")
		}
		rows[i] = r
	}
	return rows
}

func TestConvertRoundTrips(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c.xlsx")
	if err := convert("../catalog.csv", out); err != nil {
		t.Fatal(err)
	}
	want := readCSV(t, "../catalog.csv")
	if got := readXLSX(t, out, len(want[0])); !reflect.DeepEqual(got, want) {
		t.Errorf("XLSX cells differ from the CSV:\n got %q\nwant %q", got, want)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if typ, _ := f.GetCellType("Catalog", "H2"); typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
		t.Errorf("weight cell type %v, want a number", typ)
	}
	if typ, _ := f.GetCellType("Catalog", "J2"); typ == excelize.CellTypeNumber || typ == excelize.CellTypeUnset {
		t.Errorf("upc cell type %v, want text", typ)
	}
}

// TestCommittedSamplesAgree fails when catalog.csv was edited without
// running go generate ./samples/...
func TestCommittedSamplesAgree(t *testing.T) {
	want := readCSV(t, "../catalog.csv")
	if got := readXLSX(t, "../catalog.xlsx", len(want[0])); !reflect.DeepEqual(got, want) {
		t.Error("samples/catalog.xlsx is out of date: run go generate ./samples/...")
	}
}

func TestConvertRejectsNonCanonicalNumbers(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "c.csv")
	if err := os.WriteFile(in, []byte("sku,weight\nA,0.50\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := convert(in, filepath.Join(dir, "c.xlsx"))
	if err == nil || err.Error() != in+`: line 2, column weight: write "0.50" as 0.5 so the XLSX cell reads back the same` {
		t.Errorf("error %v", err)
	}
}
