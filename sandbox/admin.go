package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"lading/api/wire"
)

// handleAdmin serves the sandbox's own API under wire.SandboxAdminPrefix.
// It is not part of the interface and needs no access token. Each POST
// names the account by "token" (registered) or "account" (its id; the
// account's first token gives the warehouse):
//
//	POST /orders   OrderSpec             -> {"id": "..."}
//	POST /bundles  BundleSpec            -> {"id": "..."}
//	POST /slips    SlipSpec              -> SlipResult {"id": "...", "packages": ["..."]}
//	POST /seed     SeedSpec              -> SeedResult {"orders": [...], "slips": [...], "packages": [...]}
//	POST /tokens   {"token": "..."}      -> Account
//	POST /reset                          -> {"reset": true}
//	GET  /counters                       -> Counters
//	GET  /files/ID                       -> the bytes of product file ID
//
// For example, a packing slip of order 100000042 packing 2 units of one
// line, shipped in one package:
//
//	{"token": "T", "order": "100000042", "packing_slip_date": "2026-01-14T10:00:00+0000",
//	 "lines": [{"sku": "TEE-BLA-M", "quantity": 2}],
//	 "packages": [{"carrier": "UPS", "tracking_number": "1Z999AA10123456784",
//	   "tracking_link": "https://www.ups.com/track?tracknum=1Z999AA10123456784",
//	   "cost": "8.95", "ship_date": "2026-01-15T09:30:00+0000", "delivered": true}]}
//
// and 50 orders of January 2026 from the account's variants, with their
// slips and shipments, 10 left to ship (open fulfillments), and a
// location for every variant that has none: {"token": "T", "orders": 50,
// "seed": 7, "month": "2026-01", "unshipped": 10, "locations": true}.
func (s *Server) handleAdmin(w http.ResponseWriter, r *http.Request, path string) {
	path = strings.TrimSuffix(path, "/")
	if id, ok := strings.CutPrefix(path, filesPath); ok {
		s.serveFile(w, r, id)
		return
	}
	posts := s.adminPosts()
	if path == "/counters" {
		if r.Method != http.MethodGet {
			writeError(w, newAPIError(http.StatusMethodNotAllowed, "%s/counters answers GET", wire.SandboxAdminPrefix))
			return
		}
		writeJSON(w, http.StatusOK, s.Counters())
		return
	}
	post, ok := posts[path]
	if !ok {
		names := []string{"counters"}
		for p := range posts {
			names = append(names, strings.TrimPrefix(p, "/"))
		}
		slices.Sort(names)
		writeError(w, newAPIError(http.StatusNotFound, "no admin endpoint %s%s (%s)",
			wire.SandboxAdminPrefix, path, strings.Join(names, ", ")))
		return
	}
	if r.Method != http.MethodPost {
		writeError(w, newAPIError(http.StatusMethodNotAllowed, "%s%s answers POST", wire.SandboxAdminPrefix, path))
		return
	}
	decode := func(v any) error {
		if r.ContentLength == 0 {
			return nil
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(v); err != nil {
			return badRequest("the body must be JSON: %v", err)
		}
		return nil
	}
	out, err := post(r.Context(), decode)
	if err != nil {
		var aerr *apiError
		if errors.As(err, &aerr) {
			writeError(w, aerr)
		} else if path == "/reset" {
			s.writeFailure(w, err)
		} else {
			writeError(w, badRequest("%v", err))
		}
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// adminPost answers one admin POST: decode reads the body into its spec.
type adminPost func(ctx context.Context, decode func(any) error) (any, error)

// adminCall makes an adminPost of a Server method taking a spec.
func adminCall[T, R any](fn func(context.Context, T) (R, error)) adminPost {
	return func(ctx context.Context, decode func(any) error) (any, error) {
		var spec T
		if err := decode(&spec); err != nil {
			return nil, err
		}
		return fn(ctx, spec)
	}
}

// idAnswer wraps a method giving one id as {"id": "..."}.
func idAnswer[T any](fn func(context.Context, T) (string, error)) func(context.Context, T) (map[string]string, error) {
	return func(ctx context.Context, spec T) (map[string]string, error) {
		id, err := fn(ctx, spec)
		if err != nil {
			return nil, err
		}
		return map[string]string{"id": id}, nil
	}
}

func (s *Server) adminPosts() map[string]adminPost {
	return map[string]adminPost{
		"/orders":  adminCall(idAnswer(s.CreateOrder)),
		"/bundles": adminCall(idAnswer(s.CreateBundle)),
		"/slips":   adminCall(s.CreateSlip),
		"/seed":    adminCall(s.Seed),
		"/tokens": adminCall(func(_ context.Context, body struct {
			Token string `json:"token"`
		}) (Account, error) {
			return s.RegisterToken(body.Token)
		}),
		"/reset": func(context.Context, func(any) error) (any, error) {
			if err := s.Reset(); err != nil {
				return nil, err
			}
			return map[string]bool{"reset": true}, nil
		},
	}
}
