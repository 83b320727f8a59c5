package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"

	"lading/api"
	"lading/app"
)

// childLading, set in the environment of a process started from this test
// binary, makes it run lading's command line on its arguments instead of
// the tests: a lading process of the soak, which it kills, that backs off
// for milliseconds where the lading command waits for half a second.
const childLading = "LADING_E2E_CHILD"

// parallel is how many tests run at once unless -parallel says: most of
// them wait, on a sandbox's pacing or latency, a Retry-After, lading's
// --every or a child process, far more than they compute, so that one a
// CPU (go test's default) would leave the CPUs idle.
const parallel = 8

// TestMain runs lading in a child process, else the tests, parallel at
// once, then removes the lading command they built.
func TestMain(m *testing.M) {
	if os.Getenv(childLading) != "" {
		os.Exit(runLading(os.Args[1:]))
	}
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(max(parallel, runtime.GOMAXPROCS(0))))
	}
	m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// runLading runs lading with args and returns its exit status: 0, or 1
// for any error (the soak asks only whether a push ended well).
func runLading(args []string) int {
	err := app.Run(context.Background(), app.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Local: time.Local,
		APIOptions: []api.Option{api.WithBackoff(time.Millisecond, 10*time.Millisecond)}}, append([]string{"lading"}, args...))
	if err == nil {
		return 0
	}
	fmt.Fprintf(os.Stderr, "lading: %v\n", err)
	if advice := app.Advice(err); advice != "" {
		fmt.Fprintln(os.Stderr, advice)
	}
	return 1
}

// ladingProcess is a lading process of args: this test binary as
// childLading.
func ladingProcess(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childLading+"=1")
	return cmd
}
