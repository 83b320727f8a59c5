package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	closed := httptest.NewServer(http.NotFoundHandler())
	refusedURL := closed.URL
	closed.Close()

	type tc struct {
		name     string
		handle   func(w http.ResponseWriter, r *http.Request, body []byte) // nil: connection refused
		write    bool
		timeout  time.Duration
		want     Outcome
		requests int // requests the server must see (-1: not checked)
		check    func(t *testing.T, res *WriteResult, err error)
	}
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	status := func(code int, body string) func(w http.ResponseWriter, r *http.Request, _ []byte) {
		return func(w http.ResponseWriter, r *http.Request, _ []byte) {
			w.WriteHeader(code)
			w.Write([]byte(body))
		}
	}
	rejectedWhole := func(t *testing.T, res *WriteResult, err error) {
		if res != nil {
			t.Errorf("a result with a whole-call error: %+v", res)
		}
	}
	n500, cuts := 0, 0
	tests := []tc{
		{name: "write refused", write: true, want: Retryable, requests: -1, check: func(t *testing.T, _ *WriteResult, err error) {
			if !errors.Is(err, ErrNotApplied) {
				t.Errorf("err does not wrap ErrNotApplied: %v", err)
			}
		}},
		{name: "read refused", want: Retryable, requests: -1},
		{name: "write 500", write: true, want: Unknown, requests: 1, handle: status(500, "boom"),
			check: func(t *testing.T, res *WriteResult, err error) {
				var ae *APIError
				if res != nil || !errors.Is(err, ErrOutcomeUnknown) || !errors.As(err, &ae) || ae.StatusCode != 500 {
					t.Errorf("res = %+v, err = %v", res, err)
				}
			}},
		{name: "write 502", write: true, want: Unknown, requests: 1, handle: status(502, "upstream timed out"),
			check: func(t *testing.T, _ *WriteResult, err error) {
				const want = "api: POST /v1/Variants/detail: 502 Bad Gateway: upstream timed out (no answer to the write)"
				if err.Error() != want {
					t.Errorf("err = %q, want %q", err, want)
				}
			}},
		{name: "read 500 then ok", want: Applied, requests: 3,
			handle: func(w http.ResponseWriter, r *http.Request, body []byte) {
				if n500++; n500 < 3 {
					http.Error(w, "boom", http.StatusServiceUnavailable)
					return
				}
				w.Write([]byte(`{"meta":{"current_page":"1","last_page":"1"},"Variants":[]}`))
			}},
		{name: "read 502 every time", want: Retryable, requests: 4, handle: status(502, "")},
		// Answers are decoded as they come: one cut short by the
		// connection is read again; one that is not a read answer is an
		// error, not tried again.
		{name: "read cut short then ok", want: Applied, requests: 2,
			handle: func(w http.ResponseWriter, r *http.Request, body []byte) {
				answer := `{"meta":{"current_page":"1","last_page":"1"},"Variants":[{"id":"1","sku":"A"}]}`
				if cuts++; cuts > 1 {
					w.Write([]byte(answer))
					return
				}
				conn, buf, err := w.(http.Hijacker).Hijack()
				if err == nil {
					fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(answer), answer[:30])
					buf.Flush()
					conn.Close()
				}
			}},
		{name: "read answer not JSON", want: Retryable, requests: 1, handle: status(200, `<html>ok</html>`),
			check: func(t *testing.T, _ *WriteResult, err error) {
				if !errors.Is(err, ErrNotApplied) || !strings.Contains(err.Error(), "Variants read answer") {
					t.Errorf("err = %v", err)
				}
			}},
		{name: "write timeout", write: true, timeout: 200 * time.Millisecond, want: Unknown, requests: 1,
			handle: func(w http.ResponseWriter, r *http.Request, body []byte) {
				select {
				case <-release:
				case <-r.Context().Done():
				}
			}},
		{name: "write connection lost", write: true, want: Unknown, requests: 1,
			handle: func(w http.ResponseWriter, r *http.Request, body []byte) {
				conn, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
					conn.Close()
				}
			},
			check: func(t *testing.T, _ *WriteResult, err error) {
				if !strings.Contains(err.Error(), "POST /v1/Variants/detail: no answer to the write: ") {
					t.Errorf("err = %v", err)
				}
			}},
		{name: "write throttled every time", write: true, want: Retryable, requests: 4, handle: status(429, "")},
		{name: "write 400 per record", write: true, want: Applied, requests: 1,
			handle: status(400, `{"message":"validation failed","errors":[{"index":1,"field":"sku","message":"sku is required"}]}`),
			check: func(t *testing.T, res *WriteResult, _ error) {
				want := []RecordError{
					{Index: 0, Message: "validation failed", Whole: true},
					{Index: 1, Field: "sku", Message: "sku is required"},
				}
				if res == nil || !slices.Equal(res.Failed, want) || res.OK(0) || res.OK(1) {
					t.Errorf("res = %+v, want failed %+v", res, want)
				}
			}},
		{name: "write 400 per record in write form", write: true, want: Applied, requests: 1,
			handle: status(400, `{"Variants":[{"error":{"message":"bad"}},{"error":{"message":"worse"}}]}`),
			check: func(t *testing.T, res *WriteResult, _ error) {
				want := []RecordError{{Index: 0, Message: "bad"}, {Index: 1, Message: "worse"}}
				if res == nil || !slices.Equal(res.Failed, want) {
					t.Errorf("res = %+v, want failed %+v", res, want)
				}
			}},
		{name: "write 422 per record", write: true, want: Applied, requests: 1,
			handle: status(422, `{"message":"invalid","errors":[{"index":0,"message":"bad"},{"index":1,"message":"worse"}]}`),
			check: func(t *testing.T, res *WriteResult, _ error) {
				if res == nil || len(res.Failed) != 2 || res.Failed[1].Message != "worse" {
					t.Errorf("res = %+v", res)
				}
			}},
		{name: "write 400 without records", write: true, want: Rejected, requests: 1,
			handle: status(400, `{"message":"malformed envelope"}`),
			check: func(t *testing.T, res *WriteResult, err error) {
				rejectedWhole(t, res, err)
				if err.Error() != "api: POST /v1/Variants/detail: 400 Bad Request: malformed envelope" {
					t.Errorf("err = %v", err)
				}
			}},
		{name: "write 400 naming records out of range", write: true, want: Rejected, requests: 1,
			handle: status(400, `{"message":"bad","errors":[{"index":7,"message":"no such record"}]}`), check: rejectedWhole},
		{name: "read 401", want: Rejected, requests: 1, handle: status(401, `{"message":"unknown token"}`),
			check: func(t *testing.T, _ *WriteResult, err error) {
				if !errors.Is(err, ErrAccessDenied) || err.Error() != "api: POST /v2/Variants/detail: 401 Unauthorized: unknown token" {
					t.Errorf("err = %v", err)
				}
			}},
		{name: "write 401 naming records", write: true, want: Rejected, requests: 1,
			handle: status(401, `{"message":"unknown token","errors":[{"index":0,"message":"x"}]}`),
			check: func(t *testing.T, res *WriteResult, err error) {
				rejectedWhole(t, res, err)
				if !errors.Is(err, ErrAccessDenied) {
					t.Errorf("err = %v", err)
				}
			}},
		{name: "write 403 permission", write: true, want: Rejected, requests: 1,
			handle: status(403, `{"message":"third-party stock control is off"}`),
			check: func(t *testing.T, res *WriteResult, err error) {
				rejectedWhole(t, res, err)
				if !errors.Is(err, ErrAccessDenied) || err.Error() != "api: POST /v1/Variants/detail: 403 Forbidden: third-party stock control is off" {
					t.Errorf("err = %v", err)
				}
			}},
		{name: "write 404", write: true, want: Rejected, requests: 1, handle: status(404, `{"message":"no such path"}`),
			check: func(t *testing.T, res *WriteResult, err error) {
				rejectedWhole(t, res, err)
				if errors.Is(err, ErrAccessDenied) {
					t.Errorf("a 404 matches ErrAccessDenied: %v", err)
				}
			}},
		{name: "write 405", write: true, want: Rejected, requests: 1, handle: status(405, "POST only"), check: rejectedWhole},
		{name: "write 413", write: true, want: Rejected, requests: 1, handle: status(413, `{"message":"too large"}`), check: rejectedWhole},
		{name: "read 404", want: Rejected, requests: 1, handle: status(404, `{"message":"no such record"}`)},
		{name: "write answer short", write: true, want: Unknown, requests: 1,
			handle: status(200, `{"Variants":[{"id":"1"}]}`), check: rejectedWhole},
		{name: "write answer not JSON", write: true, want: Unknown, requests: 1,
			handle: status(200, `<html>ok</html>`), check: rejectedWhole},
		{name: "write partial 200", write: true, want: Applied, requests: 1,
			handle: status(200, `{"Variants":[{"id":"1"},{"error":{"message":"bad"}}]}`),
			check: func(t *testing.T, res *WriteResult, _ error) {
				if !res.OK(0) || res.OK(1) || !slices.Equal(res.Failed, []RecordError{{Index: 1, Message: "bad"}}) {
					t.Errorf("res = %+v", res)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := refusedURL
			var srv *recorder
			if tt.handle != nil {
				srv = newRecorder(t, tt.handle)
				base = srv.URL
			}
			opts := []Option{WithRetries(3), WithBackoff(time.Millisecond, time.Millisecond)}
			if tt.timeout > 0 {
				opts = append(opts, WithHTTPClient(&http.Client{Timeout: tt.timeout}))
			}
			c := newTestClient(t, base, opts...)
			var res *WriteResult
			var err error
			if tt.write {
				res, err = c.Variants.Write(context.Background(), []VariantWrite{{SKU: String("A")}, {}})
			} else {
				_, err = c.Variants.Get(context.Background(), "1")
			}
			if got := Classify(err); got != tt.want {
				t.Errorf("Classify = %v, want %v (err: %v)", got, tt.want, err)
			}
			if tt.write && (res == nil) == (err == nil) {
				t.Errorf("want a result or an error: res = %+v, err = %v", res, err)
			}
			if srv != nil && tt.requests >= 0 && len(srv.requests()) != tt.requests {
				t.Errorf("requests = %d, want %d", len(srv.requests()), tt.requests)
			}
			if unknown := c.Stats().Unknown; (tt.want == Unknown) != (unknown == 1) || unknown > 1 {
				t.Errorf("Stats().Unknown = %d", unknown)
			}
			if tt.check != nil {
				tt.check(t, res, err)
			}
		})
	}
}

func TestClassifyPlainErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want Outcome
	}{
		{nil, Applied},
		{errors.New("something else"), Unknown},
		{context.Canceled, Retryable},
		{context.DeadlineExceeded, Retryable},
		{fmt.Errorf("x: %w", ErrNotApplied), Retryable},
		{&RateLimitError{}, Retryable},
		{&APIError{StatusCode: 500}, Retryable},
		{&APIError{StatusCode: 503}, Retryable},
		{&QueryError{}, Rejected},
		{fmt.Errorf("x: %w", ErrInvalid), Rejected},
		{&APIError{StatusCode: 307}, Rejected},
		{&APIError{StatusCode: 400}, Rejected},
		{&APIError{StatusCode: 401}, Rejected},
		{&APIError{StatusCode: 403}, Rejected},
		{&APIError{StatusCode: 404}, Rejected},
		{&APIError{StatusCode: 405}, Rejected},
		{&APIError{StatusCode: 409}, Rejected},
		{&APIError{StatusCode: 413}, Rejected},
		{&APIError{StatusCode: 422, Errors: []RecordError{{Index: 0}}}, Rejected},
		{fmt.Errorf("%w (%w)", &APIError{StatusCode: 502}, ErrOutcomeUnknown), Unknown},
		{errors.Join(ErrOutcomeUnknown, context.Canceled), Unknown},
	}
	for _, tt := range tests {
		if got := Classify(tt.err); got != tt.want {
			t.Errorf("Classify(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

func TestAccessDenied(t *testing.T) {
	t.Parallel()
	for code, want := range map[int]bool{400: false, 401: true, 403: true, 404: false, 429: false, 500: false} {
		err := fmt.Errorf("wrapped: %w", &APIError{StatusCode: code})
		if got := errors.Is(err, ErrAccessDenied); got != want {
			t.Errorf("%d: errors.Is(err, ErrAccessDenied) = %v, want %v", code, got, want)
		}
	}
}

func TestCancelledBeforeSendingIsRetryable(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) { writeAnswer(w, body) })
	c := newTestClient(t, srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Products.Delete(ctx, "1")
	if Classify(err) != Retryable || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
	if len(srv.requests()) != 0 {
		t.Error("a request was sent")
	}
}

// A write whose context ends as the transport writes it: once the
// transport has read its body whole, the bytes may be out and the write
// applied, whether or not the transport said it finished writing; before,
// nothing of it can have been applied.
func TestCancelledWhileWritingIsUnknown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		read int64 // bytes of the body the transport reads before the context ends; -1: all
		want Outcome
	}{
		{"body read whole", -1, Unknown},
		{"body read in part", 10, Retryable},
		{"body not read", 0, Retryable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			hc := &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
				if tc.read < 0 {
					io.Copy(io.Discard, req.Body)
				} else {
					io.CopyN(io.Discard, req.Body, tc.read)
				}
				cancel()
				return nil, req.Context().Err()
			})}
			c := newTestClient(t, "http://service.invalid", WithHTTPClient(hc))
			_, err := c.Products.Delete(ctx, "1")
			if got := Classify(err); got != tc.want {
				t.Errorf("%v: %v, want %v", err, got, tc.want)
			}
		})
	}
}

