package app

import "fmt"

// UsageError is a mistake in how lading was called (flags, arguments, a
// mapping file): nothing was sent.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef builds a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// PartialError says a command finished but some of its records failed; the
// details are in its output (results file, summary).
type PartialError struct {
	Failed, Total int
	What          string // "rows", "records"
	Note          string // what else happened, e.g. "nothing was sent (--strict)"
	See           string // where the details are: the results file
}

func (e *PartialError) Error() string {
	s := fmt.Sprintf("%d of %d %s failed", e.Failed, e.Total, e.What)
	if e.Note != "" {
		s += "; " + e.Note
	}
	if e.See != "" {
		s += "; see " + e.See
	}
	return s
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
