package source

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// cellStyles are the number formats of the workbooks of the cell tests, by
// cell style (the s attribute): 1 a date, 2 a UPC's zero padding, 3
// Excel's built-in #,##0, 4 a grouping with a section for negative
// numbers, 5 two decimals, 6 a grouping that divides by 1,000, 7 a date and
// time, 8 Excel's built-in 0.00E+00.
const (
	cellNumFmts = `<numFmt numFmtId="164" formatCode="000000000000"/><numFmt numFmtId="165" formatCode="#,##0;[Red]\(#,##0\)"/>` +
		`<numFmt numFmtId="166" formatCode="#,##0,"/><numFmt numFmtId="167" formatCode="yyyy-mm-dd hh:mm"/>`
	cellXfs = `<xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="3"/><xf numFmtId="165"/>` +
		`<xf numFmtId="2"/><xf numFmtId="166"/><xf numFmtId="167"/><xf numFmtId="11"/>`
)

// readCell reads a workbook whose sheet has the header "v", "w" and one
// data row: the cell element c, and "x" (so that the row is never empty).
// It returns the cell's value and the row's error ("" for none).
func readCell(t *testing.T, c string, o Options) (string, string) {
	t.Helper()
	rows := `<row r="1"><c r="A1" t="inlineStr"><is><t>v</t></is></c><c r="B1" t="inlineStr"><is><t>w</t></is></c></row>` +
		`<row r="2">` + c + `<c r="B2" t="inlineStr"><is><t>x</t></is></c></row>`
	p := writeZip(t, "cells.xlsx", bookParts([]testSheet{{name: "Cells", rows: rows}}, cellNumFmts, cellXfs, ""))
	got := readAll(t, openTestSource(t, p, o))
	if len(got) != 1 {
		t.Fatalf("%s: %d rows, want 1: %+v", c, len(got), got)
	}
	return got[0].Cells[0], strings.TrimPrefix(got[0].Err, p+`: sheet "Cells": row 2, column 1: `)
}