// A call's body goes with its length, an empty one too (a length of 0
// with a body would go chunked).
func TestBodyLength(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"action":"read"}`, ""} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got, _ := io.ReadAll(r.Body)
			if r.ContentLength != int64(len(body)) || len(r.TransferEncoding) > 0 || string(got) != body {
				t.Errorf("the server got %q, length %d, transfer encoding %v; want %q with its length", got, r.ContentLength, r.TransferEncoding, body)
			}
		}))
		c := newTestClient(t, srv.URL)
		if r, _ := c.send(context.Background(), call{path: "/v1/Products", body: []byte(body), write: true}); r.err != nil || r.status != 200 {
			t.Errorf("body %q: %+v", body, r)
		}
		srv.Close()
	}
}

// TestTokenNeverLeaks drives errors, logs and the debug trace through
// answers that echo the token, and looks for it everywhere.
func TestTokenNeverLeaks(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		tok := r.Header.Get("access_token")
		switch r.URL.Path {
		case "/v2/Variants/detail":
			http.Error(w, `{"message":"token `+tok+` unknown"}`, http.StatusUnauthorized)
		case "/v1/Variants/detail":
			w.WriteHeader(400)
			w.Write([]byte(`{"message":"bad","errors":[{"index":0,"field":"` + tok + `","message":"echo ` + tok + `"}]}`))
		case "/v2/Products/detail":
			w.Header().Set("X-Echo", tok)
			http.Error(w, "upstream "+tok, http.StatusBadGateway)
		default:
			w.Write([]byte(`{"Products":[{"error":"` + tok + `"}]}`))
		}
	})
	var trace, logs bytes.Buffer
	c := newTestClient(t, srv.URL, WithDebug(&trace), WithRetries(1),
		WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	ctx := context.Background()
	var errs []string
	_, err := c.Variants.Get(ctx, "1")
	errs = append(errs, err.Error())
	res, err := c.Variants.Write(ctx, []VariantWrite{{}})
	if err != nil {
		t.Fatal(err)
	}
	errs = append(errs, fmt.Sprint(res.Failed))
	_, err = c.Products.Get(ctx, "1")
	errs = append(errs, err.Error())
	res, err = c.Products.Write(ctx, []ProductWrite{{}})
	if err != nil {
		t.Fatal(err)
	}
	errs = append(errs, fmt.Sprint(res.Failed))
	refused := newTestClient(t, "http://127.0.0.1:1", WithRetries(0), WithDebug(&trace))
	_, err = refused.Products.Get(ctx, "1")
	errs = append(errs, err.Error())

	for i, e := range errs {
		t.Logf("error %d: %s", i, e)
		if strings.Contains(e, testToken) {
			t.Errorf("error %d leaks the token: %s", i, e)
		}
	}
	if strings.Contains(trace.String(), testToken) {
		t.Errorf("debug trace leaks the token:\n%s", trace.String())
	}
	if strings.Contains(logs.String(), testToken) {
		t.Errorf("log leaks the token:\n%s", logs.String())
	}
	if !strings.Contains(trace.String(), "access_token: [REDACTED]") || !strings.Contains(trace.String(), "--> POST http://") ||
		!strings.Contains(trace.String(), "<-- 401 Unauthorized") {
		t.Errorf("trace lacks the redacted header or exchange lines:\n%s", trace.String())
	}
	if logs.Len() == 0 {
		t.Error("nothing was logged")
	}
}

// TestTokenCutByTruncationNeverLeaks echoes the token where the error
// message (300 bytes) and the debug trace (2048 bytes of a body) are cut:
// a prefix of the token must not survive the cut.
func TestTokenCutByTruncationNeverLeaks(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		tok := r.Header.Get("access_token")
		msg := strings.Repeat("x", 300-6) + tok // APIError quotes 300 bytes
		ans := `{"message":"` + msg
		ans += strings.Repeat("y", 2048-6-len(ans)) + tok // the trace shows 2048
		ans += strings.Repeat("z", 100) + `"}`
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(ans))
	})
	var trace bytes.Buffer
	c := newTestClient(t, srv.URL, WithDebug(&trace), WithRetries(0))
	_, err := c.Variants.Get(context.Background(), "1")
	if err == nil {
		t.Fatal("want a 401 error")
	}
	prefix := testToken[:6]
	if strings.Contains(err.Error(), prefix) {
		t.Errorf("error leaks the start of the token: %s", err)
	}
	if !strings.Contains(err.Error(), "xxx"+redacted[:3]) {
		t.Errorf("error lost the redacted message: %s", err)
	}
	if strings.Contains(trace.String(), prefix) {
		t.Errorf("debug trace leaks the start of the token:\n%s", trace.String())
	}
	if !strings.Contains(trace.String(), "more bytes]") {
		t.Errorf("trace did not cut the long body:\n%s", trace.String())
	}
}

func TestClipKeepsRunesWhole(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		n    int
		want string
		more int
	}{
		{"short", 10, "short", 0},
		{"abcdef", 3, "abc", 3},
		{"aé", 2, "a", 2}, // é is 2 bytes: not split
		{"日本", 4, "日", 3},
	}
	for _, tt := range tests {
		got, more := clip(tt.in, tt.n)
		if got != tt.want || more != tt.more {
			t.Errorf("clip(%q, %d) = %q, %d; want %q, %d", tt.in, tt.n, got, more, tt.want, tt.more)
		}
	}
}

func TestErrorsListTenRecordsAndCountTheRest(t *testing.T) {
	t.Parallel()
	var recs []RecordError
	for i := range 12 {
		recs = append(recs, RecordError{Index: i, Message: "bad"})
	}
	err := &APIError{StatusCode: http.StatusBadRequest, Method: "POST", Path: "/v1/Products/detail", Errors: recs}
	if msg := err.Error(); !strings.Contains(msg, "record 9: bad; and 2 more") || strings.Contains(msg, "record 10: bad") {
		t.Errorf("the error lists the wrong records: %s", msg)
	}
}
