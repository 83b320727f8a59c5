package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An import undone from the command line: its run shows the cost it
// changed, before and after; the dry run prints what it
// would write and the writes it needs; a cost a later import set again
// is a conflict (exit 3), printed with its three values and the later
// run; the forced undo sets it back.
func TestUndoAnImportFromTheCommandLine(t *testing.T) {
	a, state := withCatalog(t) // run 1
	dir, in := sampleCopy(t, "catalog.csv")
	edit := func(name, cost string) string {
		b, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Replace(string(b), "TEE-BLA-M,Black / M,0.22,7.5,", "TEE-BLA-M,Black / M,0.22,"+cost+",", 1)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, f := range []string{edit("second.csv", "8"), edit("third.csv", "9")} { // runs 2 and 3
		if _, errOut, err := a.lading(t, "--quiet", "import", "--template", "generic", "--state", state, f); err != nil {
			t.Fatalf("import %s: %v\n%s", f, said(err), errOut)
		}
	}
	out, _, err := a.lading(t, "runs", "show", "--state", state, "2")
	if err != nil || !strings.Contains(out, "update variant TEE-BLA-M (id ") || !strings.Contains(out, "): cost 7.5 -> 8") {
		t.Errorf("runs show 2: %v\n%s", err, out)
	}
	out, _, err = a.lading(t, "undo", "--state", state, "--dry-run", "2")
	var partial *PartialError
	if !errors.As(err, &partial) {
		t.Fatalf("dry run: %v (%T), want the conflict to fail its row (exit 3)\n%s", err, err, out)
	}
	for _, want := range []string{"writes needed: 0 requests", "warning: 1 later run since wrote some of these records again (3)",
		"conflict variant TEE-BLA-M: variant TEE-BLA-M", "cost is 9 now; the run set 8; it was 7.5 before"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	// A results file named as no sheet is refused before the run is read.
	bad := filepath.Join(dir, "undo.xls")
	if _, _, err := a.lading(t, "undo", "--state", state, "--results", bad, "2"); !isUsage(err) || !strings.Contains(err.Error(), "name it undo.xlsx or undo.csv") {
		t.Errorf("undo --results %s: %v, want a usage error naming the sheets lading writes", bad, err)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Errorf("undo wrote %s", bad)
	}
	out, _, err = a.lading(t, "undo", "--state", state, "2")
	if !errors.As(err, &partial) || !strings.Contains(out, "1 conflict") {
		t.Fatalf("undo: %v (%T), want a partial run (exit 3)\n%s", err, err, out)
	}
	out, _, err = a.lading(t, "undo", "--state", state, "--force", "2")
	if err != nil || !strings.Contains(out, "1 restored") {
		t.Fatalf("forced undo: %v\n%s", said(err), out)
	}
}
