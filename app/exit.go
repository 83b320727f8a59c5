package app

import (
	"fmt"
	"slices"
	"strings"
)

// The exit codes of lading. main maps the error a command returned to one
// of them, and is the only place that does; help shows what they mean.
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitUsage       = 2
	ExitPartial     = 3
	ExitLocked      = 4
	ExitInterrupted = 130
)

// ExitCodes are the exit codes with what each means, in the order help
// lists them.
var ExitCodes = []struct {
	Code    int
	Meaning string
}{
	{ExitOK, "done: every row written, unchanged or skipped as the mapping says"},
	{ExitFailure, "an error stopped the command; the message says what happened and what to do"},
	{ExitUsage, "a flag, argument, file or mapping is wrong; nothing was sent"},
	{ExitPartial, "some rows (or images of an import) failed and the others were done; the results file names each failure"},
	{ExitLocked, "another lading process is running this job on this account; nothing was sent"},
	{ExitInterrupted, "stopped by Ctrl-C or SIGTERM after recording what was done; run it again to continue"},
}

// exitTable lists the exit codes 0, 1 and 2 and those of codes, with their
// meanings, indented by three spaces, for help.
func exitTable(codes []int) string {
	var b strings.Builder
	all := withCommonExits(codes)
	for _, e := range ExitCodes {
		if slices.Contains(all, e.Code) {
			fmt.Fprintf(&b, "   %-4d %s\n", e.Code, e.Meaning)
		}
	}
	return b.String()
}

// withCommonExits are the exit codes 0, 1 and 2, which every command may
// end with, and those of codes, in the order of ExitCodes.
func withCommonExits(codes []int) []int {
	var all []int
	for _, e := range ExitCodes {
		if e.Code <= ExitUsage || slices.Contains(codes, e.Code) {
			all = append(all, e.Code)
		}
	}
	return all
}

// exitsOfJobs are the exit codes of a job that writes rows from a file:
// some rows may fail, and Ctrl-C stops it.
var exitsOfJobs = []int{ExitPartial, ExitInterrupted}

// exitsOfPushes are those of a push, which also holds a lock.
var exitsOfPushes = []int{ExitPartial, ExitLocked, ExitInterrupted}
