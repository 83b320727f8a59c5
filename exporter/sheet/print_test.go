package sheet

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"lading/exporter/sheet/sheettest"
)

func TestFooter(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("packing slip date & more ", 20)
	tests := []struct {
		name                           string
		title, subject, account, made  string
		want                           string
		wantPrefix, wantHas, wantLacks string
	}{
		{name: "every fact", title: "Packing slips", subject: "packing slip date 2026-10-01 to 2026-10-31", account: "shop.example.com", made: "2026-11-02 09:14 CET",
			want: "&L&8Packing slips\npacking slip date 2026-10-01 to 2026-10-31&C&8Account shop.example.com\nMade 2026-11-02 09:14 CET&R&8&A\nPage &P of &N"},
		{name: "no subject, no account", title: "Picking list", made: "2026-11-02 09:14 UTC",
			want: "&L&8Picking list&C&8Made 2026-11-02 09:14 UTC&R&8&A\nPage &P of &N"},
		{name: "ampersands doubled, lines joined", title: "Sales & returns", subject: "status = a&b\nand more", made: "t",
			want: "&L&8Sales && returns\nstatus = a&&b and more&C&8Made t&R&8&A\nPage &P of &N"},
		{name: "a title of digits is not a font size", title: "2026 slips", made: "t",
			want: "&L&8 2026 slips&C&8Made t&R&8&A\nPage &P of &N"},
		{name: "a long subject is cut", title: "Packing slips", subject: long, account: "shop.example.com", made: "2026-11-02 09:14 CET",
			wantPrefix: "&L&8Packing slips\npacking slip date && more", wantHas: "…&C&8Account shop.example.com\nMade 2026-11-02 09:14 CET&R&8&A\nPage &P of &N"},
		{name: "a long title is cut too", title: long, subject: long, made: "t",
			wantPrefix: "&L&8packing slip date && more", wantHas: "…\npacking slip", wantLacks: "&&…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := footer(tt.title, tt.subject, tt.account, tt.made)
			if n := utf16Len(got); n > excelize.MaxFieldLength {
				t.Errorf("footer of %d characters, Excel takes %d: %q", n, excelize.MaxFieldLength, got)
			}
			if tt.want != "" && got != tt.want {
				t.Errorf("footer\n%q, want\n%q", got, tt.want)
			}
			if !strings.HasPrefix(got, tt.wantPrefix) || !strings.Contains(got, tt.wantHas) ||
				(tt.wantLacks != "" && strings.Contains(got, tt.wantLacks)) {
				t.Errorf("footer %q: want it to begin %q, hold %q and not %q", got, tt.wantPrefix, tt.wantHas, tt.wantLacks)
			}
			// Every code is whole: no escaped "&&" was cut in two.
			codes := strings.Split(strings.ReplaceAll(got, "&&", ""), "&")[1:]
			for _, c := range codes {
				if c == "" || !strings.ContainsRune("LCR8APN", rune(c[0])) {
					t.Errorf("footer %q has a broken code &%s", got, c)
				}
			}
		})
	}
}

func TestCut(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"a&&b", 3, "a…"},
		{"a&&b", 4, "a&&b"},
		{"é€😀x", 4, "é€…"},
		{"abc", 1, ""},
	} {
		if got := cut(tt.in, tt.n); got != tt.want || utf16Len(got) > tt.n {
			t.Errorf("cut(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestPageLayout(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name        string
		widths      []float64
		breaks      bool
		orientation string
		fit         bool
		scale       uint
	}{
		{"narrow: upright, fitted", []float64{10, 20, 30}, false, "portrait", true, 0},
		{"a little wider than the page: upright, fitted", []float64{50, 50}, false, "portrait", true, 0},
		{"wide: on its side, fitted", []float64{11, 12, 12, 12, 9, 7, 15, 22, 17, 17, 17, 37, 17, 8}, false, "landscape", true, 0},
		{"narrow with page breaks: full size", []float64{10, 20, 30}, true, "portrait", false, 100},
		{"wide with page breaks: scaled to fit in the widest font", []float64{40, 40, 40, 40}, true, "landscape", false, 60},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := pageLayout(tt.widths, tt.breaks)
			fit := l.FitToWidth != nil && *l.FitToWidth == 1 && l.FitToHeight != nil && *l.FitToHeight == 0
			var scale uint
			if l.AdjustTo != nil {
				scale = *l.AdjustTo
			}
			if *l.Orientation != tt.orientation || fit != tt.fit || scale != tt.scale {
				t.Errorf("layout %s, fitted %v, scale %d; want %s, %v, %d", *l.Orientation, fit, scale, tt.orientation, tt.fit, tt.scale)
			}
			total := 0.0
			for _, w := range tt.widths {
				total += max(columnPoints(w), widePoints(w))
			}
			if page := map[string]float64{"portrait": portraitPoints, "landscape": landscapePoints}[*l.Orientation]; scale > 0 && total*float64(scale)/100 > page {
				t.Errorf("at %d%% the sheet is %.0f points wide, the page %.0f", scale, total*float64(scale)/100, page)
			}
		})
	}
}

