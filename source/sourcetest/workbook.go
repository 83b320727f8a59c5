package sourcetest

import (
	"archive/zip"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Workbook is an XLSX workbook written part by part, as Excel and other
// programs write them, for what a spreadsheet library does not write:
// hidden sheets, error values, formulas saved without their values, the
// digits Excel stores (12.199999999999999), number formats by id.
type Workbook struct {
	Sheets []Sheet
	// NumFmts are the styles part's numFmt elements, CellXfs its xf
	// elements: cell style i (a cell's s attribute) is the i-th xf.
	NumFmts, CellXfs string
	// Strings are the shared strings' si elements.
	Strings string
}

// Sheet is one worksheet of a Workbook: its name, its state ("" for
// visible, "hidden" or "veryHidden") and its rows (the XML inside
// sheetData).
type Sheet struct{ Name, State, Rows string }

// Part is one part of a workbook's package: its name and its text.
type Part struct{ Name, Text string }

const relTypes = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

// Parts are the parts of w's package: sheet i is xl/worksheets/sheet<i+1>.xml.
func (w Workbook) Parts() []Part {
	var list, rels strings.Builder
	var sheets []Part
	for i, sh := range w.Sheets {
		state := ""
		if sh.State != "" {
			state = ` state="` + sh.State + `"`
		}
		fmt.Fprintf(&list, `<sheet name="%s" sheetId="%d"%s r:id="rId%d"/>`, sh.Name, i+1, state, i+10)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="%sworksheet" Target="worksheets/sheet%d.xml"/>`, i+10, relTypes, i+1)
		sheets = append(sheets, Part{fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1),
			`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + sh.Rows + `</sheetData></worksheet>`})
	}
	numFmts := ""
	if w.NumFmts != "" {
		numFmts = "<numFmts>" + w.NumFmts + "</numFmts>"
	}
	return append([]Part{
		{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"></Types>`},
		{"_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + relTypes + `officeDocument" Target="xl/workbook.xml"/></Relationships>`},
		{"xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
			`<sheets>` + list.String() + `</sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels.String() +
			`<Relationship Id="rId2" Type="` + relTypes + `styles" Target="styles.xml"/>` +
			`<Relationship Id="rId3" Type="` + relTypes + `sharedStrings" Target="sharedStrings.xml"/></Relationships>`},
		{"xl/styles.xml", `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
			numFmts + `<cellXfs>` + w.CellXfs + `</cellXfs></styleSheet>`},
		{"xl/sharedStrings.xml", `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` + w.Strings + `</sst>`},
	}, sheets...)
}

// Write writes w to path.
func (w Workbook) Write(t testing.TB, path string) {
	t.Helper()
	if err := writeParts(path, w.Parts(), nil); err != nil {
		t.Fatalf("writing %s: %v", filepath.Base(path), err)
	}
}

// streamedPart is a part written by a function, for parts too large to
// hold as text.
type streamedPart struct {
	name  string
	write func(io.Writer) error
}

// writeParts writes the ZIP archive of parts, then of more in order, to
// path.
func writeParts(path string, parts []Part, more []streamedPart) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for _, p := range parts {
		more = append(more, streamedPart{p.Name, func(w io.Writer) error {
			_, err := io.WriteString(w, p.Text)
			return err
		}})
	}
	for _, p := range more {
		w, err := zw.Create(p.name)
		if err == nil {
			err = p.write(w)
		}
		if err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

// Cell is the XML of a cell at ref (like "B2") of type typ ("" for a
// number), style s (0 for none), with a formula (none when "") and a value
// (none when "", and for inlineStr the text of its is element). Text is
// escaped.
func Cell(ref, typ string, s int, formula, value string) string {
	var b strings.Builder
	b.WriteString(`<c r="` + ref + `"`)
	if typ != "" {
		b.WriteString(` t="` + typ + `"`)
	}
	if s != 0 {
		fmt.Fprintf(&b, ` s="%d"`, s)
	}
	b.WriteString(">")
	if formula != "" {
		b.WriteString("<f>" + escape(formula) + "</f>")
	}
	switch {
	case value == "":
	case typ == "inlineStr":
		b.WriteString("<is><t>" + escape(value) + "</t></is>")
	default:
		b.WriteString("<v>" + escape(value) + "</v>")
	}
	b.WriteString("</c>")
	return b.String()
}

// Text is the XML of an inline text cell at ref.
func Text(ref, text string) string { return Cell(ref, "inlineStr", 0, "", text) }

// Row is the XML of row r holding cells.
func Row(r int, cells ...string) string {
	return fmt.Sprintf(`<row r="%d">`, r) + strings.Join(cells, "") + "</row>"
}

func escape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
