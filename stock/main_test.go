package stock_test

import (
	"fmt"
	"os"
	"testing"

	"lading/source/sourcetest"
)

// TestMain runs the child push when a test started this binary as its
// child (see TestPushKilledAndRunAgain), else the tests, then removes the
// files the benchmarks generated.
func TestMain(m *testing.M) {
	if url := os.Getenv(childURL); url != "" {
		if err := childPush(url); err != nil {
			fmt.Fprintln(os.Stderr, "child push:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	sourcetest.Main(m)
}
