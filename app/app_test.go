package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lading/images/imagestest"
	"lading/sandbox"
	"lading/state"
)

// run runs the app with args and returns stdout, stderr and the error.
func run(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, ImageTransport: imagestest.Offline()}, append([]string{"lading"}, args...))
	return out.String(), errb.String(), err
}

// sampleCopy copies samples/name, with the images the samples name, into
// a new temporary folder and returns the folder and the copy's path
// (results and state go beside it).
func sampleCopy(t *testing.T, name string) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "images"), os.DirFS(filepath.Join("..", "samples", "images"))); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("..", "samples", name))
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

func newSandbox(t *testing.T, token string) string {
	t.Helper()
	_, base := newSandboxServer(t, token)
	return base
}

// newSandboxServer serves a sandbox with token registered until the test
// ends, and returns it and its base URL.
func newSandboxServer(t *testing.T, token string) (*sandbox.Server, string) {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if _, err := srv.RegisterToken(token); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return srv, hs.URL
}

func TestUsageErrors(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"import"}, "one input file"},
		{[]string{"import", "--template", "shopify", "nope.csv"}, "input file nope.csv: there is no such file\nCheck the file's name"},
		{[]string{"import", "--template", "shopify", "../samples"}, "input file ../samples is a folder: give the file to read"},
		{[]string{"import", "--template", "prestashop", "../samples/catalog.csv", "nope.csv"}, "second input file nope.csv: there is no such file"},
		{[]string{"stock", "push", "--template", "stock", "nope.csv"}, "input file nope.csv: there is no such file"},
		{[]string{"sandbox", "--load", "nope.csv", "--template", "shopify"}, "--load nope.csv: there is no such file"},
		{[]string{"import", "--mapping", "nope.yaml", "../samples/catalog.csv"}, "--mapping nope.yaml: there is no such file\nCheck the file's name"},
		{[]string{"import", "--mapping", "../samples", "../samples/catalog.csv"}, "--mapping ../samples is a folder"},
		{[]string{"import", "--template", "generic", "--images", "nodir", "../samples/catalog.csv"}, "--images nodir: there is no such folder\nCheck the folder's name"},
		{[]string{"import", "--template", "generic", "--images", "../samples/catalog.csv", "../samples/catalog.csv"}, "--images ../samples/catalog.csv: not a folder; give the folder"},
		{[]string{"ui", "--images", "nodir"}, "--images nodir: there is no such folder"},
		{[]string{"mapping", "init", "nope.csv"}, "input file nope.csv: there is no such file"},
		{[]string{"run", "nope.yaml"}, "jobs file nope.yaml: there is no such file"},
		{[]string{"jobs", "check", "../samples"}, "jobs file ../samples is a folder"},
		{[]string{"import", "--template", "nosuch", "../samples/catalog.csv"}, "generic"},
		{[]string{"import", "--template", "generic", "--mapping", "x.yaml", "../samples/catalog.csv"}, "not both"},
		{[]string{"import", "../samples/catalog.csv"}, "--template"},
		{[]string{"import", "--template", "generic", "--mode", "sideways", "../samples/catalog.csv"}, "create-only"},
		{[]string{"import", "--template", "generic", "--batch-size", "500", "../samples/catalog.csv"}, "1 to 100"},
		{[]string{"--concurrency", "0", "import", "--template", "generic", "../samples/catalog.csv"}, "--concurrency 0"},
		{[]string{"--no-such-flag"}, "no-such-flag"},
		{[]string{"templates", "show", "nosuch"}, "shopify"},
		{[]string{"sandbox", "--client", "bad"}, "ID:SECRET:REDIRECT_URI"},
		{[]string{"sandbox", "--throttle-status", "500"}, "429 or 403"},
	} {
		_, _, err := run(t, tc.args...)
		var u *UsageError
		if !errors.As(err, &u) {
			t.Errorf("%v: err = %v (%T), want a UsageError", tc.args, err, err)
			continue
		}
		if !strings.Contains(said(err), tc.want) {
			t.Errorf("%v: %q does not mention %q", tc.args, said(err), tc.want)
		}
	}
}

