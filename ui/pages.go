package ui

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"lading/engine"
	"lading/plural"
	"lading/summary"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// pages are the page templates, each with the layout, and the static
// assets under a path that names their content (/static/HASH/app.css), so
// that a browser may keep them for good and never keeps a stale one.
type pages struct {
	byName  map[string]*template.Template
	assets  map[string][]byte // by versioned path
	version string
}

func loadPages() (*pages, error) {
	p := &pages{byName: map[string]*template.Template{}, assets: map[string][]byte{}}
	h := sha256.New()
	err := fs.WalkDir(staticFiles, "static", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := staticFiles.ReadFile(name)
		if err != nil {
			return err
		}
		h.Write([]byte(name))
		h.Write(b)
		p.assets[path.Base(name)] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.version = hex.EncodeToString(h.Sum(nil))[:12]
	funcs := template.FuncMap{
		"asset":       func(name string) string { return "/static/" + p.version + "/" + name },
		"counts":      summary.Counts,
		"text":        summary.Text,
		"failed":      func(s engine.Status) bool { return s.Failed() },
		"statusClass": statusClass,
		"duration":    durationText,
		"rowOnly":     rowOnly,
		"plural":      plural.Count[int],
		"join":        strings.Join,
		"add":         func(a, b int) int { return a + b },
		"sub":         func(a, b int) int { return a - b },
		"int":         func(n int64) int { return int(n) },
		"rows":        summary.Of,
	}
	names, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		base := path.Base(n)
		if base == "layout.html" {
			continue
		}
		t, err := template.New(base).Funcs(funcs).ParseFS(templateFiles, "templates/layout.html", n)
		if err != nil {
			return nil, err
		}
		p.byName[strings.TrimSuffix(base, ".html")] = t
	}
	return p, nil
}

// statusClass is the class a status is shown with: done, todo, left or
// failed.
func statusClass(s engine.Status) string {
	switch {
	case s.Failed():
		return "st-failed"
	case s == engine.Unchanged || s == engine.Skipped:
		return "st-left"
	case strings.HasPrefix(string(s), "to "):
		return "st-todo"
	}
	return "st-done"
}

// rowOnly is "row 7" of "catalog.csv row 7": the row of a file the page
// already names.
func rowOnly(ref string) string {
	if i := strings.LastIndex(ref, " row "); i >= 0 {
		return ref[i+1:]
	}
	return ref
}

// durationText is a duration for people: "4m10s", "under a second".
func durationText(d time.Duration) string {
	if d < time.Second {
		return "under a second"
	}
	return d.Round(time.Second).String()
}

// view is what every page shows: the account, the session's token for
// its forms, where the visitor is, and the page's own data.
type view struct {
	Title   string
	Account string
	CSRF    string
	Nav     string // the part of the site: import, stock, ...
	Command string
	Data    any
}

// render writes page name with data, as the part nav of the site.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name, title, nav string, data any) {
	t, ok := s.pages.byName[name]
	if !ok {
		http.Error(w, "no page "+name, http.StatusInternalServerError)
		return
	}
	v := view{Title: title, Account: s.cfg.Account, CSRF: sessionOf(r.Context()).csrf, Nav: nav, Command: s.cfg.Command, Data: data}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", v); err != nil {
		s.cfg.Logger.Error("rendering a page", "page", name, "err", err)
		http.Error(w, "the page could not be shown: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// serveAsset serves a static asset by its versioned path, to be kept for
// good.
func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("version") != s.pages.version {
		http.NotFound(w, r)
		return
	}
	b, ok := s.pages.assets[r.PathValue("name")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	switch path.Ext(r.PathValue("name")) {
	case ".css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	case ".js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case ".svg":
		w.Header().Set("Content-Type", "image/svg+xml")
	}
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Write(b)
}

type sessionKey struct{}

func withSession(ctx context.Context, s *session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// sessionOf is the session of a request's context.
func sessionOf(ctx context.Context) *session {
	s, _ := ctx.Value(sessionKey{}).(*session)
	if s == nil {
		return &session{}
	}
	return s
}
