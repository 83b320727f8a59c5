package app

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"lading/ops"
)

// home is a user's folders for a test: its environment and where lading
// keeps its files there.
type home struct {
	env  Env
	dirs ops.Dirs
}

func newHome(t *testing.T) home {
	t.Helper()
	dir := t.TempDir()
	vars := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_DATA_HOME": filepath.Join(dir, "data")}
	return home{env: Env{Getenv: func(k string) string { return vars[k] }},
		dirs: ops.Dirs{Config: vars["XDG_CONFIG_HOME"], Data: vars["XDG_DATA_HOME"]}}
}

// Two merchants' accounts on one service, by name: each command works on
// the account --account (or LADING_ACCOUNT) names, the default one
// otherwise, with the account's own token and its own state file, so that
// nothing of one is read for the other.
func TestAccounts(t *testing.T) {
	h := newHome(t)
	srv, base := newSandboxServer(t, cliToken)
	if _, err := srv.RegisterToken("globex-token-0123456789"); err != nil {
		t.Fatal(err)
	}
	dir, catalog := sampleCopy(t, "catalog.csv")
	tokenFile := filepath.Join(dir, "globex.token")
	os.WriteFile(tokenFile, []byte("globex-token-0123456789\n"), 0o600)
	acmeToken := filepath.Join(dir, "acme.token")
	os.WriteFile(acmeToken, []byte(cliToken), 0o600)

	steps := []struct {
		args []string
		want string // in the output, or in the error for a step that fails
		fail bool
	}{
		{[]string{"accounts", "list"}, "no accounts yet", false},
		{[]string{"accounts", "add", "acme", "--base-url", base + "/"}, "it is the default account", false},
		{[]string{"accounts", "add", "--token-file", tokenFile, "globex", "--base-url", base, "--rate", "50"}, "the default is acme", false},
		{[]string{"accounts", "add", "acme", "--base-url", base}, "an account of that name exists", true},
		{[]string{"accounts", "add", "initech"}, "give the account's base URL", true},
		{[]string{"--account", "acme", "auth", "status"}, "account acme has no token", true},
		{[]string{"auth", "login", "--account", "acme", "--token-file", acmeToken}, "for account acme (" + base + ")", false},
		{[]string{"auth", "login", "--account", "acme", "--token-file", acmeToken}, "a token for account acme is already stored", true},
		{[]string{"auth", "login", "--account", "globex", "--token-file", acmeToken}, "reads its token from " + tokenFile, true},
		{[]string{"auth", "status"}, "account:   acme", false},
		{[]string{"--account", "globex", "auth", "status"}, "(file " + tokenFile + ")", false},
		{[]string{"--account", "acme", "--base-url", base, "auth", "status"}, "--account acme and --base-url do not go together", true},
		{[]string{"--account", "acm", "auth", "status"}, `no account is called "acm"; did you mean acme?`, true},
		{[]string{"--quiet", "import", "--template", "generic", "--read-ids", catalog}, "26 created", false},
		{[]string{"--account", "globex", "--quiet", "import", "--template", "generic", "--read-ids", "--results", filepath.Join(dir, "g.csv"), catalog}, "26 created", false},
		{[]string{"accounts", "list"}, "* acme", false},
	}
	for _, s := range steps {
		out, errOut, err := runWith(t, h.env, s.args...)
		got := out + errOut
		if err != nil {
			got += said(err)
		}
		if (err != nil) != s.fail || !strings.Contains(got, s.want) {
			t.Fatalf("lading %s: %v\n%s\nwant it to say %q", strings.Join(s.args, " "), err, got, s.want)
		}
	}
	for _, name := range []string{"acme", "globex"} {
		if _, err := os.Stat(h.dirs.StatePath(name)); err != nil {
			t.Errorf("the state of %s: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".lading")); err == nil {
		t.Error("a state was made in the working folder too")
	}

	t.Run("LADING_ACCOUNT", func(t *testing.T) {
		t.Setenv("LADING_ACCOUNT", "globex")
		out, _, err := runWith(t, h.env, "auth", "status")
		if err != nil || !strings.Contains(out, "account:   globex") {
			t.Errorf("auth status with LADING_ACCOUNT=globex: %v\n%s", err, out)
		}
	})
	out, _, err := runWith(t, h.env, "accounts", "remove", "acme")
	if err != nil || !strings.Contains(out, "its stored token is forgotten") || !strings.Contains(out, "its state is kept in "+h.dirs.StatePath("acme")) {
		t.Errorf("accounts remove acme: %v\n%s", err, out)
	}
	if _, _, err := runWith(t, h.env, "--account", "acme", "auth", "status"); err == nil || !isUsage(err) {
		t.Errorf("--account acme once removed: %v, want a usage error", err)
	}
	if cred, ok, _ := h.dirs.Store().GetAccount("acme"); ok {
		t.Errorf("acme's token is still stored: %v", cred)
	}
	out, _, _ = runWith(t, h.env, "accounts", "list", "--json")
	if lines := jsonLines(t, out); len(lines) != 1 || lines[0]["name"] != "globex" || lines[0]["default"] != false || strings.Contains(out, "globex-token") {
		t.Errorf("accounts list --json after the removal:\n%s", out)
	}
}

// A job's options in a jobs file are its command's flags, by the same
// names: every flag a push, a pull and an export take (but those of the
// account) is a key a job of it takes, and a key that is none is refused
// at its line, naming the closest flag.
func TestJobOptionsAreTheCommandsFlags(t *testing.T) {
	t.Parallel()
	commands := map[string]*cli.Command{}
	var walk func(prefix string, cs []*cli.Command)
	walk = func(prefix string, cs []*cli.Command) {
		for _, c := range cs {
			commands[strings.TrimSpace(prefix+" "+c.Name)] = c
			walk(prefix+" "+c.Name, c.Subcommands)
		}
	}
	walk("", New(Env{}).Commands)
	kinds := map[string][]cli.Flag{
		"stock push":        jobFlagsOf(&globalOptions{}, stockPushFlags(&stockOptions{})),
		"shipments push":    jobFlagsOf(&globalOptions{}, shipmentsPushFlags(&shipmentsOptions{})),
		"slips push":        jobFlagsOf(&globalOptions{}, slipsPushFlags(&slipsOptions{})),
		"fulfillments pull": jobFlagsOf(&globalOptions{}, pullFlags(&pullOptions{})),
		"export":            jobFlagsOf(&globalOptions{}, exportFlags(&exportOptions{}, false)),
	}
	for kind, flags := range kinds {
		cmd := commands[kind]
		if kind == "export" {
			cmd = commands["export packing-slips"]
		}
		for _, f := range cmd.Flags {
			name := f.Names()[0]
			if slices.Contains([]string{"help", "account", "base-url", "token", "rate", "burst", "quiet", "debug", "json"}, name) {
				continue
			}
			if findFlag(flags, name) == nil {
				t.Errorf("%s --%s is no key of a %s job", kind, name, kind)
			}
		}
		if len(jobKinds(&Env{})) != len(kinds) {
			t.Errorf("%d kinds of jobs, and %d tested", len(jobKinds(&Env{})), len(kinds))
		}
	}
}

// The mistakes a job's options can hold are found when the file is read,
// each at its line, in the words of the command's own flags.
func TestJobOptionMistakes(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "in"), 0o755)
	for _, tc := range []struct {
		job  string
		want string
	}{
		{"{account: a, job: stock push, file: s.csv, tempalte: stock, every: 1m}", `jobs.yaml:4: stock push: tempalte: not an option of this command; did you mean template?`},
		{"{account: a, job: stock push, file: s.csv, t: stock, every: 1m}", "t: write the flag's long name, template"},
		{"{account: a, job: stock push, file: s.csv, template: stock, state: x.db, every: 1m}", "state: each account keeps its own state"},
		{"{account: a, job: stock push, file: s.csv, template: stock, token: x, every: 1m}", "token is the account's: give it under accounts:"},
		{"{account: a, job: stock push, file: s.csv, template: stock, batch-size: x, every: 1m}", `batch-size: "x": want a whole number`},
		{"{account: a, job: stock push, file: s.csv, template: stock, batch_size: 1000, every: 1m}", "--batch-size 1000: want 1 to"},
		{"{account: a, job: stock push, file: s.csv, template: [stock, x], every: 1m}", "template: takes one value, not a list"},
		{"{account: a, job: stock push, file: s.csv, template: stock, warehouse: ' ', every: 1m}", "--warehouse is empty"},
		{"{account: a, job: stock push, file: s.csv, template: shipments, every: 1m}", "has no stock: section"},
		{"{account: a, job: stock push, template: stock, every: 1m}", "give file: the file to push"},
		{"{account: a, job: shipments push, file: s.csv, folder: DIR/in, template: shipments}", "file: a folder job reads the files dropped in its folder"},
		{"{account: a, job: shipments push, results: r.csv, folder: DIR/in, template: shipments}", "results: a folder job writes each file's results beside it"},
		{"{account: a, job: fulfillments pull, output: o.csv, every: 1m}", "--every pulls again and again, so it goes with --new"},
		{"{account: a, job: fulfillments pull, output: o.csv, new: yes, every: 1m}", `new: "yes": want true or false`},
		{"{account: a, job: export, report: slips, output: o.csv, every: 1m}", `report: "slips" is not an export; exports: products`},
		{"{account: a, job: export, report: tags, output: \"{month}/o.csv\", every: 1m}", "{month} goes in the file's name, not in its folder"},
		{"{account: a, job: stock push, file: s.csv, template: stock, every: 1m}\n  - {account: a, job: stock push, name: again, file: s.csv, template: stock, every: 1h}",
			"jobs.yaml:5: stock push: it writes s.csv.results.csv, as the job on line 4 does"},
		{"{account: a, job: export, report: tags, where: [\"nope > 1\"], output: o.csv, every: 1m}", `"nope > 1": "nope" cannot be filtered on`},
	} {
		file := filepath.Join(dir, "jobs.yaml")
		text := "accounts:\n  a: {base_url: \"http://127.0.0.1:9\"}\njobs:\n  - " + strings.ReplaceAll(tc.job, "DIR", dir) + "\n"
		os.WriteFile(file, []byte(text), 0o644)
		_, errOut, err := runWith(t, h.env, "jobs", "check", file)
		if !isUsage(err) || !strings.Contains(said(err), tc.want) {
			t.Errorf("%s: %v\n%s\nwant a usage error saying %q", tc.job, said(err), errOut, tc.want)
		}
	}
}

