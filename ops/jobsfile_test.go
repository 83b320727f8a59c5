package ops

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The jobs file of the issue, as a 3PL writes it, with the folders it
// names made in the test's folder.
const issueFile = `
accounts:
  acme: {base_url: "https://acme.example/api2", token_file: DIR/acme.token}
jobs:
  - {account: acme, job: stock push, file: /srv/acme/stock.csv, template: stock, every: 15m}
  - {account: acme, job: fulfillments pull, output: "/srv/acme/orders/{time}.csv", new: true, every: 5m}
  - {account: acme, job: shipments push, folder: DIR/confirmations, template: shipments}
  - {account: acme, job: export, report: packing-slips, template: accounting-slips, output: "/srv/acme/reports/{month}.xlsx", schedule: "0 6 1 * *"}
  - account: globex
    job: stock push
    file: /srv/globex/stock.csv
    template: stock
    batch_size: 100
    where: [a, b]
    every: 1h
`

func TestParseTheIssuesFile(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	os.Mkdir(filepath.Join(w.dir, "confirmations"), 0o755)
	f := newFake()
	reg := &Registry{Accounts: map[string]Account{"globex": {Name: "globex", BaseURL: "https://globex.example"}}}
	text := strings.ReplaceAll(issueFile, "DIR", w.dir)
	jobs, err := Parse("jobs.yaml", []byte(text), Setup{Kinds: f.kinds(), Registry: reg, Local: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs.Jobs) != 5 || len(jobs.Accounts) != 2 {
		t.Fatalf("%d jobs of %d accounts, want 5 of 2", len(jobs.Jobs), len(jobs.Accounts))
	}
	if a := jobs.Accounts["acme"]; a.BaseURL != "https://acme.example/api2" || a.TokenFile != filepath.Join(w.dir, "acme.token") {
		t.Errorf("acme: %+v", a)
	}
	if a := jobs.Accounts["globex"]; a.BaseURL != "https://globex.example" {
		t.Errorf("globex, from the registry: %+v", a)
	}
	want := []struct {
		line                 int
		kind, when           string
		options              []string
		folder, scheduleZone string
	}{
		{5, "stock push", "every 15m", []string{"file=/srv/acme/stock.csv", "template=stock"}, "", ""},
		{6, "fulfillments pull", "every 5m", []string{"output=/srv/acme/orders/{time}.csv", "new=true"}, "", ""},
		{7, "shipments push", "each file dropped in " + filepath.Join(w.dir, "confirmations") + " (looked at every 10s)", []string{"template=shipments"}, filepath.Join(w.dir, "confirmations"), ""},
		{8, "export", "0 6 1 * * (UTC)", []string{"output=/srv/acme/reports/{month}.xlsx", "report=packing-slips", "template=accounting-slips"}, "", "UTC"},
		{9, "stock push", "every 1h", []string{"file=/srv/globex/stock.csv", "template=stock", "batch_size=100", "where=a,b"}, "", ""},
	}
	for i, wj := range want {
		j := jobs.Jobs[i]
		var opts []string
		for _, o := range j.Options {
			opts = append(opts, o.Key+"="+strings.Join(o.Values, ","))
		}
		slices.Sort(opts)
		slices.Sort(wj.options)
		if j.Line != wj.line || j.Kind != wj.kind || j.Name != wj.kind || j.When() != wj.when || !slices.Equal(opts, wj.options) || j.Folder != wj.folder || j.Task.Run == nil {
			t.Errorf("job %d: line %d, %q named %q, %s, options %v, folder %q; want line %d, %q, %s, options %v",
				i, j.Line, j.Kind, j.Name, j.When(), opts, j.Folder, wj.line, wj.kind, wj.when, wj.options)
		}
	}
}

// Each mistake of a jobs file is reported at its line, in the user's
// words, and all of them at once.
func TestParseMistakes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	os.Mkdir(filepath.Join(w.dir, "in"), 0o755)
	w.write("a-file", "x", 0)
	f := newFake()
	reg := &Registry{Accounts: map[string]Account{"globex": {Name: "globex", BaseURL: "https://globex.example"}}}
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"not YAML", "jobs: [", []string{"jobs.yaml:1:"}},
		{"not UTF-8", "jobs:\n  - {account: globex, job: shipments push, folder: /srv/M\xfcller}\n",
			[]string{"jobs.yaml:2: column 58: byte 0xFC is not UTF-8: save the jobs file as UTF-8"}},
		{"a list", "- a\n- b\n", []string{"a jobs file is a mapping"}},
		{"no jobs", "accounts: {}\n", []string{"no jobs"}},
		{"unknown key", "jobs:\n  - {account: globex, job: stock push, file: x, every: 1m}\njbos: []\n", []string{`jobs.yaml:3: the jobs file: unknown key "jbos"`, "did you mean jobs?"}},
		{"account key", "accounts:\n  acme: {base_url: \"https://h\", token: x}\njobs:\n  - {account: acme, job: export, report: tags, every: 1h}\n",
			[]string{`jobs.yaml:2: account acme: unknown key "token"`, "token_file"}},
		{"account without base_url", "accounts:\n  acme: {token_file: x}\njobs:\n  - {account: acme, job: export, report: tags, every: 1h}\n", []string{"jobs.yaml:2: account acme has no base_url"}},
		{"bad base_url", "accounts:\n  acme: {base_url: ftp://h}\njobs:\n  - {account: acme, job: export, every: 1h}\n", []string{"jobs.yaml:2: account acme: the base URL \"ftp://h\": want an http or https URL"}},
		{"bad account name", "accounts:\n  a/b: {base_url: \"https://h\"}\njobs:\n  - {account: a/b, job: export, every: 1h}\n", []string{`account name "a/b"`}},
		{"unknown account", "jobs:\n  - {account: globx, job: stock push, file: x, every: 1m}\n", []string{`jobs.yaml:2: no account is called "globx"; did you mean globex?`, "lading accounts add"}},
		{"unknown command", "jobs:\n  - {account: globex, job: stock pusj, file: x, every: 1m}\n", []string{`jobs.yaml:2: job "stock pusj": no such command`, "did you mean stock push?"}},
		{"no command", "jobs:\n  - {account: globex, file: x, every: 1m}\n", []string{"jobs.yaml:2: a job without job:"}},
		{"no when", "jobs:\n  - {account: globex, job: export}\n", []string{"jobs.yaml:2: export: say when the job runs"}},
		{"every and schedule", "jobs:\n  - {account: globex, job: export, every: 1m, schedule: \"* * * * *\"}\n", []string{"give every or schedule, not both"}},
		{"every without a unit", "jobs:\n  - {account: globex, job: export, every: 15}\n", []string{`jobs.yaml:2: export: every "15": want an interval of 100ms or more`}},
		{"bad schedule", "jobs:\n  - {account: globex, job: export,\n     schedule: \"0 6 1 *\"}\n", []string{`jobs.yaml:3: export: schedule "0 6 1 *"`, "minute, hour, day of month, month and day of week"}},
		{"never", "jobs:\n  - {account: globex, job: export, schedule: \"0 0 30 2 *\"}\n", []string{"never comes"}},
		{"bad zone", "jobs:\n  - {account: globex, job: export, schedule: \"0 6 * * *\", zone: CET-ish}\n", []string{`zone "CET-ish": no such zone`}},
		{"zone twice", "jobs:\n  - {account: globex, job: export, schedule: \"CRON_TZ=UTC 0 6 * * *\", zone: UTC}\n", []string{"give it once"}},
		{"zone without schedule", "jobs:\n  - {account: globex, job: export, every: 1h, zone: UTC}\n", []string{"zone is the zone of a schedule"}},
		{"missing folder", "jobs:\n  - {account: globex, job: shipments push, folder: DIR/nowhere}\n", []string{"shipments push: folder " + filepath.Join(w.dir, "nowhere") + ": no such file or directory"}},
		{"folder that is a file", "jobs:\n  - {account: globex, job: shipments push, folder: DIR/a-file}\n", []string{"is a file"}},
		{"folder of a command without a file", "jobs:\n  - {account: globex, job: export, folder: DIR/in}\n", []string{"export reads no file"}},
		{"folder and schedule", "jobs:\n  - {account: globex, job: shipments push, folder: DIR/in, schedule: \"* * * * *\"}\n", []string{"give folder or schedule, not both"}},
		{"two jobs of one name", "jobs:\n  - {account: globex, job: stock push, file: a, every: 1m}\n  - {account: globex, job: stock push, file: b, every: 1m}\n",
			[]string{`jobs.yaml:3: account globex has two jobs called "stock push" (lines 2 and 3)`}},
		{"two jobs of one folder", "jobs:\n  - {account: globex, job: stock push, folder: DIR/in}\n  - {account: globex, job: shipments push, folder: DIR/in/}\n",
			[]string{"jobs.yaml:3: folder " + w.dir + "/in/ is the folder of the job on line 2 too"}},
		{"a mapping as an option", "jobs:\n  - account: globex\n    job: export\n    every: 1h\n    where: {a: b}\n", []string{"jobs.yaml:5: export: where takes a value or a list"}},
		{"an option the command refuses", "jobs:\n  - account: globex\n    job: export\n    every: 1h\n    bad: yes\n", []string{`jobs.yaml:5: export: bad: "yes" is not a value it takes`}},
		{"several at once", "jobs:\n  - {account: nobody, job: export, every: 1h}\n  - {account: globex, job: export, every: 1}\n",
			[]string{`jobs.yaml:2: no account is called "nobody"`, `jobs.yaml:3: export: every "1"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			text := strings.ReplaceAll(tc.text, "DIR", w.dir)
			_, err := Parse("jobs.yaml", []byte(text), Setup{Kinds: f.kinds(), Registry: reg})
			if err == nil {
				t.Fatalf("no error; want %q", tc.want)
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error:\n%v\nwant it to say %q", err, want)
				}
			}
		})
	}
}

// FuzzParse: no jobs file makes Parse panic, and one it takes has jobs
// that all have an account, a command and a time to run.
func FuzzParse(f *testing.F) {
	f.Add(issueFile)
	f.Add("jobs:\n  - {account: a, job: export, every: 1m}\naccounts:\n  a: {base_url: \"http://h\"}\n")
	f.Add("jobs: [{account: a, job: export, schedule: '@monthly'}]\naccounts: {a: {base_url: 'http://h', rate: 2, burst: x}}")
	f.Add("jobs: [[1, 2], {}, null]")
	kinds := newFake().kinds()
	f.Fuzz(func(t *testing.T, text string) {
		jobs, err := Parse("jobs.yaml", []byte(text), Setup{Kinds: kinds})
		if err != nil {
			return
		}
		for _, j := range jobs.Jobs {
			if j.Account == "" || j.Kind == "" || (j.Every == 0 && j.cron == nil) || j.Task.Run == nil {
				t.Errorf("job %+v taken without an account, a command, a time or a task", j)
			}
		}
	})
}
