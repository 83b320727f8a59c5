package source

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lading/results"
	"lading/source/sourcetest"
)

// The fuzz targets read arbitrary input: nothing may panic, every error
// names the file and where in it, and rows written by a CSV writer or a
// spreadsheet library read back as written. Their seed corpora (below and
// in testdata/fuzz) run with every go test; to fuzz, one at a time:
//
//	go test ./source -run '^$' -fuzz '^FuzzCSVSource$' -fuzztime 5m

// FuzzCSVSource feeds arbitrary bytes to the CSV source: it must not panic,
// every row must be as wide as the header, lines must not go backwards, and
// every error must name the file and the line.
func FuzzCSVSource(f *testing.F) {
	for _, seed := range []string{
		"a,b\n1,2\n",
		"a;b\r\n\"x\ny\";2\r\n",
		"\uFEFFsku\tqty\n\t\nA\t1\t9\n",
		"a,b\n1,\"open\n",
		"\xff\xfea\x00,\x00b\x00\n\x001\x00,\x002\x00\n\x00",
		"a|b\n\"x\"y|z\n",
		"sku;name\rK1;\"Tee\rshirt\"\rK2;Cap",
		"a,b,c\n1\n2,3,4\n5,6",
		"a,b\n1,x\x00y\n",
		"s\x00k\x00u\x00\n\x00",
	} {
		f.Add([]byte(seed), uint8(0), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, headerRow uint8, allowShort bool) {
		const name = "fuzz.csv"
		s, err := newCSVSource(name, bytes.NewReader(data), Options{HeaderRow: int(headerRow%4) + 1, AllowShortRows: allowShort})
		if err != nil {
			if !strings.HasPrefix(err.Error(), name+": ") {
				t.Fatalf("open error does not name the file: %v", err)
			}
			return
		}
		last := 0
		for range len(data) + 1 {
			row, line, err := s.Next()
			if err == io.EOF {
				return
			}
			var re *RowError
			if err != nil && !errors.As(err, &re) {
				t.Fatalf("fatal error from a bytes reader: %v", err)
			}
			if re != nil {
				checkRowError(t, re, name, "", line, len(s.Header()))
			}
			if row != nil && len(row) != len(s.Header()) {
				t.Fatalf("row width %d, header %d", len(row), len(s.Header()))
			}
			if line < last || line < 1 {
				t.Fatalf("line %d after %d", line, last)
			}
			last = line
		}
		t.Fatal("more rows than bytes")
	})
}

// checkRowError fails t unless re names file (and sheet), the line it came
// with, and a column within the row when it names one.
func checkRowError(t *testing.T, re *RowError, file, sheet string, line, width int) {
	t.Helper()
	if re.File != file || re.Sheet != sheet || re.Line < 1 || re.Line != line || re.Msg == "" {
		t.Fatalf("row error %+v does not name file %q, sheet %q and line %d", re, file, sheet, line)
	}
	if re.Column < 0 || re.Column > max(width, maxSheetCols) {
		t.Fatalf("row error %+v names column %d", re, re.Column)
	}
	want := fmt.Sprintf("%s: line %d", file, line)
	if sheet != "" {
		want = fmt.Sprintf("%s: sheet %q: row %d", file, sheet, line)
	}
	if !strings.HasPrefix(re.Error(), want) {
		t.Fatalf("row error %q does not start with %q", re, want)
	}
}

// fuzzRows turns fuzz bytes into rows of width cells: rows are separated by
// 0x1E, cells by 0x1F, and every cell made valid UTF-8 without NUL (which
// the sources refuse). Rows with no text are left out (the sources skip
// them).
func fuzzRows(data []byte, width int) [][]string {
	var rows [][]string
	for line := range bytes.SplitSeq(data, []byte{0x1E}) {
		row := make([]string, width)
		for i, c := range bytes.Split(line, []byte{0x1F}) {
			if i < width {
				row[i] = strings.ReplaceAll(strings.ToValidUTF8(string(c), ""), "\x00", "")
			}
		}
		if !allEmpty(row) {
			rows = append(rows, row)
		}
	}
	return rows
}

func fuzzHeader(width int) []string {
	h := make([]string, width)
	for i := range h {
		h[i] = fmt.Sprintf("c%d", i+1)
	}
	return h
}

