package e2e

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/app"
	"lading/auth"
	"lading/images/imagestest"
	"lading/internal/syncbuf"
)

// run is one invocation of the lading command line.
type run struct {
	args   []string
	stdout syncbuf.Buffer
	stderr syncbuf.Buffer
	err    error
}

// output is everything the invocation showed the user: its output and its
// error, as main prints it.
func (r *run) output() string {
	s := r.stdout.String() + r.stderr.String()
	if r.err != nil {
		s += r.err.Error() + "\n" + app.Advice(r.err)
	}
	return s
}

// lading runs the command line with args (after "lading") until it returns.
func lading(ctx context.Context, args ...string) *run {
	r := &run{args: args}
	r.err = app.Run(ctx, app.Env{Stdout: &r.stdout, Stderr: &r.stderr, Stdin: strings.NewReader(""), ImageTransport: imagestest.Offline(),
		Getenv: userFolders}, append([]string{"lading"}, args...))
	return r
}

// userFolders is an environment of the user's folders alone (those of the
// test's process: a test sets XDG_CONFIG_HOME to keep the token store its
// own), where lading keeps its token store, accounts and their state.
func userFolders(k string) string {
	switch k {
	case "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME":
		return os.Getenv(k)
	}
	return ""
}

// waitFor polls out until re matches, and returns the first submatch.
func waitFor(t *testing.T, out *syncbuf.Buffer, re *regexp.Regexp) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %s in the output within 10s:\n%s", re, out.String())
	return ""
}

// usage reports whether err is an app.UsageError.
func usage(err error) bool {
	var u *app.UsageError
	return errors.As(err, &u)
}

