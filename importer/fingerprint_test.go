package importer

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"lading/mapping"
	"lading/source/sourcetest"
)

// The fingerprint an import makes beside the read of its files is the one
// made of them after it: of a CSV file, a workbook's sheet, a main file
// and its joined one. A dry run makes none.
func TestFingerprintBesideTheRead(t *testing.T) {
	t.Parallel()
	csvPath, xlsxPath, joined, joinMapping, joinText := fingerprintInputs(t, t.TempDir())
	generic := templateMapping(t, "generic")
	for _, tc := range []struct {
		name, input string
		m           *mapping.Mapping
		files       int
		dryRun      bool
	}{
		{"csv", csvPath, generic, 1, false},
		{"xlsx", xlsxPath, generic, 1, false},
		{"joined", joined, joinMapping, 2, false},
		{"dry run", csvPath, generic, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := &importer{Options: Options{MappingText: joinText, Mode: ModeUpsert}}
			x.Scope, x.DryRun, x.Mapping, x.Input = "acct", tc.dryRun, tc.m, tc.input
			x.early = x.startFingerprint()
			in, err := x.read(context.Background(), &Report{})
			x.early.wait()
			if err != nil || len(in.Files) != tc.files || in.Rows == 0 {
				t.Fatalf("read %q: %d rows, %v; want %d files read", tc.input, in.Rows, err, tc.files)
			}
			if tc.dryRun {
				if x.early != nil {
					t.Fatal("a dry run made a fingerprint")
				}
				return
			}
			if x.early.done == nil {
				t.Fatalf("no fingerprint made beside the read of %q", in.Files)
			}
			want, err := Fingerprint(x.Scope, x.Mode, x.MappingText, readAs(in.Sheets, x.Mapping.Source.HeaderRow), in.Files...)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := x.fingerprint(in); err != nil || got != want {
				t.Errorf("fingerprint of %q, sheets %q: %s, %v; made after the read: %s", in.Files, in.Sheets, got, err, want)
			}
		})
	}
}

// A file the mapping does not fit fails the import before any of it is
// hashed for a fingerprint.
func TestNoFingerprintOfAFileTheMappingDoesNotFit(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "other.csv")
	if err := os.WriteFile(path, []byte("colour,size\nred,S\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x := &importer{Options: Options{Mode: ModeUpsert}}
	x.Scope, x.Mapping, x.Input = "acct", templateMapping(t, "generic"), path
	x.early = x.startFingerprint()
	_, err := x.read(context.Background(), &Report{})
	x.early.wait()
	if err == nil || x.early.done != nil {
		t.Fatalf("read: %v; fingerprint started: %v, want an error and none", err, x.early.done != nil)
	}
}

// fingerprintInputs writes into dir a generated catalog as a CSV file and
// as a workbook, and a products file with its joined variants file, and
// returns their paths and the joined pair's mapping.
func fingerprintInputs(t *testing.T, dir string) (csvPath, xlsxPath, joined string, joinMapping *mapping.Mapping, joinText []byte) {
	t.Helper()
	csvPath, xlsxPath = filepath.Join(dir, "catalog.csv"), filepath.Join(dir, "catalog.xlsx")
	f, err := os.Create(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := sourcetest.GenerateCatalogCSV(f, 20, 2); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := sourcetest.GenerateCatalogXLSX(xlsxPath, 20, 2); err != nil {
		t.Fatal(err)
	}
	joined = filepath.Join(dir, "products.csv")
	for name, text := range map[string]string{
		"products.csv": "id,name\n1,Tee\n2,Mug\n",
		"variants.csv": "product,sku\n1,T-1\n1,T-2\n2,M-1\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	joinText = []byte("group: {by: key, key: id}\nproduct: {name: name}\nvariant: {sku: sku}\njoin:\n  file: variants.csv\n  key: product\n")
	joinMapping, err = mapping.Parse("join.yaml", joinText)
	if err != nil {
		t.Fatal(err)
	}
	return csvPath, xlsxPath, joined, joinMapping, joinText
}
