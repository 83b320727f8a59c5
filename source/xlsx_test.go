package source

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	cells := []cellSpec{{ref: "A1", value: "d"}, {ref: "A2", value: 1, numFmt: 14}}
	p := writeWorkbook(t, map[string][]cellSpec{"S": cells}, []string{"S"}, true)
	rows := readAll(t, openTestSource(t, p, Options{}))
	if len(rows) != 1 || rows[0].Cells[0] != "1904-01-02" {
		t.Errorf("rows %+v, want 1904-01-02", rows)
	}
}

// Files that are not workbooks say what they are and what to do, not
// "EOF" or "zip: not a valid zip file".
func TestXLSXNotAWorkbook(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		path func(t *testing.T) string
		want string
	}{
		{"CSV text named .xlsx", func(t *testing.T) string { return writeFile(t, "broken.xlsx", []byte("sku,name\n")) },
			"broken.xlsx: this is not an XLSX workbook: an .xlsx file is a ZIP archive and this one is not; if it holds CSV text, name it .csv or set format: csv in the mapping"},
		{"an empty file", func(t *testing.T) string { return writeFile(t, "empty.xlsx", nil) },
			"empty.xlsx: this is not an XLSX workbook"},
		{"an old .xls renamed", func(t *testing.T) string { return writeFile(t, "old.xlsx", append(bytes.Clone(oleMagic), 0, 0, 0)) },
			"old.xlsx: this is an old Excel .xls workbook or a password-protected .xlsx: save it in Excel as .xlsx without a password, or as .csv"},
		{"a ZIP archive of other files", func(t *testing.T) string {
			return writeZip(t, "photos.xlsx", []zipPart{{name: "photo.jpg", head: "\xff\xd8"}})
		}, "photos.xlsx: this is a ZIP archive but not an Excel workbook (it has no xl/workbook.xml): if the catalog is inside it, unzip it and import that file"},
		{"an OpenDocument spreadsheet", func(t *testing.T) string {
			return writeZip(t, "sheet.xlsx", []zipPart{{name: "mimetype", head: "application/vnd.oasis.opendocument.spreadsheet"}})
		}, "sheet.xlsx: this is an OpenDocument spreadsheet (.ods), not an XLSX workbook: save it as .xlsx or .csv"},
		{"a cut-off workbook", func(t *testing.T) string {
			p := writeZip(t, "cut.xlsx", workbookParts(headerRow, ""))
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			return writeFile(t, "cut.xlsx", b[:len(b)/2])
		}, "cut.xlsx: the workbook is damaged (zip: not a valid zip file): open it in your spreadsheet program and save it again as .xlsx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.path(t)
			_, err := Open(p, Options{})
			want := filepath.Join(filepath.Dir(p), tt.want)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %v\nwant %s", err, want)
			}
		})
	}
}

