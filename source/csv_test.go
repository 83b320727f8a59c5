package source

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// readRow is one result of Source.Next, copied.
type readRow struct {
	Line  int
	Cells []string
	Err   string // "" or the *RowError text
}

// readAll drains src, copying rows; fatal errors fail the test.
func readAll(t *testing.T, src Source) []readRow {
	t.Helper()
	var out []readRow
	for {
		row, line, err := src.Next()
		if err == io.EOF {
			return out
		}
		var re *RowError
		if err != nil && !errors.As(err, &re) {
			t.Fatalf("Next: fatal error %v", err)
		}
		r := readRow{Line: line}
		if row != nil {
			r.Cells = append([]string(nil), row...)
			if len(row) != len(src.Header()) {
				t.Fatalf("line %d: row has %d cells, header %d", line, len(row), len(src.Header()))
			}
		}
		if err != nil {
			r.Err = err.Error()
		}
		out = append(out, r)
	}
}

// writeFile writes data to name in a temporary directory and returns its path.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func openTestSource(t *testing.T, path string, o Options) Source {
	t.Helper()
	src, err := Open(path, o)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

func TestCSVSource(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		file   string
		data   string
		opts   Options
		header []string
		rows   []readRow
	}{
		{
			name:   "comma, CRLF, quoted multi-line cell, empty lines skipped",
			file:   "a.csv",
			data:   "sku,name,notes\r\nA1,Tee,\"two\r\nlines\"\r\n\r\nA2,\"Cap, blue\",\"say \"\"hi\"\"\"\r\n",
			header: []string{"sku", "name", "notes"},
			rows: []readRow{
				{Line: 2, Cells: []string{"A1", "Tee", "two\nlines"}},
				{Line: 5, Cells: []string{"A2", "Cap, blue", `say "hi"`}},
			},
		},
		{
			name:   "semicolon detected, UTF-8 BOM stripped, header trimmed",
			file:   "b.csv",
			data:   "\uFEFF sku ; price\n1;2,5\n2;3,75\n",
			header: []string{"sku", "price"},
			rows: []readRow{
				{Line: 2, Cells: []string{"1", "2,5"}},
				{Line: 3, Cells: []string{"2", "3,75"}},
			},
		},
		{
			name:   "tab, short rows padded when allowed, all-empty rows skipped",
			file:   "c.tsv",
			data:   "a\tb\tc\n1\n\t\t\n1\t2\t3\n",
			opts:   Options{AllowShortRows: true},
			header: []string{"a", "b", "c"},
			rows: []readRow{
				{Line: 2, Cells: []string{"1", "", ""}},
				{Line: 4, Cells: []string{"1", "2", "3"}},
			},
		},
		{
			name:   "a short row is a row error naming the counts; reading goes on",
			file:   "s.csv",
			data:   "sku,name,stock\nA,Tee\nB,Cap,3\n",
			header: []string{"sku", "name", "stock"},
			rows: []readRow{
				{Line: 2, Cells: []string{"A", "Tee", ""}, Err: "s.csv: line 2: the row has 2 cells but the header has 3: a cell was lost or a line was split " +
					"(check the delimiters and quotes on this line); if rows may leave out their last cells, allow short rows in the mapping"},
				{Line: 3, Cells: []string{"B", "Cap", "3"}},
			},
		},
		{
			name:   "a last line cut off is a row error, short rows allowed or not",
			file:   "t.csv",
			data:   "sku,option,stock,price\nA,Red,16,9.5\nB,Blue,1",
			opts:   Options{AllowShortRows: true},
			header: []string{"sku", "option", "stock", "price"},
			rows: []readRow{
				{Line: 2, Cells: []string{"A", "Red", "16", "9.5"}},
				{Line: 3, Cells: []string{"B", "Blue", "1", ""}, Err: "t.csv: line 3: the file seems cut off at this line: it is the last line, " +
					"it has no line ending and 3 cells where the header has 4; export the file again"},
			},
		},
		{
			name:   "a whole last line without a line ending is read",
			file:   "w.csv",
			data:   "sku,stock\r\nA,16\r\nB,1",
			header: []string{"sku", "stock"},
			rows:   []readRow{{Line: 2, Cells: []string{"A", "16"}}, {Line: 3, Cells: []string{"B", "1"}}},
		},
		{
			name:   "CR line endings (Excel's CSV for Mac), a CR inside a quoted cell reads as LF",
			file:   "m.csv",
			data:   "Export\rsku;name\rK1;\"Tee\rshirt\"\rK2;Cap\r",
			opts:   Options{HeaderRow: 2},
			header: []string{"sku", "name"},
			rows:   []readRow{{Line: 3, Cells: []string{"K1", "Tee\nshirt"}}, {Line: 5, Cells: []string{"K2", "Cap"}}},
		},
		{
			name:   "a NUL character is a row error naming the column",
			file:   "n.csv",
			data:   "a,b\n1,x\x00y\n2,z\n",
			header: []string{"a", "b"},
			rows: []readRow{
				{Line: 2, Cells: []string{"1", "x\x00y"}, Err: "n.csv: line 2, column 2: " + nulMsg},
				{Line: 3, Cells: []string{"2", "z"}},
			},
		},
		{
			name:   "pipe, trailing empty header cells dropped, trailing empty cells allowed",
			file:   "d.txt",
			data:   "a|b||\nx|y||\n",
			header: []string{"a", "b"},
			rows:   []readRow{{Line: 2, Cells: []string{"x", "y"}}},
		},
		{
			name:   "header row 3 skips the title lines, also when detecting the delimiter",
			file:   "e.csv",
			data:   "Exported catalog\nby shop, 2024\nsku;qty\nS1;4,5\n",
			opts:   Options{HeaderRow: 3},
			header: []string{"sku", "qty"},
			rows:   []readRow{{Line: 4, Cells: []string{"S1", "4,5"}}},
		},
		{
			name:   "given delimiter wins over detection; a sheet setting is ignored",
			file:   "f.csv",
			data:   "a;b,c\n1;2,3\n",
			opts:   Options{Delimiter: ';', Sheet: "Products"},
			header: []string{"a", "b,c"},
			rows:   []readRow{{Line: 2, Cells: []string{"1", "2,3"}}},
		},
		{
			name:   "long row is a row error naming the count; reading goes on",
			file:   "g.csv",
			data:   "a,b\n1,2,3\n4,5\n",
			header: []string{"a", "b"},
			rows: []readRow{
				{Line: 2, Cells: []string{"1", "2"}, Err: `g.csv: line 2: the row has 3 cells but the header has 2: column 3 holds "3" without a header; add a header for it or remove the extra cells`},
				{Line: 3, Cells: []string{"4", "5"}},
			},
		},
		{
			name:   "bare quote is a row error; reading goes on",
			file:   "h.csv",
			data:   "a,b\n1,x\"y\n2,z\n",
			header: []string{"a", "b"},
			rows: []readRow{
				// Read leniently, the row's cells come with the error.
				{Line: 2, Cells: []string{"1", `x"y`}, Err: `h.csv: line 2, column 2: character 4: bare " in a cell that does not start with a quote: put the whole cell in double quotes and double each quote inside it ("")`},
				{Line: 3, Cells: []string{"2", "z"}},
			},
		},
		{
			name:   "invalid UTF-8 is a row error naming the column",
			file:   "i.csv",
			data:   "a,b\n1,caf\xe9\n2,ok\n",
			header: []string{"a", "b"},
			rows: []readRow{
				{Line: 2, Cells: []string{"1", "caf\xe9"}, Err: "i.csv: line 2, column 2: " + notUTF8Msg},
				{Line: 3, Cells: []string{"2", "ok"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, tt.file, []byte(tt.data))
			src := openTestSource(t, p, tt.opts)
			if !reflect.DeepEqual(src.Header(), tt.header) {
				t.Errorf("header %q, want %q", src.Header(), tt.header)
			}
			got := readAll(t, src)
			for i := range got {
				got[i].Err = strings.ReplaceAll(got[i].Err, p, tt.file)
			}
			if !reflect.DeepEqual(got, tt.rows) {
				t.Errorf("rows\n got %+v\nwant %+v", got, tt.rows)
			}
			if src.Name() != p {
				t.Errorf("Name %q, want %q", src.Name(), p)
			}
		})
	}
}

