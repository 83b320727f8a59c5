package ui_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The page is tested in a real headless Chromium (Debian's chromium
// package), driven through the DevTools protocol: a person's clicks, the
// screenshots of every page at a laptop's and a tablet's width, and an
// accessibility check (axe-core) of each.

// chromiumPath is the browser the tests drive. They are skipped only
// when there is none, and never in CI (.ci/run installs it, and sets
// CI), where its absence fails them.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Chromium on this machine (apt-get install chromium): the page's tests need it in CI")
	}
	t.Skip("no Chromium on this machine (apt-get install chromium)")
	return ""
}

// The widths the screenshots are taken at: a laptop's, a tablet's.
var widths = []struct {
	name          string
	width, height int64
}{{"laptop", 1366, 800}, {"tablet", 820, 1180}}

// tab is a Chromium tab on the page, for one test.
type tab struct {
	t     *testing.T
	ctx   context.Context
	fx    *fixture
	shots string // where screenshots go
	down  string // where downloads go
	axe   string // axe-core's script
	html  []string
}

// shotsDir is where screenshots go: $LADING_UI_SHOTS when set, else the
// test's artifact folder (kept with go test -artifacts).
func shotsDir(t *testing.T) string {
	if d := os.Getenv("LADING_UI_SHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.ArtifactDir()
}

var axeOnce = sync.OnceValues(func() ([]byte, error) { return os.ReadFile(filepath.Join("testdata", "axe.min.js")) })

func newTab(t *testing.T, fx *fixture) *tab {
	t.Helper()
	path := chromiumPath(t)
	axe, err := axeOnce()
	if err != nil {
		t.Fatal(err)
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("host-resolver-rules", "MAP rebind.test 127.0.0.1"),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1366, 800))
	t.Cleanup(cancel)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	tb := &tab{t: t, ctx: ctx, fx: fx, shots: shotsDir(t), down: t.TempDir(), axe: string(axe)}
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("starting Chromium: %v", err)
	}
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: tb.down, EventsEnabled: new(true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, page.SetBypassCSP, page.SetBypassCSPParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	return tb
}

// do runs steps, each within a minute.
func (tb *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		main, _ := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`document.querySelector("main") ? document.querySelector("main").innerText : document.body.innerText`))
		tb.t.Fatalf("%v (at %s):\n%s", err, tb.location(), main)
	}
}

func (tb *tab) location() string {
	loc, _ := chromedp.Run(tb.ctx, chromedp.Location())
	return loc
}

// open opens path of the page and waits for sel.
func (tb *tab) open(path, sel string) {
	tb.t.Helper()
	tb.do(chromedp.Navigate(tb.fx.url+path), chromedp.WaitVisible(chromedp.CSS(sel)))
}

// follow runs steps that lead to another page (a click on a button, a
// link) and waits for that page to show sel: the page before is marked,
// so that its own sel is not taken for the next page's.
func (tb *tab) follow(sel string, steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	tb.do(append([]chromedp.Action[chromedp.Void]{void(chromedp.Evaluate[bool](`window.ladingLeft = true`))}, steps...)...)
	tb.until(fmt.Sprintf(`!window.ladingLeft && document.readyState === "complete" && document.querySelector(%q) !== null`, sel))
}

