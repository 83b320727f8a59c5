package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/images/imagestest"
	"lading/sandbox"
	"lading/templates"
)

// These tests go through the command line as a person types it, one for
// each rough edge issue 18 found in it.

const cliToken = "cli-test-token-0123456789"

// account is a sandbox with a token, and the flags that reach it.
type account struct {
	srv   *sandbox.Server
	flags []string // --base-url, --token, a fast --rate
}

func newAccount(t *testing.T) *account {
	t.Helper()
	srv, base := newSandboxServer(t, cliToken)
	return &account{srv: srv, flags: []string{"--base-url", base, "--token", cliToken, "--rate", "500", "--burst", "50"}}
}

// withCatalog is an account with the sample catalog imported (a stock push
// then knows the token's warehouse), and the state that remembers it.
func withCatalog(t *testing.T) (a *account, state string) {
	t.Helper()
	a = newAccount(t)
	dir, in := sampleCopy(t, "catalog.csv")
	state = filepath.Join(dir, "state.db")
	if _, errOut, err := a.lading(t, "--quiet", "import", "--template", "generic", "--state", state, "--read-ids", in); err != nil {
		t.Fatalf("importing the sample catalog: %v\n%s", said(err), errOut)
	}
	return a, state
}

// writeOld writes files (name: text) under dir, an hour old: a push does
// not wait for them to settle.
func writeOld(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// lading runs lading with args after the account's flags.
func (a *account) lading(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	return run(t, append(slices.Clone(a.flags), args...)...)
}

// unpaced are the API options of the tests' commands that give no --rate:
// a client far above anything a test sends, which backs off for
// milliseconds, so that a test waits on nothing but the sandbox (lading's
// default pace, 5 requests a second, would hold it back).
var unpaced = []api.Option{api.WithRate(1000, 100), api.WithBackoff(time.Millisecond, 2*time.Millisecond)}

// runWith runs lading in env, with its outputs captured.
func runWith(t *testing.T, env Env, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	env.Stdout, env.Stderr = &out, &errb
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.ImageTransport == nil {
		env.ImageTransport = imagestest.Offline()
	}
	err := Run(context.Background(), env, append([]string{"lading"}, args...))
	return out.String(), errb.String(), err
}

// jsonLines decodes out as one JSON object per line.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for line := range strings.Lines(out) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q is not one JSON object: %v\n%s", line, err, out)
		}
		objs = append(objs, m)
	}
	return objs
}

// logFormat matches a line in slog's text format.
var logFormat = regexp.MustCompile(`(?m)^time=|level=(INFO|WARN|DEBUG|ERROR)`)

// The run functions take an options struct and need no command line.
func TestRunFunctionsTakeOptions(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	a := newAccount(t)
	_, in := sampleCopy(t, "catalog.csv")
	var out bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &bytes.Buffer{}, Getenv: func(string) string { return "" }, ImageTransport: imagestest.Offline()}
	o := &importOptions{
		globalOptions: globalOptions{BaseURL: a.flags[1], Token: cliToken, Rate: 500, Burst: 50, Concurrency: 4},
		jobOptions: jobOptions{mappingOptions: mappingOptions{Template: "generic", MaxPartSize: "4GiB", MaxCellSize: "1MiB"},
			DryRun: true, BatchSize: 50},
		Mode:  "upsert",
		Files: []string{in},
	}
	if err := runImport(t.Context(), env, o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "dry run (nothing written)") || !strings.Contains(out.String(), "8 created") {
		t.Errorf("runImport printed:\n%s", out.String())
	}
	// The sample's five images: the dry run counts them, their size and
	// the requests they would take.
	if !strings.Contains(out.String(), "\n  images: 5 to upload (997 B)\n") || !strings.Contains(out.String(), "writes needed: 6 requests (5 of them for images)") {
		t.Errorf("the dry run does not count the sample's images:\n%s", out.String())
	}
	o.BatchSize = 0
	if err := runImport(t.Context(), env, o); !isUsage(err) || !strings.Contains(err.Error(), "--batch-size 0") {
		t.Errorf("runImport with a batch of 0: %v, want a usage error naming --batch-size", err)
	}
}

func isUsage(err error) bool {
	var u *UsageError
	return errors.As(err, &u)
}

