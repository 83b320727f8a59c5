package source

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/workbooks")

// Workbooks saved by Excel (on Windows and the Mac), Numbers, Google Sheets
// and WPS, from other projects' tests (testdata/README.md names each),
// read as they were read when encoding/xml cut their XML into tokens:
// every row's cells and errors, golden files made then.
func TestPublicWorkbooks(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "workbooks", "*.xlsx"))
	if err != nil || len(files) < 10 {
		t.Fatalf("%d workbooks in testdata/workbooks, %v; want a dozen", len(files), err)
	}
	for _, file := range files {
		got := dumpWorkbook(file)
		golden := strings.TrimSuffix(file, ".xlsx") + ".golden"
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s reads\n%s\nwant (%s)\n%s", file, got, golden, want)
		}
	}
}

// dumpWorkbook is the header of file's first visible sheet and its rows,
// one a line: the row's number, its cells, its error.
func dumpWorkbook(file string) string {
	src, err := Open(file, Options{})
	if err != nil {
		return "open: " + strings.ReplaceAll(err.Error(), file, "FILE") + "\n"
	}
	defer src.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "sheet %q, header %q\n", src.Sheet(), src.Header())
	for range 100000 {
		cells, line, err := src.Next()
		if err == io.EOF {
			break
		}
		fmt.Fprintf(&b, "%d %q", line, cells)
		if err != nil {
			fmt.Fprintf(&b, " %s", strings.ReplaceAll(err.Error(), file, "FILE"))
		}
		b.WriteString("\n")
		var re *RowError
		if err != nil && !errors.As(err, &re) {
			break
		}
	}
	return b.String()
}
