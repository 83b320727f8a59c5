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
	"regexp"
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
	// decode, for a read, reads a successful answer straight from the
	// body (into a buffer of its size, read once; see readBody), instead
	// of it being read into memory first.
	decode func(io.Reader) error
}

// answer is a successful (2xx) exchange.
type answer struct {
	status int
	body   []byte
}

// do runs c through the limiter, retrying what [decide] says may be tried
// again, and returns the 2xx answer or the error of the call. A 3xx or 4xx
// error comes with its answer, for callers that read records out of it.
func (c *Client) do(ctx context.Context, cl call) (*answer, error) {
	path := c.base.Path + cl.path
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			c.retried.Add(1)
		}
		gen, err := c.limiter.acquire(ctx)
		if err != nil {
			return nil, fmt.Errorf("api: POST %s: %w: %w", path, ErrNotApplied, err)
		}
		r, header := c.send(ctx, cl)
		c.requests.Add(1)
		if cl.write {
			c.writes.Add(1)
		}
		r.cancelled = ctx.Err() != nil
		ra := retryAfter(header.Get(wire.HeaderRetryAfter), time.Now())
		var wait time.Duration
		switch v := decide(r); v {
		case done:
			c.limiter.succeeded()
			if r.undecodable != nil {
				return nil, fmt.Errorf("api: POST %s: %w: %w", path, ErrNotApplied, r.undecodable)
			}
			return &answer{status: r.status, body: r.body}, nil
		case report:
			return &answer{status: r.status, body: r.body}, c.reportError(path, r, header)
		case unknown:
			c.unknown.Add(1)
			if r.err != nil {
				return nil, fmt.Errorf("api: POST %s: %w: %w", path, ErrOutcomeUnknown, c.cause(ctx, r.err))
			}
			return nil, fmt.Errorf("%w (%w)", c.apiError(path, r.status, r.body), ErrOutcomeUnknown)
		case stop:
			return nil, fmt.Errorf("api: POST %s: %w: %w", path, ErrNotApplied, ctx.Err())
		case throttle:
			c.throttled.Add(1)
			c.limiter.throttled(gen, ra)
			if attempt >= c.retries {
				return nil, &RateLimitError{Method: http.MethodPost, Path: path, Attempts: attempt + 1, RetryAfter: ra, Rate: c.limiter.Rate()}
			}
			c.log.Debug("api: throttled", "path", path, "status", r.status, "retry_after", ra, "rate", c.limiter.Rate(), "attempt", attempt+1)
			if ra <= 0 { // with Retry-After the limiter holds everyone back
				wait = c.backoff(attempt)
			}
		case retry:
			if attempt >= c.retries {
				return nil, c.gaveUp(path, r)
			}
			c.log.Debug("api: retrying", "path", path, "status", r.status, "error", c.errText(r.err), "attempt", attempt+1)
			if wait = ra; wait <= 0 {
				wait = c.backoff(attempt)
			}
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("api: POST %s: %w: %w", path, ErrNotApplied, err)
		}
	}
}

// sentBody is the body of a request, which records in whole once it was
// read to its end. The transport writes the request while the exchange
// waits for the answer; an exchange that ends (its context cancelled) as
// the last bytes go out would not see a report of the writing, but the
// body read whole comes before the bytes leave: a write whose body was
// read whole may have been applied.
// It has no WriteTo, through which io.Copy would read it unseen.
type sentBody struct {
	r     *bytes.Reader
	whole *atomic.Bool
}

func (b *sentBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if b.r.Len() == 0 {
		b.whole.Store(true)
	}
	return n, err
}

func (b *sentBody) Close() error { return nil }

// reportError is the error of an answer [decide] reports: a 3xx or 4xx.
func (c *Client) reportError(path string, r reply, header http.Header) *APIError {
	e := c.apiError(path, r.status, r.body)
	if r.status >= 300 && r.status < 400 {
		loc, _ := clip(c.redact(header.Get("Location")), maxMessageBytes)
		e.Message = fmt.Sprintf("redirected to %q, not followed", loc)
	}
	return e
}

// gaveUp is the error of a call whose retries [decide] allowed ran out.
func (c *Client) gaveUp(path string, r reply) error {
	if r.err != nil {
		return fmt.Errorf("api: POST %s: %w: %w", path, ErrNotApplied, errors.New(c.redact(r.err.Error())))
	}
	return c.apiError(path, r.status, r.body)
}

// cause is what ended an exchange: the caller's context if it ended, else
// the exchange's own error, without the token.
func (c *Client) cause(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return errors.New(c.redact(err.Error()))
}

