package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"lading/api"
)

// Setback is why a record was not written in a round: it goes again in
// the next; when the rounds run out, or the run stops first, its rows say
// why.
type Setback struct {
	Kind  SetbackKind
	Cause string // the status or error, for the brackets
}

// SetbackKind is the kind of a setback.
type SetbackKind int

// Setback kinds.
const (
	// NoAnswer: the write was sent and no answer came (a 5xx, a dropped
	// connection, a timeout). It may have been written.
	NoAnswer SetbackKind = iota
	// Throttled: the service kept asking lading to slow down.
	Throttled
	// Unreachable: the write could not be sent.
	Unreachable
	// NotSent: the run stopped (interrupted, or refused access) before
	// the write was sent.
	NotSent
	// WithOthers: the service refused the whole write for other records'
	// errors; this record was not written and goes again without them.
	WithOthers
)

// SetbackOf says why a write that may be sent again was not written.
func SetbackOf(err error) Setback {
	var rl *api.RateLimitError
	var ae *api.APIError
	switch {
	case errors.As(err, &rl):
		return Setback{Throttled, "the service answered Too Many Requests"}
	case errors.Is(err, api.ErrOutcomeUnknown) && errors.As(err, &ae):
		return Setback{NoAnswer, ae.Status()}
	case errors.Is(err, api.ErrOutcomeUnknown) && errors.Is(err, context.DeadlineExceeded):
		return Setback{NoAnswer, "no answer in time"}
	case errors.Is(err, api.ErrOutcomeUnknown):
		return Setback{NoAnswer, "the connection was lost"}
	case errors.Is(err, context.Canceled):
		return Setback{NotSent, "interrupted"}
	}
	return Setback{Unreachable, lastPart(err.Error())}
}

// GaveUp is what the rows of a record say that was not written after
// tries rounds, the last for why.
func (w Words) GaveUp(why Setback, tries int) string {
	switch why.Kind {
	case NoAnswer:
		return fmt.Sprintf("no answer from the service after %d tries (%s); it may have been written: %s and lading will check before sending it again", tries, why.Cause, w.Again)
	case Throttled:
		return fmt.Sprintf("the service kept asking to slow down after %d tries (%s); nothing of it was written: %s later, or at a lower request rate", tries, why.Cause, w.Again)
	case Unreachable:
		return fmt.Sprintf("could not reach the service after %d tries (%s); nothing of it was written: check the network and the service's address, then %s", tries, why.Cause, w.Again)
	case WithOthers:
		return fmt.Sprintf("not sent: the service refused the whole request for errors in other rows, %d times (%s); fix those, then %s", tries, why.Cause, w.Again)
	}
	return w.Interrupted()
}

// lastPart is the innermost cause of an error's text ("connection
// refused" of "api: POST /v1/Products: not applied: dial tcp: connection
// refused").
func lastPart(s string) string {
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}
