package app

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"lading/paths"
	"lading/plural"
)

// UsageError is a mistake in how lading was called (flags, arguments, a
// mapping file): nothing was sent. main prints Err on one line and Hint,
// what to do about it, under it.
type UsageError struct {
	Err  error
	Hint string
}

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef builds a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// checkInput is nil when path, the file that what names ("input file",
// "--load"), is a file; otherwise a UsageError that says what is wrong
// with it in words a person acts on (paths.CheckInput).
func checkInput(what, path string) error {
	return readUsage(paths.CheckInput(paths.Named{What: what, Path: path}), "file")
}

// checkFolder is checkInput for a folder; hint says what the folder is.
func checkFolder(what, path, hint string) error {
	err := paths.CheckFolder(paths.Named{What: what, Path: path})
	if re := (*paths.ReadError)(nil); errors.As(err, &re) && re.Err == nil {
		return Usagef("%w; %s", err, hint) // a file where the folder is asked
	}
	return readUsage(err, "folder")
}

// readUsage makes err, a file's or folder's (noun's) *paths.ReadError, a
// UsageError, with a hint when it is not there.
func readUsage(err error, noun string) error {
	if errors.Is(err, fs.ErrNotExist) {
		return usageHint("Check the "+noun+"'s name, and the folder lading runs in.", "%w", err)
	}
	return asUsage(err)
}

// usageHint builds a UsageError with a hint.
func usageHint(hint, format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...), Hint: hint}
}

// asUsage makes err, unless nil, a UsageError.
func asUsage(err error) error {
	var u *UsageError
	if err == nil || errors.As(err, &u) {
		return err
	}
	return &UsageError{Err: err}
}

// PartialError says a command finished but some of its rows failed; the
// details are in its output (results file, summary).
type PartialError struct {
	Failed, Total int
	// Of is what failed: "row" when "" (an import's images: "image").
	Of   string
	Note string // what else happened, e.g. "nothing was sent (--strict)"
	See  string // where the details are: the results file
}

func (e *PartialError) Error() string {
	of := e.Of
	if of == "" {
		of = "row"
	}
	s := fmt.Sprintf("%d of %s failed", e.Failed, plural.Count(e.Total, of))
	if e.Note != "" {
		s += "; " + e.Note
	}
	if e.See != "" {
		s += "; see " + e.See
	}
	return s
}

// RunsError says runs of lading run --once did not all succeed: some
// failed, some had rows that failed, another process held some jobs. The
// log names each.
type RunsError struct {
	Runs, Failed, Partial, Locked int
}

func (e *RunsError) Error() string {
	var parts []string
	if e.Failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", e.Failed))
	}
	if e.Partial > 0 {
		parts = append(parts, fmt.Sprintf("%d had rows that failed", e.Partial))
	}
	if e.Locked > 0 {
		parts = append(parts, fmt.Sprintf("%d found another lading process running the job", e.Locked))
	}
	return fmt.Sprintf("of %s, %s; the log above names each", plural.Count(e.Runs, "run"), strings.Join(parts, ", "))
}

// InterruptedError says the user stopped the command (Ctrl-C) after it
// recorded what it had done; running it again continues.
type InterruptedError struct{ Msg string }

func (e *InterruptedError) Error() string { return e.Msg }

// ReadOnlyError is the error of a command that writes nothing in the
// account (an export, a pull): its advice speaks of its file, not of
// writes to send again.
type ReadOnlyError struct{ Err error }

func (e *ReadOnlyError) Error() string { return e.Err.Error() }
func (e *ReadOnlyError) Unwrap() error { return e.Err }
