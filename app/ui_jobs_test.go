package app

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"lading/internal/syncbuf"
	"lading/ops"
	"lading/state"
)

// lading ui --jobs FILE lists the file's jobs on its jobs page, each with
// its last run (a run cut short said so), when it runs next and the files
// waiting in a folder job's folder, read from the accounts' state as
// lading jobs check reads them. With --account the page works on the
// account's own state, and names it. A jobs file with mistakes is refused
// at start.
func TestUIListsTheJobsOfAJobsFile(t *testing.T) {
	h := newHome(t)
	dir := t.TempDir()
	writeOld(t, dir, map[string]string{"acme.token": "acme-token", "in/a.csv": "x", "in/b.csv": "x", "in/c.csv.part": "x"})
	file := filepath.Join(dir, "jobs.yaml")
	os.WriteFile(file, []byte(strings.ReplaceAll(`accounts:
  acme: {base_url: "https://host/api2", token_file: DIR/acme.token}
jobs:
  - {account: acme, job: stock push, file: DIR/stock.csv, template: stock, every: 15m}
  - {account: acme, job: export, name: daily tags, report: tags, output: "DIR/tags-{date}.csv", schedule: "30 2 * * *", zone: America/New_York}
  - {account: acme, job: shipments push, folder: DIR/in, template: shipments}
`, "DIR", dir)), 0o644)
	st, err := state.Open(h.dirs.StatePath("acme"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	b, _ := json.Marshal(ops.Times{Seen: now.Add(-time.Hour), Started: now.Add(-10 * time.Minute), Ended: now.Add(-70 * time.Minute)})
	if err := st.PutIDs(context.Background(), state.KeyJobTimes("acme"), map[string]string{"stock push": string(b)}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	if _, errOut, err := runWith(t, h.env, "accounts", "add", "--token-file", filepath.Join(dir, "acme.token"), "acme", "--base-url", "https://host/api2"); err != nil {
		t.Fatalf("accounts add: %v\n%s", err, errOut)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &syncbuf.Buffer{}
	env := h.env
	env.Stdout, env.Stderr = out, out
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, env, []string{"lading", "--account", "acme", "ui", "--addr", "127.0.0.1:0", "--jobs", file})
	}()
	url := waitForLine(t, out, done, regexp.MustCompile(`lading ui: (http://\S+)`))
	var page string
	for _, path := range []string{"/jobs", "/runs"} {
		res, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		page += regexp.MustCompile(`\s+`).ReplaceAllString(string(body), " ")
	}
	for _, want := range []string{"acme (https://host/api2)", "state (" + h.dirs.StatePath("acme") + ")", file, "stock push", "every 15m", "cut short", "at start (resumes its run cut short at",
		"daily tags", "(export)", "never", "as files come (2 files waiting)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the jobs page lacks %q:\n%s", want, page)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("lading ui: %v", err)
	}

	os.WriteFile(file, []byte("jobs:\n  - {account: nobody, job: stock push, file: x, every: 1m}\n"), 0o644)
	_, errOut, err := runWith(t, h.env, "--base-url", "https://host/api2", "--token", "t0k3n", "ui", "--addr", "127.0.0.1:0", "--jobs", file)
	if err == nil || !strings.Contains(said(err)+errOut, "nobody") {
		t.Errorf("a jobs file naming an unknown account: %v\n%s", err, errOut)
	}
}

// waitForLine waits until out holds a line re matches, and returns its
// first group; the command's end before that fails the test.
func waitForLine(t *testing.T, out *syncbuf.Buffer, done <-chan error, re *regexp.Regexp) string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-done:
			t.Fatalf("the command ended: %v\n%s", err, out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no line %s:\n%s", re, out.String())
		}
	}
}
