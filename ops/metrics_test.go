package ops

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/sandbox"
	"lading/sandbox/sandboxtest"
)

// A run is one log line (JSON with a JSON logger) naming its account and
// job, with its outcome, rows, requests and throttled answers, and the
// metrics count the same: the requests the run's client sent, the
// throttled one among them, the rows by action, the run by outcome, and
// when the job last succeeded.
func TestRunLogLineAndMetrics(t *testing.T) {
	t.Parallel()
	sb := sandboxtest.New(t, sandbox.Options{})
	var calls atomic.Int64
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusTooManyRequests) // the first answer: slow down
			return
		}
		sb.Srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	w := newWorld(t)
	w.write("acme.token", sandboxtest.Token, 0)
	list := func(ctx context.Context, tg Target) (Result, error) {
		for _, err := range tg.Client.Variants.ListPages(ctx, &api.ListOptions{PageSize: 1, MaxPages: 1}) {
			if err != nil {
				return Result{}, err
			}
		}
		return Result{Rows: engine.Counts{"sent": 2, "unchanged": 3}, Summary: "2 sent, 3 unchanged"}, nil
	}
	kinds := Kinds{"fulfillments pull": {Bind: func(*Job) (Task, error) { return Task{Run: list}, nil }}}
	text := strings.NewReplacer("DIR", w.dir, "URL", hs.URL+wire.APIPrefix).Replace(`accounts:
  acme: {base_url: "URL", token_file: DIR/acme.token}
jobs:
  - {account: acme, job: fulfillments pull, name: pull, every: 1m}
`)
	jobs, err := Parse(w.dir+"/jobs.yaml", []byte(text), Setup{Kinds: kinds, Registry: &Registry{Accounts: map[string]Account{}}})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	r := &Runner{Dirs: w.dirs, Logger: slog.New(slog.NewJSONHandler(&log, nil)), Metrics: NewMetrics(),
		ClientOptions: []api.Option{api.WithBackoff(time.Millisecond, 2*time.Millisecond)}}
	before := time.Now()
	if tally, err := r.Once(t.Context(), jobs); err != nil || tally[OK] != 1 {
		t.Fatalf("tally %v %v, want 1 ok\n%s", tally, err, log.String())
	}

	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d log lines, want one for the run:\n%s", len(lines), log.String())
	}
	var got struct {
		Msg, Level, Account, Job, Kind, Outcome string
		Rows                                    map[string]int
		Requests, Throttled                     int64
	}
	if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
		t.Fatalf("the run's line is not JSON: %v\n%s", err, lines[0])
	}
	if got.Msg != "acme fulfillments pull: ok: 2 sent, 3 unchanged" || got.Level != "INFO" || got.Account != "acme" || got.Job != "pull" ||
		got.Kind != "fulfillments pull" || got.Outcome != "ok" || got.Rows["sent"] != 2 || got.Requests != 2 || got.Throttled != 1 {
		t.Errorf("the run's line: %+v\n%s", got, lines[0])
	}
	if strings.Contains(log.String(), sandboxtest.Token) {
		t.Error("the token is in the log")
	}
	m := r.Metrics
	for name, c := range map[string]struct {
		got, want float64
	}{
		"requests":       {value(m.requests.WithLabelValues("acme", "pull")), 2},
		"throttled":      {value(m.throttled.WithLabelValues("acme", "pull")), 1},
		"rows sent":      {value(m.rows.WithLabelValues("acme", "pull", "sent")), 2},
		"rows unchanged": {value(m.rows.WithLabelValues("acme", "pull", "unchanged")), 3},
		"runs ok":        {value(m.runs.WithLabelValues("acme", "pull", string(OK))), 1},
		"runs failed":    {value(m.runs.WithLabelValues("acme", "pull", string(Failed))), 0},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", name, c.got, c.want)
		}
	}
	if s := value(m.lastSuccess.WithLabelValues("acme", "pull")); s < float64(before.Unix()) {
		t.Errorf("the last success: %v, want after %d", s, before.Unix())
	}
}