// A workbook's printed pages: the layout, margins and footer of every
// sheet, the header row on every page, the columns left off print out of
// the print area, check boxes, page breaks where the groups begin, and the
// facts of the footer in the properties. The CSV files of the same rows
// have no check box column and no trace of pages.
func TestXLSXPrints(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	sheets := []Sheet{
		{Name: "Slips", Columns: []Column{{Header: "Id", Kind: Integer, NoPrint: true}, {Header: "Reference"}, {Header: "Cost", Kind: Money, Total: true}}},
		{Name: "Picking", PageBreaks: true, Columns: []Column{{Header: "Picked", Check: true}, {Header: "Location"}, {Header: "SKU"}, {Header: "Order"}}},
	}
	o := Options{Title: "Slips & picks", Subject: "ship date 2026-10-01 to 2026-10-31", Account: "shop.example.com", Location: berlin}
	dir := t.TempDir()
	paths := map[string][]string{}
	for _, name := range []string{"p.xlsx", "p.csv"} {
		w, err := Create(filepath.Join(dir, name), o, sheets...)
		if err != nil {
			t.Fatal(err)
		}
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(w.Row(0, "100000001", "PS1001", "8.95"))
		must(w.Row(0, "100000002", "PS1002", "1.05"))
		var aisle byte // a group a letter: B-01 and C-01 begin pages
		for i, loc := range []string{"A-01", "A-02", "B-01", "B-02", "B-03", "C-01"} {
			if aisle != 0 && loc[0] != aisle {
				must(w.PageBreak(1))
			}
			aisle = loc[0]
			must(w.Row(1, "ignored", loc, "SKU-"+strconv.Itoa(i), "O100"+strconv.Itoa(i)))
		}
		must(w.Close())
		paths[name] = w.Paths()
	}

	f := openBook(t, paths["p.xlsx"][0])
	props, err := f.GetDocProps()
	if err != nil {
		t.Fatal(err)
	}
	if props.Title != o.Title || props.Subject != o.Subject || !strings.Contains(props.Description, "from the account shop.example.com") ||
		!strings.Contains(props.Description, "Dates and times in Europe/Berlin.") {
		t.Errorf("properties %+v: want the title, the subject, the account and the zone", props)
	}
	made, err := time.Parse(time.RFC3339, props.Created)
	if err != nil {
		t.Fatal(err)
	}
	wantFooter := footer(o.Title, o.Subject, o.Account, made.In(berlin).Format(madeLayout))
	if !strings.Contains(wantFooter, "Slips && picks") || !strings.Contains(wantFooter, made.In(berlin).Format("15:04 MST")) {
		t.Fatalf("footer %q: want the title escaped and the time in Berlin", wantFooter)
	}
	names := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		names[dn.Scope+" "+dn.Name] = dn.RefersTo
	}
	for _, tt := range []struct {
		sheet, print, area, breaks string
	}{
		{"Slips", "page portrait fit to page true 1 wide 0 tall scale 100", "'Slips'!$B:$C", ""},
		{"Picking", "page portrait fit to page false 0 wide 0 tall scale 100", "", "3 6"},
	} {
		got := sheettest.Print(t, f, tt.sheet)
		want := tt.print + "\nmargins left 0.5 right 0.5 top 0.6 bottom 0.8 header 0.3 footer 0.3\nfooter " + strconv.Quote(wantFooter) + "\n"
		if got != want {
			t.Errorf("sheet %s prints\n%s want\n%s", tt.sheet, got, want)
		}
		if titles := names[tt.sheet+" _xlnm.Print_Titles"]; titles != "'"+tt.sheet+"'!$1:$1" {
			t.Errorf("sheet %s: print titles %q, want its first row", tt.sheet, titles)
		}
		if area := names[tt.sheet+" _xlnm.Print_Area"]; area != tt.area {
			t.Errorf("sheet %s: print area %q, want %q", tt.sheet, area, tt.area)
		}
		part := map[string]string{"Slips": "xl/worksheets/sheet1.xml", "Picking": "xl/worksheets/sheet2.xml"}[tt.sheet]
		if got := strings.Join(sheettest.PartMatches(t, paths["p.xlsx"][0], part, `<brk id="(\d+)"`)[part], " "); got != tt.breaks {
			t.Errorf("sheet %s: page breaks after rows %q, want %q", tt.sheet, got, tt.breaks)
		}
	}
	rows, err := f.GetRows("Picking")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows[1:] {
		if r[0] != "☐" {
			t.Errorf("picking row %d: check box %q, want ☐", i+2, r[0])
		}
	}
	if rows, _ := f.GetRows("Slips"); len(rows) != 4 || rows[3][1] != "Total" {
		t.Errorf("slips rows %q: want \"Total\" in the first printed text column", rows)
	}

	csvFiles := paths["p.csv"]
	picking, err := os.ReadFile(csvFiles[1])
	if err != nil {
		t.Fatal(err)
	}
	if want := "Location,SKU,Order\nA-01,SKU-0,O1000\nA-02,SKU-1,O1001\nB-01,SKU-2,O1002\nB-02,SKU-3,O1003\nB-03,SKU-4,O1004\nC-01,SKU-5,O1005\n"; string(picking) != want {
		t.Errorf("picking CSV:\n%s\nwant\n%s", picking, want)
	}
	slips, err := os.ReadFile(csvFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := "Id,Reference,Cost\n100000001,PS1001,8.95\n100000002,PS1002,1.05\n"; string(slips) != want {
		t.Errorf("slips CSV:\n%s\nwant\n%s", slips, want)
	}
}

