package paths

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	if err := os.WriteFile(at("in.csv"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("in.csv", at("link.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(at("in.csv"), at("hard.csv")); err != nil {
		t.Fatal(err)
	}
	in := []Named{{What: "the input file", Path: at("in.csv")}}
	sheet := func(path string) Named { return Named{What: "--results", Path: path, Sheet: true} }
	plan := func(path string) Named { return Named{What: "--plan", Path: path} }
	for _, tc := range []struct {
		name    string
		outputs []Named
		same    bool   // a *SameFileError
		write   string // a *WriteError saying this
	}{
		{"fine", []Named{sheet(at("r.csv")), plan(at("p.json"))}, false, ""},
		{"the input", []Named{sheet(at("in.csv"))}, true, ""},
		{"spelled otherwise", []Named{sheet(at("x/../in.csv"))}, true, ""},
		{"a link to the input", []Named{sheet(at("link.csv"))}, true, ""},
		{"a hard link to the input", []Named{sheet(at("hard.csv"))}, true, ""},
		{"two outputs", []Named{sheet(at("o.csv")), plan(at("o.csv"))}, true, ""},
		{"a directory", []Named{sheet(dir)}, false, "is a directory"},
		{"in a missing directory", []Named{sheet(at("nodir/r.csv"))}, false, "cannot create a file in"},
		{"under a file", []Named{sheet(at("in.csv/r.csv"))}, false, "not a directory"},
		{"a sheet in capitals", []Named{sheet(at("R.CSV")), sheet(at("r.XLSX"))}, false, ""},
		{"a sheet named as another kind", []Named{sheet(at("r.xls"))}, false, ": lading writes .xlsx (Excel) and .csv files only; name it r.xlsx or r.csv"},
		{"a sheet named as no kind", []Named{sheet(at("r"))}, false, "name it r.xlsx or r.csv"},
		{"a sheet named as another kind, and the input", []Named{sheet(at("r.tsv")), sheet(at("in.csv"))}, true, ""},
	} {
		err := CheckOutputs(in, tc.outputs)
		var (
			se *SameFileError
			we *WriteError
		)
		switch {
		case tc.same && !errors.As(err, &se):
			t.Errorf("%s: %v, want a SameFileError", tc.name, err)
		case tc.write != "" && (!errors.As(err, &we) || !strings.Contains(err.Error(), tc.write)):
			t.Errorf("%s: %v, want a WriteError saying %q", tc.name, err, tc.write)
		case !tc.same && tc.write == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("the checks left files behind: %v", entries)
	}
}

func TestCheckState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
	}{
		{filepath.Join(dir, "state.db"), ""},
		{filepath.Join(dir, "new", "deeper", "state.db"), ""},
		{dir, "is a directory"},
		{filepath.Join(file, "state.db"), "is not a directory"},
	} {
		err := CheckState(Named{What: "--state", Path: tc.path})
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.path, err, tc.want)
		}
	}
}

// CheckInput and CheckFolder say what is wrong with a file or folder a
// job reads, and keep the system's cause: a missing one is fs.ErrNotExist.
func TestCheckInputAndFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(file, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		path    string
		folder  bool
		want    string // "" for no error
		missing bool
	}{
		{"a file", file, false, "", false},
		{"a folder", dir, true, "", false},
		{"no file", filepath.Join(dir, "nope.csv"), false, "/nope.csv: there is no such file", true},
		{"no folder", filepath.Join(dir, "nodir"), true, "/nodir: there is no such folder", true},
		{"a folder for a file", dir, false, " is a folder: give the file to read", false},
		{"a file for a folder", file, true, ": not a folder", false},
		{"under a file", filepath.Join(file, "x.csv"), false, "x.csv: not a directory", false},
	} {
		in := Named{What: "in", Path: tc.path}
		check := CheckInput
		if tc.folder {
			check = CheckFolder
		}
		err := check(in)
		var re *ReadError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want none", tc.name, err)
		case tc.want != "" && (!errors.As(err, &re) || !strings.HasSuffix(err.Error(), tc.want)):
			t.Errorf("%s: %v, want a *ReadError ending %q", tc.name, err, tc.want)
		case errors.Is(err, fs.ErrNotExist) != tc.missing:
			t.Errorf("%s: %v: errors.Is(fs.ErrNotExist) = %v, want %v", tc.name, err, !tc.missing, tc.missing)
		}
	}
}