// A global flag counts wherever it is given: before the command's name,
// after it, or in the environment; given after the name, it wins.
func TestGlobalFlagsAfterTheCommand(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	a, st := withCatalog(t)
	dir := t.TempDir()
	stock := filepath.Join(dir, "stock.csv")
	writeOld(t, dir, map[string]string{"stock.csv": "sku,quantity\nTEE-BLA-S,3\n"})
	base, token := a.flags[1], a.flags[3]
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"all before", []string{"--base-url", base, "--token", token, "--json", "--quiet", "stock", "push", "--template", "stock", "--dry-run", "--state", st, stock}},
		{"all after", []string{"stock", "push", "--base-url", base, "--token", token, "--json", "-q", "--template", "stock", "--dry-run", "--state", st, stock}},
		{"after the group's name", []string{"stock", "--base-url", base, "--token", token, "--json", "--quiet", "push", "--template", "stock", "--dry-run", "--state", st, stock}},
		{"some of each", []string{"--base-url", base, "stock", "push", "--template", "stock", "--token", token, "--quiet", "--json", "--dry-run", "--state", st, stock}},
		{"after wins", []string{"--base-url", "http://127.0.0.1:1", "--token", "wrong", "stock", "push", "--base-url", base, "--token", token, "--json", "--quiet", "--dry-run", "--state", st, "--template", "stock", stock}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, err := run(t, tc.args...)
			if err != nil {
				t.Fatalf("%v\n%s", said(err), errOut)
			}
			lines := jsonLines(t, out)
			if len(lines) != 1 || lines[0]["input"] != stock || lines[0]["dry_run"] != true {
				t.Errorf("want one JSON summary of the dry run:\n%s", out)
			}
			if errOut != "" {
				t.Errorf("--quiet, yet stderr says:\n%s", errOut)
			}
		})
	}
	t.Run("environment", func(t *testing.T) {
		t.Setenv("LADING_BASE_URL", base)
		t.Setenv("LADING_TOKEN", "wrong-token")
		out, errOut, err := run(t, "stock", "push", "--token", token, "--json", "--dry-run", "--state", st, "--template", "stock", stock)
		if err != nil || len(jsonLines(t, out)) != 1 {
			t.Fatalf("LADING_BASE_URL with --token after the name: %v\n%s%s", said(err), out, errOut)
		}
	})
	t.Run("pacing checked wherever given", func(t *testing.T) {
		_, _, err := run(t, "stock", "push", "--rate", "0", "--template", "stock", stock)
		if !isUsage(err) || !strings.Contains(err.Error(), "--rate 0") {
			t.Errorf("--rate 0 after the name: %v, want a usage error", err)
		}
	})
}

// lading --version and lading version say which lading this is; help
// reaches every command in every spelling, and every command's help has
// examples and exit codes.
func TestVersionAndHelp(t *testing.T) {
	t.Parallel()
	out, _, err := run(t, "--version")
	if err != nil || !strings.HasPrefix(out, "lading version ") {
		t.Errorf("--version: %v %q", err, out)
	}
	out2, _, err := run(t, "version")
	if err != nil || out2 != out {
		t.Errorf("version: %v %q, want what --version says, %q", err, out2, out)
	}
	out, _, err = run(t, "version", "--json")
	if err != nil || len(jsonLines(t, out)) != 1 || jsonLines(t, out)[0]["go"] == "" {
		t.Errorf("version --json: %v %q", err, out)
	}
	for _, args := range [][]string{{"help", "import"}, {"import", "--help"}, {"help", "stock", "push"}, {"stock", "help", "push"},
		{"stock", "push", "--help"}, {"help", "export", "packing-slips"}, {"import", "--help", "catalog.csv"},
		{"stock", "push", "help"}, {"import", "h"}} {
		out, _, err := run(t, args...)
		name := "NAME:\n   lading " + strings.Join(slices.DeleteFunc(slices.Clone(args), func(s string) bool {
			return s == "help" || s == "h" || s == "--help" || strings.HasSuffix(s, ".csv")
		}), " ") + " - "
		if err != nil || !strings.HasPrefix(out, name) || !strings.Contains(out, "\nEXAMPLES:\n") {
			t.Errorf("%v: %v\n%s", args, err, out)
		}
	}
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(slices.Clone(path), c.Name)
			out, _, err := run(t, append([]string{"help"}, p...)...)
			if err != nil || !strings.Contains(out, "\nEXAMPLES:\n   # ") || !strings.Contains(out, "\nEXIT CODES:\n   0    done") {
				t.Errorf("lading help %s: %v, want examples and exit codes:\n%s", strings.Join(p, " "), err, out)
			}
			walk(p, c.Subcommands)
		}
	}
	walk(nil, New(Env{}).Commands)

	out, _, err = run(t, "--help")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(out, "\nEXIT CODES:\n")
	if !ok {
		t.Fatalf("lading --help has no exit codes:\n%s", out)
	}
	for _, e := range ExitCodes {
		if !regexp.MustCompile(`(?m)^   `+regexp.QuoteMeta(strings.TrimSpace(exitTable([]int{e.Code})))+`$`).MatchString(table) &&
			!strings.Contains(table, e.Meaning) {
			t.Errorf("lading --help does not list exit code %d (%s):\n%s", e.Code, e.Meaning, table)
		}
	}
	for _, args := range [][]string{{"help", "frob"}, {"help", "stock", "pusj"}} {
		_, _, err := run(t, args...)
		if !isUsage(err) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	if _, _, err := run(t, "help", "stok"); err == nil || !strings.Contains(err.Error(), "did you mean stock?") {
		t.Errorf("help stok: %v", err)
	}
}