// A push on a schedule may start before its file is there; a push run
// once may not.
func TestScheduledPushStartsBeforeItsFile(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	env := &Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: func(string) string { return "" }}
	missing := filepath.Join(t.TempDir(), "levels.csv")
	o := &pushOptions{
		globalOptions: globalOptions{BaseURL: "http://127.0.0.1:1", Token: cliToken, Rate: 10, Burst: 1, Concurrency: 1},
		jobOptions: jobOptions{mappingOptions: mappingOptions{Template: "stock", MaxPartSize: "4GiB", MaxCellSize: "1MiB"},
			BatchSize: 100, State: filepath.Join(t.TempDir(), "state.db")},
		scheduleOptions: scheduleOptions{Every: time.Hour},
		Input:           missing,
	}
	ps, err := openPush(env, o, stockKind)
	if err != nil {
		t.Fatalf("with --every: %v, want the push set up", err)
	}
	ps.close()
	o.Every = 0
	if _, err := openPush(env, o, stockKind); !isUsage(err) || !strings.Contains(err.Error(), missing+": there is no such file") {
		t.Errorf("without --every: %v, want a usage error naming the missing file", err)
	}
}

// said is what main prints of err: the error, and the advice under it.
func said(err error) string {
	if err == nil {
		return ""
	}
	return err.Error() + "\n" + Advice(err)
}

func TestTemplatesAndMappingInit(t *testing.T) {
	t.Parallel()
	out, _, err := run(t, "templates", "list")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"shopify", "woocommerce", "generic"} {
		if !strings.Contains(out, n) {
			t.Errorf("templates list lacks %s:\n%s", n, out)
		}
	}
	out, _, err = run(t, "templates", "show", "generic")
	if err != nil || !strings.Contains(out, "product_key") {
		t.Fatalf("templates show generic: %v\n%s", err, out)
	}

	dir := t.TempDir()
	in := filepath.Join(dir, "own.csv")
	os.WriteFile(in, []byte("Ref;Nom;Prix\nA1;Chemise;12,5\n"), 0o644)
	out, _, err = run(t, "mapping", "init", in)
	if err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(filepath.Join(dir, "own.mapping.yaml"))
	if err != nil {
		t.Fatalf("no mapping written (%s): %v", out, err)
	}
	for _, col := range []string{"Ref", "Nom", "Prix"} {
		if !strings.Contains(string(written), col) {
			t.Errorf("starter mapping does not list column %q", col)
		}
	}
	if _, _, err := run(t, "mapping", "init", in); err == nil || !strings.Contains(said(err), "--force") {
		t.Errorf("second mapping init overwrote the file or said nothing useful: %v", err)
	}
	// A recognised export says why, and names the command that takes its
	// mapping.
	for _, c := range []struct{ file, text, why, next string }{
		{"products.csv", "product_key,product_name,sku\nA,Shirt,A1\n", "generic file (its header has product_key and sku)", "next: lading import --mapping"},
		{"levels.csv", "sku,quantity\nA1,3\n", "stock file (its header has sku and quantity: a SKU and its units on each row", "next: lading stock push --mapping"},
		{"shipped.csv", "order_number,sku,quantity,tracking_number\nSO-1,A1,1,1Z\n", "shipments file (its header has order_number, sku, quantity and tracking_number: the lines shipped", "next: lading shipments push --mapping"},
	} {
		in := filepath.Join(dir, c.file)
		os.WriteFile(in, []byte(c.text), 0o644)
		out, _, err := run(t, "mapping", "init", in)
		if err != nil || !strings.Contains(out, c.why) || !strings.Contains(out, c.next) {
			t.Errorf("mapping init %s: %v\n%s\nwant %q and %q", c.file, err, out, c.why, c.next)
		}
	}
}