// Cells read as Excel shows them: numbers at 15 significant digits,
// formats that pad or group applied to whole numbers, dates, booleans as
// TRUE and FALSE. Error values and formulas saved without their values are
// errors of their row, which name them.
func TestXLSXCellValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, cell string
		dec        rune
		want, err  string
	}{
		{"residue", `<c r="A2"><v>12.199999999999999</v></c>`, 0, "12.2", ""},
		{"formula residue", `<c r="A2"><f>0.1*30</f><v>3.0000000000000004</v></c>`, 0, "3", ""},
		{"short decimal", `<c r="A2"><v>0.1</v></c>`, 0, "0.1", ""},
		{"negative", `<c r="A2" t="n"><v>-4.5</v></c>`, 0, "-4.5", ""},
		{"negative zero", `<c r="A2"><v>-0</v></c>`, 0, "0", ""},
		{"trailing zeros", `<c r="A2"><v>12.50</v></c>`, 0, "12.5", ""},
		{"exponent", `<c r="A2"><v>1E-3</v></c>`, 0, "0.001", ""},
		{"12 digits", `<c r="A2"><v>123456789012</v></c>`, 0, "123456789012", ""},
		{"15 digits", `<c r="A2"><v>123456789012345</v></c>`, 0, "123456789012345", ""},
		{"digits lost", `<c r="A2"><v>1.2345678901234568E+19</v></c>`, 0, "1.23456789012346E+19", ""},
		{"16 digits", `<c r="A2"><v>1234567890123456</v></c>`, 0, "1.23456789012346E+15", ""},
		{"tiny", `<c r="A2"><v>1.5E-20</v></c>`, 0, "1.5E-20", ""},
		{"not a number", `<c r="A2"><v>abc</v></c>`, 0, "abc", ""},
		{"NaN", `<c r="A2"><v>NaN</v></c>`, 0, "NaN", ""},
		{"empty", `<c r="A2" s="3"/>`, 0, "", ""},
		{"zero padded", `<c r="A2" s="2"><v>36000291452</v></c>`, 0, "036000291452", ""},
		{"zero padded residue", `<c r="A2" s="2"><v>36000291451.999996</v></c>`, 0, "036000291452", ""},
		{"zero padded fraction", `<c r="A2" s="2"><v>12.5</v></c>`, 0, "12.5", ""},
		{"zero padded, digits lost", `<c r="A2" s="2"><v>1.2345678901234568E+19</v></c>`, 0, "1.23456789012346E+19", ""},
		{"grouped", `<c r="A2" s="3"><v>1234567</v></c>`, 0, "1,234,567", ""},
		{"grouped small", `<c r="A2" s="3"><v>123</v></c>`, 0, "123", ""},
		{"grouped zero", `<c r="A2" s="3"><v>0</v></c>`, 0, "0", ""},
		{"grouped negative", `<c r="A2" s="3"><v>-1234</v></c>`, 0, "-1,234", ""},
		{"grouped fraction", `<c r="A2" s="3"><v>1234.5</v></c>`, 0, "1234.5", ""},
		{"grouped, negative section", `<c r="A2" s="4"><v>1234</v></c>`, 0, "1,234", ""},
		{"negative section", `<c r="A2" s="4"><v>-1234</v></c>`, 0, "-1234", ""},
		{"two decimals", `<c r="A2" s="5"><v>12.5</v></c>`, 0, "12.5", ""},
		{"thousands divided", `<c r="A2" s="6"><v>1234000</v></c>`, 0, "1234000", ""},
		{"scientific format", `<c r="A2" s="8"><v>123456789012</v></c>`, 0, "123456789012", ""},
		{"style out of range", `<c r="A2" s="99"><v>12.199999999999999</v></c>`, 0, "12.2", ""},
		{"date", `<c r="A2" s="1"><v>45366</v></c>`, 0, "2024-03-15", ""},
		{"date with a time not shown", `<c r="A2" s="1"><v>45366.5625</v></c>`, 0, "2024-03-15", ""},
		{"date and time", `<c r="A2" s="7"><v>45366.5625</v></c>`, 0, "2024-03-15 13:30:00", ""},
		{"ISO date", `<c r="A2" t="d"><v>2024-03-15T13:30:00Z</v></c>`, 0, "2024-03-15 13:30:00", ""},
		{"ISO date, date format", `<c r="A2" t="d" s="1"><v>2024-03-15T13:30:00Z</v></c>`, 0, "2024-03-15", ""},
		{"decimal comma", `<c r="A2"><v>12.199999999999999</v></c>`, ',', "12,2", ""},
		{"decimal comma, short", `<c r="A2"><v>0.5</v></c>`, ',', "0,5", ""},
		{"decimal comma, grouped", `<c r="A2" s="3"><v>1234567</v></c>`, ',', "1.234.567", ""},
		{"decimal comma, scientific", `<c r="A2"><v>1.2345678901234568E+19</v></c>`, ',', "1,23456789012346E+19", ""},
		{"true", `<c r="A2" t="b"><v>1</v></c>`, 0, "TRUE", ""},
		{"false", `<c r="A2" t="b"><f>1&gt;2</f><v>0</v></c>`, 0, "FALSE", ""},
		{"formula text", `<c r="A2" t="str"><f>"A"&amp;"B"</f><v>AB</v></c>`, 0, "AB", ""},
		{"formula empty text", `<c r="A2" t="str"><f>""</f><v></v></c>`, 0, "", ""},
		{"error value", `<c r="A2" t="e"><f>VLOOKUP(B2,Prices!A:B,2,FALSE)</f><v>#N/A</v></c>`, 0, "#N/A",
			"the cell holds the spreadsheet's error value #N/A, from its formula =VLOOKUP(B2,Prices!A:B,2,FALSE): it is not a value to import; " +
				"correct the formula, or the cells it reads, in your spreadsheet program, or clear the cell"},
		{"error value without formula", `<c r="A2" t="e"><v>#REF!</v></c>`, 0, "#REF!",
			"the cell holds the spreadsheet's error value #REF!, not a value to import: correct it in your spreadsheet program, or clear the cell"},
		{"formula without value", `<c r="A2"><f>B2*C2</f></c>`, 0, "",
			"the cell holds the formula =B2*C2 but not the value it computes: the workbook was saved by a program that does not calculate formulas; " +
				"open it in your spreadsheet program and save it again, or save it with values only"},
		{"text formula without value", `<c r="A2" t="str"><f>UPPER(B2)</f></c>`, 0, "", "the cell holds the formula =UPPER(B2) but not the value it computes"},
		{"shared formula without value", `<c r="A2"><f t="shared" si="0"/></c>`, 0, "", "the cell holds a formula (one shared with the cells around it) but not the value it computes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := readCell(t, tt.cell, Options{Decimal: tt.dec})
			if got != tt.want || !strings.HasPrefix(err, tt.err) || (tt.err == "") != (err == "") {
				t.Errorf("%s read %q, error %q\nwant %q, error %q", tt.cell, got, err, tt.want, tt.err)
			}
		})
	}
}

