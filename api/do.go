package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"lading/api/wire"
)

// maxAnswerBytes bounds the body of one answer.
const maxAnswerBytes = 256 << 20

// call is one logical request: it may take several attempts.
type call struct {
	path        string // wire path, e.g. /v2/Variants
	body        []byte
	contentType string
	write       bool // writes are never retried once they may have applied
}

// answer is a successful (2xx) exchange.
type answer struct {
	status int
	body   []byte
}

// do runs c through the limiter with retries, and classifies failures.
func (c *Client) do(ctx context.Context, cl call) (*answer, error) {
	path := c.base.Path + cl.path
	method := http.MethodPost
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			c.retried.Add(1)
		}
		gen, err := c.limiter.acquire(ctx)
		if err != nil {
			return nil, fmt.Errorf("api: %s %s: %w: stopped while waiting for the rate limiter: %w", method, path, ErrNotApplied, err)
		}
		status, header, body, sent, err := c.send(ctx, cl)
		c.requests.Add(1)
		if err != nil {
			err = errors.New(c.redact(err.Error()))
			if cl.write && sent {
				c.unknown.Add(1)
				cause := err
				if ctx.Err() != nil {
					cause = ctx.Err()
				}
				return nil, fmt.Errorf("api: %s %s: %w: %w", method, path, ErrOutcomeUnknown, cause)
			}
			if ctx.Err() != nil {
				return nil, fmt.Errorf("api: %s %s: %w: %w", method, path, ErrNotApplied, ctx.Err())
			}
			if attempt < c.retries {
				c.log.Warn("api: retrying after a network error", "method", method, "path", path, "attempt", attempt+1, "error", err.Error())
				if err := sleep(ctx, c.backoff(attempt)); err != nil {
					return nil, fmt.Errorf("api: %s %s: %w: %w", method, path, ErrNotApplied, err)
				}
				continue
			}
			return nil, fmt.Errorf("api: %s %s: %w: %w", method, path, ErrNotApplied, err)
		}

		switch {
		case status >= 200 && status < 300:
			c.limiter.succeeded()
			return &answer{status: status, body: body}, nil

		case status == http.StatusTooManyRequests || (status == http.StatusForbidden && wire.IsThrottleBody(body)):
			c.throttled.Add(1)
			ra := retryAfter(header.Get(wire.HeaderRetryAfter), time.Now())
			c.limiter.throttled(gen, ra)
			rate := c.limiter.Rate()
			if attempt >= c.retries {
				return nil, &RateLimitError{Method: method, Path: path, Attempts: attempt + 1, RetryAfter: ra, Rate: rate}
			}
			c.log.Info("api: throttled", "method", method, "path", path, "status", status, "retry_after", ra, "rate", rate, "attempt", attempt+1)
			if ra <= 0 { // with Retry-After the limiter blocks everyone
				if err := sleep(ctx, c.backoff(attempt)); err != nil {
					return nil, fmt.Errorf("api: %s %s: %w: %w", method, path, ErrNotApplied, err)
				}
			}

		case status >= 500:
			apiErr := c.apiError(method, path, status, body)
			if cl.write {
				c.unknown.Add(1)
				return nil, fmt.Errorf("%w: %w", ErrOutcomeUnknown, apiErr)
			}
			if attempt >= c.retries {
				return nil, apiErr
			}
			c.log.Warn("api: retrying a read after a server error", "method", method, "path", path, "status", status, "attempt", attempt+1)
			wait := retryAfter(header.Get(wire.HeaderRetryAfter), time.Now())
			if wait <= 0 {
				wait = c.backoff(attempt)
			}
			if err := sleep(ctx, wait); err != nil {
				return nil, fmt.Errorf("api: %s %s: %w: %w", method, path, ErrNotApplied, err)
			}

		case status >= 300 && status < 400:
			e := c.apiError(method, path, status, body)
			loc, _ := clip(c.redact(header.Get("Location")), maxMessageBytes)
			e.Message = fmt.Sprintf("the service redirected to %q; lading does not follow redirects (the token would go along): give that address as the base URL", loc)
			return nil, e

		default:
			return &answer{status: status, body: body}, c.apiError(method, path, status, body)
		}
	}
}