func TestImportExitCodesAndOutput(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const token = "app-test-token-0123456789"
	base := newSandbox(t, token)
	dir, in := sampleCopy(t, "catalog.csv")
	st := filepath.Join(dir, "state.db")
	common := []string{"--base-url", base + "/api2", "--token", token, "--rate", "500", "--burst", "50"}

	out, errOut, err := run(t, append(common, "import", "--template", "generic", "--state", st, "--dry-run", "--plan", filepath.Join(dir, "plan.json"), in)...)
	if err != nil {
		t.Fatalf("dry run: %v\n%s", err, errOut)
	}
	if !strings.Contains(out, "8 created") || !strings.Contains(out, "writes needed") {
		t.Errorf("dry run summary:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "plan.json")); err != nil {
		t.Errorf("no plan file: %v", err)
	}

	out, errOut, err = run(t, append(common, "import", "--template", "generic", "--state", st, "--json", in)...)
	if err != nil {
		t.Fatalf("import: %v\n%s", err, errOut)
	}
	if !strings.Contains(out, `"created":26`) || strings.Count(out, "\n") != 1 {
		t.Errorf("json summary lacks 26 created rows:\n%s", out)
	}
	for _, s := range []string{out, errOut} {
		if strings.Contains(s, token) {
			t.Fatal("the token appears in the output")
		}
	}

	// Once the account has variants, status names the token's warehouse.
	out, _, err = run(t, append(common, "auth", "status")...)
	if err != nil || !strings.Contains(out, "token accepted; 26 variants") || !strings.Contains(out, "warehouse: 1") {
		t.Errorf("auth status after the import: %v\n%s", err, out)
	}
	if strings.Contains(out, token) {
		t.Fatal("auth status shows the token")
	}

	// One row with a bad weight: its product fails, the run exits with a
	// PartialError (exit code 3 in main), the others are unchanged.
	b, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(b), ",0.22,7.5,084012300074,", ",heavy,7.5,084012300074,", 1)
	if bad == string(b) {
		t.Fatal("test data changed: no row to break")
	}
	badIn := filepath.Join(dir, "bad.csv")
	os.WriteFile(badIn, []byte(bad), 0o644)
	_, _, err = run(t, append(common, "import", "--template", "generic", "--state", st, badIn)...)
	var p *PartialError
	if !errors.As(err, &p) || p.Failed == 0 {
		t.Fatalf("import with a bad row: err = %v, want a PartialError", err)
	}
	if want := fmt.Sprintf("%d of 26 rows failed; see %s", p.Failed, badIn+".results.csv"); err.Error() != want {
		t.Errorf("summary %q, want %q", err, want)
	}
	res, _ := os.ReadFile(badIn + ".results.csv")
	if !strings.Contains(string(res), "heavy") || !strings.Contains(string(res), "weight") {
		t.Errorf("results do not name the bad value and column:\n%s", res)
	}
	// --strict sends nothing.
	_, _, err = run(t, append(common, "import", "--template", "generic", "--state", st, "--strict", badIn)...)
	if !errors.As(err, &p) {
		t.Fatalf("--strict with a bad row: err = %v, want a PartialError", err)
	}
	if want := fmt.Sprintf("%d of 26 rows failed; nothing was sent (--strict); see %s", p.Failed, badIn+".results.csv"); err.Error() != want {
		t.Errorf("strict summary %q, want %q", err, want)
	}
}

func TestDemo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errOut, err := run(t, "demo", "--out", dir)
	if err != nil {
		t.Fatalf("demo: %v\n%s\n%s", err, out, errOut)
	}
	for _, want := range []string{"26 created", "26 unchanged", "1 updated, 25 unchanged", "What next"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	// The sample's five images are uploaded by the first import, and by
	// neither of the two after it.
	step1, rest, _ := strings.Cut(out, "\n2. ")
	if !strings.Contains(step1, "images:   5 uploaded (") || strings.Count(rest, "images:   5 unchanged\n") != 2 || strings.Contains(rest, "uploaded") {
		t.Errorf("the demo's imports do not upload the sample's images once:\n%s", out)
	}
	for _, f := range []string{"catalog.csv.results.csv", "catalog.xlsx.results.csv", "plan.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("demo did not write %s: %v", f, err)
		}
	}
	// The demo's sandbox is shut down when the command returns.
	first, _, _ := strings.Cut(out, "\n")
	base := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(first, "sandbox: "), " (in memory, for this demo only)"))
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		t.Fatalf("no sandbox URL in the first line %q", first)
	}
	if conn, err := net.Dial("tcp", u.Host); err == nil {
		conn.Close()
		t.Errorf("the demo's sandbox still listens on %s after the command returned", u.Host)
	}
}

func TestPartialErrorReads(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  PartialError
		want string
	}{
		{PartialError{Failed: 2, Total: 4}, "2 of 4 rows failed"},
		{PartialError{Failed: 2, Total: 4, See: "R.csv"}, "2 of 4 rows failed; see R.csv"},
		{PartialError{Failed: 1, Total: 4, Note: "nothing was sent (--strict)", See: "R.csv"},
			"1 of 4 rows failed; nothing was sent (--strict); see R.csv"},
		{PartialError{Failed: 2, Total: 9, Of: "image", Note: "their products were written", See: "R.csv"},
			"2 of 9 images failed; their products were written; see R.csv"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.err, got, tc.want)
		}
	}
}

