package api

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Client talks to one account of the integrations interface with one
// access token. It is safe for concurrent use.
type Client struct {
	Products     *ProductsService
	Variants     *VariantsService
	ProductTags  *ProductTagsService
	ProductFiles *ProductFilesService
	PackingSlips *PackingSlipsService
	Packages     *PackagesService
	Fulfillments *FulfillmentsService
	SalesOrders  *SalesOrdersService
	Stock        *StockService

	base        *url.URL
	token       string
	hc          *http.Client
	limiter     *Limiter
	retries     int
	backoffBase time.Duration
	backoffMax  time.Duration
	log         *slog.Logger
	userAgent   string

	debugMu sync.Mutex
	debug   io.Writer

	requests  atomic.Int64
	writes    atomic.Int64
	retried   atomic.Int64
	throttled atomic.Int64
	unknown   atomic.Int64
}

// Defaults.
const (
	DefaultRetries   = 6
	DefaultUserAgent = "lading"
	// DefaultTimeout bounds one HTTP exchange of the default HTTP client.
	DefaultTimeout = 2 * time.Minute
	maxRetryAfter  = 10 * time.Minute
)

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sets the HTTP client (its Timeout bounds one exchange).
// The client never follows redirects, whatever hc.CheckRedirect says.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// WithRate paces this client at perSecond requests with burst, adapting
// down on throttling. Clients of the same token should share a limiter
// instead: WithLimiter.
func WithRate(perSecond float64, burst int) Option {
	return func(c *Client) { c.limiter = NewLimiter(perSecond, burst) }
}

// WithLimiter shares one pacer across clients of the same token.
func WithLimiter(l *Limiter) Option { return func(c *Client) { c.limiter = l } }

// WithRetries sets how many times a call is retried after throttling or a
// failure that proves nothing was applied (reads also after network errors
// and 5xx). 0 disables retries.
func WithRetries(max int) Option { return func(c *Client) { c.retries = max } }

// WithBackoff sets the exponential backoff (full jitter) between retries
// that have no Retry-After: attempt n waits a random duration in
// [0, min(max, base*2^n)).
func WithBackoff(base, max time.Duration) Option {
	return func(c *Client) { c.backoffBase, c.backoffMax = base, max }
}

// WithDebug writes an HTTP trace of every exchange to w: method, URL,
// status, duration and bodies (truncated), with the access token redacted.
func WithDebug(w io.Writer) Option { return func(c *Client) { c.debug = w } }

// WithLogger logs retries and throttling (Info/Warn) and each request
// (Debug). The token is never logged.
func WithLogger(l *slog.Logger) Option { return func(c *Client) { c.log = l } }

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// NewClient returns a client of the service at baseURL, which may carry a
// path prefix such as "https://host/api2". token is sent in the
// access_token header and never appears in errors, logs or traces.
func NewClient(baseURL, token string, opts ...Option) (*Client, error) {
	u, err := parseBase(baseURL)
	if err != nil {
		return nil, err
	}
	if token == "" {
		return nil, errors.New("api: the access token is empty: log in first")
	}
	if strings.ContainsAny(token, "\r\n\t ") {
		return nil, errors.New("api: the access token contains white space or line breaks: check how it was stored")
	}
	c := &Client{
		base:        u,
		token:       token,
		retries:     DefaultRetries,
		backoffBase: 500 * time.Millisecond,
		backoffMax:  30 * time.Second,
		userAgent:   DefaultUserAgent,
	}
	for _, o := range opts {
		o(c)
	}
	if c.hc == nil {
		c.hc = &http.Client{Timeout: DefaultTimeout}
	}
	// Never follow a redirect: Go would resend the access_token header (not
	// one it knows as sensitive) to whatever host the answer names, and turn
	// a POST into a GET on 301/302. A copy, so the caller's client is left
	// as it was.
	hc := *c.hc
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c.hc = &hc
	if c.limiter == nil {
		c.limiter = NewLimiter(DefaultRate, DefaultBurst)
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.retries < 0 {
		c.retries = 0
	}
	if c.backoffBase <= 0 {
		c.backoffBase = time.Millisecond
	}
	if c.backoffMax < c.backoffBase {
		c.backoffMax = c.backoffBase
	}
	c.Products = &ProductsService{c}
	c.Variants = &VariantsService{c}
	c.ProductTags = &ProductTagsService{c}
	c.ProductFiles = &ProductFilesService{c}
	c.PackingSlips = &PackingSlipsService{c}
	c.Packages = &PackagesService{c}
	c.Fulfillments = &FulfillmentsService{c}
	c.SalesOrders = &SalesOrdersService{c}
	c.Stock = &StockService{c}
	return c, nil
}

// CheckBaseURL checks a base URL as NewClient would take it: an http or
// https URL with a host, and neither credentials, query nor fragment.
func CheckBaseURL(baseURL string) error {
	_, err := parseBase(baseURL)
	return err
}

func parseBase(baseURL string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil {
		return nil, fmt.Errorf("the base URL %q: %v", baseURL, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("the base URL %q: want an http or https URL such as https://host/api2", baseURL)
	case u.Host == "":
		return nil, fmt.Errorf("the base URL %q has no host", baseURL)
	case u.User != nil:
		return nil, errors.New("the base URL carries credentials (user:password@); remove them, the token is sent in a header")
	case u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("the base URL %s://%s%s: remove the query or fragment", u.Scheme, u.Host, u.Path)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// BaseURL returns the base URL the client was made with, without a trailing
// slash.
func (c *Client) BaseURL() string { return c.base.String() }

// Limiter returns the client's pacer, to share with other clients of the
// same token.
func (c *Client) Limiter() *Limiter { return c.limiter }

// Stats counts a client's traffic.
type Stats struct {
	// Requests is the number of HTTP exchanges attempted.
	Requests int64
	// Writes is how many of them were writes; the rest were reads.
	Writes int64
	// Retries is the number of attempts after the first of a call.
	Retries int64
	// Throttled is the number of throttled answers (429, or 403 throttling).
	Throttled int64
	// Unknown is the number of writes whose outcome is unknown.
	Unknown int64
	// Rate is the limiter's current rate, per second.
	Rate float64
}

// Traffic is what a job sent, for its report: Reads is Requests less
// Writes; Throttled counts the answers that asked to slow down.
type Traffic struct {
	Requests  int64 `json:"requests"`
	Writes    int64 `json:"writes"`
	Reads     int64 `json:"reads"`
	Throttled int64 `json:"throttled"`
}

// TrafficSince is the client's traffic since before, an earlier Stats of
// it.
func (c *Client) TrafficSince(before Stats) Traffic {
	now := c.Stats()
	t := Traffic{Requests: now.Requests - before.Requests, Writes: now.Writes - before.Writes, Throttled: now.Throttled - before.Throttled}
	t.Reads = t.Requests - t.Writes
	return t
}

// Stats returns the client's counters.
func (c *Client) Stats() Stats {
	return Stats{
		Requests:  c.requests.Load(),
		Writes:    c.writes.Load(),
		Retries:   c.retried.Load(),
		Throttled: c.throttled.Load(),
		Unknown:   c.unknown.Load(),
		Rate:      c.limiter.Rate(),
	}
}