// TestCLIAuth: auth status with --token, auth login through the sandbox's
// OAuth with the URL printed for the user, status from the stored token,
// a refused second login, logout. No output shows the token or the secret.
func TestCLIAuth(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LADING_TOKEN", "")
	t.Setenv("LADING_BASE_URL", "")
	o := newOAuthEnv(t, "/api2")
	secretFile := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secretFile, []byte(clientSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var runs []*run
	cmd := func(args ...string) *run {
		r := lading(t.Context(), args...)
		runs = append(runs, r)
		return r
	}
	base := []string{"--base-url", o.base}

	// A token the service does not know: status says so and fails.
	r := cmd(append(base, "--token", testToken, "auth", "status")...)
	if r.err == nil || !strings.Contains(r.stdout.String(), auth.Mask(testToken)) || !strings.Contains(r.stdout.String(), "refused this token") {
		t.Errorf("auth status with an unknown token: %v\n%s", r.err, r.output())
	}
	// A ready token: status shows where it comes from and that it works.
	if _, err := o.srv.RegisterToken(testToken); err != nil {
		t.Fatal(err)
	}
	r = cmd(append(base, "--token", testToken, "auth", "status")...)
	if r.err != nil || !strings.Contains(r.stdout.String(), "--token") || !strings.Contains(r.stdout.String(), "token accepted") {
		t.Errorf("auth status --token: %v\n%s", r.err, r.output())
	}
	if r := cmd(append(base, "auth", "status")...); !usage(r.err) || !strings.Contains(r.output(), "auth login") {
		t.Errorf("auth status without a token: %v, want a usage error pointing at auth login", r.err)
	}

	login := append(base, "auth", "login", "--client-id", o.client.ID, "--redirect-uri", o.redirect,
		"--client-secret-file", secretFile, "--no-browser", "--timeout", "10s")
	r = &run{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		a := app.New(app.Env{Stdout: &r.stdout, Stderr: &r.stderr, Getenv: userFolders})
		r.err = a.RunContext(t.Context(), append([]string{"lading"}, login...))
	}()
	authURL := waitFor(t, &r.stderr, regexp.MustCompile(`(?m)^\s+(http://\S+/authorize\?\S+)$`))
	b := newBrowser()
	b.open(authURL)
	if v := <-b.seen; v.callbackStatus != 200 {
		t.Errorf("browser: authorize %d %s, callback %d %v", v.authStatus, v.authBody, v.callbackStatus, v.err)
	}
	<-done
	runs = append(runs, r)
	if r.err != nil || !strings.Contains(r.stdout.String(), "Logged in") {
		t.Fatalf("auth login: %v\n%s", r.err, r.output())
	}
	store, err := auth.DefaultStore()
	if err != nil {
		t.Fatal(err)
	}
	cred, ok, err := store.Get(o.base)
	if err != nil || !ok || cred.Token == "" || cred.ClientID != o.client.ID {
		t.Fatalf("stored credential %v %v %v", cred, ok, err)
	}
	c, err := api.NewClient(o.base, cred.Token, fastClient...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := collectErr(c.Variants.List(t.Context(), nil)); err != nil {
		t.Errorf("the stored token does not work: %v", err)
	}

	if r := cmd(append(base, "auth", "status")...); r.err != nil || !strings.Contains(r.stdout.String(), "stored in") ||
		!strings.Contains(r.stdout.String(), auth.Mask(cred.Token)) {
		t.Errorf("auth status from the store: %v\n%s", r.err, r.output())
	}
	r = cmd(login...)
	if !usage(r.err) || !strings.Contains(r.output(), "already stored") || !strings.Contains(r.output(), "once per account") {
		t.Errorf("second auth login: %v, want a usage error saying a token is already stored (once per account)", r.err)
	}
	if n := o.srv.Counters().Requests[wire.AuthorizePath]; n != 1 {
		t.Errorf("%d authorization requests, want 1: the refused login must not start the flow", n)
	}
	if r := cmd(append(base, "auth", "logout")...); r.err != nil || !strings.Contains(r.stdout.String(), "Forgot the token") {
		t.Errorf("auth logout: %v\n%s", r.err, r.output())
	}
	if _, ok, _ := store.Get(o.base); ok {
		t.Error("the token is still stored after logout")
	}
	if r := cmd(append(base, "auth", "status")...); !usage(r.err) {
		t.Errorf("auth status after logout: %v, want a usage error", r.err)
	}

	for _, r := range runs {
		out := r.output()
		for _, secret := range []string{testToken, cred.Token, clientSecret} {
			if strings.Contains(out, secret) {
				t.Errorf("lading %s shows a secret:\n%s", strings.Join(r.args, " "), out)
			}
		}
	}
}

// TestCLISandbox: `lading sandbox --token T` serves the interface with T
// ready, at the root and under /api2, until interrupted.
func TestCLISandbox(t *testing.T) {
	t.Parallel()
	const token = "cli-sandbox-token"
	ctx, cancel := context.WithCancel(t.Context())
	r := &run{args: []string{"sandbox", "--addr", "127.0.0.1:0", "--token", token}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		a := app.New(app.Env{Stdout: &r.stdout, Stderr: &r.stderr, Getenv: func(string) string { return "" }})
		r.err = a.RunContext(ctx, append([]string{"lading", "--quiet"}, r.args...))
	}()
	base := waitFor(t, &r.stdout, regexp.MustCompile(`sandbox listening on (http://\S+)`))
	for _, prefix := range prefixes {
		c, err := api.NewClient(base+prefix, token, fastClient...)
		if err != nil {
			t.Fatal(err)
		}
		id := applied(t)(c.ProductTags.Create(t.Context(), "cli"+prefix))[0]
		page, err := c.ProductTags.Get(t.Context(), id)
		if err != nil || len(page.Records) != 1 || page.Records[0].Name.String() != "cli"+prefix {
			t.Errorf("reading back through %s: %v", base+prefix, err)
		}
	}
	cancel()
	<-done
	if r.err != nil {
		t.Errorf("sandbox stopped with %v", r.err)
	}
}

// TestCLIAuthAccount: auth login --account NAME through the sandbox's
// OAuth stores the token under the account's name, not its base URL
// (which other merchants' accounts share), so that commands find it with
// --account and nothing without; auth logout --account forgets it.
func TestCLIAuthAccount(t *testing.T) {
	t.Parallel()
	o := newOAuthEnv(t, "/api2")
	dir := t.TempDir()
	home := map[string]string{"XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_DATA_HOME": filepath.Join(dir, "data")}
	env := func(r *run) app.Env {
		return app.Env{Stdout: &r.stdout, Stderr: &r.stderr, Stdin: strings.NewReader(""), Getenv: func(k string) string { return home[k] }}
	}
	cmd := func(args ...string) *run {
		r := &run{args: args}
		r.err = app.Run(t.Context(), env(r), append([]string{"lading"}, args...))
		return r
	}
	secretFile := filepath.Join(dir, "secret")
	os.WriteFile(secretFile, []byte(clientSecret), 0o600)
	if r := cmd("accounts", "add", "acme", "--base-url", o.base); r.err != nil {
		t.Fatal(r.output())
	}
	r := &run{args: []string{"auth", "login", "--account", "acme"}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.err = app.Run(t.Context(), env(r), []string{"lading", "auth", "login", "--account", "acme", "--client-id", o.client.ID,
			"--redirect-uri", o.redirect, "--client-secret-file", secretFile, "--no-browser", "--timeout", "10s"})
	}()
	b := newBrowser()
	b.open(waitFor(t, &r.stderr, regexp.MustCompile(`(?m)^\s+(http://\S+/authorize\?\S+)$`)))
	if v := <-b.seen; v.callbackStatus != 200 {
		t.Errorf("browser: authorize %d %s, callback %d %v", v.authStatus, v.authBody, v.callbackStatus, v.err)
	}
	<-done
	if r.err != nil || !strings.Contains(r.stdout.String(), "Logged in to account acme ("+o.base+")") {
		t.Fatalf("auth login --account acme: %v\n%s", r.err, r.output())
	}
	store := auth.StoreIn(home["XDG_CONFIG_HOME"])
	cred, ok, err := store.GetAccount("acme")
	if err != nil || !ok || cred.Account != "acme" || cred.ClientID != o.client.ID {
		t.Fatalf("the token stored for acme: %v %v %v", cred, ok, err)
	}
	if _, ok, _ := store.Get(o.base); ok {
		t.Error("the account's token is stored for its base URL too")
	}
	if r := cmd("--account", "acme", "auth", "status"); r.err != nil || !strings.Contains(r.stdout.String(), "token accepted") || !strings.Contains(r.stdout.String(), auth.Mask(cred.Token)) {
		t.Errorf("auth status --account acme: %v\n%s", r.err, r.output())
	}
	if r := cmd("--base-url", o.base, "auth", "status"); !usage(r.err) || !strings.Contains(r.output(), "no token for "+o.base) {
		t.Errorf("auth status of the base URL, with no account: %v\n%s", r.err, r.output())
	}
	if r := cmd("auth", "logout", "--account", "acme"); r.err != nil || !strings.Contains(r.stdout.String(), "Forgot the token for account acme") {
		t.Errorf("auth logout --account acme: %v\n%s", r.err, r.output())
	}
	if _, ok, _ := store.GetAccount("acme"); ok {
		t.Error("acme's token is still stored after logout")
	}
}
