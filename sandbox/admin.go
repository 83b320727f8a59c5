package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"

	"lading/api/wire"
)

// handleAdmin serves the sandbox's own API under wire.SandboxAdminPrefix.
// It is not part of the interface and needs no access token:
//
//	POST /orders   OrderSpec             -> {"id": "..."}
//	POST /bundles  BundleSpec            -> {"id": "..."}
//	POST /tokens   {"token": "..."}      -> Account
//	POST /reset                          -> {"reset": true}
//	GET  /counters                       -> Counters
func (s *Server) handleAdmin(w http.ResponseWriter, r *http.Request, path string) {
	path = strings.TrimSuffix(path, "/")
	switch path {
	case "/counters", "/orders", "/bundles", "/tokens", "/reset":
	default:
		writeError(w, newAPIError(http.StatusNotFound, "no admin endpoint %s%s (orders, bundles, tokens, reset, counters)",
			wire.SandboxAdminPrefix, path))
		return
	}
	if path == "/counters" {
		if r.Method != http.MethodGet {
			writeError(w, newAPIError(http.StatusMethodNotAllowed, "%s/counters answers GET", wire.SandboxAdminPrefix))
			return
		}
		writeJSON(w, http.StatusOK, s.Counters())
		return
	}
	if r.Method != http.MethodPost {
		writeError(w, newAPIError(http.StatusMethodNotAllowed, "%s%s answers POST", wire.SandboxAdminPrefix, path))
		return
	}
	decode := func(v any) bool {
		if r.ContentLength == 0 {
			return true
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(v); err != nil {
			writeError(w, badRequest("the body must be JSON: %v", err))
			return false
		}
		return true
	}
	switch path {
	case "/orders":
		var spec OrderSpec
		if !decode(&spec) {
			return
		}
		id, err := s.CreateOrder(r.Context(), spec)
		if err != nil {
			writeError(w, badRequest("%v", err))
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"id": id})
	case "/bundles":
		var spec BundleSpec
		if !decode(&spec) {
			return
		}
		id, err := s.CreateBundle(r.Context(), spec)
		if err != nil {
			writeError(w, badRequest("%v", err))
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"id": id})
	case "/tokens":
		var body struct {
			Token string `json:"token"`
		}
		if !decode(&body) {
			return
		}
		a, err := s.RegisterToken(body.Token)
		if err != nil {
			writeError(w, badRequest("%v", err))
			return
		}
		writeJSON(w, http.StatusOK, a)
	case "/reset":
		if err := s.Reset(); err != nil {
			s.writeFailure(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]bool{"reset": true})
	}
}