// countingServer refuses every request (400, not tried again) and counts them: a usage
// error must come before the first.
func countingServer(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Error(w, "no", http.StatusBadRequest)
	}))
	t.Cleanup(hs.Close)
	return hs.URL, &n
}

// TestOutputThatIsAnInput names, as --results or --plan, a file lading
// reads (the input, a link to it, the joined file, the mapping, the state):
// the import must refuse before it reads or sends anything, name both
// paths, and leave every file as it was.
func TestOutputThatIsAnInput(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	base, requests := countingServer(t)
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	catalog, err := os.ReadFile("../samples/catalog.csv")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"catalog.csv": string(catalog),
		"combos.csv":  "product_id,ref\n1,A\n",
		"join.yaml":   "group:\n  key: id\nproduct:\n  name: name\nvariant:\n  sku: ref\njoin:\n  file: combos.csv\n  key: product_id\n",
	}
	for name, text := range files {
		if err := os.WriteFile(at(name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := state.Open(at("state.db"))
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := os.ReadFile(at("state.db"))
	if err != nil {
		t.Fatal(err)
	}
	files["state.db"] = string(db)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink("catalog.csv", at("link.csv")))
	must(os.Link(at("catalog.csv"), at("hard.csv")))
	must(os.Symlink(dir, at("alias")))
	must(os.Mkdir(at("sub"), 0o755))
	in := at("catalog.csv")
	for _, tc := range []struct {
		name  string
		flags []string
		input string
		paths []string // both in the error
	}{
		{"results is the input", []string{"--results", in}, in, []string{in}},
		{"results spelled otherwise", []string{"--results", at("sub/../catalog.csv")}, in, []string{at("sub/../catalog.csv"), in}},
		{"results through a link", []string{"--results", at("link.csv")}, in, []string{at("link.csv"), in}},
		{"input through a link", []string{"--results", in}, at("link.csv"), []string{in, at("link.csv")}},
		{"results a hard link", []string{"--results", at("hard.csv")}, in, []string{at("hard.csv"), in}},
		{"results through a linked directory", []string{"--results", at("alias/catalog.csv")}, in, []string{at("alias/catalog.csv"), in}},
		{"dry run, results", []string{"--dry-run", "--results", in}, in, []string{in}},
		{"dry run, plan", []string{"--dry-run", "--plan", at("link.csv")}, in, []string{at("link.csv"), in}},
		{"results is the joined file", []string{"--mapping", at("join.yaml"), "--results", at("combos.csv")}, in, []string{at("combos.csv")}},
		{"plan is the mapping", []string{"--mapping", at("join.yaml"), "--plan", at("join.yaml")}, in, []string{at("join.yaml")}},
		{"results is the state", []string{"--results", at("state.db")}, in, []string{at("state.db")}},
		{"dry run, plan is the state", []string{"--dry-run", "--plan", at("state.db")}, in, []string{at("state.db")}},
		{"plan is the results", []string{"--plan", at("out.csv"), "--results", at("out.csv")}, in, []string{at("out.csv")}},
		{"plan is the default results", []string{"--plan", in + ".results.csv"}, in, []string{in + ".results.csv"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requests.Store(0)
			flags := tc.flags
			if !slices.Contains(flags, "--mapping") {
				flags = append(flags, "--template", "generic")
			}
			if !slices.Contains(flags, "--state") {
				flags = append(flags, "--state", at("state.db"))
			}
			args := append([]string{"--base-url", base, "--token", "t", "import"}, flags...)
			_, _, err := run(t, append(args, tc.input)...)
			var u *UsageError
			if !errors.As(err, &u) {
				t.Fatalf("err = %v (%T), want a UsageError", err, err)
			}
			for _, p := range tc.paths {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("%q does not name %s", err, p)
				}
			}
			if n := requests.Load(); n != 0 {
				t.Errorf("%d requests sent before the error", n)
			}
			for name, text := range files {
				if b, err := os.ReadFile(at(name)); err != nil || string(b) != text {
					t.Errorf("%s changed (%v)", name, err)
				}
			}
			if _, err := os.Stat(at("out.csv")); err == nil {
				t.Error("out.csv written")
			}
		})
	}

	// mapping init --force --out the file it reads.
	_, _, err = run(t, "mapping", "init", "--force", "--out", at("link.csv"), in)
	var u *UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), at("link.csv")) {
		t.Errorf("mapping init --out the input: err = %v, want a UsageError naming the paths", err)
	}
	if b, _ := os.ReadFile(in); string(b) != files["catalog.csv"] {
		t.Error("mapping init overwrote its input")
	}
}