// errText is err's text without the token ("" for nil).
func (c *Client) errText(err error) string {
	if err == nil {
		return ""
	}
	return c.redact(err.Error())
}

// send makes one HTTP exchange. The reply's sent reports whether the
// transport took the whole request to write (after which a write may have
// been applied, whatever became of the exchange).
func (c *Client) send(ctx context.Context, cl call) (reply, http.Header) {
	r := reply{write: cl.write}
	u := *c.base
	u.Path = c.base.Path + cl.path
	var wrote atomic.Bool
	newBody := func() io.ReadCloser {
		if len(cl.body) == 0 {
			return http.NoBody // a length of 0 with a body would be sent chunked
		}
		return &sentBody{r: bytes.NewReader(cl.body), whole: &wrote}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), newBody())
	if err != nil {
		r.err = err
		return r, nil
	}
	req.ContentLength = int64(len(cl.body))
	req.GetBody = func() (io.ReadCloser, error) { return newBody(), nil }
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
		r.sent, r.err = wrote.Load(), err
		return r, nil
	}
	defer resp.Body.Close()
	r.sent = true
	if cl.decode != nil && resp.StatusCode/100 == 2 && c.debug == nil {
		c.decodeAnswer(&r, cl, resp, u.Path, start)
		return r, resp.Header
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		c.traceError(err, time.Since(start))
		r.err = fmt.Errorf("reading the %d answer: %w", resp.StatusCode, err)
		return r, resp.Header
	}
	c.traceResponse(resp, body, time.Since(start))
	c.log.Debug("api: request", "method", req.Method, "path", u.Path, "status", resp.StatusCode, "duration", time.Since(start))
	r.status, r.body = resp.StatusCode, body
	if cl.decode != nil && resp.StatusCode/100 == 2 {
		r.undecodable = cl.decode(bytes.NewReader(body))
	}
	return r, resp.Header
}

// decodeAnswer has cl decode the successful answer resp from its body. A
// body cut short by the connection is a failed exchange (a read is tried
// again); a body that is not a read answer is undecodable.
func (c *Client) decodeAnswer(r *reply, cl call, resp *http.Response, path string, start time.Time) {
	body := &bodyReader{r: io.LimitReader(resp.Body, maxAnswerBytes), size: resp.ContentLength}
	err := cl.decode(body)
	switch {
	case body.err != nil:
		c.traceError(body.err, time.Since(start))
		r.err = fmt.Errorf("reading the %d answer: %w", resp.StatusCode, body.err)
		return
	case body.n >= maxAnswerBytes:
		err = fmt.Errorf("the answer is larger than %d MiB", maxAnswerBytes>>20)
	}
	c.log.Debug("api: request", "method", http.MethodPost, "path", path, "status", resp.StatusCode, "duration", time.Since(start))
	r.status, r.undecodable = resp.StatusCode, err
}

// bodyReader counts what is read of a body and keeps the error that cut
// it short, if any.
type bodyReader struct {
	r    io.Reader
	n    int64
	size int64 // the answer's Content-Length, or -1
	err  error
}

// sizeHint is the answer's length, as its header gives it (-1: unknown).
func (b *bodyReader) sizeHint() int64 { return b.size }

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	if err != nil && err != io.EOF {
		b.err = err
	}
	return n, err
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
func (c *Client) apiError(path string, status int, body []byte) *APIError {
	e := &APIError{StatusCode: status, Method: http.MethodPost, Path: path}
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

// redactAnywhereLen is the length from which a token is redacted wherever
// it appears. A shorter one would also match ordinary text (a token "a"
// is in most words), so it is redacted only where credentials are known
// to be: the access_token header (see writeHeaders) and credentialFields.
const redactAnywhereLen = 16

// credentialFields are the values of credentials in JSON ("access_token":
// "…") and in URLs and forms (access_token=…).
var credentialFields = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`("(?:access_token|refresh_token|client_secret)"\s*:\s*)"(?:[^"\\]|\\.)*"`), `${1}"` + redacted + `"`},
	{regexp.MustCompile(`(?i)\b((?:access_token|refresh_token|client_secret)=)[^&\s",;}]+`), `${1}` + redacted},
}

// redact removes the token from s: its credential fields always, and the
// token's text anywhere once it is long enough not to match other text.
func (c *Client) redact(s string) string {
	for _, f := range credentialFields {
		s = f.re.ReplaceAllString(s, f.with)
	}
	if len(c.token) >= redactAnywhereLen {
		s = strings.ReplaceAll(s, c.token, redacted)
	}
	return s
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
