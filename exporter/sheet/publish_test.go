package sheet

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
)

// An export gets the mode a file the user makes gets (os.Create's), not
// the 0600 of a temporary file; a raw CSV keeps text a spreadsheet would
// run as a formula as it is, the default neutralises it.
func TestPublishedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ref, err := os.Create(filepath.Join(dir, "ref"))
	if err != nil {
		t.Fatal(err)
	}
	ref.Close()
	want, _ := os.Stat(ref.Name())
	cols := []Column{{Header: "phone", Kind: Text}}
	for _, c := range []struct {
		name string
		o    Options
		cell string
	}{
		{"orders.csv", Options{Raw: true}, "+1 217 555 0100"},
		{"report.csv", Options{}, "'+1 217 555 0100"},
		{"report.xlsx", Options{}, ""},
	} {
		path := filepath.Join(dir, c.name)
		w, err := Create(path, c.o, Sheet{Name: "S", Columns: cols})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Row(0, "+1 217 555 0100"); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil || fi.Mode() != want.Mode() {
			t.Errorf("%s: mode %v (%v), want %v as os.Create gives", c.name, fi.Mode(), err, want.Mode())
		}
		if c.cell == "" {
			continue
		}
		f, _ := os.Open(path)
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil || len(recs) != 2 || recs[1][0] != c.cell {
			t.Errorf("%s: %q, %v; want the cell %q", c.name, recs, err, c.cell)
		}
	}
}
