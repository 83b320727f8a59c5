package api

import (
	"net/http"

	"lading/api/wire"
)

// reply is what one attempt of a call came to.
type reply struct {
	write     bool   // the call is a write
	sent      bool   // the whole request reached the connection
	status    int    // the answer's status; 0 when no answer came
	body      []byte // the answer's body
	err       error  // the exchange failed: no usable answer
	cancelled bool   // the caller's context has ended
	// undecodable is why a successful answer could not be read as the
	// call asked.
	undecodable error
}

// verdict is what [Client.do] does after an attempt.
type verdict int

const (
	// done: a 2xx answer; hand it to the caller.
	done verdict = iota
	// throttle: the service asked to slow down (429, or the gateway's 403
	// throttling body); nothing was applied. Lower the rate and try again.
	throttle
	// retry: nothing was applied and another try may succeed (the request
	// never reached the connection, or a read failed). Back off, try again.
	retry
	// unknown: a write that was sent and got a 5xx, an unreadable answer
	// or none at all: it may have been applied. Never sent again blindly.
	unknown
	// report: a 3xx or a 4xx other than throttling. Permanent: the same
	// request would get the same answer. Never sent again.
	report
	// stop: the caller's context ended before anything could have applied.
	stop
)

var verdictNames = [...]string{"done", "throttle", "retry", "unknown", "report", "stop"}

func (v verdict) String() string { return verdictNames[v] }

// decide is the one place that tells, from one attempt's reply, whether a
// call is retried, handed back as possibly applied, or reported. Only
// throttling, failures before sending, and read failures are retried.
func decide(r reply) verdict {
	if r.err != nil {
		switch {
		case r.write && r.sent:
			return unknown
		case r.cancelled:
			return stop
		}
		return retry
	}
	switch s := r.status; {
	case s >= 200 && s < 300:
		return done
	case s == http.StatusTooManyRequests, s == http.StatusForbidden && wire.IsThrottleBody(r.body):
		return throttle
	case s >= 500 && r.write:
		return unknown
	case s >= 500:
		return retry
	}
	return report
}
