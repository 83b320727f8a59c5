package importer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lading/api"
	"lading/engine"
	"lading/importer"
	"lading/sandbox"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// failingWrites answers writes with answer and passes reads on to the
// sandbox, counting the writes.
type failingWrites struct {
	next   http.Handler
	answer func(w http.ResponseWriter, r *http.Request, next http.Handler)
	writes atomic.Int64
}

func (f *failingWrites) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.Contains(r.URL.Path, "/v1/") {
		f.next.ServeHTTP(w, r)
		return
	}
	f.writes.Add(1)
	f.answer(w, r, f.next)
}

func status(code int, body string) func(w http.ResponseWriter, r *http.Request, next http.Handler) {
	return func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
		w.Header().Set("Content-Type", "application/json")
		if code == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "0")
		}
		w.WriteHeader(code)
		w.Write([]byte(body))
	}
}

// refuseProduct refuses, naming it, the write that carries product key's
// name, and lets the others through.
func refuseProduct(name string) func(w http.ResponseWriter, r *http.Request, next http.Handler) {
	return func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var env struct{ Products []struct{ Name string } }
		json.Unmarshal(body, &env)
		for i, p := range env.Products {
			if p.Name == name {
				status(400, fmt.Sprintf(`{"message":"Validation failed","errors":[{"index":%d,"field":"name","message":"is taken"}]}`, i))(w, r, next)
				return
			}
		}
		next.ServeHTTP(w, r)
	}
}

// dropConnection closes the connection without an answer.
func dropConnection(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err == nil {
		conn.Close()
	}
}

// Every way a write can fail ends in results lines that say what happened
// and what to do. A write the service refuses as a whole (400, 404, 413) is
// sent once; a write without an answer, or throttled throughout, is tried
// in five rounds. The results files are compared with golden files.
func TestImportResultsWhenWritesFail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		answer  func(w http.ResponseWriter, r *http.Request, next http.Handler)
		sent    int64 // write requests received
		failed  int   // rows failed
		skipped int
	}{
		{"400", status(400, `{"message":"The request could not be understood"}`), 1, 4, 0},
		// The service refuses the write for one product's error: the other
		// product goes again without it, and is created.
		{"400-record", refuseProduct("Organic Tee 2"), 2, 2, 0},
		// The service names the field of the refused value: the rows say
		// which row and column it came from.
		{"400-field", status(400, `{"message":"Validation failed","errors":[{"index":0,"field":"links.Variants[1].quantity","message":"quantity 99999999 is too large"}]}`), 2, 4, 0},
		{"404", status(404, `{"message":"Not found"}`), 1, 4, 0},
		{"413", status(413, `{"message":"Request entity too large"}`), 1, 4, 0},
		{"502", status(502, `{"message":"Bad gateway"}`), 5, 4, 0},
		{"dropped", dropConnection, 5, 4, 0},
		// Each round the client tries twice (WithRetries(1)).
		{"throttled", status(429, `{"message":"Too many requests"}`), 10, 4, 0},
		{"401", status(401, `{"message":"Unauthenticated"}`), 1, 4, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, sandbox.Options{})
			fw := &failingWrites{next: e.srv, answer: tt.answer}
			hs := httptest.NewServer(fw)
			t.Cleanup(hs.Close)
			c, err := api.NewClient(hs.URL+"/api2", "tok", api.WithRate(1000, 100), api.WithRetries(1), api.WithBackoff(time.Millisecond, 2*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			in := e.generate("gen.csv", 2, 2)
			rep, err := e.importFile(context.Background(), "generic", in, func(o *importer.Options) { o.Client = c })
			if tt.name == "401" {
				if !errors.Is(err, api.ErrAccessDenied) {
					t.Fatalf("err = %v, want the token refused", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got := fw.writes.Load(); got != tt.sent {
				t.Errorf("%d writes sent, want %d", got, tt.sent)
			}
			if rep.Rows[engine.Failed] != tt.failed || rep.Rows[engine.Skipped] != tt.skipped {
				t.Errorf("rows %v, want %d failed and %d skipped", rep.Rows, tt.failed, tt.skipped)
			}
			got, err := os.ReadFile(rep.Results)
			if err != nil {
				t.Fatal(err)
			}
			// The input's folder changes from run to run.
			got = []byte(strings.ReplaceAll(string(got), e.dir+string(filepath.Separator), ""))
			golden(t, filepath.Join("testdata", "results", tt.name+".csv"), got)
		})
	}
}

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs:\n got:\n%s\nwant:\n%s", path, got, want)
	}
}
