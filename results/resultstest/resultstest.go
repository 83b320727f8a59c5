// Package resultstest checks the results lines of a job's tests.
package resultstest

import (
	"encoding/csv"
	"reflect"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"

	"lading/results"
)

// CheckCells fails t unless every line's own cells (results.Celler) are
// those gocsv makes of it from its tags, in the same order: what a
// results file would hold had it gone through gocsv.
func CheckCells[T any, P interface {
	*T
	results.Celler
}](t testing.TB, lines []T) {
	t.Helper()
	var b strings.Builder
	if err := gocsv.MarshalCSVWithoutHeaders(lines, gocsv.DefaultCSVWriter(&b)); err != nil {
		t.Fatal(err)
	}
	want, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != len(lines) {
		t.Fatalf("gocsv made %d lines of %d", len(want), len(lines))
	}
	for i := range lines {
		if got := results.CellsOf(P(&lines[i])); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("line %d: cells %q, gocsv makes %q", i, got, want[i])
		}
	}
}
