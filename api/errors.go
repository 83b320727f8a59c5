package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrOutcomeUnknown is wrapped by the error of a write that may have been
// applied: it was sent and then timed out, lost its connection, was
// cancelled, or got a 5xx or an unreadable answer. Such a write is never
// retried by this package.
var ErrOutcomeUnknown = errors.New("no answer to the write")

// ErrNotApplied is wrapped by errors that prove nothing was applied: invalid
// arguments refused before sending, a connection that could not be made, a
// context cancelled while waiting for the rate limiter, a failed read.
var ErrNotApplied = errors.New("not applied")

// RecordError names one failed record of a write by its index in the array
// the caller passed.
type RecordError struct {
	Index   int
	Field   string
	Message string
}

func (e RecordError) String() string {
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
	// Errors are the per-record errors of a rejected write, by index.
	Errors []RecordError
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

// BatchError lists the records of a write the service rejected.
type BatchError struct {
	Resource string
	Total    int
	Failed   []RecordError
	// Err is the whole-request error when the service rejected every record
	// (a 400 answer), else nil.
	Err error
}

func (e *BatchError) Error() string {
	var b strings.Builder
	idx := make([]string, 0, len(e.Failed))
	for _, r := range e.Failed {
		idx = append(idx, strconv.Itoa(r.Index))
	}
	fmt.Fprintf(&b, "api: %s: %d of %d records rejected (records %s)", e.Resource, len(e.Failed), e.Total, strings.Join(idx, ", "))
	writeRecordErrors(&b, e.Failed)
	return b.String()
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

func (e *BatchError) Unwrap() error { return e.Err }

// Outcome says what a call's error means for the records it carried.
type Outcome int

const (
	// Applied: no error.
	Applied Outcome = iota
	// NotApplied: nothing was applied (not sent, refused, throttled, a 4xx,
	// or a read that failed); safe to retry or to report.
	NotApplied
	// Unknown: a write that may have been applied; reconcile before
	// sending it again.
	Unknown
	// Rejected: the service refused records as invalid; see *BatchError or
	// APIError.Errors for which and why.
	Rejected
)

func (o Outcome) String() string {
	switch o {
	case Applied:
		return "applied"
	case NotApplied:
		return "not applied"
	case Unknown:
		return "unknown"
	case Rejected:
		return "rejected"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Classify tells what err means for the records of the call that returned
// it. Errors this package does not recognise classify as Unknown, the safe
// assumption for a write.
func Classify(err error) Outcome {
	if err == nil {
		return Applied
	}
	if errors.Is(err, ErrOutcomeUnknown) {
		return Unknown
	}
	var be *BatchError
	if errors.As(err, &be) {
		return Rejected
	}
	var ae *APIError
	if errors.As(err, &ae) {
		if len(ae.Errors) > 0 && ae.StatusCode < 500 {
			return Rejected
		}
		return NotApplied
	}
	var rl *RateLimitError
	var qe *QueryError
	if errors.As(err, &rl) || errors.As(err, &qe) || errors.Is(err, ErrNotApplied) {
		return NotApplied
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// Writes cancelled after sending wrap ErrOutcomeUnknown above.
		return NotApplied
	}
	return Unknown
}
