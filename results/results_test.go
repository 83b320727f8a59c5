package results

import (
	"encoding/csv"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

type line struct {
	File    string `csv:"file"`
	Row     int    `csv:"row"`
	Key     string `csv:"key"`
	Action  string `csv:"action"`
	Message string `csv:"message"`
}

var sample = []line{
	{"in.csv", 2, "P1", "created", "a \"quoted\", comma"},
	{"in.csv", 3, "P1", "failed", "two\nlines"},
	{"join.csv", 2, "", "skipped", ""},
}

func write(t *testing.T, path string, lines []line) {
	t.Helper()
	w, err := Create[line](path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if err := w.Write(l); err != nil {
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
		out = append(out, []string{l.File, strconv.Itoa(l.Row), l.Key, l.Action, l.Message})
	}
	return out
}

func TestCSV(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
			t.Errorf("row %d: the row number is a %v cell (%v), want a number", l.Row, typ, err)
		}
	}
	assertOnlyFile(t, path)
}

func TestDiscardLeavesNothing(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"out.csv", "out.xlsx"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := Create[line](filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(sample[0]); err != nil {
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
	t.Parallel()
	_, err := Create[line](filepath.Join(t.TempDir(), "no", "such", "out.csv"))
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
	t.Parallel()
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
	t.Parallel()
	path := filepath.Join(t.TempDir(), "out.results.csv")
	write(t, path, []line{{"=in.csv", 2, "=HYPERLINK(\"http://x\")", "created", "@cmd"}})
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
	t.Parallel()
	for _, s := range []string{`=HYPERLINK("http://x","y")`, "+1", "-x", "@SUM(A1)", "\tx", "\rx", "plain", "", "'", "'plain", "12", "'quoted'", "'=x", "''=x", "'@"} {
		if got := Revive(Inert(s)); got != s {
			t.Errorf("Revive(Inert(%q)) = %q", s, got)
		}
	}
	if got := Revive("'=1"); got != "=1" {
		t.Errorf("Revive(%q) = %q, want =1", "'=1", got)
	}
}

// Write writes a line for each line of a sequence, after the header, or
// nothing for no path; more lines than a block go out whole, and text that
// is not UTF-8 is made so.
func TestWrite(t *testing.T) {
	t.Parallel()
	lines := slices.Repeat([]line{{"in.csv", 2, "A", "sent", "caf\xe9"}}, block+3)
	if err := Write("", slices.Values(lines)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"r.csv", "r.xlsx"} {
		path := filepath.Join(t.TempDir(), name)
		if err := Write(path, slices.Values(lines)); err != nil {
			t.Fatal(err)
		}
		recs := readBack(t, path)
		if len(recs) != 1+len(lines) {
			t.Fatalf("%s: %d lines, want %d", name, len(recs), 1+len(lines))
		}
		if got := recs[len(recs)-1]; got[4] != "caf\uFFFD" || !utf8.ValidString(strings.Join(got, "")) {
			t.Errorf("%s: last line %q, want valid UTF-8 with a replacement character", name, got)
		}
	}
}

// readBack reads a CSV or XLSX results file's cells.
func readBack(t *testing.T, path string) [][]string {
	t.Helper()
	if filepath.Ext(path) == ".csv" {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return recs
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(Sheet)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// BenchmarkWrite writes an import's results file of b.N lines (CSV), by
// gocsv and by the lines' own cells, to weigh a line's cost against a
// job's: go test -bench Write ./results
func BenchmarkWrite(b *testing.B) {
	l := func(i int) line {
		return line{"catalog.csv", i + 2, "P" + strconv.Itoa(i/4), "created", "product 81234567: tier Price 12.50 -> 13.00; weight 0.5 -> 0.6"}
	}
	b.Run("gocsv", func(b *testing.B) { benchWrite(b, l) })
	b.Run("cells", func(b *testing.B) { benchWrite(b, func(i int) celledFull { return celledFull(l(i)) }) })
}

func benchWrite[T any](b *testing.B, line func(i int) T) {
	path := filepath.Join(b.TempDir(), "r.csv")
	b.ReportAllocs()
	b.ResetTimer()
	f, err := Create[T](path)
	if err != nil {
		b.Fatal(err)
	}
	for i := range b.N {
		if err := f.Write(line(i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := f.Close(); err != nil { // the last blocks' text is written here
		b.Fatal(err)
	}
}

// Bytes that are not UTF-8 and NUL characters never reach a results file:
// they are written as U+FFFD (one for a run of bad bytes), in CSV and
// XLSX files alike.
func TestValidUTF8(t *testing.T) {
	t.Parallel()
	lines := []line{{"caf\xe9.csv", 2, "SKU-\xe9\xe8", "a\x00b", "ok é"}}
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

// celledLine is a line that gives its own cells (a Celler).
type celledLine struct {
	File string `csv:"file"`
	Row  int    `csv:"row"`
}

func (l *celledLine) Cells(c *Cells) {
	c.Text(l.File)
	c.Int(l.Row)
}

// Lines go out a block at a time: every line of many blocks comes out
// once, in the order written, in CSV and XLSX, by gocsv or by the lines'
// own cells; a file dropped half written leaves nothing.
func TestBlocksKeepTheirOrder(t *testing.T) {
	t.Parallel()
	const n = 5*block + 7
	rows := func(recs [][]string) []int {
		var out []int
		for _, r := range recs[1:] {
			i, err := strconv.Atoi(r[1])
			if err != nil {
				t.Fatalf("line %q: %v", r, err)
			}
			out = append(out, i)
		}
		return out
	}
	want := make([]int, n)
	for i := range want {
		want[i] = i + 2
	}
	for _, name := range []string{"r.csv", "r.xlsx"} {
		dir := t.TempDir()
		plain, celled := filepath.Join(dir, "plain-"+name), filepath.Join(dir, "celled-"+name)
		err := Write(plain, numbered(n, func(row int) line { return line{File: "in.csv", Row: row} }))
		if err == nil {
			err = Write(celled, numbered(n, func(row int) celledLine { return celledLine{File: "in.csv", Row: row} }))
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{plain, celled} {
			if got := rows(readBack(t, path)); !slices.Equal(got, want) {
				t.Errorf("%s: %d lines, not the %d written in order", filepath.Base(path), len(got), n)
			}
		}
		dropped := filepath.Join(dir, "dropped-"+name)
		f, err := Create[celledLine](dropped)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3*block + 1 {
			if err := f.Write(celledLine{"in.csv", i + 2}); err != nil {
				t.Fatal(err)
			}
		}
		f.Discard()
		if entries, err := os.ReadDir(dir); err != nil || len(entries) != 2 {
			t.Errorf("%s: after a file was dropped, the folder holds %v (%v), want the two written", name, entries, err)
		}
	}
}

// A block whose text cannot be written (the disk full, the file gone)
// fails the file: the lines written after it are refused with the error,
// Close returns it, and nothing is left.
func TestBlockWriteFailureFailsTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f, err := Create[celledLine](filepath.Join(dir, "r.csv"))
	if err != nil {
		t.Fatal(err)
	}
	f.tmp.Close() // every write to it fails from here on
	var werr error
	for i := 0; i < 64*block && werr == nil; i++ { // more text than the file's buffer holds
		werr = f.Write(celledLine{"in.csv", i + 2})
	}
	if werr == nil {
		t.Fatal("64 blocks of lines taken after the file failed")
	}
	if err := f.Close(); err == nil || werr != nil && !errors.Is(err, werr) && err.Error() != werr.Error() {
		t.Fatalf("Close: %v (Write: %v), want the write's error", err, werr)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("after a failed file, the folder holds %v (%v), want nothing", entries, err)
	}
}

// numbered yields n lines, made by line for rows 2 and on.
func numbered[T any](n int, line func(row int) T) iter.Seq[T] {
	return func(yield func(T) bool) {
		for i := range n {
			if !yield(line(i + 2)) {
				return
			}
		}
	}
}

// celledFull is line as a Celler: its file goes by the blocks made into
// text beside the caller.
type celledFull line

func (l *celledFull) Cells(c *Cells) {
	c.Text(l.File)
	c.Int(l.Row)
	c.Text(l.Key)
	c.Text(l.Action)
	c.Text(l.Message)
}

// A CSV file of Cellers, its blocks made into text beside the caller, is
// byte for byte the file gocsv writes of the same lines: plain lines and
// lines that need quotes, formulas made inert, bad bytes, across many
// blocks and a last one part full.
func TestCelledBlocksAreAsGocsvWritesThem(t *testing.T) {
	t.Parallel()
	const n = 7*block + 13
	cells := []string{"", "plain", "a, comma", `"quoted"`, "two\nlines", "=SUM(A1)", "-5", "caf\xe9", "née", "nul\x00"}
	lineAt := func(row int) line {
		i := row * 7
		if row%13 == 0 {
			row = -row // a negative number starts as a formula does
		}
		return line{File: "in.csv", Row: row, Key: cells[i%len(cells)], Action: cells[(i/3)%len(cells)], Message: cells[(i/11)%len(cells)]}
	}
	dir := t.TempDir()
	viaGocsv, celled := filepath.Join(dir, "gocsv.csv"), filepath.Join(dir, "celled.csv")
	if err := Write(viaGocsv, numbered(n, lineAt)); err != nil {
		t.Fatal(err)
	}
	if err := Write(celled, numbered(n, func(row int) celledFull { return celledFull(lineAt(row)) })); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(viaGocsv)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(celled)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("the Cellers' file (%d bytes) differs from gocsv's (%d bytes)", len(got), len(want))
	}
	if recs := readBack(t, celled); len(recs) != n+1 {
		t.Errorf("%d records read back, want %d", len(recs), n+1)
	}
}
