package e2e

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"lading/api/wire"
	"lading/app"
	"lading/images/imagestest"
	"lading/sandbox"
	"lading/state"
)

// writeCSV writes rows to path.
func writeCSV(t *testing.T, path string, rows ...[]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCLIStockPush: an import fills the SKU cache, a push sends only what
// changed with no reads, a push running with --every holds the lock so a
// second one exits 4 naming it, and the first stops cleanly on Ctrl-C.
func TestCLIStockPush(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{}, wire.APIPrefix)
	dir := t.TempDir()
	st := filepath.Join(dir, "state.db")
	common := []string{"--base-url", e.base, "--token", testToken, "--quiet"}
	ctx := context.Background()
	importGood(t, common, dir, st, "--read-ids")
	stock := filepath.Join(dir, "stock.csv")
	writeCSV(t, stock, []string{"sku", "quantity"}, []string{"MUG-1", "5"}, []string{"TEE-S", "7"}, []string{"NOPE", "1"})
	push := func(ctx context.Context, extra ...string) *run {
		args := append(append(append([]string{}, common...), "stock", "push", "--template", "stock", "--state", st, "--settle", "0", "--json"), extra...)
		return lading(ctx, append(args, stock)...)
	}
	r := push(ctx)
	if exitCodeOf(r.err) != 3 || !strings.Contains(r.output(), "1 of 3 rows failed") {
		t.Fatalf("first push: exit %d, want 3 (an unknown SKU):\n%s", exitCodeOf(r.err), r.output())
	}
	var rep struct {
		Rows   map[string]int `json:"rows"`
		Writes int            `json:"writes"`
		Reads  int            `json:"reads"`
	}
	if err := json.Unmarshal([]byte(r.stdout.String()), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout.String())
	}
	// The SKUs the import read back need no read; NOPE needs one.
	if rep.Rows["sent"] != 2 || rep.Rows["unknown"] != 1 || rep.Writes != 1 || rep.Reads != 1 {
		t.Errorf("first push: %+v", rep)
	}

	// A push on a schedule holds the lock between its pushes.
	every, stop := context.WithCancel(ctx)
	defer stop()
	sched := &run{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		a := app.New(app.Env{Stdout: &sched.stdout, Stderr: &sched.stderr, Stdin: strings.NewReader(""), ImageTransport: imagestest.Offline(),
			Getenv: func(string) string { return "" }})
		args := append(append([]string{"lading"}, common...), "stock", "push", "--template", "stock", "--state", st,
			"--settle", "0", "--json", "--every", "1h", stock)
		sched.err = a.RunContext(every, args)
	}()
	waitFor(t, &sched.stdout, regexp.MustCompile(`("rows")`))
	r = push(ctx)
	var le *state.LockedError
	if !errors.As(r.err, &le) {
		t.Fatalf("a push while another runs on a schedule: %v, want the lock's error (exit 4)\n%s", r.err, r.output())
	}
	if !regexp.MustCompile(`another lading process \(pid \d+ on .*\) is running a stock push`).MatchString(r.err.Error()) {
		t.Errorf("the locked-out push says: %v", r.err)
	}
	if r.stdout.String() != "" {
		t.Errorf("the locked-out push printed a report:\n%s", r.stdout.String())
	}
	stop()
	select {
	case <-done:
		if sched.err != nil {
			t.Errorf("the scheduled push stopped between pushes: %v, want no error (exit 0)", sched.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the scheduled push did not stop within 10 s of Ctrl-C")
	}
}

// importGood imports a copy of the corpus's good catalog (the corpus file
// itself must not get a results file beside it) into the env's sandbox
// from the command line, with the state file st and extra import flags.
func importGood(t *testing.T, common []string, dir, st string, extra ...string) {
	t.Helper()
	catalog := filepath.Join(dir, "catalog.csv")
	b, err := os.ReadFile(filepath.Join(corpus, "good.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(catalog, b, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(append(append([]string{}, common...), "import", "--template", "generic", "--state", st), extra...)
	if r := lading(context.Background(), append(args, catalog)...); r.err != nil {
		t.Fatalf("import: %v\n%s", r.err, r.output())
	}
}
