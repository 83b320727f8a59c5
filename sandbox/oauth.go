package sandbox

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"net/url"
	"sync"
	"time"

	"lading/api/wire"
)

// codeTTL is how long an authorization code may be exchanged.
const codeTTL = 60 * time.Second

// authCode is an issued, not yet exchanged authorization code.
type authCode struct {
	client, redirect string
	expires          time.Time
}

// oauthState holds the registered clients and the live codes.
type oauthState struct {
	mu      sync.Mutex
	clients map[string]Client
	codes   map[string]authCode
	now     func() time.Time // guarded by mu
}

func newOAuthState(clients []Client) *oauthState {
	o := &oauthState{clients: map[string]Client{}, codes: map[string]authCode{}, now: time.Now}
	for _, c := range clients {
		o.clients[c.ID] = c
	}
	return o
}

// issue records a new code for client and redirect. Codes never
// exchanged are dropped once expired, so authorizations that are not
// followed by a token request do not pile up.
func (o *oauthState) issue(client, redirect string) string {
	code := randomHex(16)
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.now()
	for c, ac := range o.codes {
		if now.After(ac.expires) {
			delete(o.codes, c)
		}
	}
	o.codes[code] = authCode{client: client, redirect: redirect, expires: now.Add(codeTTL)}
	return code
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("sandbox: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// handleAuthorize auto-approves a registered client: it checks the
// parameters and redirects to the exact redirect URI with a code and the
// unmodified state. [Spec] Authentication 1-3
func (s *Server) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if rt := q.Get("response_type"); rt != "code" {
		writeError(w, badRequest("response_type must be \"code\", not %q", rt))
		return
	}
	if _, has := q["scope"]; !has {
		writeError(w, badRequest("scope is required, even if empty (scope=)"))
		return
	}
	id := q.Get("client_id")
	s.oauth.mu.Lock()
	c, ok := s.oauth.clients[id]
	s.oauth.mu.Unlock()
	if !ok {
		writeError(w, badRequest("client_id %q is not a registered client", id))
		return
	}
	redirect := q.Get("redirect_uri")
	if redirect != c.RedirectURI {
		writeError(w, badRequest("redirect_uri %q is not the redirect URL registered for client %q", redirect, id))
		return
	}
	target, err := url.Parse(redirect)
	if err != nil {
		writeError(w, badRequest("redirect_uri %q is not a URL: %v", redirect, err))
		return
	}
	code := s.oauth.issue(id, redirect)
	tq := target.Query()
	tq.Set("code", code)
	if state, has := q["state"]; has {
		tq.Set("state", state[0])
	}
	target.RawQuery = tq.Encode()
	http.Redirect(w, r, target.String(), http.StatusFound)
}

// handleToken exchanges a code for a permanent access token. Parameters
// come from the query or a form body. [Spec] Authentication 4, [A.11]
// checkCodeGrant checks a token request's client, redirect URI and code,
// which is used up whatever the outcome.
func (s *Server) checkCodeGrant(p url.Values) *apiError {
	id := p.Get("client_id")
	s.oauth.mu.Lock()
	c, ok := s.oauth.clients[id]
	s.oauth.mu.Unlock()
	if !ok || subtle.ConstantTimeCompare([]byte(p.Get("client_secret")), []byte(c.Secret)) != 1 {
		return newAPIError(http.StatusUnauthorized, "unknown client_id or wrong client_secret")
	}
	redirect := p.Get("redirect_uri")
	if redirect != c.RedirectURI {
		return badRequest("redirect_uri %q is not the redirect URL registered for client %q", redirect, id)
	}
	code := p.Get("code")
	s.oauth.mu.Lock()
	ac, ok := s.oauth.codes[code]
	delete(s.oauth.codes, code) // single use, even when the exchange fails
	expired := s.oauth.now().After(ac.expires)
	s.oauth.mu.Unlock()
	switch {
	case !ok || code == "":
		return badRequest("the code is unknown or was already used: authorize again")
	case expired:
		return badRequest("the code has expired (codes live %s): authorize again", codeTTL)
	case ac.client != id || ac.redirect != redirect:
		return badRequest("the code was issued to another client or redirect URI")
	}
	return nil
}

func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, newAPIError(http.StatusMethodNotAllowed, "%s answers POST only", wire.TokenPath))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := r.ParseForm(); err != nil {
		writeError(w, badRequest("cannot read the token request parameters: %v", err))
		return
	}
	p := r.Form // query and form body
	if gt := p.Get("grant_type"); gt != "authorization_code" {
		writeError(w, badRequest("grant_type must be \"authorization_code\", not %q", gt))
		return
	}
	if _, has := p["scope"]; !has {
		writeError(w, badRequest("scope is required, even if empty (scope=)"))
		return
	}
	id := p.Get("client_id")
	if err := s.checkCodeGrant(p); err != nil {
		writeError(w, err)
		return
	}
	token := randomHex(24)
	var refused bool
	err := s.st.do(r.Context(), func(t *txn) error {
		account, err := t.defaultAccount()
		if err != nil {
			return err
		}
		var x int64
		if refused, err = t.row(`SELECT 1 FROM tokens WHERE account_id = ? AND client_id = ? LIMIT 1`, []any{account, id}, &x); err != nil || refused {
			return err
		}
		_, err = t.grantAccess(account, id, token)
		return err
	})
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	if refused {
		// [Spec] General rule 4: one authentication per client and account.
		writeError(w, badRequest("client %q is already authenticated for this account; a client authenticates once per account "+
			"(its channel and warehouse exist already): use the token issued then", id))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, wire.TokenResponse{AccessToken: token, TokenType: "bearer", Scope: p.Get("scope")})
}