func TestCSVEncodings(t *testing.T) {
	t.Parallel()
	const text = "sku;name\nK1;Café crème\nK2;Ærø – “quoted”\n"
	want := [][]string{{"K1", "Café crème"}, {"K2", "Ærø – “quoted”"}}
	utf16le, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(text)
	if err != nil {
		t.Fatal(err)
	}
	utf16be, err := unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewEncoder().String(text)
	if err != nil {
		t.Fatal(err)
	}
	utf16leNoBOM, err := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().String(text)
	if err != nil {
		t.Fatal(err)
	}
	cp1252, err := charmap.Windows1252.NewEncoder().String(text)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, data, encoding string
	}{
		{"utf-8 plain", text, ""},
		{"utf-8 with BOM", "\uFEFF" + text, ""},
		{"utf-8 named", text, "UTF-8"},
		{"utf-16le BOM detected", utf16le, ""},
		{"utf-16be BOM detected", utf16be, ""},
		{"utf-16 named, BOM decides", utf16be, "utf-16"},
		{"utf-16le without BOM", utf16leNoBOM, "utf-16le"},
		{"windows-1252", cp1252, "windows-1252"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := openTestSource(t, writeFile(t, "x.csv", []byte(tt.data)), Options{Encoding: tt.encoding})
			if h := src.Header(); !reflect.DeepEqual(h, []string{"sku", "name"}) {
				t.Fatalf("header %q", h)
			}
			var got [][]string
			for _, r := range readAll(t, src) {
				if r.Err != "" {
					t.Fatalf("row error %s", r.Err)
				}
				got = append(got, r.Cells)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestCSVRowReuse(t *testing.T) {
	t.Parallel()
	src := openTestSource(t, writeFile(t, "r.csv", []byte("a,b\n1,2\n3,4\n")), Options{})
	first, _, err := src.Next()
	if err != nil {
		t.Fatal(err)
	}
	kept := first[0] // strings may be kept
	second, _, err := src.Next()
	if err != nil {
		t.Fatal(err)
	}
	if &first[0] != &second[0] {
		t.Error("row slice not reused between calls")
	}
	if kept != "1" || second[0] != "3" {
		t.Errorf("kept %q, second %q", kept, second[0])
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, data string
		opts             Options
		want             string
	}{
		{"empty file", "e.csv", "", Options{}, "e.csv: the file is empty: it has no header row and no data"},
		{"only a byte order mark", "b.csv", "\uFEFF", Options{}, "b.csv: the file is empty"},
		{"only empty lines", "l.csv", "\n\r\n", Options{}, "l.csv: no header row found at or below line 1"},
		{"NUL in the header", "h.csv", "a,b\x00\n1,2\n", Options{}, "h.csv: line 1, column 2: " + nulMsg},
		{"UTF-16LE without a byte order mark", "u16.csv", "s\x00k\x00u\x00,\x00n\x00\n\x00", Options{},
			"u16.csv: the file looks like UTF-16 text without a byte order mark (every other byte is zero): set the source encoding to utf-16le in the mapping, or save the file as UTF-8"},
		{"UTF-16BE without a byte order mark", "u16be.csv", "\x00s\x00k\x00u\x00,\x00n\x00\n", Options{},
			"u16be.csv: the file looks like UTF-16 text without a byte order mark (every other byte is zero): set the source encoding to utf-16be"},
		{"header row beyond the end", "s.csv", "a\n1\n", Options{HeaderRow: 5}, "s.csv: no header row found at or below line 5"},
		{"xlsx named csv", "w.csv", "PK\x03\x04rest", Options{}, "w.csv: this is an XLSX workbook, not a CSV file: rename it to .xlsx or set format: xlsx in the mapping"},
		{"xlsx named csv, read as csv", "w.csv", "PK\x03\x04rest", Options{Format: "csv"},
			"w.csv: this is an XLSX workbook, not a CSV file: rename it to .xlsx and remove format: csv from the mapping's source section"},
		{"xlsx read as csv", "w.xlsx", "PK\x03\x04rest", Options{Format: "csv"},
			"w.xlsx: this is an XLSX workbook, but the mapping reads it as CSV (format: csv): remove the format line from the mapping's source section, or set it to xlsx"},
		{"unknown encoding", "u.csv", "a\n", Options{Encoding: "ebcdic"}, `u.csv: encoding "ebcdic" is not supported: use utf-8,`},
		{"unknown format", "f.csv", "a\n", Options{Format: "ods"}, `f.csv: format "ods" is not supported`},
		{"old excel", "old.xls", "x", Options{}, "old.xls: .xls files cannot be read: save the sheet as .xlsx or .csv"},
		{"bad delimiter", "d.csv", "a\n", Options{Delimiter: '"'}, `d.csv: delimiter '"' cannot separate cells`},
		{"negative header row", "n.csv", "a\n", Options{HeaderRow: -1}, "n.csv: header row -1: must be 1 or more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, tt.file)
			if err := os.WriteFile(p, []byte(tt.data), 0o600); err != nil {
				t.Fatal(err)
			}
			src, err := Open(p, tt.opts)
			if err == nil {
				src.Close()
				t.Fatalf("no error, want %q", tt.want)
			}
			if got := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""); !strings.HasPrefix(got, tt.want) {
				t.Errorf("error %q, want prefix %q", got, tt.want)
			}
		})
	}
}

func TestOpenSniffsUnknownExtension(t *testing.T) {
	t.Parallel()
	p := writeFile(t, "export.dat", []byte("a;b\n1;2\n"))
	src := openTestSource(t, p, Options{})
	if _, ok := src.(*csvSource); !ok {
		t.Fatalf("got %T, want CSV", src)
	}
	rows := readAll(t, src)
	if len(rows) != 1 || rows[0].Cells[1] != "2" {
		t.Errorf("rows %+v", rows)
	}
}

func TestCSVUnterminatedQuote(t *testing.T) {
	t.Parallel()
	p := writeFile(t, "q.csv", []byte("a,b\n1,\"open\n2,x\n"))
	src := openTestSource(t, p, Options{})
	rows := readAll(t, src)
	if len(rows) != 1 || rows[0].Line != 2 || !strings.Contains(rows[0].Err, `the quoted cell opened on line 2 is not closed before the end of the file: the file seems cut off, or a closing " is missing`) {
		t.Errorf("rows %+v", rows)
	}
}

// With short rows allowed they are padded, and the source still counts
// them and keeps the lines of the first few.
func TestCSVShortRowsCounted(t *testing.T) {
	t.Parallel()
	data := "a,b\n" + strings.Repeat("1,2\n3\n", 7)
	src := openTestSource(t, writeFile(t, "s.csv", []byte(data)), Options{AllowShortRows: true})
	for _, r := range readAll(t, src) {
		if r.Err != "" {
			t.Fatalf("row error %s", r.Err)
		}
	}
	n, lines := src.(interface{ ShortRows() (int, []int) }).ShortRows()
	if n != 7 || !reflect.DeepEqual(lines, []int{3, 5, 7, 9, 11}) {
		t.Errorf("ShortRows() = %d, %v", n, lines)
	}
}

// A row encoding/csv refuses for its quotes is still read, leniently, so
// that the caller knows whose row it is: its cells come with the error,
// which names the cell at fault. The rows after it read as usual.
func TestCSVRefusedRowKeepsItsCells(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, row string
		want      []string
		col       int
	}{
		{"bare quote", `cap,CAP-2,Wool 12" cap,9`, []string{"cap", "CAP-2", `Wool 12" cap`, "9"}, 3},
		{"stray quote in a quoted cell", `cap,CAP-2,"Wool "12" cap",9`, []string{"cap", "CAP-2", `Wool "12" cap`, "9"}, 3},
		{"bare quote in the first cell", `c"ap,CAP-2,Wool,9`, []string{`c"ap`, "CAP-2", "Wool", "9"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := "key,sku,description,stock\nmug,MUG-1,Mug,3\n" + tt.row + "\ntee,TEE-1,Tee,4\n"
			s, err := newCSVSource("in.csv", strings.NewReader(text), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if row, _, err := s.Next(); err != nil || row[1] != "MUG-1" {
				t.Fatalf("first row %q, %v", row, err)
			}
			row, line, err := s.Next()
			var re *RowError
			if !errors.As(err, &re) || line != 3 || re.Line != 3 || re.Column != tt.col {
				t.Fatalf("refused row: line %d, err %#v; want a RowError at line 3, column %d", line, err, tt.col)
			}
			if !slices.Equal(row, tt.want) {
				t.Errorf("cells %q, want %q", row, tt.want)
			}
			if row, _, err := s.Next(); err != nil || row[1] != "TEE-1" {
				t.Errorf("row after it: %q, %v", row, err)
			}
		})
	}
}

// Refused rows deep in a large file, the text kept for them moved within
// its buffer again and again as the file streams through, are read
// leniently with their own cells, and every row between them as it is.
func TestCSVRefusedRowsThroughALargeFile(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("key,sku,description,stock\n")
	const rows = 40000 // about 2 MB: the 256 KiB buffer fills again and again
	stray := func(i int) bool { return i%997 == 5 }
	for i := range rows {
		if stray(i) {
			fmt.Fprintf(&b, "cap,CAP-%d,Wool %d\" cap with a long description to fill the text,%d\n", i, i, i)
		} else {
			fmt.Fprintf(&b, "tee,TEE-%d,\"Tee, %d\",%d\n", i, i, i)
		}
	}
	s, err := newCSVSource("in.csv", strings.NewReader(b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		row, line, err := s.Next()
		if line != i+2 {
			t.Fatalf("row %d at line %d, want %d", i, line, i+2)
		}
		want := []string{"tee", fmt.Sprintf("TEE-%d", i), fmt.Sprintf("Tee, %d", i), strconv.Itoa(i)}
		if stray(i) {
			want = []string{"cap", fmt.Sprintf("CAP-%d", i), fmt.Sprintf(`Wool %d" cap with a long description to fill the text`, i), strconv.Itoa(i)}
			var re *RowError
			if !errors.As(err, &re) || re.Column != 3 {
				t.Fatalf("line %d: err %v, want the row refused at its third cell", line, err)
			}
		} else if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		if !slices.Equal(row, want) {
			t.Fatalf("line %d: cells %q, want %q", line, row, want)
		}
	}
	if _, _, err := s.Next(); err != io.EOF {
		t.Errorf("after the last row: %v, want the end", err)
	}
}

// A cell lading neutralised when it wrote the file (a quote before = + - @)
// reads back as the original text; other quotes stay.
func TestCSVRevivesNeutralisedCells(t *testing.T) {
	t.Parallel()
	data := []byte("name,note\n\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",'-3\n'plain,'\n")
	src := openTestSource(t, writeFile(t, "n.csv", data), Options{})
	var got [][]string
	for range 3 {
		row, _, err := src.Next()
		if err != nil {
			break
		}
		got = append(got, append([]string(nil), row...))
	}
	want := [][]string{{`=HYPERLINK("http://x","y")`, "-3"}, {"'plain", "'"}}
	if len(got) != len(want) || got[0][0] != want[0][0] || got[0][1] != want[0][1] || got[1][0] != want[1][0] || got[1][1] != want[1][1] {
		t.Errorf("rows %q, want %q", got, want)
	}
}