// Page breaks: none before the first row, none on a sheet made without
// them, and no more than MaxPageBreaks.
func TestPageBreakLimits(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "b.xlsx")
	w, err := Create(path, Options{}, Sheet{Name: "Groups", PageBreaks: true, Columns: []Column{{Header: "Group"}}},
		Sheet{Name: "Flat", Columns: []Column{{Header: "Row"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Discard()
	if err := w.PageBreak(1); err == nil || !strings.Contains(err.Error(), `sheet "Flat" was not created with page breaks`) {
		t.Fatalf("page break on a flat sheet: %v", err)
	}
	w, err = Create(path, Options{}, Sheet{Name: "Groups", PageBreaks: true, Columns: []Column{{Header: "Group"}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range MaxPageBreaks + 20 {
		if err := w.PageBreak(0); err != nil {
			t.Fatal(err)
		}
		if err := w.Row(0, strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	breaks := sheettest.PartMatches(t, path, "xl/worksheets/sheet1.xml", `<brk id="(\d+)"`)["xl/worksheets/sheet1.xml"]
	if len(breaks) != MaxPageBreaks || breaks[0] != "2" {
		t.Errorf("%d page breaks, the first after row %s; want %d, the first after row 2 (none before the first group)", len(breaks), breaks[0], MaxPageBreaks)
	}
}

// The summary sheet comes first; its cells hold values, formulas with the
// values they compute (excelize's engine agrees), sums of the rows above,
// and a stacked column chart of one table whose series are its columns.
func TestXLSXSummary(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.xlsx")
	w, err := Create(path, Options{Title: "Slips", Summary: "Summary"},
		Sheet{Name: "Slips", Columns: []Column{{Header: "Carrier"}, {Header: "Cost", Kind: Money, Total: true}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][]string{{"UPS", "8.95"}, {"DHL", "20.10"}, {"UPS", "1.05"}} {
		if err := w.Row(0, r...); err != nil {
			t.Fatal(err)
		}
	}
	cost := DataRange("Slips", 1, 3)
	carrier := DataRange("Slips", 0, 3)
	if cost != "'Slips'!$B$2:$B$4" {
		t.Fatalf("DataRange = %s", cost)
	}
	money := []Column{{Header: "Carrier"}, {Header: "Cost", Kind: Money}}
	err = w.Summary(Summary{
		Lines: []string{"Slips", "every slip"},
		Tables: []Table{
			{Title: "By carrier", Columns: money, Rows: [][]Cell{
				{{Value: "DHL"}, {Value: "20.10", Formula: `SUMIFS(` + cost + `,` + carrier + `,"DHL")`}},
				{{Value: "UPS"}, {Value: "10", Formula: `SUMIFS(` + cost + `,` + carrier + `,"UPS")`}},
			}, Total: []Cell{{}, {Value: "30.10", Sum: true}}, Note: "a note"},
			{Title: "By month and carrier", Columns: []Column{{Header: "Month"}, {Header: "DHL", Kind: Money}, {Header: "UPS", Kind: Money}},
				Rows: [][]Cell{{{Value: "2026-10"}, {Value: "20.10"}, {Value: "10"}}}},
		},
		Chart: &Chart{Title: "Shipping cost", Table: 1, Series: []int{1, 2}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := openBook(t, path)
	if got := f.GetSheetList(); strings.Join(got, ",") != "Summary,Slips" {
		t.Fatalf("sheets %q, want the summary first", got)
	}
	for _, tt := range []struct{ cell, value, formula string }{
		{"A1", "Slips", ""},
		{"A4", "By carrier", ""},
		{"B6", "20.1", `SUMIFS('Slips'!$B$2:$B$4,'Slips'!$A$2:$A$4,"DHL")`},
		{"B7", "10", `SUMIFS('Slips'!$B$2:$B$4,'Slips'!$A$2:$A$4,"UPS")`},
		{"A8", "Total", ""},
		{"B8", "30.1", "SUM(B6:B7)"},
		{"A9", "a note", ""},
		{"A11", "By month and carrier", ""},
		{"C13", "10", ""},
	} {
		v, err := f.GetCellValue("Summary", tt.cell, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		fm, err := f.GetCellFormula("Summary", tt.cell)
		if err != nil {
			t.Fatal(err)
		}
		if v != tt.value || fm != tt.formula {
			t.Errorf("%s holds %q = %q, want %q = %q", tt.cell, fm, v, tt.formula, tt.value)
		}
		if fm != "" {
			calc, err := f.CalcCellValue("Summary", tt.cell, excelize.Options{RawCellValue: true})
			if n, _ := strconv.ParseFloat(calc, 64); err != nil || n != mustFloat(t, tt.value) {
				t.Errorf("%s: excelize computes %s (%v), the cell holds %s", tt.cell, calc, err, tt.value)
			}
		}
	}
	chart := sheettest.PartMatches(t, path, "xl/charts/chart", `<(?:f>|grouping val=")([^<"]+)`)
	want := "stacked 'Summary'!$B$12 'Summary'!$A$13 'Summary'!$B$13 'Summary'!$C$12 'Summary'!$A$13 'Summary'!$C$13"
	if got := strings.Join(chart["xl/charts/chart1.xml"], " "); len(chart) != 1 || got != want {
		t.Errorf("chart parts %q, want one stacked chart of the second table:\n%s", chart, want)
	}
	if got := sheettest.Print(t, f, "Summary"); !strings.HasPrefix(got, "page landscape fit to page true 1 wide 0 tall") {
		t.Errorf("summary prints %s, want it on its side, fitted to the width", got)
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The summary of a CSV export is dropped: the files are those of the
// sheets alone.
func TestCSVHasNoSummary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := Create(filepath.Join(dir, "s.csv"), Options{Summary: "Summary"}, Sheet{Name: "Slips", Columns: []Column{{Header: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Summary(Summary{Lines: []string{"x"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, dir); strings.Join(got, ",") != "s.csv" || !utf8.ValidString(got[0]) {
		t.Errorf("files %q, want s.csv alone", got)
	}
}
