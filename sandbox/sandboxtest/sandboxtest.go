// Package sandboxtest gives tests a sandbox account to push to: a sandbox
// whose data lives in a file, served behind an httptest server so that a
// test can restart it with other faults mid-way, a registered token, a
// client of it and a state file.
package sandboxtest

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"

	"lading/api"
	"lading/api/wire"
	"lading/sandbox"
	"lading/state"
)

// Token is the access token of an Env's account.
const Token = "tok"

// Env is a sandbox account, a client of it and a state file, all closed
// when the test ends.
type Env struct {
	T     testing.TB
	Srv   *sandbox.Server
	URL   string // the interface's base URL, under wire.APIPrefix
	C     *api.Client
	State *state.DB
	Dir   string // the test's folder: the sandbox's and the state's files
	Acct  sandbox.Account
	// handler is the server URL serves.
	handler atomic.Pointer[sandbox.Server]
}

// New starts a sandbox of opts with Token registered, its client (fast
// enough never to wait on its own rate) and a state file.
func New(t testing.TB, opts sandbox.Options) *Env {
	t.Helper()
	e := &Env{T: t, Dir: t.TempDir()}
	e.Restart(opts)
	acct, err := e.Srv.RegisterToken(Token)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { e.handler.Load().ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	st, err := state.Open(filepath.Join(e.Dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e.URL, e.State, e.Acct = hs.URL+wire.APIPrefix, st, acct
	e.C = e.Client(Token)
	return e
}

// Restart serves the sandbox's data with a new server of opts (faults,
// throttling), as when the service becomes unreliable; the address stays.
func (e *Env) Restart(opts sandbox.Options) {
	e.T.Helper()
	opts.DBPath = filepath.Join(e.Dir, "sandbox.db")
	srv, err := sandbox.New(opts)
	if err != nil {
		e.T.Fatal(err)
	}
	old := e.Srv
	e.Srv = srv
	e.handler.Store(srv)
	if old != nil {
		old.Close()
	}
	e.T.Cleanup(func() { srv.Close() })
}

// Client is a client of the sandbox with token.
func (e *Env) Client(token string) *api.Client {
	c, err := api.NewClient(e.URL, token, api.WithRate(1000, 100))
	if err != nil {
		e.T.Fatal(err)
	}
	return c
}

// OtherState opens another state file in the test's folder, as a new host,
// cron in another folder or a lost disk gives a push; it is closed when
// the test ends.
func (e *Env) OtherState(name string) *state.DB {
	e.T.Helper()
	st, err := state.Open(filepath.Join(e.Dir, name))
	if err != nil {
		e.T.Fatal(err)
	}
	e.T.Cleanup(func() { st.Close() })
	return st
}