// import --help names every catalog template, and mapping init --help
// one default for --header-row.
func TestHelpOfFlags(t *testing.T) {
	t.Parallel()
	out, _, err := run(t, "import", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range templates.Names(templates.KindCatalog) {
		if !strings.Contains(out, name) {
			t.Errorf("import --help does not name the template %s", name)
		}
	}
	out, _, err = run(t, "mapping", "init", "--help")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^\s*--header-row.*$`).FindString(out)
	if strings.Count(line, "default") != 1 {
		t.Errorf("--header-row shows %d defaults: %q", strings.Count(line, "default"), line)
	}
}

// Every usage error is one line, a hint under it, and nothing on stdout:
// no help dumped, and "did you mean" where a name was mistyped.
func TestUsageErrorsAreOneLineAndAHint(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	a := newAccount(t)
	dir := t.TempDir()
	stock := filepath.Join(dir, "stock.csv")
	mapping := filepath.Join(dir, "m.yaml")
	writeOld(t, dir, map[string]string{"stock.csv": "SKU,Qty\nA1,3\n", "m.yaml": "stock:\n  sku: SKU\n  quantity: Qtty\n"})
	st := filepath.Join(dir, "state.db")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "products"}, "missing --output (-o)"},
		{[]string{"improt"}, `unknown command "improt"; did you mean import?`},
		{[]string{"stock", "psuh"}, `unknown command "stock psuh"; did you mean push?`},
		{[]string{"import", "--template", "shopfy", "../samples/catalog.csv"}, `no template "shopfy"; did you mean shopify?`},
		{[]string{"import", "--templte", "generic", "../samples/catalog.csv"}, "unknown flag --templte for lading import; did you mean --template?"},
		{[]string{"export", "prodcts", "-o", "p.csv"}, "unknown flag -o for lading export, which chooses a command: give one of products, variants"},
		{[]string{"stock", "--quite", "push"}, "unknown flag --quite for lading stock; did you mean --quiet?"},
		{[]string{"stock", "push", "--every", "15", "--template", "stock", stock}, "--every 15: write it with a unit, e.g. 15m"},
		{[]string{"stock", "push", "--batch-size", "ten", stock}, `--batch-size "ten": want a whole number`},
		{[]string{"import", "--json=yes", "../samples/catalog.csv"}, "--json=yes: give --json alone"},
		{[]string{"fulfillments", "pull"}, "missing --output (-o)"},
		{[]string{"export", "products", "-o", filepath.Join(dir, "products.xls")}, "lading writes .xlsx (Excel) and .csv files only; name it products.xlsx or products.csv"},
		{[]string{"stock"}, "missing command: the commands of lading stock are push"},
		{[]string{"stock", "push", "--dry-run", "--state", st, "--mapping", mapping, stock}, `no column "Qtty" in`},
		{[]string{"export", "packing-slips", "--where", "ship_date => 2026-10-01", "-o", filepath.Join(dir, "s.csv")}, `"=>" is not an operator; did you mean >=?`},
		{[]string{"stock", "push", "--timezone", "CEST", "--template", "stock", stock}, ""},
		{[]string{"export", "products", "--timezone", "Mars/Olympus", "-o", filepath.Join(dir, "p.csv")}, `--timezone "Mars/Olympus": no such zone`},
	} {
		out, _, err := a.lading(t, tc.args...)
		switch {
		case !isUsage(err):
			t.Errorf("%v: %v, want a usage error", tc.args, err)
		case strings.Contains(err.Error(), "\n") || Advice(err) == "":
			t.Errorf("%v: %q, want one line and a hint (%q)", tc.args, err, Advice(err))
		case !strings.Contains(err.Error(), tc.want):
			t.Errorf("%v: %q does not say %q", tc.args, err, tc.want)
		case out != "":
			t.Errorf("%v printed on stdout:\n%s", tc.args, out)
		}
	}
	_, _, err := a.lading(t, "stock", "push", "--dry-run", "--state", st, "--mapping", mapping, stock)
	if !strings.Contains(said(err), `did you mean "Qty"?`) {
		t.Errorf("a mapping naming a column the file lacks: %q, want the close match", said(err))
	}
}

// --json prints one object per line in every command that prints results.
func TestJSONIsOneObjectALine(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	a := newAccount(t)
	dir, in := sampleCopy(t, "catalog.csv")
	st := filepath.Join(dir, "state.db")
	stock := filepath.Join(dir, "stock.csv")
	writeOld(t, dir, map[string]string{"stock.csv": "sku,quantity\nTEE-BLA-S,3\n"})
	for _, tc := range []struct {
		args  []string
		lines int
		key   string
	}{
		{[]string{"import", "--template", "generic", "--state", st, "--read-ids", "--json", in}, 1, "rows"},
		{[]string{"stock", "push", "--template", "stock", "--state", st, "--json", stock}, 1, "levels"},
		{[]string{"export", "products", "-o", filepath.Join(dir, "p.csv"), "--json"}, 1, "files"},
		{[]string{"auth", "status", "--json"}, 1, "service"},
		{[]string{"templates", "list", "--json"}, len(templates.List()), "command"},
		{[]string{"mapping", "init", "--json", "--out", filepath.Join(dir, "m.yaml"), stock}, 1, "next"},
	} {
		out, errOut, err := a.lading(t, tc.args...)
		if err != nil {
			t.Errorf("%v: %v\n%s", tc.args, said(err), errOut)
			continue
		}
		lines := jsonLines(t, out)
		if len(lines) != tc.lines || lines[0][tc.key] == nil {
			t.Errorf("%v: %d JSON lines, want %d with %q:\n%s", tc.args, len(lines), tc.lines, tc.key, out)
		}
	}
	if _, _, err := a.lading(t, "demo", "--json"); !isUsage(err) {
		t.Errorf("demo --json: %v, want a usage error (the demo is for people)", err)
	}
}

// Plain output is sentences: no log-format lines, counts in the singular
// where they are one.
func TestPlainOutputIsSentences(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	a, st := withCatalog(t)
	dir := t.TempDir()
	stock := filepath.Join(dir, "stock.csv")
	push := func(units string, flags ...string) (string, string) {
		t.Helper()
		writeOld(t, dir, map[string]string{"stock.csv": "sku,quantity\nTEE-BLA-S," + units + "\n"})
		out, errOut, err := a.lading(t, append(append([]string{"stock", "push", "--template", "stock", "--state", st}, flags...), stock)...)
		if err != nil {
			t.Fatalf("%v\n%s", said(err), errOut)
		}
		return out, errOut
	}
	out, errOut := push("3")
	for _, want := range []string{"to warehouse ", "(1 write, 1 read; 0 throttled)", "read 1 row of " + stock, "writing 1 level in 1 request"} {
		if !strings.Contains(out+errOut, want) {
			t.Errorf("a push of one row does not say %q:\n%s%s", want, out, errOut)
		}
	}
	if logFormat.MatchString(out + errOut) {
		t.Errorf("log-format lines in plain output:\n%s\n%s", out, errOut)
	}
	// A file still being written is waited for, said as a sentence. Its
	// time is ahead of this machine's clock (a writer whose clock is), so
	// that however long the command takes to start, the file is younger
	// than --settle when it looks.
	if err := os.Chtimes(stock, time.Now(), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	_, errOut, err := a.lading(t, "stock", "push", "--template", "stock", "--state", st, "--settle", "100ms", stock)
	if err != nil || !strings.Contains(errOut, "waiting") || logFormat.MatchString(errOut) {
		t.Errorf("stock push waiting for the file: %v\n%s", err, errOut)
	}
	if _, errOut := push("4", "--debug"); !logFormat.MatchString(errOut) {
		t.Errorf("--debug shows no log lines:\n%s", errOut)
	}
}

// With the service down, a push says so once, with what to do, and
// nothing before it; auth status tells a service it cannot reach from
// one that refuses the token.
func TestServiceDownAndRefusedToken(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + l.Addr().String()
	l.Close()
	env := Env{APIOptions: unpaced}
	dir := t.TempDir()
	stock := filepath.Join(dir, "stock.csv")
	writeOld(t, dir, map[string]string{"stock.csv": "sku,quantity\nA1,3\n"})
	out, errOut, err := runWith(t, env, "--base-url", down, "--token", "t", "stock", "push", "--template", "stock", "--state", filepath.Join(dir, "st.db"), stock)
	if err == nil || !strings.Contains(Advice(err), "could not reach the service") {
		t.Errorf("push to a service that is down: %v, advice %q", err, Advice(err))
	}
	if logFormat.MatchString(out+errOut) || strings.Contains(errOut, "retrying") {
		t.Errorf("lines before the one error:\n%s%s", out, errOut)
	}

	out, _, err = runWith(t, env, "--base-url", down, "--token", "t", "auth", "status")
	if err == nil || !strings.Contains(out, "service:   not reachable at "+down) {
		t.Errorf("auth status, service down: %v\n%s", err, out)
	}
	a := newAccount(t)
	out, _, err = runWith(t, env, "--base-url", a.flags[1], "--token", "not-the-token", "auth", "status")
	if err == nil || !strings.Contains(out, "service:   reached, and it refused this token") || !strings.Contains(Advice(err), "lading auth login") {
		t.Errorf("auth status, token refused: %v (%q)\n%s", err, Advice(err), out)
	}
}

// An export writes dates and times in the zone asked for, and says which:
// a slip packed at 00:30 in Berlin on 24 November is in the 24th's row.
func TestExportInAZone(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if _, err := time.LoadLocation("Europe/Berlin"); err != nil {
		t.Skip("no time zone database:", err)
	}
	a := newAccount(t)
	dir, in := sampleCopy(t, "catalog.csv")
	if _, errOut, err := a.lading(t, "import", "--template", "generic", "--state", filepath.Join(dir, "st.db"), in); err != nil {
		t.Fatalf("%v\n%s", said(err), errOut)
	}
	order, err := a.srv.CreateOrder(t.Context(), sandbox.OrderSpec{Token: cliToken, Lines: []sandbox.OrderLine{{SKU: "TEE-BLA-S", Quantity: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.srv.CreateSlip(t.Context(), sandbox.SlipSpec{Token: cliToken, Order: order, Date: "2026-11-23T23:30:00+0000",
		Lines: []sandbox.OrderLine{{SKU: "TEE-BLA-S", Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ zone, day string }{{"Europe/Berlin", "2026-11-24"}, {"UTC", "2026-11-23"}} {
		path := filepath.Join(dir, "slips-"+strings.ReplaceAll(tc.zone, "/", "-")+".csv")
		out, errOut, err := a.lading(t, "export", "packing-slips", "--template", "accounting-slips", "--timezone", tc.zone, "-o", path)
		if err != nil {
			t.Fatalf("%v\n%s", said(err), errOut)
		}
		if !strings.Contains(out, "times:    "+tc.zone) {
			t.Errorf("the summary does not name the zone %s:\n%s", tc.zone, out)
		}
		header, rows := readRecords(t, path, "Slip")
		col := slices.Index(header, "Slip date")
		for _, r := range rows {
			if r[col] != tc.day {
				t.Errorf("%s: slip date %q, want %s", tc.zone, r[col], tc.day)
			}
		}
	}
}
