package results

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

type line struct {
	file  string
	row   int
	cells []string
}

var sample = []line{
	{"in.csv", 2, []string{"P1", "created", "a \"quoted\", comma"}},
	{"in.csv", 3, []string{"P1", "failed", "two\nlines"}},
	{"join.csv", 2, []string{"", "skipped", ""}},
}

func write(t *testing.T, path string, lines []line) {
	t.Helper()
	w, err := Create(path, "key", "action", "message")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if err := w.Write(l.file, l.row, l.cells...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("%s is in place before Close (%v)", path, err)
	}
	if w.Lines() != len(lines) {
		t.Fatalf("Lines() = %d, want %d", w.Lines(), len(lines))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func wantRecords(lines []line) [][]string {
	out := [][]string{{"file", "row", "key", "action", "message"}}
	for _, l := range lines {
		out = append(out, append([]string{l.file, strconv.Itoa(l.row)}, l.cells...))
	}
	return out
}

func TestCSV(t *testing.T) {
	tests := []struct {
		name  string
		lines []line
		want  string
	}{
		{"no rows: the header alone", nil, "file,row,key,action,message\n"},
		{"quotes and newlines are quoted", sample, "file,row,key,action,message\n" +
			"in.csv,2,P1,created,\"a \"\"quoted\"\", comma\"\n" +
			"in.csv,3,P1,failed,\"two\nlines\"\n" +
			"join.csv,2,,skipped,\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.results.csv")
			write(t, path, tt.lines)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", b, tt.want)
			}
			recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(recs, wantRecords(tt.lines)) {
				t.Fatalf("read back %q", recs)
			}
			assertOnlyFile(t, path)
		})
	}
}

func TestXLSX(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.XLSX")
	write(t, path, sample)
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(Sheet)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rows[0], wantRecords(nil)[0]) || len(rows) != 1+len(sample) {
		t.Fatalf("rows %q", rows)
	}
	for i, l := range sample {
		got := rows[i+1]
		for len(got) < 5 {
			got = append(got, "")
		}
		if want := wantRecords(sample)[i+1]; !reflect.DeepEqual(got, want) {
			t.Errorf("row %d: %q, want %q", i+2, got, want)
		}
		typ, err := f.GetCellType(Sheet, "B"+strconv.Itoa(i+2))
		if err != nil || typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
			t.Errorf("row %d: the row number is a %v cell (%v), want a number", l.row, typ, err)
		}
	}
	assertOnlyFile(t, path)
}

func TestDiscardLeavesNothing(t *testing.T) {
	for _, name := range []string{"out.csv", "out.xlsx"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := Create(filepath.Join(dir, name), "action")
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write("in.csv", 2, "created"); err != nil {
				t.Fatal(err)
			}
			w.Discard()
			w.Discard()
			if err := w.Close(); err != nil {
				t.Fatalf("Close after Discard: %v", err)
			}
			if es, _ := os.ReadDir(dir); len(es) != 0 {
				t.Fatalf("left %d files", len(es))
			}
		})
	}
}

func TestCreateInMissingDirectory(t *testing.T) {
	_, err := Create(filepath.Join(t.TempDir(), "no", "such", "out.csv"), "action")
	if err == nil || !strings.Contains(err.Error(), "results") {
		t.Fatalf("err = %v, want one about the results file", err)
	}
}

// assertOnlyFile checks that path is the only file of its directory: the
// temporary file was renamed, not copied.
func assertOnlyFile(t *testing.T, path string) {
	t.Helper()
	es, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 || es[0].Name() != filepath.Base(path) {
		t.Fatalf("directory holds %v", es)
	}
}

func TestInert(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"P1", "P1"},
		{"=HYPERLINK(\"http://x\",\"click\")", "'=HYPERLINK(\"http://x\",\"click\")"},
		{"+1+2", "'+1+2"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"a=b", "a=b"},
		{"'quoted", "'quoted"},
	}
	for _, tt := range tests {
		if got := Inert(tt.in); got != tt.want {
			t.Errorf("Inert(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Cells a spreadsheet would run as formulas reach the CSV file as text.
func TestCSVFormulasAreInert(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.results.csv")
	write(t, path, []line{{"=in.csv", 2, []string{"=HYPERLINK(\"http://x\")", "created", "@cmd"}}})
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"'=in.csv", "2", "'=HYPERLINK(\"http://x\")", "created", "'@cmd"}
	if !reflect.DeepEqual(recs[1], want) {
		t.Errorf("line %q, want %q", recs[1], want)
	}
}

// Revive undoes Inert, and leaves other text alone.
func TestReviveUndoesInert(t *testing.T) {
	for _, s := range []string{`=HYPERLINK("http://x","y")`, "+1", "-x", "@SUM(A1)", "\tx", "\rx", "plain", "", "'", "'plain", "12", "'quoted'", "'=x", "''=x", "'@"} {
		if got := Revive(Inert(s)); got != s {
			t.Errorf("Revive(Inert(%q)) = %q", s, got)
		}
	}
	if got := Revive("'=1"); got != "=1" {
		t.Errorf("Revive(%q) = %q, want =1", "'=1", got)
	}
}

// WriteLines writes a line per element, after the header, or nothing
// for no path.
func TestWriteLines(t *testing.T) {
	type line struct {
		row  int
		sku  string
		note string
	}
	lines := []line{{2, "A", "sent"}, {3, "=B", "bad"}}
	cells := func(l *line) (int, []string) { return l.row, []string{l.sku, l.note} }
	if err := WriteLines("", "in.csv", []string{"sku", "note"}, lines, cells); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r.csv")
	if err := WriteLines(path, "in.csv", []string{"sku", "note"}, lines, cells); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if want := "file,row,sku,note\nin.csv,2,A,sent\nin.csv,3,'=B,bad\n"; err != nil || string(got) != want {
		t.Errorf("results file %q, %v; want %q", got, err, want)
	}
}

// Bytes that are not UTF-8 and NUL characters never reach a results file:
// they are written as U+FFFD (one for a run of bad bytes), in CSV and
// XLSX files alike.
func TestValidUTF8(t *testing.T) {
	lines := []line{{"caf\xe9.csv", 2, []string{"SKU-\xe9\xe8", "a\x00b", "ok é"}}}
	want := []string{"caf\uFFFD.csv", "2", "SKU-\uFFFD", "a\uFFFDb", "ok é"}
	for _, name := range []string{"out.csv", "out.xlsx"} {
		path := filepath.Join(t.TempDir(), name)
		write(t, path, lines)
		var got []string
		if name == "out.csv" {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !utf8.Valid(b) {
				t.Errorf("%s is not valid UTF-8: %q", name, b)
			}
			recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
			if err != nil || len(recs) != 2 {
				t.Fatalf("%s: %q, %v", name, recs, err)
			}
			got = recs[1]
		} else {
			f, err := excelize.OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := f.GetRows(Sheet)
			f.Close()
			if err != nil || len(rows) != 2 {
				t.Fatalf("%s: %q, %v", name, rows, err)
			}
			got = rows[1]
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: line %q, want %q", name, got, want)
		}
	}
}
