package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"lading/api/wire"
)

// LoginConfig describes one authorization-code login.
type LoginConfig struct {
	BaseURL      string
	ClientID     string
	ClientSecret string
	RedirectURI  string // must be http on a loopback host with an explicit port
	Scope        string // sent even when empty, as the service requires
	// OpenURL shows the authorization URL to the user (opens a browser or
	// prints it). It must not block until the login completes.
	OpenURL func(authURL string) error
	// HTTPClient is used for the token exchange (a copy that never follows
	// redirects, so the client secret goes nowhere else); nil means a
	// client with a one-minute timeout.
	HTTPClient *http.Client
	// Timeout bounds the wait for the browser's callback (default 5 minutes).
	Timeout time.Duration
}

// Endpoints are the service's OAuth addresses for baseURL.
func Endpoints(baseURL string) oauth2.Endpoint {
	b := NormalizeBaseURL(baseURL)
	return oauth2.Endpoint{
		AuthURL:   b + wire.AuthorizePath,
		TokenURL:  b + wire.TokenPath,
		AuthStyle: oauth2.AuthStyleInParams,
	}
}

// RedirectError is a redirect URI lading cannot listen on.
type RedirectError struct {
	URI     string
	Problem string // what is wrong with it, and what to give instead
}

func (e *RedirectError) Error() string { return fmt.Sprintf("redirect URI %q %s", e.URI, e.Problem) }

// ValidateRedirect checks that a redirect URI is one lading can listen on:
// plain http, a loopback host, an explicit port, and a path. Its error is
// a *RedirectError.
func ValidateRedirect(redirect string) (*url.URL, error) {
	bad := func(problem string, args ...any) error {
		return &RedirectError{URI: redirect, Problem: fmt.Sprintf(problem, args...)}
	}
	u, err := url.Parse(redirect)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, bad("is not a URL: use http://127.0.0.1:PORT/callback, exactly as registered for the client")
	}
	if u.Scheme != "http" {
		return nil, bad("is not http://: lading receives the callback itself, on a loopback address")
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		return nil, bad("has no port: give the port registered for the client, e.g. http://127.0.0.1:8765/callback")
	}
	if host != "localhost" {
		ip := net.ParseIP(host)
		if ip == nil || !ip.IsLoopback() {
			return nil, bad("is not on a loopback address (host %q); lading only listens on 127.0.0.1, ::1 or localhost", host)
		}
	}
	return u, nil
}

// ErrNoClientID and ErrNoClientSecret are the errors of a login without a
// client id or secret.
var (
	ErrNoClientID     = errors.New("no OAuth client id: give the client id from the developer portal's API credentials")
	ErrNoClientSecret = errors.New("no OAuth client secret")
)

func randomState() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// AuthCodeURL builds the authorization URL with response_type=code, scope
// (always present), client_id, redirect_uri and state.
func AuthCodeURL(cfg *oauth2.Config, scope, state string) string {
	return cfg.AuthCodeURL(state, oauth2.SetAuthURLParam("scope", scope))
}

type callback struct {
	code string
	err  error
}

// Login runs the whole authorization-code flow: it listens on the redirect
// URI's loopback host and port, shows the authorization URL, waits for the
// callback, checks its state and exchanges the code for a token. It returns
// the access token; storing it is the caller's business.
func Login(ctx context.Context, lc LoginConfig) (string, error) {
	if lc.ClientID == "" {
		return "", ErrNoClientID
	}
	if lc.ClientSecret == "" {
		return "", ErrNoClientSecret
	}
	ru, err := ValidateRedirect(lc.RedirectURI)
	if err != nil {
		return "", err
	}
	state, err := randomState()
	if err != nil {
		return "", err
	}
	cfg := &oauth2.Config{
		ClientID:     lc.ClientID,
		ClientSecret: lc.ClientSecret,
		Endpoint:     Endpoints(lc.BaseURL),
		RedirectURL:  lc.RedirectURI,
	}
	results, stop, err := listenForCallback(ru, state)
	if err != nil {
		return "", err
	}
	defer stop()
	if lc.OpenURL != nil {
		if err := lc.OpenURL(AuthCodeURL(cfg, lc.Scope, state)); err != nil {
			return "", err
		}
	}
	code, err := waitForCallback(ctx, results, lc)
	if err != nil {
		return "", err
	}
	return exchange(ctx, cfg, code, lc)
}

