package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/sandbox"
)

// run runs the app with args and returns stdout, stderr and the error.
func run(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	a := New(Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
	err := a.RunContext(context.Background(), append([]string{"lading"}, args...))
	return out.String(), errb.String(), err
}

func newSandbox(t *testing.T, token string) string {
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
	return hs.URL
}

func TestUsageErrors(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"import"}, "one input file"},
		{[]string{"import", "--template", "shopify", "nope.csv"}, "input file"},
		{[]string{"import", "--template", "nosuch", "../samples/catalog.csv"}, "generic"},
		{[]string{"import", "--template", "generic", "--mapping", "x.yaml", "../samples/catalog.csv"}, "not both"},
		{[]string{"import", "../samples/catalog.csv"}, "--template"},
		{[]string{"import", "--template", "generic", "../samples/catalog.csv", "--json"}, "put flags before it"},
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
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %q does not mention %q", tc.args, err, tc.want)
		}
	}
}

func TestTemplatesAndMappingInit(t *testing.T) {
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
	if _, _, err := run(t, "mapping", "init", in); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("second mapping init overwrote the file or said nothing useful: %v", err)
	}
}

func TestImportExitCodesAndOutput(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const token = "app-test-token-0123456789"
	base := newSandbox(t, token)
	dir := t.TempDir()
	in := filepath.Join(dir, "catalog.csv")
	b, err := os.ReadFile("../samples/catalog.csv")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(in, b, 0o644)
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
	if !strings.Contains(out, `"created": 26`) {
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
	for _, tc := range []struct {
		err  PartialError
		want string
	}{
		{PartialError{Failed: 2, Total: 4, What: "rows"}, "2 of 4 rows failed"},
		{PartialError{Failed: 2, Total: 4, What: "rows", See: "R.csv"}, "2 of 4 rows failed; see R.csv"},
		{PartialError{Failed: 1, Total: 4, What: "rows", Note: "nothing was sent (--strict)", See: "R.csv"},
			"1 of 4 rows failed; nothing was sent (--strict); see R.csv"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.err, got, tc.want)
		}
	}
}