// jobs check says when each job runs next: a job never run at start, a
// schedule at its next time in its zone, a folder job as files come, with
// how many wait.
func TestJobsCheck(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	h := newHome(t)
	dir := t.TempDir()
	writeOld(t, dir, map[string]string{"acme.token": "acme-token", "in/a.csv": "x", "in/b.csv.part": "x", "in/.c.csv": "x"})
	file := filepath.Join(dir, "jobs.yaml")
	os.WriteFile(file, []byte(strings.ReplaceAll(`accounts:
  acme: {base_url: "http://127.0.0.1:9", token_file: DIR/acme.token}
jobs:
  - {account: acme, job: stock push, file: DIR/stock.csv, template: stock, every: 15m}
  - {account: acme, job: export, report: packing-slips, template: accounting-slips, output: "DIR/{month}.xlsx", schedule: "0 6 1 * *", zone: Europe/Berlin}
  - {account: acme, job: shipments push, folder: DIR/in, template: shipments}
`, "DIR", dir)), 0o644)
	out, errOut, err := runWith(t, h.env, "jobs", "check", file)
	if err != nil {
		t.Fatalf("%v\n%s", said(err), errOut)
	}
	now := time.Now().In(berlin)
	first := time.Date(now.Year(), now.Month()+1, 1, 6, 0, 0, 0, berlin)
	for _, want := range []string{"3 jobs of 1 account, no mistakes", "every 15m", "at start (never ran)",
		"0 6 1 * * (Europe/Berlin)", first.Format("2006-01-02 15:04:05 MST"), "as files come (1 file waiting)"} {
		if !strings.Contains(out, want) {
			t.Errorf("jobs check says:\n%s\nwant %q", out, want)
		}
	}
	out, _, err = runWith(t, h.env, "jobs", "check", "--json", file)
	if lines := jsonLines(t, out); err != nil || len(lines) != 3 || lines[0]["next"] == nil {
		t.Errorf("jobs check --json: %v\n%s", err, out)
	}
	os.Remove(filepath.Join(dir, "acme.token"))
	if _, _, err := runWith(t, h.env, "jobs", "check", file); !isUsage(err) || !strings.Contains(said(err), "jobs.yaml:4: account acme: token file "+filepath.Join(dir, "acme.token")+": there is no such file") {
		t.Errorf("a token file that is gone: %v", said(err))
	}
}

