package source

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

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
// same cells (a CRLF inside a cell reads as LF), on the lines they were
// written to.
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
				want[j] = strings.ReplaceAll(c, "\r\n", "\n")
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
