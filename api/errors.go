package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"lading/api/wire"
)

// ErrOutcomeUnknown is wrapped by the error of a write that may have been
// applied: it was sent and then timed out, lost its connection, was
// cancelled, or got a 5xx or an unreadable answer. Such a write is never
// retried by this package.
var ErrOutcomeUnknown = errors.New("no answer to the write")

// ErrNotApplied is wrapped by errors of calls that applied nothing and may
// be made again as they are: the connection could not be made, the context
// ended before sending, a read failed after its retries.
var ErrNotApplied = errors.New("not applied")

// ErrInvalid is wrapped by errors of calls refused before sending because
// their arguments break a rule of the interface (no records, too many, an
// empty id). Nothing was sent; the same call fails the same way.
var ErrInvalid = errors.New("invalid call")

// ErrAccessDenied matches (with errors.Is) an [APIError] whose status says
// the token was not accepted (401) or may not do this (403).
var ErrAccessDenied = errors.New("access denied")

// RecordError names one failed record of a write by its index in the array
// the caller passed.
type RecordError struct {
	Index   int
	Field   string
	Message string
	// Whole says the record was refused only because the service refused
	// the whole write for other records' errors; Message is the write's.
	Whole bool
}

// NoSuchRecord reports whether the record was refused because the id it
// gave is not a record of the account (deleted since it was read, say).
func (e RecordError) NoSuchRecord() bool { return !e.Whole && e.Field == wire.FieldID }

func (e RecordError) String() string {
	if e.Whole {
		return fmt.Sprintf("record %d: refused with the whole write: %s", e.Index, e.Message)
	}
	if e.Field != "" {
		return fmt.Sprintf("record %d (%s): %s", e.Index, e.Field, e.Message)
	}
	return fmt.Sprintf("record %d: %s", e.Index, e.Message)
}

// APIError is a non-2xx answer. It never carries the access token.
type APIError struct {
	StatusCode int
	Method     string
	Path       string
	Message    string
	// Errors are the per-record errors the answer named, by index.
	Errors []RecordError
}

// Status is the answer's status and the service's message, for a person:
// "404 Not Found: no such record".
func (e *APIError) Status() string {
	s := fmt.Sprintf("%d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "api: %s %s: %d %s", e.Method, e.Path, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	writeRecordErrors(&b, e.Errors)
	return b.String()
}

// Is reports whether target is [ErrAccessDenied] and e a 401 or 403.
func (e *APIError) Is(target error) bool {
	return target == ErrAccessDenied && (e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden)
}

// RateLimitError is returned when the service kept throttling a call after
// every retry. Nothing was applied.
type RateLimitError struct {
	Method, Path string
	Attempts     int
	// RetryAfter is what the last answer asked for (0 if it said nothing).
	RetryAfter time.Duration
	// Rate is the request rate (per second) the limiter had lowered to.
	Rate float64
}

func (e *RateLimitError) Error() string {
	s := fmt.Sprintf("api: %s %s: still throttled after %d attempts (rate lowered to %.2f/s)", e.Method, e.Path, e.Attempts, e.Rate)
	if e.RetryAfter > 0 {
		s += fmt.Sprintf("; the service asked to wait %s", e.RetryAfter)
	}
	return s
}

// maxListedRecords is how many record errors an error message spells out.
const maxListedRecords = 10

// writeRecordErrors appends "; record N: ..." for the first
// maxListedRecords of errs and counts the rest.
func writeRecordErrors(b *strings.Builder, errs []RecordError) {
	for i, r := range errs {
		if i == maxListedRecords {
			fmt.Fprintf(b, "; and %d more", len(errs)-maxListedRecords)
			return
		}
		b.WriteString("; ")
		b.WriteString(r.String())
	}
}

// Outcome is what the error of a call means for the records it carried,
// and so what the caller does with them.
type Outcome int

const (
	// Applied: no error. A write's records may still have failed one by
	// one: see [WriteResult.Failed].
	Applied Outcome = iota
	// Rejected: the call was refused as a whole and nothing was applied:
	// a 4xx other than throttling, a 3xx, or arguments refused before
	// sending ([ErrInvalid], [QueryError]). The same call fails the same
	// way: report it on its records, never send it again unchanged. A 401
	// or 403 also matches [ErrAccessDenied]: no other call will fare
	// better.
	Rejected
	// Unknown: a write that may have been applied ([ErrOutcomeUnknown]):
	// look its records up before sending any of them again.
	Unknown
	// Retryable: nothing was applied and the same call may succeed later:
	// throttled after every retry ([RateLimitError]), no connection, the
	// context ended before sending, a read that kept failing.
	Retryable
)

func (o Outcome) String() string {
	switch o {
	case Applied:
		return "applied"
	case Rejected:
		return "rejected"
	case Unknown:
		return "unknown"
	case Retryable:
		return "retryable"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Classify tells what err means for the records of the call that returned
// it. Errors this package does not recognise classify as Unknown, the safe
// assumption for a write.
func Classify(err error) Outcome {
	var (
		ae *APIError
		qe *QueryError
		rl *RateLimitError
	)
	switch {
	case err == nil:
		return Applied
	case errors.Is(err, ErrOutcomeUnknown):
		return Unknown
	case errors.Is(err, ErrInvalid), errors.As(err, &qe):
		return Rejected
	case errors.As(err, &ae):
		if ae.StatusCode >= 500 || ae.StatusCode == http.StatusTooManyRequests {
			return Retryable // a read; a write's 5xx wraps ErrOutcomeUnknown
		}
		return Rejected
	case errors.As(err, &rl), errors.Is(err, ErrNotApplied),
		errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		// Writes cancelled after sending wrap ErrOutcomeUnknown above.
		return Retryable
	}
	return Unknown
}