// accounts add refuses what could not work, saying why in the words of its
// flags, and saves nothing then: a name that is no folder's, a base URL
// that is no service's, a name taken, a token file that is missing or
// empty, pacing that is no pace.
func TestAccountsAddMistakes(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.token")
	os.WriteFile(empty, []byte(" \n"), 0o600)
	if _, _, err := runWith(t, h.env, "accounts", "add", "acme", "--base-url", "https://host/api2"); err != nil {
		t.Fatal(said(err))
	}
	registry, err := os.ReadFile(filepath.Join(h.dirs.Config, "lading", "accounts.json"))
	if err != nil {
		t.Fatalf("the accounts file: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"acme", "--base-url", "https://other/api2"}, "an account of that name exists: acme (lading accounts remove acme first to replace it)"},
		{[]string{"a b", "--base-url", "https://host/api2"}, `account name "a b": use 1 to 64 letters, digits`},
		{[]string{".acme", "--base-url", "https://host/api2"}, `account name ".acme"`},
		{[]string{"acme/eu", "--base-url", "https://host/api2"}, `account name "acme/eu"`},
		{[]string{strings.Repeat("a", 65), "--base-url", "https://host/api2"}, "use 1 to 64 letters"},
		{[]string{"globex", "--base-url", "host/api2"}, `account globex: the base URL "host/api2": want an http or https URL such as https://host/api2`},
		{[]string{"globex", "--base-url", "ftp://host/api2"}, "want an http or https URL"},
		{[]string{"globex", "--base-url", "https:///api2"}, `base URL "https:///api2" has no host`},
		{[]string{"globex", "--base-url", "https://user:pw@host/api2"}, "the base URL carries credentials"},
		{[]string{"globex", "--base-url", "https://host/api2?x=1"}, "remove the query or fragment"},
		{[]string{"globex"}, "give the account's base URL: --base-url https://HOST/api2"},
		{[]string{"--base-url", "https://host/api2"}, "takes the account's name"},
		{[]string{"globex", "initech", "--base-url", "https://host/api2"}, "takes the account's name"},
		{[]string{"globex", "--base-url", "https://host/api2", "--token-file", filepath.Join(dir, "nope.token")},
			"--token-file: token file " + filepath.Join(dir, "nope.token") + ": there is no such file"},
		{[]string{"globex", "--base-url", "https://host/api2", "--token-file", empty}, "--token-file: token file " + empty + " is empty"},
		{[]string{"globex", "--base-url", "https://host/api2", "--rate", "0"}, "--rate 0: want a number of requests per second above 0"},
	} {
		out, _, err := runWith(t, h.env, append([]string{"accounts", "add"}, tc.args...)...)
		if !isUsage(err) || !strings.Contains(said(err), tc.want) {
			t.Errorf("accounts add %s: %v\n%s\nwant a usage error saying %q", strings.Join(tc.args, " "), said(err), out, tc.want)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(h.dirs.Config, "lading", "accounts.json")); string(after) != string(registry) {
		t.Errorf("the mistakes changed the accounts file:\n%s\nwas:\n%s", after, registry)
	}
}

// The first account added is the default; --default, or accounts default
// later, makes another the default; removing the default leaves none, and
// says so, and commands then work on no account until one is named.
func TestDefaultAccount(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	_, acmeURL := newSandboxServer(t, cliToken)
	_, globexURL := newSandboxServer(t, cliToken)
	dir := t.TempDir()
	token := filepath.Join(dir, "t.token")
	os.WriteFile(token, []byte(cliToken), 0o600)
	defaultOf := func() string {
		t.Helper()
		out, _, err := runWith(t, h.env, "accounts", "list", "--json")
		if err != nil {
			t.Fatal(said(err))
		}
		name := ""
		for _, l := range jsonLines(t, out) {
			if l["default"] == true {
				if name != "" {
					t.Fatalf("two default accounts:\n%s", out)
				}
				name = l["name"].(string)
			}
		}
		return name
	}
	statusURL := func() string {
		t.Helper()
		out, _, err := runWith(t, h.env, "auth", "status", "--json")
		if err != nil {
			return said(err)
		}
		return jsonLines(t, out)[0]["base_url"].(string)
	}
	steps := []struct {
		args        []string
		wantDefault string
		wantStatus  string // auth status's base URL, or what its error says
	}{
		{[]string{"accounts", "add", "acme", "--base-url", acmeURL, "--token-file", token}, "acme", acmeURL},
		{[]string{"accounts", "add", "globex", "--base-url", globexURL, "--token-file", token}, "acme", acmeURL},
		{[]string{"accounts", "default", "globex"}, "globex", globexURL},
		{[]string{"accounts", "add", "initech", "--base-url", acmeURL, "--token-file", token, "--default"}, "initech", acmeURL},
		{[]string{"accounts", "remove", "initech"}, "", "no token for " + DefaultBaseURL},
		{[]string{"accounts", "default", "acme"}, "acme", acmeURL},
	}
	for _, s := range steps {
		if _, _, err := runWith(t, h.env, s.args...); err != nil {
			t.Fatalf("lading %s: %v", strings.Join(s.args, " "), said(err))
		}
		if got := defaultOf(); got != s.wantDefault {
			t.Errorf("after lading %s the default is %q, want %q", strings.Join(s.args, " "), got, s.wantDefault)
		}
		if got := statusURL(); !strings.Contains(got, s.wantStatus) {
			t.Errorf("after lading %s auth status says %q, want %q", strings.Join(s.args, " "), got, s.wantStatus)
		}
	}
	out, _, err := runWith(t, h.env, "accounts", "remove", "acme")
	if err != nil || !strings.Contains(out, "it was the default account, and no account is now: give --account NAME, or make one the default with lading accounts default NAME (globex)") {
		t.Errorf("removing the default: %v\n%s", said(err), out)
	}
	out, _, err = runWith(t, h.env, "accounts", "remove", "globex")
	if err != nil || strings.Contains(out, "default") {
		t.Errorf("removing the last account, which is not the default, says: %v\n%s", said(err), out)
	}
	if _, _, err := runWith(t, h.env, "accounts", "default", "acme"); !isUsage(err) || !strings.Contains(said(err), `no account is called "acme": lading knows no account yet`) {
		t.Errorf("accounts default of an account removed: %v", said(err))
	}
}

// Two merchants on two services: --account, else LADING_ACCOUNT, else the
// default account chooses the base URL, the token and the state file of a
// command, and nothing of one account is sent to, or kept for, the
// other: each import creates the whole catalog in its own service, and
// leaves the other account's state as it was.
func TestAccountsKeepApart(t *testing.T) {
	h := newHome(t)
	acmeURL := newSandbox(t, "acme-token-0123456789")
	globexURL := newSandbox(t, "globex-token-0123456789")
	dir, catalog := sampleCopy(t, "catalog.csv")
	for _, a := range []struct{ name, url string }{{"acme", acmeURL}, {"globex", globexURL}} { // acme first: the default
		name := a.name
		file := filepath.Join(dir, name+".token")
		os.WriteFile(file, []byte(name+"-token-0123456789"), 0o600)
		if _, _, err := runWith(t, h.env, "accounts", "add", name, "--base-url", a.url); err != nil {
			t.Fatal(said(err))
		}
		if _, _, err := runWith(t, h.env, "auth", "login", "--account", name, "--token-file", file); err != nil {
			t.Fatal(said(err))
		}
	}
	// variants counts the variants in an account's service, as auth
	// status finds them with the account's token.
	variants := func(name string) float64 {
		t.Helper()
		out, _, err := runWith(t, h.env, "--account", name, "auth", "status", "--json")
		if err != nil {
			t.Fatalf("auth status of %s: %v", name, said(err))
		}
		return jsonLines(t, out)[0]["variants"].(float64)
	}
	stateOf := func(name string) string {
		b, _ := os.ReadFile(h.dirs.StatePath(name))
		return string(b)
	}
	importWith := func(env Env, args ...string) string {
		t.Helper()
		args = append(args, "--quiet", "import", "--template", "generic", "--read-ids", "--results", filepath.Join(dir, "r.csv"), catalog)
		out, errOut, err := runWith(t, env, args...)
		if err != nil {
			t.Fatalf("lading %s: %v\n%s", strings.Join(args, " "), said(err), errOut)
		}
		return out
	}

	// The default, acme.
	if out := importWith(h.env); !strings.Contains(out, "26 created") {
		t.Fatalf("the import to the default account:\n%s", out)
	}
	if a, g := variants("acme"), variants("globex"); a == 0 || g != 0 {
		t.Fatalf("after the default's import: acme's service has %v variants, globex's %v", a, g)
	}
	acmeState := stateOf("acme")

	// LADING_ACCOUNT names globex: its own service, token and state; the
	// whole catalog is new there, as nothing of acme's ids is read.
	env := h.env
	t.Setenv("LADING_ACCOUNT", "globex")
	if out := importWith(env); !strings.Contains(out, "26 created") {
		t.Fatalf("the import with LADING_ACCOUNT=globex:\n%s", out)
	}
	if a, g := variants("acme"), variants("globex"); g != a {
		t.Errorf("after globex's import: acme's service has %v variants, globex's %v", a, g)
	}
	if stateOf("acme") != acmeState {
		t.Error("globex's import changed acme's state file")
	}
	if _, err := os.Stat(h.dirs.StatePath("globex")); err != nil {
		t.Errorf("globex's state: %v", err)
	}

	// --account wins over LADING_ACCOUNT: acme again, where all is there.
	if out := importWith(env, "--account", "acme"); !strings.Contains(out, "26 unchanged") {
		t.Errorf("the import with --account acme over LADING_ACCOUNT=globex:\n%s", out)
	}
	out, _, err := runWith(t, env, "auth", "status", "--json")
	if s := jsonLines(t, out); err != nil || s[0]["account"] != "globex" || s[0]["base_url"] != globexURL || s[0]["service"] != "accepted" {
		t.Errorf("auth status with LADING_ACCOUNT=globex: %v\n%s", said(err), out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".lading")); err == nil {
		t.Error("a state was made in the working folder")
	}

	// A token file named from the folder it is in is kept whole, and
	// read from any other.
	t.Chdir(dir)
	if _, _, err := runWith(t, h.env, "accounts", "add", "initech", "--base-url", acmeURL, "--token-file", "acme.token"); err != nil {
		t.Fatal(said(err))
	}
	t.Chdir(t.TempDir())
	out, _, err = runWith(t, h.env, "--account", "initech", "auth", "status", "--json")
	if s := jsonLines(t, out); err != nil || s[0]["source"] != "file "+filepath.Join(dir, "acme.token") || s[0]["service"] != "accepted" {
		t.Errorf("auth status of an account added with a token file in the folder, from another: %v\n%s", said(err), out)
	}
}

// auth login --account NAME --token-file FILE stores the file's token
// for the account, in the store (mode 0600) under the account's name,
// and says so without the token; a file that is missing, empty or of many
// lines is named in a usage error, and nothing is stored.
func TestLoginTokenFile(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	dir := t.TempDir()
	files := map[string]string{"good": "  acme-token-0123456789\n", "empty": "\n", "lines": "acme-token\nother-token\n"}
	for name, text := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600)
	}
	if _, _, err := runWith(t, h.env, "accounts", "add", "acme", "--base-url", "https://host/api2"); err != nil {
		t.Fatal(said(err))
	}
	for _, tc := range []struct {
		file, want string
	}{
		{"missing", "--token-file: token file " + filepath.Join(dir, "missing") + ": there is no such file: put the account's access token in it"},
		{"empty", "--token-file: token file " + filepath.Join(dir, "empty") + " is empty: put the account's access token in it"},
		{"lines", "--token-file: token file " + filepath.Join(dir, "lines") + " holds more than one line"},
	} {
		_, _, err := runWith(t, h.env, "auth", "login", "--account", "acme", "--token-file", filepath.Join(dir, tc.file))
		if !isUsage(err) || !strings.Contains(said(err), tc.want) || strings.Contains(said(err), "other-token") {
			t.Errorf("--token-file %s: %v\nwant a usage error saying %q", tc.file, said(err), tc.want)
		}
	}
	if _, err := os.Stat(h.dirs.Store().Path); err == nil {
		t.Error("a token store was written for the files refused")
	}
	if _, _, err := runWith(t, h.env, "auth", "login", "--account", "acme", "--token-file", filepath.Join(dir, "good"), "--client-id", "x"); !isUsage(err) || !strings.Contains(said(err), "not both") {
		t.Errorf("--token-file with --client-id: %v", said(err))
	}
	out, errOut, err := runWith(t, h.env, "auth", "login", "--account", "acme", "--token-file", filepath.Join(dir, "good"))
	if err != nil || !strings.Contains(out, "Stored the token of "+filepath.Join(dir, "good")+" for account acme (https://host/api2)") || strings.Contains(out+errOut, "acme-token-0123456789") {
		t.Fatalf("auth login --token-file: %v\n%s%s", said(err), out, errOut)
	}
	store := h.dirs.Store()
	if fi, err := os.Stat(store.Path); err != nil || runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("the token store: %v, want mode 0600", err)
	}
	if cred, ok, err := store.GetAccount("acme"); err != nil || !ok || cred.Token != "acme-token-0123456789" || cred.Account != "acme" {
		t.Errorf("the token stored for acme: %+v %v %v", cred, ok, err)
	}
	if _, ok, _ := store.Get("https://host/api2"); ok {
		t.Error("the account's token is stored for its base URL too, where another account on it would find it")
	}
}
