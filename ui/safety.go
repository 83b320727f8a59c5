package ui

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// Allow sets which Host a request may name: the address the server
// listens on (ln), localhost at its port when that is a loopback address,
// the name the address was given by (asked, like "myhost:8710"), and any
// IP address at its port when it listens on every address. A DNS
// rebinding page names its own domain: it is refused.
func (s *Server) Allow(ln *net.TCPAddr, asked string) {
	s.allowed = hostCheck(ln, asked)
}

func hostCheck(ln *net.TCPAddr, asked string) func(string) bool {
	port := strconv.Itoa(ln.Port)
	name, _, _ := net.SplitHostPort(asked)
	return func(host string) bool {
		h, p, err := net.SplitHostPort(host)
		if err != nil || p != port {
			return false
		}
		ip := net.ParseIP(h)
		switch {
		case ip != nil && ip.Equal(ln.IP):
			return true
		case ip != nil && ln.IP.IsUnspecified():
			return true
		case strings.EqualFold(h, "localhost"):
			return ln.IP.IsLoopback()
		case ip == nil && name != "" && net.ParseIP(name) == nil:
			return strings.EqualFold(h, name)
		}
		return false
	}
}

// session is a browser's visit: its cookie, and the token its forms carry.
type session struct {
	id, csrf string
}

const cookieName = "lading_session"

// ServeHTTP refuses a request whose Host is not the server's, gives the
// browser a session, refuses a request that changes anything without the
// session's token, and serves the page.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin") // no-referrer would make a browser send Origin: null with our own forms
	h.Set("Cache-Control", "no-store")
	if s.allowed == nil || !s.allowed(r.Host) {
		http.Error(w, "lading ui answers only requests for its own address: open the address lading ui printed", http.StatusMisdirectedRequest)
		return
	}
	sess := s.session(w, r)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if !s.sameOrigin(r) || !validToken(r, sess) {
			http.Error(w, "this request did not come from lading ui's own page (its form token is missing or stale): reload the page and try again", http.StatusForbidden)
			return
		}
	}
	s.mux.ServeHTTP(w, r.WithContext(withSession(r.Context(), sess)))
}

// session is the request's session, made (and its cookie set) when it has
// none the server knows.
func (s *Server) session(w http.ResponseWriter, r *http.Request) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, err := r.Cookie(cookieName); err == nil {
		if sess, ok := s.sessions[c.Value]; ok {
			return sess
		}
	}
	sess := &session{id: newID(), csrf: newID()}
	s.sessions[sess.id] = sess
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: sess.id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	return sess
}

// sameOrigin refuses a request a browser says comes from another origin.
func (s *Server) sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	return o == "" || o == "http://"+r.Host
}

// validToken reports whether r carries sess's token, in its form or its
// X-CSRF-Token header. A session made for this very request has sent no
// form yet: it fails.
func validToken(r *http.Request, sess *session) bool {
	got := r.Header.Get("X-CSRF-Token")
	if got == "" {
		got = r.URL.Query().Get("csrf")
	}
	if got == "" && !strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		got = r.PostFormValue("csrf")
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(sess.csrf)) == 1
}
