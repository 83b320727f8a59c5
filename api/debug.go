package api

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"lading/api/wire"
)

// traceBodyBytes is how much of a body the debug trace shows.
const traceBodyBytes = 2048

func (c *Client) traceRequest(req *http.Request, body []byte) {
	if c.debug == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--> %s %s\n", req.Method, req.URL.Redacted())
	writeHeaders(&b, req.Header)
	c.writeBody(&b, req.Header.Get("Content-Type"), body)
	c.writeTrace(b.String())
}

func (c *Client) traceResponse(resp *http.Response, body []byte, d time.Duration) {
	if c.debug == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<-- %s (%s)\n", resp.Status, d.Round(time.Millisecond))
	writeHeaders(&b, resp.Header)
	c.writeBody(&b, resp.Header.Get("Content-Type"), body)
	c.writeTrace(b.String())
}

func (c *Client) traceError(err error, d time.Duration) {
	if c.debug == nil {
		return
	}
	c.writeTrace(fmt.Sprintf("<-- error after %s: %v\n\n", d.Round(time.Millisecond), err))
}

func (c *Client) writeTrace(s string) {
	c.debugMu.Lock()
	defer c.debugMu.Unlock()
	fmt.Fprint(c.debug, c.redact(s))
}

func writeHeaders(b *strings.Builder, h http.Header) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := strings.Join(h[k], ", ")
		switch strings.ToLower(k) {
		case strings.ToLower(wire.HeaderToken), "authorization", "cookie", "set-cookie":
			v = redacted
		}
		fmt.Fprintf(b, "%s: %s\n", k, v)
	}
}

// writeBody shows body, redacted before it is cut to traceBodyBytes (a cut
// through the token would leave a prefix redact no longer recognises).
func (c *Client) writeBody(b *strings.Builder, contentType string, body []byte) {
	switch {
	case len(body) == 0:
	case strings.HasPrefix(contentType, "multipart/"):
		fmt.Fprintf(b, "[multipart body, %d bytes]\n", len(body))
	default:
		shown, more := clip(c.redact(string(body)), traceBodyBytes)
		b.WriteString(shown)
		if more > 0 {
			fmt.Fprintf(b, "... [%d more bytes]", more)
		}
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
}
