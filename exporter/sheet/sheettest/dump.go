// Package sheettest reads back the workbooks exports write, for golden
// tests: a line per fact that matters to a person opening the file (each
// cell's type, raw and shown value, number format, bold and formula; each
// sheet's frozen pane, autofilter and column widths; the properties).
package sheettest

import (
	"archive/zip"
	"fmt"
	"html"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// Dump describes the workbook at path, a line per fact.
func Dump(t testing.TB, path string) string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	props, err := f.GetDocProps()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "title %q creator %q created %s modified %s\n", props.Title, props.Creator, props.Created, props.Modified)
	fmt.Fprintf(&b, "subject %q\ndescription %q\n", props.Subject, props.Description)
	for _, dn := range f.GetDefinedName() {
		fmt.Fprintf(&b, "defined name %s scope %q refers to %s\n", dn.Name, dn.Scope, dn.RefersTo)
	}
	filters := AutoFilters(t, path)
	breaks := PartMatches(t, path, "xl/worksheets/sheet", `<brk id="(\d+)"`)
	for i, name := range f.GetSheetList() {
		fmt.Fprintf(&b, "\nsheet %q\n", name)
		panes, err := f.GetPanes(name)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "panes freeze %v x %d y %d top left %s active %s\n",
			panes.Freeze, panes.XSplit, panes.YSplit, panes.TopLeftCell, panes.ActivePane)
		fmt.Fprintf(&b, "autofilter %s\n", filters[fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1)])
		b.WriteString(Print(t, f, name))
		if br := breaks[fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1)]; len(br) > 0 {
			fmt.Fprintf(&b, "page breaks after rows %s\n", strings.Join(br, " "))
		}
		dumpSheet(t, &b, f, name)
	}
	charts := PartMatches(t, path, "xl/charts/chart", `<(?:f>|grouping val=")([^<"]+)`)
	for _, part := range slices.Sorted(maps.Keys(charts)) {
		fmt.Fprintf(&b, "\n%s %s\n", part, strings.Join(charts[part], " "))
	}
	return b.String()
}

// Print describes how the sheet name prints: its page layout, margins
// and footer, a line each.
func Print(t testing.TB, f *excelize.File, name string) string {
	t.Helper()
	props, err := f.GetSheetProps(name)
	if err != nil {
		t.Fatal(err)
	}
	layout, err := f.GetPageLayout(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.GetPageMargins(name)
	if err != nil {
		t.Fatal(err)
	}
	hf, err := f.GetHeaderFooter(name)
	if err != nil {
		t.Fatal(err)
	}
	fit := props.FitToPage != nil && *props.FitToPage
	line := fmt.Sprintf("page %s fit to page %v %d wide %d tall scale %d\n", deref(layout.Orientation), fit,
		deref(layout.FitToWidth), deref(layout.FitToHeight), deref(layout.AdjustTo))
	line += fmt.Sprintf("margins left %v right %v top %v bottom %v header %v footer %v\n",
		deref(m.Left), deref(m.Right), deref(m.Top), deref(m.Bottom), deref(m.Header), deref(m.Footer))
	return line + fmt.Sprintf("footer %q\n", hf.OddFooter)
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// PartMatches reads the parts of the file whose names begin with prefix
// and returns, for each, the first group of every match of expr in it,
// its XML entities read.
func PartMatches(t testing.TB, path, prefix, expr string) map[string][]string {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	re := regexp.MustCompile(expr)
	found := map[string][]string{}
	for _, zf := range z.File {
		if !strings.HasPrefix(zf.Name, prefix) || strings.Contains(zf.Name, "_rels") {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		found[zf.Name] = nil
		for _, m := range re.FindAllSubmatch(data, -1) {
			found[zf.Name] = append(found[zf.Name], html.UnescapeString(string(m[1])))
		}
	}
	return found
}

func dumpSheet(t testing.TB, b *strings.Builder, f *excelize.File, name string) {
	t.Helper()
	rows, err := f.GetRows(name, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	var widths []string
	for c := 1; c <= cols; c++ {
		col, _ := excelize.ColumnNumberToName(c)
		w, err := f.GetColWidth(name, col)
		if err != nil {
			t.Fatal(err)
		}
		widths = append(widths, col+"="+strconv.FormatFloat(w, 'f', -1, 64))
	}
	fmt.Fprintf(b, "widths %s\n", strings.Join(widths, " "))
	for r, row := range rows {
		for c, raw := range row {
			ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
			if line := dumpCell(t, f, name, ref, raw); line != "" {
				b.WriteString(line + "\n")
			}
		}
	}
}

// dumpCell describes a cell: its type (text, number, or date: a number
// with a date format), raw value, shown value, format, bold, formula.
func dumpCell(t testing.TB, f *excelize.File, sheet, ref, raw string) string {
	t.Helper()
	formula, err := f.GetCellFormula(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	if raw == "" && formula == "" {
		return ""
	}
	typ, err := f.GetCellType(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	shown, err := f.GetCellValue(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	id, err := f.GetCellStyle(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	style, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	format := numberFormat(style)
	kind := map[excelize.CellType]string{excelize.CellTypeInlineString: "text", excelize.CellTypeUnset: "number"}[typ]
	if kind == "" {
		kind = fmt.Sprintf("type %d", typ)
	}
	if kind == "number" && strings.Contains(format, "yy") {
		kind = "date"
	}
	line := fmt.Sprintf("%s %s %q shown %q format %q", ref, kind, raw, shown, format)
	if style.Font != nil && style.Font.Bold {
		line += " bold"
	}
	if formula != "" {
		line += " formula " + formula
	}
	return line
}

func numberFormat(s *excelize.Style) string {
	if s.CustomNumFmt != nil {
		return *s.CustomNumFmt
	}
	return map[int]string{0: "General", 1: "0", 4: "#,##0.00"}[s.NumFmt]
}

// AutoFilters reads the autofilter element of each worksheet part of the
// file ("none" where there is none): excelize has no getter for it.
func AutoFilters(t testing.TB, path string) map[string]string {
	t.Helper()
	found := map[string]string{}
	for part, refs := range PartMatches(t, path, "xl/worksheets/sheet", `<autoFilter ref="([^"]*)"`) {
		found[part] = "none"
		if len(refs) > 0 {
			found[part] = refs[0]
		}
	}
	return found
}

// Golden compares got with the file at path, or, when update is set,
// rewrites the file with it.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from what was written (run with -update to accept it):\n%s", path, lineDiff(string(want), string(got)))
	}
}

// lineDiff lists the lines that differ between want and got, at most 20.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl && shown < 20 {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", i+1, wl, gl)
			shown++
		}
	}
	return b.String()
}
