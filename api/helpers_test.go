package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

const testToken = "tok-SECRET-5f3a9c"

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// exchange is one request a test server received.
type exchange struct {
	Path   string
	Header http.Header
	Body   []byte
}

// recorder is a test server that records requests and answers them with
// handle.
type recorder struct {
	*httptest.Server
	mu  sync.Mutex
	got []exchange
}

func newRecorder(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, body []byte)) *recorder {
	t.Helper()
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.got = append(rec.got, exchange{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
		rec.mu.Unlock()
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		handle(w, r, body)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) requests() []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]exchange(nil), r.got...)
}

func newTestClient(t *testing.T, base string, opts ...Option) *Client {
	t.Helper()
	all := append([]Option{WithRate(1000, 100), WithBackoff(time.Millisecond, 5*time.Millisecond)}, opts...)
	c, err := NewClient(base, testToken, all...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// jsonEqual compares two JSON documents semantically.
func jsonEqual(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got invalid JSON %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want invalid JSON %s: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("JSON differs\n got: %s\nwant: %s", got, want)
	}
}

// writeAnswer answers a write envelope with one id per record (ids from
// 1001), in the wire's form.
func writeAnswer(w http.ResponseWriter, body []byte) {
	var env map[string]json.RawMessage
	if err := json.Unmarshal(body, &env); err != nil {
		http.Error(w, `{"message":"bad json"}`, http.StatusBadRequest)
		return
	}
	for k, v := range env {
		if k == "action" || k == "bulk_action" {
			continue
		}
		var recs []json.RawMessage
		if json.Unmarshal(v, &recs) != nil {
			continue
		}
		out := make([]map[string]string, len(recs))
		for i := range recs {
			out[i] = map[string]string{"id": fmt.Sprint(1001 + i)}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{k: out})
		return
	}
	http.Error(w, `{"message":"no records"}`, http.StatusBadRequest)
}

func asErr[T any](err error, target *T) bool { return errorsAs(err, target) }

func errorsAs[T any](err error, target *T) bool { return errors.As(err, target) }

// roundTripFunc is an http.RoundTripper of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
