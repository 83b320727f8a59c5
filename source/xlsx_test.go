package source

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"lading/source/sourcetest"
)

// serial is the Excel 1900-system serial number of t.
func serial(t time.Time) float64 {
	return t.Sub(time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)).Hours() / 24
}

// workbook builds an XLSX file cell by cell; styles maps a cell to its
// number format (built-in id or custom code).
type cellSpec struct {
	ref    string
	value  any
	numFmt int
	custom string
}

func writeWorkbook(t *testing.T, sheets map[string][]cellSpec, order []string, date1904 bool) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, name := range order {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", name); err != nil {
				t.Fatal(err)
			}
		} else if _, err := f.NewSheet(name); err != nil {
			t.Fatal(err)
		}
		for _, c := range sheets[name] {
			if err := f.SetCellValue(name, c.ref, c.value); err != nil {
				t.Fatal(err)
			}
			if c.numFmt == 0 && c.custom == "" {
				continue
			}
			st := &excelize.Style{NumFmt: c.numFmt}
			if c.custom != "" {
				st.CustomNumFmt = &c.custom
			}
			id, err := f.NewStyle(st)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.SetCellStyle(name, c.ref, c.ref, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	if date1904 {
		on := true
		if err := f.SetWorkbookProps(&excelize.WorkbookPropsOptions{Date1904: &on}); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(t.TempDir(), "book.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestXLSXSource(t *testing.T) {
	day := serial(time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC))
	afternoon := serial(time.Date(2024, 3, 15, 13, 30, 0, 0, time.UTC))
	cells := []cellSpec{
		{ref: "A1", value: " sku "}, {ref: "B1", value: "price"}, {ref: "C1", value: "upc"},
		{ref: "D1", value: "released"}, {ref: "E1", value: "updated"}, {ref: "F1", value: "opens"}, {ref: "G1", value: "since"},
		// row 2: formatted number read raw; text keeps leading zeros; dates.
		{ref: "A2", value: "S1"}, {ref: "B2", value: 12.5, numFmt: 2}, {ref: "C2", value: "012345678905"},
		{ref: "D2", value: day, numFmt: 14}, {ref: "E2", value: afternoon, custom: "yyyy-mm-dd hh:mm"},
		{ref: "F2", value: 13.5 / 24, numFmt: 20}, {ref: "G2", value: day, custom: `dd/mm/yyyy;@`},
		// row 3 empty, row 4: short row, text in date columns stays text.
		{ref: "A4", value: "S2"}, {ref: "D4", value: "soon"}, {ref: "E4", value: day, custom: "yyyy-mm-dd hh:mm"},
		// row 5: a cell beyond the header.
		{ref: "A5", value: "S3"}, {ref: "I5", value: "stray"},
		// row 6: numbers in a non-date column with a currency format stay raw.
		{ref: "A6", value: "S4"}, {ref: "B6", value: 1234.5, custom: `"$"#,##0.00`},
	}
	p := writeWorkbook(t, map[string][]cellSpec{"Products": cells}, []string{"Products"}, false)
	src := openTestSource(t, p, Options{})
	wantHeader := []string{"sku", "price", "upc", "released", "updated", "opens", "since"}
	if !reflect.DeepEqual(src.Header(), wantHeader) {
		t.Fatalf("header %q, want %q", src.Header(), wantHeader)
	}
	got := readAll(t, src)
	for i := range got {
		got[i].Err = strings.ReplaceAll(got[i].Err, p, "book.xlsx")
	}
	want := []readRow{
		{Line: 2, Cells: []string{"S1", "12.5", "012345678905", "2024-03-15", "2024-03-15 13:30:00", "13:30:00", "2024-03-15"}},
		{Line: 4, Cells: []string{"S2", "", "", "soon", "2024-03-15", "", ""}},
		{Line: 5, Cells: []string{"S3", "", "", "", "", "", ""},
			Err: `book.xlsx: sheet "Products": row 5: the row has 9 cells but the header has 7: column 9 holds "stray" without a header; add a header for it or remove the extra cells`},
		{Line: 6, Cells: []string{"S4", "1234.5", "", "", "", "", ""}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows\n got %+v\nwant %+v", got, want)
	}
}

func TestXLSXSheetAndHeaderRow(t *testing.T) {
	sheets := map[string][]cellSpec{
		"Notes": {{ref: "A1", value: "read me"}},
		"Stock": {
			{ref: "A1", value: "Stock export"},
			{ref: "A3", value: "sku"}, {ref: "B3", value: "qty"},
			{ref: "A4", value: "K1"}, {ref: "B4", value: 7},
		},
	}
	p := writeWorkbook(t, sheets, []string{"Notes", "Stock"}, false)

	src := openTestSource(t, p, Options{Sheet: "stock", HeaderRow: 2})
	if h := src.Header(); !reflect.DeepEqual(h, []string{"sku", "qty"}) {
		t.Fatalf("header %q: the first non-empty row at or below row 2 should be the header", h)
	}
	rows := readAll(t, src)
	if want := []readRow{{Line: 4, Cells: []string{"K1", "7"}}}; !reflect.DeepEqual(rows, want) {
		t.Errorf("rows %+v, want %+v", rows, want)
	}

	// CSV settings in a shared mapping do not stop an XLSX read.
	first := openTestSource(t, p, Options{Delimiter: ';', Encoding: "windows-1252"})
	if h := first.Header(); !reflect.DeepEqual(h, []string{"read me"}) {
		t.Errorf("default sheet header %q, want the first sheet's", h)
	}

	_, err := Open(p, Options{Sheet: "Prices"})
	if err == nil || !strings.HasSuffix(err.Error(), `no sheet named "Prices": the workbook has "Notes" and "Stock"`) {
		t.Errorf("missing sheet error %v", err)
	}
	_, err = Open(p, Options{Sheet: "Notes", HeaderRow: 2})
	if err == nil || !strings.Contains(err.Error(), `sheet "Notes": no header row found at or below row 2`) {
		t.Errorf("empty sheet error %v", err)
	}
}

func TestXLSXDate1904(t *testing.T) {
	cells := []cellSpec{{ref: "A1", value: "d"}, {ref: "A2", value: 1, numFmt: 14}}
	p := writeWorkbook(t, map[string][]cellSpec{"S": cells}, []string{"S"}, true)
	rows := readAll(t, openTestSource(t, p, Options{}))
	if len(rows) != 1 || rows[0].Cells[0] != "1904-01-02" {
		t.Errorf("rows %+v, want 1904-01-02", rows)
	}
}

func TestXLSXNotAWorkbook(t *testing.T) {
	p := writeFile(t, "broken.xlsx", []byte("sku,name\n"))
	_, err := Open(p, Options{})
	if err == nil || !strings.Contains(err.Error(), "broken.xlsx: cannot open as an XLSX workbook") {
		t.Errorf("error %v", err)
	}
}

func TestCustomDateKind(t *testing.T) {
	tests := []struct {
		code string
		want dateKind
	}{
		{"yyyy-mm-dd", dateOnly},
		{"dd/mm/yyyy;@", dateOnly},
		{"[$-409]mmmm d, yyyy", dateOnly},
		{"mmm", dateOnly},
		{"yyyy-mm-dd hh:mm:ss", dateTime},
		{"h:mm AM/PM", timeOnly},
		{"mm:ss.0", timeOnly},
		{"[h]:mm:ss", notDate},
		{"0.00", notDate},
		{"#,##0.00 [$€-407]", notDate},
		{`0.0 "days"`, notDate},
		{`0\d`, notDate},
		{"0.00E+00", notDate},
		{"General", notDate},
		{"[Red]0.00;[Blue]-0.00", notDate},
		{"@", notDate},
	}
	for _, tt := range tests {
		if got := customDateKind(tt.code); got != tt.want {
			t.Errorf("customDateKind(%q) = %d, want %d", tt.code, got, tt.want)
		}
	}
}

func TestBuiltinDateKind(t *testing.T) {
	for id, want := range map[int]dateKind{0: notDate, 2: notDate, 14: dateOnly, 17: dateOnly, 18: timeOnly, 22: dateTime, 46: notDate, 49: notDate, 57: dateOnly} {
		if got := builtinDateKind(id); got != want {
			t.Errorf("builtinDateKind(%d) = %d, want %d", id, got, want)
		}
	}
}

// A failed open closes the sheet it had started reading: a sheet over the
// unzip limit is read from a temporary file, whose handle must not stay
// open.
func TestXLSXFailedOpenLeavesNoFileOpen(t *testing.T) {
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		t.Skip("needs /proc/self/fd:", err)
	}
	p := filepath.Join(t.TempDir(), "big.xlsx")
	if err := sourcetest.GenerateCatalogXLSX(p, 1000, 2); err != nil { // a sheet of ~2 MiB
		t.Fatal(err)
	}
	_, err := Open(p, Options{HeaderRow: 5000})
	if err == nil || !strings.Contains(err.Error(), "no header row found at or below row 5000") {
		t.Fatalf("error %v", err)
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		if target, _ := os.Readlink("/proc/self/fd/" + fd.Name()); strings.Contains(target, "excelize-") {
			t.Errorf("file %s is still open", target)
		}
	}
}