// A cell that refers to a shared string the workbook does not have is an
// error on its row, not an empty cell.
func TestXLSXSharedStringOutOfRange(t *testing.T) {
	t.Parallel()
	rows := headerRow + `<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>7</v></c></row>` +
		`<row r="3"><c r="A3" t="s"><v>0</v></c></row>`
	p := writeZip(t, "book.xlsx", workbookParts(rows, `<si><t>Tee</t></si>`))
	got := readAll(t, openTestSource(t, p, Options{}))
	want := []readRow{
		{Line: 2, Cells: []string{"Tee", ""}, Err: p + `: sheet "Products": row 2, column 2: the cell refers to shared text "7", but the workbook holds 1 shared texts: ` +
			"the workbook is damaged; open it in your spreadsheet program and save it again"},
		{Line: 3, Cells: []string{"Tee", ""}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows\n got %+v\nwant %+v", got, want)
	}
}

// Shared strings too many to keep in memory go to a temporary file, which
// Close removes, as does a failed Open.
func TestXLSXSharedStringsTemporaryFile(t *testing.T) {
	defer func(m int) { sstMemory = m }(sstMemory)
	sstMemory = 8
	sst := `<si><t>Tee shirt</t></si><si><r><t>Hoo</t></r><r><t>die</t></r><rPh><t>phonetic</t></rPh></si><si><t>Cap_x000D_</t></si>`
	rows := headerRow + `<row r="2"><c t="s"><v>1</v></c><c t="s"><v>2</v></c></row>` +
		`<row r="3"><c t="s"><v>0</v></c><c t="s"><v>1</v></c></row>`

	tempClean := emptyTempDir(t)
	src, err := Open(writeZip(t, "book.xlsx", workbookParts(rows, sst)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, src)
	want := []readRow{{Line: 2, Cells: []string{"Hoodie", "Cap\r"}}, {Line: 3, Cells: []string{"Tee shirt", "Hoodie"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows\n got %+v\nwant %+v", got, want)
	}
	if entries, _ := os.ReadDir(os.Getenv("TMPDIR")); len(entries) != 1 {
		t.Errorf("%d temporary entries while reading, want the shared strings' directory", len(entries))
	}
	if err := src.Close(); err != nil {
		t.Fatal(err)
	}
	tempClean()

	// The header row cannot be found: Open fails after the shared strings
	// went to their file.
	if _, err := Open(writeZip(t, "book.xlsx", workbookParts(rows, sst)), Options{HeaderRow: 9}); err == nil {
		t.Fatal("no error for a header row below the data")
	}
	tempClean()
}

// NUL characters (Excel writes them _x0000_) are refused on their row.
func TestXLSXNULIsARowError(t *testing.T) {
	t.Parallel()
	rows := headerRow + `<row r="2"><c t="inlineStr"><is><t>S1</t></is></c><c t="inlineStr"><is><t>a_x0000_b</t></is></c></row>`
	p := writeZip(t, "book.xlsx", workbookParts(rows, ""))
	got := readAll(t, openTestSource(t, p, Options{}))
	if len(got) != 1 || got[0].Err != p+`: sheet "Products": row 2, column 2: `+nulMsg {
		t.Errorf("rows %+v", got)
	}
}

func TestCustomDateKind(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	for id, want := range map[int]dateKind{0: notDate, 2: notDate, 14: dateOnly, 17: dateOnly, 18: timeOnly, 22: dateTime, 46: notDate, 49: notDate, 57: dateOnly} {
		if got := builtinDateKind(id); got != want {
			t.Errorf("builtinDateKind(%d) = %d, want %d", id, got, want)
		}
	}
}

// A failed open closes the workbook and the sheet it had started reading.
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
		if target, _ := os.Readlink("/proc/self/fd/" + fd.Name()); strings.Contains(target, "big.xlsx") || strings.Contains(target, "lading-xlsx-") {
			t.Errorf("file %s is still open", target)
		}
	}
}

// A table of more strings than a block of ends holds reads each string
// back, in memory and from its temporary file.
func TestSharedStringsAcrossBlocks(t *testing.T) {
	defer func(m int) { sstMemory = m }(sstMemory)
	for _, mem := range []int{64 << 20, 1 << 10} {
		sstMemory = mem
		s := &sharedStrings{}
		n := 2*endsBlock + 3
		for i := range n {
			if err := s.add([]byte(strconv.Itoa(i))); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.finish(); err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, 1, endsBlock - 1, endsBlock, endsBlock + 1, 2 * endsBlock, n - 1} {
			if got, ok, err := s.get(i); err != nil || !ok || got != strconv.Itoa(i) {
				t.Errorf("memory %d: string %d is %q, %v, %v; want %q", mem, i, got, ok, err, strconv.Itoa(i))
			}
		}
		if _, ok, _ := s.get(n); ok || s.len() != n {
			t.Errorf("memory %d: %d strings, string %d found: %v; want %d, none", mem, s.len(), n, ok, n)
		}
		s.Close()
	}
}