// until waits until the expression is true on the page, across
// navigations, for at most 20 seconds.
func (tb *tab) until(expr string) {
	tb.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(tb.ctx, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			main, _ := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
			tb.t.Fatalf("waited 20s for %s (at %s; %v):\n%s", expr, tb.location(), err, main)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// text is the text of the element sel (its textContent: as written, not
// as styled).
func (tb *tab) text(sel string) string {
	tb.t.Helper()
	tb.until(fmt.Sprintf(`document.querySelector(%q) !== null`, sel))
	s, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).textContent.replace(/\s+/g, " ")`, sel)))
	if err != nil {
		tb.t.Fatalf("text of %s: %v (at %s)", sel, err, tb.location())
	}
	return s
}

// has fails the test unless the element sel holds each of want.
func (tb *tab) has(sel string, want ...string) {
	tb.t.Helper()
	got := tb.text(sel)
	for _, w := range want {
		if !strings.Contains(got, w) {
			tb.t.Errorf("%s at %s lacks %q:\n%s", sel, tb.location(), w, got)
		}
	}
}

// count is how many elements match sel.
func (tb *tab) count(sel string) int {
	tb.t.Helper()
	n, err := chromedp.Run(tb.ctx, chromedp.Evaluate[int](fmt.Sprintf("document.querySelectorAll(%q).length", sel)))
	if err != nil {
		tb.t.Fatal(err)
	}
	return n
}

// look takes the screenshots of the page as it is at both widths, named
// name, checks it with axe-core, and keeps its HTML to look for the
// token in.
func (tb *tab) look(name string) {
	tb.t.Helper()
	html, err := chromedp.Run(tb.ctx, chromedp.OuterHTML(chromedp.CSS("html")))
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.html = append(tb.html, html)
	for _, w := range widths {
		// A size of its own first: Chromium captures nothing until the page
		// paints a new frame, which the same size again would not ask for.
		tb.do(chromedp.EmulateViewport(w.width, w.height-1), chromedp.EmulateViewport(w.width, w.height))
		png, err := tb.screenshot(w.width)
		if err != nil {
			tb.t.Fatalf("screenshot of %s (%s): %v", name, w.name, err)
		}
		if err := os.WriteFile(filepath.Join(tb.shots, fmt.Sprintf("%s-%s.png", name, w.name)), png, 0o644); err != nil {
			tb.t.Fatal(err)
		}
		tb.checkAccess(name + " (" + w.name + ")")
	}
	tb.do(chromedp.EmulateViewport(widths[0].width, widths[0].height))
}

// part writes a screenshot of the element sel alone, at the laptop's
// width, as name.png (the README's picture of a dry run's changes).
func (tb *tab) part(name, sel string) {
	tb.t.Helper()
	png, err := chromedp.Run(tb.ctx, chromedp.Screenshot(css(sel)))
	if err != nil {
		tb.t.Fatalf("screenshot of %s: %v", sel, err)
	}
	if err := os.WriteFile(filepath.Join(tb.shots, name+".png"), png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
}

// maxShot bounds a screenshot's height: a results page of hundreds of
// lines is shown from its top (a capture far taller than this never ends
// in headless Chromium).
const maxShot = 4000

// screenshot is the page as a PNG, from its top to its end or maxShot,
// asked again should Chromium not answer.
func (tb *tab) screenshot(width int64) ([]byte, error) {
	var err error
	for range 3 {
		ctx, cancel := context.WithTimeout(tb.ctx, 5*time.Second)
		var h int64
		if _, err = chromedp.Call(ctx, page.BringToFront, cdp.Empty{}); err != nil {
			cancel()
			continue
		}
		if h, err = chromedp.Run(ctx, chromedp.Evaluate[int64](`Math.ceil(document.documentElement.scrollHeight)`)); err == nil {
			var r page.CaptureScreenshotResult
			r, err = chromedp.Call(ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{
				Format: page.CaptureScreenshotFormatPng, CaptureBeyondViewport: new(true), FromSurface: new(true),
				Clip: &page.Viewport{Width: float64(width), Height: float64(min(h, maxShot)), Scale: 1}})
			if err == nil {
				cancel()
				return r.Data, nil
			}
		}
		cancel()
	}
	return nil, err
}

// violation is what axe-core finds wrong with a page.
type violation struct {
	ID, Impact, Help string
	Nodes            []struct {
		Target []string
	}
}

// checkAccess runs axe-core (WCAG 2.1 A and AA, and its best practices)
// on the page; any violation fails the test.
func (tb *tab) checkAccess(name string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, time.Minute)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("typeof axe !== 'undefined' || (function(){"+tb.axe+"\n;return true})()")); err != nil {
		tb.t.Fatalf("loading axe-core: %v", err)
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}}).then(r => JSON.stringify(r.violations))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("axe-core on %s: %v", name, err)
	}
	var vs []violation
	if err := json.Unmarshal([]byte(res), &vs); err != nil {
		tb.t.Fatal(err)
	}
	for _, v := range vs {
		var where []string
		for _, n := range v.Nodes {
			where = append(where, strings.Join(n.Target, " "))
		}
		tb.t.Errorf("accessibility of %s: %s (%s): %s, at %s", name, v.ID, v.Impact, v.Help, strings.Join(where, "; "))
	}
}

// download clicks the link sel and returns the file the browser saved.
func (tb *tab) download(sel string) []byte {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, time.Minute)
	defer cancel()
	progress := chromedp.BrowserEvents(ctx, browser.DownloadProgress)
	tb.do(chromedp.Click(chromedp.CSS(sel)))
	for ev, err := range progress {
		if err != nil {
			tb.t.Fatalf("downloading %s: %v", sel, err)
		}
		switch ev.State {
		case browser.DownloadProgressStateCompleted:
			b, err := os.ReadFile(filepath.Join(tb.down, ev.GUID))
			if err != nil {
				tb.t.Fatal(err)
			}
			return b
		case browser.DownloadProgressStateCanceled:
			tb.t.Fatalf("downloading %s: canceled", sel)
		}
	}
	tb.t.Fatal(errors.New("no download"))
	return nil
}

// noToken fails the test if a page the tab saw shows the account's token.
func (tb *tab) noToken() {
	for _, h := range tb.html {
		if strings.Contains(h, token) {
			tb.t.Errorf("a page shows the account's token:\n%s", h)
		}
	}
}