// FuzzCSVRoundTrip writes rows with encoding/csv and reads them back: the
// same cells (a CRLF inside a cell reads as LF, and a cell neutralised as
// lading writes them, a quote before = + - @, as its text: results.Revive),
// on the lines they were written to.
func FuzzCSVRoundTrip(f *testing.F) {
	for _, seed := range []string{
		"a\x1fb\x1ec\x1fd",
		"quote \"x\"\x1fcomma, semicolon;\x1eline\nbreak\x1fcr\rlf\r\n",
		"\x1f\x1e\x1f\x1e  spaces  \x1f\t",
		"é ü 日本\x1f🙂",
	} {
		f.Add([]byte(seed), uint8(2))
	}
	f.Fuzz(func(t *testing.T, data []byte, w uint8) {
		width := int(w%6) + 1
		rows := fuzzRows(data, width)
		var text bytes.Buffer
		cw := csv.NewWriter(&text)
		cw.Write(fuzzHeader(width))
		cw.WriteAll(rows)
		if err := cw.Error(); err != nil {
			t.Fatal(err)
		}
		src, err := newCSVSource("rt.csv", bytes.NewReader(text.Bytes()), Options{Delimiter: ','})
		if err != nil {
			t.Fatalf("%v\n%q", err, text.String())
		}
		line := 2
		for i := range len(rows) + 1 {
			row, got, err := src.Next()
			if i == len(rows) {
				if err != io.EOF {
					t.Fatalf("after %d rows: %q, %v", len(rows), row, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("row %d: %v\n%q", i, err, text.String())
			}
			want := make([]string, width)
			for j, c := range rows[i] {
				want[j] = results.Revive(strings.ReplaceAll(c, "\r\n", "\n"))
			}
			if !reflect.DeepEqual(row, want) || got != line {
				t.Fatalf("row %d read %q on line %d, want %q on line %d\n%q", i, row, got, want, line, text.String())
			}
			line += 1 + strings.Count(strings.Join(rows[i], ""), "\n")
		}
	})
}

// FuzzXLSXSource builds a workbook around arbitrary sheet data and shared
// strings and reads it: it must not panic, rows are as wide as the header,
// and every error names the file, and the sheet and row or the part.
func FuzzXLSXSource(f *testing.F) {
	for _, seed := range []struct{ rows, sst string }{
		{headerRow + dataRow, `<si><t>Tee</t></si>`},
		{headerRow + `<row r="3"><c r="B3" t="s"><v>9</v></c><c r="A3" s="1"><v>45000.5</v></c></row>`, `<si><r><t>a</t></r><rPh><t>b</t></rPh></si>`},
		{headerRow + `<row><c t="inlineStr"><is><t>x_x0000_</t></is></c><c t="b"><v>1</v></c><c t="e"><v>#N/A</v></c></row>`, ``},
		{`<row r="2"><c r="XFD2"><v>1</v></c></row><row r="1"/>`, `<si/>`},
		{headerRow + `<row r="2"><c r="A2"><f>1+1</f><v>2</v></c><c r="B2" t="str"><v><![CDATA[<b>]]></v></c></row><!-- note -->`, ``},
	} {
		f.Add([]byte(seed.rows), []byte(seed.sst))
	}
	f.Fuzz(func(t *testing.T, rows, sst []byte) {
		p := writeZip(t, "fuzz.xlsx", workbookParts(string(rows), string(sst)))
		src, err := Open(p, Options{Limits: Limits{MaxCellSize: 4 << 10}})
		if err != nil {
			if !strings.HasPrefix(err.Error(), p+": ") {
				t.Fatalf("open error does not name the file: %v", err)
			}
			return
		}
		defer src.Close()
		last := 0
		for range len(rows) + 1 {
			row, line, err := src.Next()
			if err == io.EOF {
				return
			}
			var re *RowError
			switch {
			case errors.As(err, &re):
				checkRowError(t, re, p, "Products", line, len(src.Header()))
			case err != nil:
				if !strings.HasPrefix(err.Error(), p+`: sheet "Products"`) {
					t.Fatalf("error does not name the file and sheet: %v", err)
				}
				return
			}
			if len(row) != len(src.Header()) {
				t.Fatalf("row width %d, header %d", len(row), len(src.Header()))
			}
			if line <= last {
				t.Fatalf("row %d after %d", line, last)
			}
			last = line
		}
		t.Fatal("more rows than bytes")
	})
}

// FuzzXLSXRoundTrip writes rows of text cells with excelize, as a
// spreadsheet program would, and reads them back.
func FuzzXLSXRoundTrip(f *testing.F) {
	for _, seed := range []string{
		"a\x1fb\x1ec\x1fd",
		"line\nbreak\x1f  spaces  \x1e_x0041_\x1f<&>\"'",
		"é ü 日本\x1f🙂\x1e007\x1f1e3",
	} {
		f.Add([]byte(seed), uint8(2))
	}
	f.Fuzz(func(t *testing.T, data []byte, w uint8) {
		width := int(w%6) + 1
		rows := fuzzRows(data, width)
		for _, r := range rows {
			for j, c := range r {
				r[j] = excelizeSafe(c)
			}
		}
		rows = slices.DeleteFunc(rows, allEmpty)
		p := filepath.Join(t.TempDir(), "rt.xlsx")
		sourcetest.WriteBook(t, p, append([][]string{fuzzHeader(width)}, rows...))
		src, err := Open(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		for i := range len(rows) + 1 {
			row, _, err := src.Next()
			if i == len(rows) {
				if err != io.EOF {
					t.Fatalf("after %d rows: %q, %v", len(rows), row, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("row %d: %v", i, err)
			}
			if !reflect.DeepEqual(row, rows[i]) {
				t.Fatalf("row %d read %q, want %q", i, row, rows[i])
			}
		}
	})
}

// excelizeSafe leaves out of s what excelize does not write faithfully:
// control characters XML cannot hold (it writes U+FFFD), and "_x" (it does
// not escape a literal "_x0041_" as Excel does, "_x005F_x0041_", so any
// reader takes it for "A").
func excelizeSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			return -1
		}
		return r
	}, s)
	return strings.ReplaceAll(s, "_x", "_X")
}

// cellTypes are the cell types FuzzXLSXCell picks from, by its typ byte.
var cellTypes = []string{"", "n", "s", "inlineStr", "str", "b", "e", "d", "x"}

// FuzzXLSXCell reads one cell, of any type, with or without a formula
// and a value, in any number format (a built-in id or a custom code),
// through the sheet reader: it must not panic nor fail reading; an error
// value or a formula without its value is a row error naming it, and
// nothing else is (but a shared string the workbook lacks); booleans read
// TRUE and FALSE; a number reads as a number equal to the stored one at 15
// significant digits, with no more digits than that, unless its format
// shows a date.
func FuzzXLSXCell(f *testing.F) {
	for _, seed := range []struct {
		typ        uint8
		v, formula string
		flags      uint8
		builtin    uint8
		code       string
	}{
		{0, "12.199999999999999", "", flagV, 0, ""},
		{1, "3.0000000000000004", "0.1*30", flagV | flagF, 0, ""},
		{0, "36000291452", "", flagV | flagCustom, 0, "000000000000"},
		{0, "1234567", "", flagV, 3, ""},
		{0, "-1234", "", flagV | flagCustom | flagComma, 0, "#,##0;[Red](#,##0)"},
		{0, "1.2345678901234568E+19", "", flagV | flagCustom, 0, "000000000000"},
		{0, "45366.5625", "", flagV, 22, ""},
		{0, "45366.5625", "", flagV | flagCustom, 0, "yyyy-mm-dd hh:mm"},
		{0, "12.5", "", flagV | flagComma, 2, ""},
		{0, "1E+300", "", flagV, 11, ""},
		{2, "1", "", flagV, 0, ""},
		{2, "7", "", flagV, 0, ""},
		{3, "Tee_x000D_", "", flagV, 0, ""},
		{4, "AB", `"A"&"B"`, flagV | flagF, 0, ""},
		{4, "", `UPPER(B1)`, flagF, 0, ""},
		{5, "1", "", flagV, 0, ""},
		{5, "0", "1>2", flagV | flagF, 0, ""},
		{6, "#N/A", "VLOOKUP(A1,B:C,2,FALSE)", flagV | flagF, 0, ""},
		{6, "#REF!", "", flagV, 0, ""},
		{0, "", "B1*C1", flagF, 0, ""},
		{0, "", "", flagF | flagShared, 0, ""},
		{7, "2024-03-15T13:30:00Z", "", flagV, 14, ""},
		{8, "x", "", flagV, 49, "@"},
	} {
		f.Add(seed.typ, seed.v, seed.formula, seed.flags, seed.builtin, seed.code)
	}
	pkg := &xlsxPackage{name: "fuzz.xlsx", limits: Limits{}.withDefaults()}
	sst := &sharedStrings{}
	for _, s := range []string{"Tee", "", "Cap"} {
		sst.add([]byte(s))
	}
	sst.finish()
	f.Fuzz(func(t *testing.T, typ uint8, v, formula string, flags, builtin uint8, code string) {
		c := fuzzCell{typ: cellTypes[int(typ)%len(cellTypes)], v: v, formula: formula, flags: flags}
		formats := []numFormat{builtinFormat(int(builtin)), customFormat(code)}
		set := sheetSettings{sst: sst, formats: formats, dec: '.'}
		if flags&flagComma != 0 {
			set.dec = ','
		}
		x := newXMLPart(pkg, "xl/worksheets/sheet1.xml", io.NopCloser(strings.NewReader(c.sheet())), true)
		defer x.Close()
		r := newSheetReader(x, "Cells", set, pkg.limits)
		err := r.next()
		var re *RowError
		if err != nil && !errors.As(err, &re) {
			t.Fatalf("%s: reading failed: %v", c.sheet(), err)
		}
		got := ""
		if len(r.cells) > 0 {
			got = r.cells[0]
		}
		c.check(t, got, re, formats[c.style()], set.dec)
	})
}

// The flags of FuzzXLSXCell.
const (
	flagV      = 1 << iota // the cell has a value (for inlineStr: an is element)
	flagF                  // the cell has a formula
	flagShared             // the formula is shared: no text of its own
	flagCustom             // the cell's style is the custom format
	flagComma              // numbers are written with a decimal comma
)

// fuzzCell is the cell FuzzXLSXCell reads.
type fuzzCell struct {
	typ, v, formula string
	flags           uint8
}

func (c fuzzCell) style() int {
	if c.flags&flagCustom != 0 {
		return 1
	}
	return 0
}

// sheet is a worksheet whose row 1 is the cell.
func (c fuzzCell) sheet() string {
	var b strings.Builder
	b.WriteString(`<worksheet><sheetData><row r="1"><c r="A1"`)
	if c.typ != "" {
		fmt.Fprintf(&b, ` t="%s"`, c.typ)
	}
	fmt.Fprintf(&b, ` s="%d">`, c.style())
	switch {
	case c.flags&flagF != 0 && c.flags&flagShared != 0:
		b.WriteString(`<f t="shared" si="0"/>`)
	case c.flags&flagF != 0:
		b.WriteString("<f>")
		xml.EscapeText(&b, []byte(c.formula))
		b.WriteString("</f>")
	}
	switch {
	case c.flags&flagV == 0:
	case c.typ == "inlineStr":
		b.WriteString("<is><t>")
		xml.EscapeText(&b, []byte(c.v))
		b.WriteString("</t></is>")
	default:
		b.WriteString("<v>")
		xml.EscapeText(&b, []byte(c.v))
		b.WriteString("</v>")
	}
	b.WriteString("</c></row></sheetData></worksheet>")
	return b.String()
}

// check checks what the cell read as: got, and its row error re.
func (c fuzzCell) check(t *testing.T, got string, re *RowError, f numFormat, dec byte) {
	t.Helper()
	hasV, hasF := c.flags&flagV != 0, c.flags&flagF != 0
	wantErr := c.typ == "e" || hasF && !hasV
	switch {
	case re != nil && (re.Line != 1 || re.Column != 1 || re.Sheet != "Cells" || re.File != "fuzz.xlsx"):
		t.Fatalf("row error %+v does not name the cell", re)
	case wantErr && re == nil:
		t.Fatalf("%s read %q without an error", c.sheet(), got)
	case wantErr && c.typ == "e" && !strings.Contains(re.Msg, "error value"):
		t.Fatalf("%s: error %q does not say it is an error value", c.sheet(), re.Msg)
	case wantErr && c.typ != "e" && !strings.Contains(re.Msg, "formula"):
		t.Fatalf("%s: error %q does not name the formula", c.sheet(), re.Msg)
	case !wantErr && re != nil && c.typ != "s":
		t.Fatalf("%s: unexpected row error %v", c.sheet(), re)
	case !wantErr && hasV && c.typ == "b" && (c.v == "1" || c.v == "0") && got != map[string]string{"1": "TRUE", "0": "FALSE"}[c.v]:
		t.Fatalf("boolean %q read %q", c.v, got)
	}
	if wantErr || !hasV || c.typ != "" && c.typ != "n" && c.typ != "x" || f.date != notDate {
		return
	}
	stored, err := strconv.ParseFloat(c.v, 64)
	if err != nil || math.IsInf(stored, 0) || math.IsNaN(stored) {
		return
	}
	checkNumber(t, c.v, stored, got, dec)
}

// checkNumber fails t unless got, the text of the number stored as v
// (stored), reads back as stored at 15 significant digits, with at most 15.
func checkNumber(t *testing.T, v string, stored float64, got string, dec byte) {
	t.Helper()
	sep := ","
	if dec == ',' {
		sep = "."
	}
	plain := strings.ReplaceAll(got, sep, "")
	plain = strings.Replace(plain, string(dec), ".", 1)
	back, err := strconv.ParseFloat(plain, 64)
	if err != nil {
		t.Fatalf("number %q read %q, which is not a number", v, got)
	}
	if diff := math.Abs(back - stored); diff > math.Abs(stored)*1e-14 && diff > 1e-300 {
		t.Fatalf("number %q read %q: %v, not %v at 15 digits", v, got, back, stored)
	}
	mant, _, _ := strings.Cut(strings.ToUpper(plain), "E")
	digits := strings.Trim(strings.NewReplacer("-", "", ".", "").Replace(mant), "0")
	if len(digits) > excelDigits {
		t.Fatalf("number %q read %q: more than %d significant digits", v, got, excelDigits)
	}
}
