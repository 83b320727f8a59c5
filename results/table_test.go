package results

import (
	"path/filepath"
	"reflect"
	"testing"
)

// A results file read back is the lines written, formulas given back as
// their text; written again (another order, XLSX) it holds the same cells.
func TestTableRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lines := append(sample, line{"in.csv", 4, "=HYPERLINK(\"x\")", "failed", "-3 is below 0"})
	in := filepath.Join(dir, "in.csv.results.csv")
	write(t, in, lines)
	tab, err := ReadTable(in)
	if err != nil {
		t.Fatal(err)
	}
	want := wantRecords(lines)
	if !reflect.DeepEqual(append([][]string{tab.Header}, tab.Lines...), want) {
		t.Fatalf("read back\n%q\nwant\n%q", append([][]string{tab.Header}, tab.Lines...), want)
	}
	if tab.Column("action") != 3 || tab.Column("nope") != -1 {
		t.Errorf("Column: action at %d, nope at %d", tab.Column("action"), tab.Column("nope"))
	}
	for _, name := range []string{"again.csv", "again.xlsx"} {
		path := filepath.Join(t.TempDir(), name)
		if err := WriteTable(path, tab); err != nil {
			t.Fatal(err)
		}
		got := readBack(t, path)
		for i := range got {
			for len(got[i]) < len(tab.Header) { // excelize leaves out empty cells at the end
				got[i] = append(got[i], "")
			}
		}
		if name == "again.csv" {
			again, err := ReadTable(path)
			if err != nil {
				t.Fatal(err)
			}
			got = append([][]string{again.Header}, again.Lines...)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n%q\nwant\n%q", name, got, want)
		}
		assertOnlyFile(t, path)
	}
	if _, err := ReadTable(filepath.Join(dir, "none.csv")); err == nil {
		t.Error("reading a file that is not there: no error")
	}
}
