package sheet

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"lading/exporter/sheet/sheettest"
)

// The workbook of the report, read back with excelize and compared cell
// by cell with a golden dump: each cell's type, raw and shown value,
// number format, bold and formula; each sheet's frozen pane, autofilter
// and column widths; the document's properties.
func TestXLSXGolden(t *testing.T) {
	created := time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("CET", 3600))
	defer func(old func() time.Time) { now = old }(now)
	now = func() time.Time { return created }

	path := filepath.Join(t.TempDir(), "report.xlsx")
	writeReport(t, path, Options{Title: "Packing slips, January 2026", Subject: "packing slip date 2026-01-01 to 2026-01-31", Account: "shop.example.com"})
	golden(t, "report.xlsx.txt", []byte(sheettest.Dump(t, path)))
}

// Past the rows held to measure the widths, a sheet streams: every row
// is in the file, in order, the widths come from the first rows only, and
// the totals cover them all.
func TestXLSXStreamsPastHeldRows(t *testing.T) {
	t.Parallel()
	const rows = 1000
	path := filepath.Join(t.TempDir(), "long.xlsx")
	cols := []Column{{Header: "SKU"}, {Header: "Qty", Kind: Integer, Total: true}, {Header: "Note"}}
	w, err := Create(path, Options{}, Sheet{Name: "Items", Columns: cols}, Sheet{Name: "Other", Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		note := "n"
		if i == measureRows+10 {
			note = strings.Repeat("wide ", 10) // below the measured rows: no wider column
		}
		if err := w.Row(0, "SKU-"+strconv.Itoa(i), strconv.Itoa(i), note); err != nil {
			t.Fatal(err)
		}
		if i%100 == 0 {
			if err := w.Row(1, "O-"+strconv.Itoa(i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := openBook(t, path)
	got, err := f.GetRows("Items")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != rows+2 {
		t.Fatalf("%d rows, want the header, %d data rows and the totals", len(got), rows)
	}
	for i := range rows {
		if got[i+1][0] != "SKU-"+strconv.Itoa(i) || got[i+1][1] != strconv.Itoa(i) {
			t.Fatalf("row %d is %q, want SKU-%d and %d", i+2, got[i+1], i, i)
		}
	}
	if total := got[rows+1]; total[0] != "Total" || total[1] != strconv.Itoa(rows*(rows-1)/2) {
		t.Errorf("totals row %q, want Total and %d", total, rows*(rows-1)/2)
	}
	if w, _ := f.GetColWidth("Items", "C"); w != float64(len("Note")+headerExtra) {
		t.Errorf("column C is %v wide, want %d: from the header and the first rows", w, len("Note")+headerExtra)
	}
	other, err := f.GetRows("Other")
	if err != nil {
		t.Fatal(err)
	}
	if len(other) != 12 || other[10][0] != "O-900" {
		t.Errorf("sheet Other has %d rows, want 12 (header, 10, totals) ending with O-900: %q", len(other), other)
	}
}

// Several sheets stream at once, each past excelize's in-memory chunk (its
// rows spill to a temporary file beside the workbook, removed by Close),
// their rows interleaved.
func TestXLSXSheetsStreamTogether(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes two sheets of 20 MB of XML")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "big.xlsx")
	cols := []Column{{Header: "Key"}, {Header: "Text"}}
	sheets := []Sheet{{Name: "A", Columns: cols}, {Name: "B", Columns: cols}, {Name: "C", Columns: cols}}
	w, err := Create(path, Options{}, sheets...)
	if err != nil {
		t.Fatal(err)
	}
	filler := strings.Repeat("x", 200)
	const rows = 80_000 // of sheets A and B: 20 MB of XML each
	for i := range rows {
		for s := range 2 {
			if err := w.Row(s, strconv.Itoa(i), filler); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Row(2, "only"); err != nil {
		t.Fatal(err)
	}
	spills := 0
	for _, name := range entries(t, dir) {
		if strings.HasPrefix(name, "excelize-") {
			spills++
		}
	}
	if spills != 2 {
		t.Errorf("%d spill files beside the workbook, want 2 (sheets A and B): %q", spills, entries(t, dir))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if names := entries(t, dir); len(names) != 1 || names[0] != "big.xlsx" {
		t.Errorf("files after Close %q, want big.xlsx alone", names)
	}
	f := openBook(t, path)
	for _, name := range []string{"A", "B"} {
		n := 0
		it, err := f.Rows(name)
		if err != nil {
			t.Fatal(err)
		}
		for it.Next() {
			row, err := it.Columns()
			if err != nil {
				t.Fatal(err)
			}
			if n > 0 && (len(row) != 2 || row[0] != strconv.Itoa(n-1) || row[1] != filler) {
				t.Fatalf("sheet %s row %d: %.40q", name, n+1, row)
			}
			n++
		}
		it.Close()
		if n != rows+1 {
			t.Errorf("sheet %s has %d rows, want %d", name, n, rows+1)
		}
	}
	if c, _ := f.GetCellValue("C", "A2"); c != "only" {
		t.Errorf("sheet C A2 = %q, want only", c)
	}
}

// A sheet without data rows has its header, its autofilter over it, and
// no totals row.
func TestXLSXNoRows(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "empty.xlsx")
	w, err := Create(path, Options{}, reportSheets...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := openBook(t, path)
	rows, err := f.GetRows("Slips")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0][0] != "Slip" {
		t.Errorf("rows %q, want the header alone", rows)
	}
	if got := sheettest.AutoFilters(t, path)["xl/worksheets/sheet1.xml"]; got != "$A$1:$H$1" {
		t.Errorf("autofilter %s, want $A$1:$H$1", got)
	}
}

// Excel's limits are errors that name the sheet, row and column and say
// what to do, not silent truncation.
func TestXLSXLimits(t *testing.T) {
	t.Parallel()
	cols := []Column{{Header: "SKU"}, {Header: "Description"}}
	t.Run("cell", func(t *testing.T) {
		w, err := Create(filepath.Join(t.TempDir(), "x.xlsx"), Options{}, Sheet{Name: "Products", Columns: cols})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Discard()
		if err := w.Row(0, "A", strings.Repeat("é", excelize.TotalCellChars)); err != nil {
			t.Fatalf("a cell of exactly the limit: %v", err)
		}
		for range measureRows {
			if err := w.Row(0, "B", "d"); err != nil {
				t.Fatal(err)
			}
		}
		err = w.Row(0, "C", strings.Repeat("x", excelize.TotalCellChars+1))
		want := `sheet "Products", row 203, column "Description": the text has 32768 characters, and an XLSX cell holds at most 32767: export to CSV`
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a cell over the limit: %v, want %q", err, want)
		}
		if err := w.Close(); err == nil {
			t.Error("Close after a failed Row succeeded")
		}
	})
	t.Run("rows", func(t *testing.T) {
		want := `sheet "Products" has more than 3 rows, the most an XLSX sheet holds: export to CSV`
		for _, n := range []int{3, 4} {
			path := filepath.Join(t.TempDir(), "x.xlsx")
			w, err := Create(path, Options{}, Sheet{Name: "Products", Columns: cols})
			if err != nil {
				t.Fatal(err)
			}
			w.out.(*book).sheets[0].limit = 3 // as if it were 1,048,575
			for i := range n {
				if err = w.Row(0, strconv.Itoa(i)); err != nil {
					break
				}
			}
			if err == nil {
				err = w.Close() // the rows were held to measure: the limit shows here
			}
			w.Discard()
			switch {
			case n == 3 && err != nil:
				t.Errorf("3 rows where 3 fit: %v", err)
			case n == 4 && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("4 rows where 3 fit: %v, want %q", err, want)
			}
		}
	})
}

// A workbook written in a zone shows its dates there and says which zone
// it is in its properties.
func TestXLSXInAZone(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	path := filepath.Join(t.TempDir(), "slips.xlsx")
	w, err := Create(path, Options{Location: berlin}, Sheet{Name: "Slips", Columns: []Column{
		{Header: "Slip date", Kind: Date}, {Header: "Shipped at", Kind: DateTime}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Row(0, "2026-11-23T23:30:00+00:00", "2026-11-23T23:30:00+00:00"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := openBook(t, path)
	rows, err := f.GetRows("Slips")
	if err != nil || len(rows) < 2 || rows[1][0] != "2026-11-24" || rows[1][1] != "2026-11-24 00:30:00" {
		t.Errorf("rows %q (%v), want the slip on 2026-11-24 at 00:30", rows, err)
	}
	props, err := f.GetDocProps()
	if err != nil || !strings.HasSuffix(props.Description, " CET. Dates and times in Europe/Berlin.") {
		t.Errorf("properties %+v (%v), want the zone named", props, err)
	}
}

// openBook opens the workbook at path, until the test ends.
func openBook(t *testing.T, path string) *excelize.File {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
