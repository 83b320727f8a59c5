// Package ui is lading ui: a web application, on a loopback address, for
// the people who would rather look at a page than read a results file.
// It imports catalogs, pushes stock levels, shipments and packing slips,
// exports reports and shows the history of runs with their undo, through
// the very packages the commands use (importer, stock, shipments, slips,
// exporter, history, undo): it holds no rule of its own, only pages.
//
// The page is made to be safe on a shared computer: it answers only
// requests whose Host is the address it listens on (a page elsewhere
// cannot reach it through a name it points at 127.0.0.1), every request
// that changes anything carries the session's token (CSRF), the account's
// token never reaches the browser, and uploads are size-limited and kept
// in a private folder removed when the server stops.
package ui

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"lading/api"
	"lading/state"
)

// DefaultAddr is where lading ui listens unless told otherwise.
const DefaultAddr = "127.0.0.1:8710"

// DefaultMaxUpload is the largest file the page takes unless told
// otherwise.
const DefaultMaxUpload = 100 << 20

// Config is what the page works with: the account (a client, and the
// scope its state is kept under) and how jobs are run.
type Config struct {
	Client *api.Client
	// Scope separates what the state remembers of this account (see
	// engine.Options.Scope); Account is how the page names the account:
	// its name or base URL, never its token.
	Scope, Account string
	// State is the state file the jobs use, as the commands' --state.
	State string
	// Rate is the requests a second the client is paced at, for the time
	// a dry run says the writes take; Concurrency the requests in flight.
	Rate        float64
	Concurrency int
	// MaxUpload is the largest file taken (0: DefaultMaxUpload).
	MaxUpload int64
	// ImagesDir is the folder on this computer that the images a catalog
	// names by path are read from, unless the page is told another; ""
	// is the working folder.
	ImagesDir string
	// Location is the zone of dates and times written without an offset
	// (shipments, slips) and of exports; nil is UTC.
	Location *time.Location
	// ImageTransport carries the downloads of an import's images; nil is
	// the network.
	ImageTransport http.RoundTripper
	// Log receives the jobs' progress lines, as a terminal would; nil
	// discards them. Logger is told what a job says in passing.
	Log    io.Writer
	Logger *slog.Logger
	// Jobs reads the jobs file the jobs page lists (nil: none was given).
	Jobs func(context.Context) (*JobsPlan, error)
	// Command is how the page writes a command a person may run in a
	// terminal instead ("lading", "go run ."); "" is "lading".
	Command string
	// Flags are the flags a command run in a terminal needs to work on
	// the page's account and state (--account NAME, --state FILE); nil:
	// --state when State is not the default.
	Flags []string
}

// terminalFlags are the flags a command run in a terminal needs to work
// on the page's account and state.
func (c Config) terminalFlags() []string {
	flags := c.Flags
	if flags == nil && c.State != state.DefaultPath {
		flags = []string{"--state", c.State}
	}
	quoted := make([]string, len(flags))
	for i, f := range flags {
		quoted[i] = quote(f)
	}
	return quoted
}

// Server is the web application; it is an http.Handler. Close removes
// its folder of uploads.
type Server struct {
	cfg   Config
	dir   string // the private folder of uploads, results and exports
	mux   *http.ServeMux
	pages *pages
	// allowed reports whether a request's Host names the server (see
	// hostCheck); nil allows none.
	allowed func(host string) bool

	mu       sync.Mutex
	sessions map[string]*session
	works    map[string]*work
	tasks    map[string]*task
	exports  map[string]*exported
	undos    map[string]*undone
	running  *task
	closed   bool
	wg       sync.WaitGroup
}

// New makes the server, with its private folder of uploads. It answers no
// request until Allow (or Serve) says which Host names it.
func New(cfg Config) (*Server, error) {
	if cfg.Client == nil || cfg.State == "" {
		return nil, errors.New("ui: a client and a state file are needed")
	}
	if cfg.MaxUpload <= 0 {
		cfg.MaxUpload = DefaultMaxUpload
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Command == "" {
		cfg.Command = "lading"
	}
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.ImagesDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		cfg.ImagesDir = wd
	}
	dir, err := os.MkdirTemp("", "lading-ui-")
	if err != nil {
		return nil, fmt.Errorf("ui: a private folder for uploads: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	p, err := loadPages()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s := &Server{cfg: cfg, dir: dir, pages: p, sessions: map[string]*session{}, works: map[string]*work{},
		tasks: map[string]*task{}, exports: map[string]*exported{}, undos: map[string]*undone{}}
	s.routes()
	return s, nil
}

// Dir is the private folder the server keeps uploads, results and
// exports in, removed by Close.
func (s *Server) Dir() string { return s.dir }

// Close stops the runs in progress as Ctrl-C would (the writes in flight
// are finished and recorded), waits for them, and removes the folder of
// uploads.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for _, t := range s.tasks {
		t.cancel()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return os.RemoveAll(s.dir)
}

// Listening is what Serve tells once it listens: the page's address, and
// a warning when other computers can reach it.
type Listening struct {
	URL     string
	Warning string
}

// Serve listens on addr and serves the page until ctx ends, then stops
// the runs in progress, shuts down and removes the uploads. ready is told
// where it listens.
func Serve(ctx context.Context, addr string, cfg Config, ready func(Listening)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	s, err := New(cfg)
	if err != nil {
		ln.Close()
		return err
	}
	defer s.Close()
	tcp := ln.Addr().(*net.TCPAddr)
	s.Allow(tcp, addr)
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	if ready != nil {
		ready(Listening{URL: "http://" + hostPort(tcp), Warning: exposure(tcp)})
	}
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	hs.Shutdown(shut)
	return nil
}

// exposure warns when the page listens where other computers reach it.
func exposure(a *net.TCPAddr) string {
	if a.IP.IsLoopback() {
		return ""
	}
	return fmt.Sprintf("lading ui listens on %s, which other computers can reach: anyone who reaches it can import into, push to and undo in the account, "+
		"and there is no login; use a loopback address (the default, %s) unless this network is yours alone", hostPort(a), DefaultAddr)
}

// hostPort writes a as a URL's host: 127.0.0.1:8710, [::1]:8710.
func hostPort(a *net.TCPAddr) string {
	return net.JoinHostPort(a.IP.String(), fmt.Sprint(a.Port))
}

// newID is a random id no one can guess: sessions, works, tasks.
func newID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