// TestUnwritableOutput names outputs lading cannot create: the import must
// say so before the first request, not after every write.
func TestUnwritableOutput(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	base, requests := countingServer(t)
	dir, in := sampleCopy(t, "catalog.csv")
	for _, tc := range []struct {
		name  string
		flags []string
		want  string
	}{
		{"results in a missing directory", []string{"--results", filepath.Join(dir, "nodir", "r.csv")}, "nodir"},
		{"results is a directory", []string{"--results", dir}, "is a directory"},
		{"results under a file", []string{"--results", filepath.Join(in, "r.csv")}, "not a directory"},
		{"results named as no sheet", []string{"--results", filepath.Join(dir, "r.xls")}, "lading writes .xlsx (Excel) and .csv files only; name it r.xlsx or r.csv"},
		{"plan in a missing directory", []string{"--plan", filepath.Join(dir, "nodir", "plan.json")}, "nodir"},
		{"dry run, plan is a directory", []string{"--dry-run", "--plan", dir}, "is a directory"},
		{"state under a file", []string{"--state", filepath.Join(in, "state.db")}, "not a directory"},
		{"state is a directory", []string{"--state", dir}, "is a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requests.Store(0)
			flags := tc.flags
			if !slices.Contains(flags, "--state") {
				flags = append(flags, "--state", filepath.Join(dir, "state.db"))
			}
			args := append([]string{"--base-url", base, "--token", "t", "import", "--template", "generic"}, flags...)
			_, _, err := run(t, append(args, in)...)
			var u *UsageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.flags[len(tc.flags)-2]) {
				t.Errorf("err = %v (%T), want a UsageError naming %s and saying %q", err, err, tc.flags[len(tc.flags)-2], tc.want)
			}
			if n := requests.Load(); n != 0 {
				t.Errorf("%d requests sent before the error", n)
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "catalog.csv" && e.Name() != "images" { // the inputs
			t.Errorf("left %s behind", e.Name())
		}
	}
}

// TestDryRunWritesOnlyWhatIsNamed: a dry run writes the plan and results
// files it is given, and nothing else (no default results file, no state).
func TestDryRunWritesOnlyWhatIsNamed(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const token = "app-test-token-0123456789"
	base := newSandbox(t, token)
	dir, in := sampleCopy(t, "catalog.csv")
	for _, tc := range []struct {
		flags []string
		want  []string // the files in dir after the run
	}{
		{nil, []string{"catalog.csv", "images"}},
		{[]string{"--plan", filepath.Join(dir, "plan.json")}, []string{"catalog.csv", "images", "plan.json"}},
		{[]string{"--results", filepath.Join(dir, "r.csv")}, []string{"catalog.csv", "images", "r.csv"}},
		// Named, the default path is written too.
		{[]string{"--results", filepath.Join(dir, "catalog.csv.results.csv")}, []string{"catalog.csv", "catalog.csv.results.csv", "images"}},
	} {
		args := append([]string{"--base-url", base, "--token", token, "import", "--template", "generic", "--dry-run",
			"--state", filepath.Join(dir, "state.db")}, tc.flags...)
		if _, errOut, err := run(t, append(args, in)...); err != nil {
			t.Fatalf("%v: %v\n%s", tc.flags, err, errOut)
		}
		entries, _ := os.ReadDir(dir)
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
			if e.Name() != "catalog.csv" && e.Name() != "images" { // the inputs
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v: dry run left %v, want %v", tc.flags, got, tc.want)
		}
	}
}

// mapping init finds a two-file layout's second file beside the first,
// and says to give it when it is not there.
func TestMappingInitSecondFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"prestashop-products_import.csv", "prestashop-combinations_import.csv"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "catalogs", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	products, combos := filepath.Join(dir, "prestashop-products_import.csv"), filepath.Join(dir, "prestashop-combinations_import.csv")
	out, _, err := run(t, "mapping", "init", products)
	if err != nil || !strings.Contains(out, "its second file is "+combos) || !strings.Contains(out, "--dry-run "+products+" "+combos+"\n") {
		t.Errorf("mapping init beside the combinations: %v\n%s", err, out)
	}
	os.Remove(combos)
	out, _, err = run(t, "mapping", "init", "--force", products)
	if err != nil || !strings.Contains(out, "this layout takes a second file (combinations.csv") {
		t.Errorf("mapping init without the combinations: %v\n%s", err, out)
	}
}