// listenForCallback serves the redirect URI's path on its loopback host
// and port until stop; the first callback, checked against state, comes
// on the channel.
func listenForCallback(ru *url.URL, state string) (<-chan callback, func(), error) {
	ln, err := net.Listen("tcp", ru.Host)
	if err != nil {
		return nil, nil, fmt.Errorf("listening for the login callback on %s: %w (is another login running, or the port taken?)", ru.Host, err)
	}
	results := make(chan callback, 1)
	path := ru.Path
	if path == "" {
		path = "/"
	}
	mux := http.NewServeMux()
	mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		cb := readCallback(r.URL.Query(), state)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if cb.err != nil {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, "<p>lading login failed: %s</p>", html.EscapeString(cb.err.Error()))
		} else {
			fmt.Fprint(w, "<p>lading is authorized. You can close this window.</p>")
		}
		select {
		case results <- cb:
		default:
		}
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return results, func() { srv.Close() }, nil
}

// readCallback reads the callback's query: its code, or why it has none.
func readCallback(q url.Values, state string) callback {
	switch {
	case q.Get("error") != "":
		return callback{err: fmt.Errorf("the service refused the authorization: %s %s", q.Get("error"), q.Get("error_description"))}
	case q.Get("state") != state:
		return callback{err: errors.New("the callback's state does not match this login: possible cross-site request forgery, login aborted")}
	case q.Get("code") == "":
		return callback{err: errors.New("the callback carries no authorization code")}
	}
	return callback{code: q.Get("code")}
}

// waitForCallback waits for the callback's code, at most lc.Timeout
// (default five minutes).
func waitForCallback(ctx context.Context, results <-chan callback, lc LoginConfig) (string, error) {
	timeout := lc.Timeout
	if timeout == 0 {
		timeout = 5 * time.Minute
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-timer.C:
		return "", fmt.Errorf("no login callback on %s within %s: open the printed URL in a browser, or run again", lc.RedirectURI, timeout)
	case cb := <-results:
		return cb.code, cb.err
	}
}

// exchange trades the code for an access token at the token endpoint,
// following no redirect; the client secret never appears in its errors.
func exchange(ctx context.Context, cfg *oauth2.Config, code string, lc LoginConfig) (string, error) {
	hc := http.Client{Timeout: time.Minute}
	if lc.HTTPClient != nil {
		hc = *lc.HTTPClient
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	ctx = context.WithValue(ctx, oauth2.HTTPClient, &hc)
	tok, err := cfg.Exchange(ctx, code, oauth2.SetAuthURLParam("scope", lc.Scope))
	if err != nil {
		return "", fmt.Errorf("exchanging the authorization code at %s: %w", cfg.Endpoint.TokenURL, redactErr(err, lc.ClientSecret))
	}
	if tok.AccessToken == "" {
		return "", errors.New("the token endpoint answered without an access_token")
	}
	return tok.AccessToken, nil
}

// redactErr removes a secret from an error's text, in case a server echoes
// it: as sent, and as it appears in a form-encoded body or a query.
func redactErr(err error, secret string) error {
	if secret == "" {
		return err
	}
	text := err.Error()
	for _, form := range []string{secret, url.QueryEscape(secret), url.PathEscape(secret)} {
		text = strings.ReplaceAll(text, form, "[REDACTED]")
	}
	if text == err.Error() {
		return err
	}
	return errors.New(text)
}
