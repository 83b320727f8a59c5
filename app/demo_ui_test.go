package app

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"lading/images/imagestest"
	"lading/internal/syncbuf"
)

// lading demo --ui walks through the demo, then serves lading ui on its
// account until Ctrl-C: the page lists the demo's runs.
func TestDemoUIServesTheDemosAccount(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &syncbuf.Buffer{}
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Env{Stdout: out, Stderr: out, Getenv: func(string) string { return "" }, ImageTransport: imagestest.Offline()},
			[]string{"lading", "demo", "--out", t.TempDir(), "--ui", "--addr", "127.0.0.1:0"})
	}()
	url := waitForLine(t, out, done, regexp.MustCompile(`lading ui: (http://\S+)`))
	if strings.Contains(out.String(), "What next") {
		t.Errorf("with --ui the demo still lists what to try next on the command line:\n%s", out.String())
	}
	res, err := http.Get(url + "/runs")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /runs: %d, %v", res.StatusCode, err)
	}
	for _, want := range []string{"the demo&#39;s sandbox", "catalog.csv", "stock-changed.csv"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the page of runs lacks %q:\n%s", want, body)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("lading demo --ui, stopped: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("lading demo --ui did not stop with its context")
	}
}
