package app

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"lading/ops"
	"lading/state"
)

// columnGaps are the spaces between a table's columns.
var columnGaps = regexp.MustCompile(` {2,}`)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with the file testdata/name, or rewrites it with
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs:\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

// jobs check says when each job of a file runs next, at a fixed time, by
// what each account's state remembers of its runs: a job never run at
// start; one run a minute ago at its next turn; a monthly schedule whose
// time passed while lading was not running at start, once; a run cut
// short at start, to resume it; a daily schedule in its own zone (New
// York's, on summer time since March 8th); a folder job as files come,
// counting the files it would take (not those being written, nor hidden
// ones). --json gives the same as one object a job.
func TestJobsCheckGolden(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	dir := t.TempDir()
	writeOld(t, dir, map[string]string{"acme.token": "acme-token", "globex.token": "globex-token",
		"orders/.keep": "", "in/a.csv": "x", "in/b.csv": "x", "in/c.csv.part": "x", "in/d.csv.tmp": "x", "in/.e.csv": "x"})
	file := filepath.Join(dir, "jobs.yaml")
	os.WriteFile(file, []byte(strings.ReplaceAll(`accounts:
  acme: {base_url: "https://host/api2", token_file: DIR/acme.token}
  globex: {base_url: "https://host/api2", token_file: DIR/globex.token, rate: 2}
jobs:
  - {account: acme, job: stock push, file: DIR/stock.csv, template: stock, every: 15m}
  - {account: acme, job: fulfillments pull, output: "DIR/orders/{time}.csv", new: true, every: 5m}
  - {account: acme, job: export, report: packing-slips, template: accounting-slips, output: "DIR/{month}.xlsx", schedule: "0 6 1 * *", zone: Europe/Berlin}
  - {account: globex, job: stock push, file: DIR/g.csv, template: stock, every: 1h}
  - {account: globex, job: export, name: daily tags, report: tags, output: "DIR/tags-{date}.csv", schedule: "30 2 * * *", zone: America/New_York}
  - {account: globex, job: shipments push, folder: DIR/in, template: shipments}
`, "DIR", dir)), 0o644)
	now := time.Date(2026, 3, 10, 9, 7, 30, 0, time.UTC)
	ran := func(account string, times map[string]ops.Times) {
		st, err := state.Open(h.dirs.StatePath(account))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		for name, tm := range times {
			b, _ := json.Marshal(tm)
			if err := st.PutIDs(context.Background(), state.KeyJobTimes(account), map[string]string{name: string(b)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	ran("acme", map[string]ops.Times{
		"fulfillments pull": {Seen: now.Add(-time.Hour), Started: now.Add(-time.Minute), Ended: now.Add(-50 * time.Second)},
		"export":            {Seen: now.AddDate(0, -2, 0), Started: time.Date(2026, 2, 1, 5, 0, 0, 0, time.UTC), Ended: time.Date(2026, 2, 1, 5, 1, 0, 0, time.UTC)},
	})
	ran("globex", map[string]ops.Times{
		"stock push": {Seen: now.Add(-2 * time.Hour), Started: now.Add(-10 * time.Minute), Ended: now.Add(-70 * time.Minute)},
	})
	env := h.env
	env.Now = func() time.Time { return now }
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"jobs-check.txt", []string{"jobs", "check", file}},
		{"jobs-check.json", []string{"jobs", "check", "--json", file}},
	} {
		out, errOut, err := runWith(t, env, tc.args...)
		if err != nil {
			t.Fatalf("lading %s: %v\n%s", strings.Join(tc.args, " "), said(err), errOut)
		}
		// The columns' widths follow the test's folder's name, which
		// varies: the gaps between them are read as two spaces.
		golden(t, tc.golden, columnGaps.ReplaceAllString(strings.ReplaceAll(out, dir, "DIR"), "  "))
	}
}
