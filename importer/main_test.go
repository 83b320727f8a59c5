package importer

import (
	"os"
	"testing"

	"lading/source/sourcetest"
)

// ChildProcess, when a test file sets it, runs first: a test that starts
// this binary again as a child process makes it do the child's work
// instead of the tests, and reports whether it did.
var ChildProcess func() (code int, ran bool)

// TestMain runs ChildProcess in a child process, else the tests, then
// removes the catalogs the benchmarks generated.
func TestMain(m *testing.M) {
	if ChildProcess != nil {
		if code, ran := ChildProcess(); ran {
			os.Exit(code)
		}
	}
	sourcetest.Main(m)
}