// An error value or a formula without its value fails its row whichever
// column it is in, naming that column; the row's other cells still read.
func TestXLSXErrorCellFailsItsRow(t *testing.T) {
	t.Parallel()
	rows := headerRow + `<row r="2"><c r="A2" t="inlineStr"><is><t>S1</t></is></c><c r="B2" t="e"><f>1/0</f><v>#DIV/0!</v></c></row>` +
		`<row r="3"><c r="A3" t="inlineStr"><is><t>S2</t></is></c><c r="B3" t="inlineStr"><is><t>Cap</t></is></c></row>`
	p := writeZip(t, "book.xlsx", workbookParts(rows, ""))
	got := readAll(t, openTestSource(t, p, Options{}))
	want := []readRow{
		{Line: 2, Cells: []string{"S1", "#DIV/0!"}, Err: p + `: sheet "Products": row 2, column 2: the cell holds the spreadsheet's error value #DIV/0!, from its formula =1/0: ` +
			"it is not a value to import; correct the formula, or the cells it reads, in your spreadsheet program, or clear the cell"},
		{Line: 3, Cells: []string{"S2", "Cap"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows\n got %+v\nwant %+v", got, want)
	}
}

// The sheet read by default is the first visible one; a hidden sheet is
// read when named. Messages about sheets name them all, saying which are
// hidden.
func TestXLSXHiddenSheets(t *testing.T) {
	t.Parallel()
	sheet := func(name, state, sku string) testSheet {
		return testSheet{name: name, state: state, rows: headerRow +
			`<row r="2"><c r="A2" t="inlineStr"><is><t>` + sku + `</t></is></c></row>`}
	}
	p := writeZip(t, "book.xlsx", bookParts([]testSheet{
		sheet("Old prices", "hidden", "OLD-1"), sheet("Lookup", "veryHidden", "LOOK-1"), sheet("Prices", "", "NEW-1"),
	}, "", "", ""))
	for _, tt := range []struct{ sheet, read, sku string }{
		{"", "Prices", "NEW-1"},
		{"old PRICES", "Old prices", "OLD-1"},
		{"Lookup", "Lookup", "LOOK-1"},
	} {
		src := openTestSource(t, p, Options{Sheet: tt.sheet})
		rows := readAll(t, src)
		if src.Sheet() != tt.read || len(rows) != 1 || rows[0].Cells[0] != tt.sku {
			t.Errorf("sheet %q: read sheet %q, rows %+v; want sheet %q, %s", tt.sheet, src.Sheet(), rows, tt.read, tt.sku)
		}
	}
	all := `"Old prices" (hidden), "Lookup" (hidden) and "Prices"`
	for _, tt := range []struct {
		o    Options
		want string
	}{
		{Options{Sheet: "Stock"}, `: no sheet named "Stock": the workbook has ` + all},
		{Options{HeaderRow: 3}, `: sheet "Prices": no header row found at or below row 3: the sheet is empty there; ` +
			`the workbook's sheets are ` + all + `: choose the sheet and the row that hold the column names`},
	} {
		_, err := Open(p, tt.o)
		var he *HeaderError
		if !errors.As(err, &he) || err.Error() != p+tt.want {
			t.Errorf("%+v: error %v\nwant %s%s", tt.o, err, p, tt.want)
		}
	}

	hidden := writeZip(t, "hidden.xlsx", bookParts([]testSheet{sheet("A", "hidden", "A-1")}, "", "", ""))
	if _, err := Open(hidden, Options{}); err == nil || !strings.HasSuffix(err.Error(), `every sheet of the workbook is hidden ("A" (hidden)): name the sheet to read`) {
		t.Errorf("a workbook of hidden sheets: %v", err)
	}
}

// Misread names where a header was read from, and the workbook's sheets.
func TestMisread(t *testing.T) {
	t.Parallel()
	p := writeZip(t, "book.xlsx", bookParts([]testSheet{
		{name: "Notes", rows: `<row r="3"><c r="A3" t="inlineStr"><is><t>read me</t></is></c></row>`},
		{name: "Old", state: "hidden", rows: headerRow},
	}, "", "", ""))
	src := openTestSource(t, p, Options{})
	mappingErr := fmt.Errorf("mapping.yaml:3:8: no column %q", "sku")
	err := Misread(src, mappingErr)
	want := `mapping.yaml:3:8: no column "sku" (the header was read from row 3 of sheet "Notes" of ` + p + `, whose sheets are "Notes" and "Old" (hidden))`
	if !errors.Is(err, mappingErr) || err.Error() != want {
		t.Errorf("Misread: %v\nwant %s", err, want)
	}
	csv := writeFile(t, "s.csv", []byte("\ntitle\nsku\n1\n"))
	if err := Misread(openTestSource(t, csv, Options{HeaderRow: 3}), mappingErr); !strings.HasSuffix(err.Error(), " (the header was read from line 3 of "+csv+")") {
		t.Errorf("Misread of a CSV file: %v", err)
	}
	plain := writeFile(t, "p.csv", []byte("sku\n1\n"))
	if err := Misread(openTestSource(t, plain, Options{}), mappingErr); err != mappingErr {
		t.Errorf("Misread of a CSV file whose header is on line 1: %v, want the error as it is", err)
	}
}

func TestCustomFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		code string
		want numFormat
	}{
		{"000000000000", numFormat{digits: 12}},
		{"00000", numFormat{digits: 5}},
		{"0", numFormat{digits: 1}},
		{"#,##0", numFormat{digits: 1, group: true}},
		{"#,###", numFormat{digits: 1, group: true}},
		{"#,##0 ;(#,##0)", numFormat{digits: 1, group: true, negSection: true}},
		{"_(#,##0_)", numFormat{digits: 1, group: true}},
		{"0000;-0000;", numFormat{digits: 4, negSection: true}},
		{"#,##0,", numFormat{}},
		{",##0", numFormat{}},
		{"0.00", numFormat{}},
		{"0%", numFormat{}},
		{"0.00E+00", numFormat{}},
		{`"$"#,##0`, numFormat{}},
		{"[Red]0", numFormat{}},
		{"@", numFormat{}},
		{"General", numFormat{}},
		{"yyyy-mm-dd", numFormat{date: dateOnly}},
		{"", numFormat{}},
		{strings.Repeat("0", 31), numFormat{}},
	}
	for _, tt := range tests {
		if got := customFormat(tt.code); got != tt.want {
			t.Errorf("customFormat(%q) = %+v, want %+v", tt.code, got, tt.want)
		}
	}
}