// send makes one HTTP exchange. sent reports whether the whole request was
// written to the connection (after which a write may have been applied).
func (c *Client) send(ctx context.Context, cl call) (status int, header http.Header, body []byte, sent bool, err error) {
	u := *c.base
	u.Path = c.base.Path + cl.path
	var wrote atomic.Bool
	trace := &httptrace.ClientTrace{
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			if info.Err == nil {
				wrote.Store(true)
			}
		},
	}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodPost, u.String(), bytes.NewReader(cl.body))
	if err != nil {
		return 0, nil, nil, false, err
	}
	ct := cl.contentType
	if ct == "" {
		ct = wire.ContentTypeJSON
	}
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	req.Header[wire.HeaderToken] = []string{c.token} // sent as spelled [A.2]

	start := time.Now()
	c.traceRequest(req, cl.body)
	resp, err := c.hc.Do(req)
	if err != nil {
		c.traceError(err, time.Since(start))
		return 0, nil, nil, wrote.Load(), err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		c.traceError(err, time.Since(start))
		return 0, nil, nil, true, fmt.Errorf("reading the %d answer: %w", resp.StatusCode, err)
	}
	c.traceResponse(resp, body, time.Since(start))
	c.log.Debug("api: request", "method", req.Method, "path", u.Path, "status", resp.StatusCode, "duration", time.Since(start))
	return resp.StatusCode, resp.Header, body, true, nil
}

// backoff is exponential with full jitter.
func (c *Client) backoff(attempt int) time.Duration {
	d := c.backoffBase
	for i := 0; i < attempt && d < c.backoffMax; i++ {
		d *= 2
	}
	if d > c.backoffMax {
		d = c.backoffMax
	}
	return rand.N(d) + 1
}

// retryAfter parses a Retry-After header: seconds or an HTTP date. It
// returns 0 when absent or unreadable, and caps long waits.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		switch { // before converting: 1e20 s overflows a Duration
		case math.IsNaN(secs):
			return 0
		case secs >= maxRetryAfter.Seconds():
			return maxRetryAfter
		}
		d = time.Duration(secs * float64(time.Second))
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	}
	if d < 0 {
		return 0
	}
	if d > maxRetryAfter {
		return maxRetryAfter
	}
	return d
}

// apiError builds the error of a non-2xx answer from its body ([B.1],
// and the `message` key clients read [A.10]).
func (c *Client) apiError(method, path string, status int, body []byte) *APIError {
	e := &APIError{StatusCode: status, Method: method, Path: path}
	var eb struct {
		Message Flex `json:"message"`
		Error   Flex `json:"error"`
		Errors  []struct {
			Index   Flex `json:"index"`
			Field   Flex `json:"field"`
			Message Flex `json:"message"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &eb) == nil {
		e.Message = string(eb.Message)
		if e.Message == "" {
			e.Message = string(eb.Error)
		}
		for _, r := range eb.Errors {
			n, err := r.Index.Int()
			if err != nil || r.Index == "" {
				n = -1
			}
			e.Errors = append(e.Errors, RecordError{Index: int(n), Field: c.redact(string(r.Field)), Message: c.redact(string(r.Message))})
		}
	} else {
		e.Message = strings.TrimSpace(string(body))
	}
	// Redact before cutting: a cut through the token would leave a prefix
	// that redact no longer recognises.
	msg, more := clip(c.redact(e.Message), maxMessageBytes)
	if more > 0 {
		msg += "..."
	}
	e.Message = msg
	return e
}

// redact removes the token from s.
func (c *Client) redact(s string) string {
	if c.token == "" {
		return s
	}
	return strings.ReplaceAll(s, c.token, redacted)
}

const redacted = "[REDACTED]"

// maxMessageBytes bounds the message an APIError quotes from an answer.
const maxMessageBytes = 300

// clip cuts s to at most n bytes without splitting a UTF-8 sequence, and
// returns how many bytes it left off.
func clip(s string, n int) (string, int) {
	if len(s) <= n {
		return s, 0
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], len(s) - cut
}
