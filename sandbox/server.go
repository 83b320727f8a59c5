package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"lading/api/wire"
)

// Server is the emulated integrations interface. It is an http.Handler.
type Server struct {
	opts     Options
	log      *slog.Logger
	st       *store
	files    *fileStore
	tokens   sync.Map // token hash -> access
	oauth    *oauthState
	throttle *throttler
	faults   *faults
	counters *counterSet
	routes   map[string]*route
}

// call is one authenticated interface call.
type call struct {
	r      *http.Request
	acc    access
	env    record
	upload *upload
	srv    *Server
}

// route is what a path answers: a read, a write, or both (the action of
// the envelope chooses).
type route struct {
	read  func(t *txn, c *call) (*readResult, error)
	side  []string
	write *writer
}

// writer applies the records of a write envelope one by one. [B.2]
type writer struct {
	resource string
	apply    func(t *txn, c *call, i int, rec record) (int64, error)
	// bulk handles envelopes with bulk_action; nil when unsupported.
	bulk func(t *txn, c *call, action record, recs []record) ([]wire.WriteResult, error)
	// multipart is true where the body may be multipart/form-data.
	multipart bool
}

// New opens the sandbox's database and prepares the server.
func New(opts Options) (*Server, error) {
	if opts.ThrottleStatus == 0 {
		opts.ThrottleStatus = http.StatusTooManyRequests
	}
	if opts.ThrottleStatus != http.StatusTooManyRequests && opts.ThrottleStatus != http.StatusForbidden {
		return nil, fmt.Errorf("sandbox: throttle status %d is not 429 or 403", opts.ThrottleStatus)
	}
	for _, r := range []float64{opts.FailRate, opts.DropRate, opts.ThrottleRate} {
		if r < 0 || r > 1 {
			return nil, fmt.Errorf("sandbox: fault rate %v is not between 0 and 1", r)
		}
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = wire.MaxProductFileBytes
	}
	for _, c := range opts.Clients {
		if c.ID == "" || c.Secret == "" || c.RedirectURI == "" {
			return nil, fmt.Errorf("sandbox: client %q needs an id, a secret and a redirect URI", c.ID)
		}
	}
	if opts.MaxMemoryFileBytes == 0 {
		opts.MaxMemoryFileBytes = defaultMemoryFileBytes
	}
	files, err := newFileStore(opts.DBPath, opts.MaxMemoryFileBytes)
	if err != nil {
		return nil, err
	}
	st, err := openStore(opts.DBPath)
	if err != nil {
		files.close()
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{
		opts:     opts,
		log:      log,
		st:       st,
		files:    files,
		oauth:    newOAuthState(opts.Clients),
		throttle: newThrottler(opts.Rate, opts.Burst),
		faults:   newFaults(opts),
		counters: newCounterSet(),
	}
	if err := st.do(context.Background(), func(t *txn) error { _, err := t.defaultAccount(); return err }); err != nil {
		st.close()
		files.close()
		return nil, err
	}
	s.routes = s.buildRoutes()
	return s, nil
}

// Close releases the database, and the temporary folder of an in-memory
// sandbox's product files.
func (s *Server) Close() error { return errors.Join(s.st.close(), s.files.close()) }

// Counters returns what the sandbox has counted since start or reset.
func (s *Server) Counters() Counters { return s.counters.snapshot() }

// Reset deletes every record (catalog, stock, orders, fulfillments,
// packing slips, packages) and zeroes counters and throttling buckets.
// Accounts, tokens, channels and warehouses stay, so issued tokens keep
// working and the once-per-account rule still holds.
func (s *Server) Reset() error {
	err := s.st.do(context.Background(), func(t *txn) error {
		for _, tbl := range resetTables {
			if err := t.execDynamic("DELETE FROM " + tbl); err != nil {
				return err
			}
		}
		return t.execDynamic("UPDATE accounts SET next_local = 1000")
	})
	if err != nil {
		return err
	}
	if err := s.files.reset(); err != nil {
		return err
	}
	s.counters.reset()
	s.throttle.reset()
	return nil
}

// ListenAndServe serves s on addr until ctx ends, then shuts down
// gracefully. ready, if not nil, receives the base URL once listening.
// Meanwhile it counts the accounts' listings (see warm).
func ListenAndServe(ctx context.Context, addr string, s *Server, ready func(baseURL string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("sandbox: listen on %s: %w", addr, err)
	}
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	if ready != nil {
		ready("http://" + ln.Addr().String())
	}
	wctx, stopWarm := context.WithCancel(ctx)
	warmed := make(chan struct{})
	go func() {
		defer close(warmed)
		if err := s.warm(wctx); err != nil && wctx.Err() == nil {
			s.log.Warn("sandbox: could not count the accounts' variants and products ahead of the first request; they are counted when a request asks", "err", err)
		}
	}()
	defer func() { stopWarm(); <-warmed }() // before the caller closes s
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("sandbox: serve on %s: %w", addr, err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("sandbox: shut down: %w", err)
	}
	<-errc
	return nil
}

// statusWriter remembers the status for the request log and still lets a
// handler hijack the connection.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("sandbox: connection cannot be hijacked")
	}
	w.status = -1
	return hj.Hijack()
}

// ServeHTTP answers the whole interface, at the root and under
// wire.APIPrefix, plus the OAuth endpoints and the admin API.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	start := time.Now()
	w := &statusWriter{ResponseWriter: rw}
	path := r.URL.Path
	if path == wire.APIPrefix || strings.HasPrefix(path, wire.APIPrefix+"/") {
		path = strings.TrimPrefix(path, wire.APIPrefix)
	}
	defer func() {
		// Never log query strings: OAuth parameters carry secrets.
		s.log.Debug("sandbox request", "method", r.Method, "path", path, "status", w.status,
			"duration", time.Since(start).Round(time.Microsecond))
	}()
	switch {
	case path == wire.AuthorizePath:
		s.counters.update(func(c *Counters) { c.Requests[path]++ })
		s.handleAuthorize(w, r)
	case path == wire.TokenPath:
		s.counters.update(func(c *Counters) { c.Requests[path]++ })
		s.handleToken(w, r)
	case strings.HasPrefix(path, wire.SandboxAdminPrefix+"/"):
		s.handleAdmin(w, r, strings.TrimPrefix(path, wire.SandboxAdminPrefix))
	default:
		s.counters.update(func(c *Counters) { c.InFlight++ })
		defer s.counters.update(func(c *Counters) { c.InFlight-- })
		s.serveInterface(w, r, path, false)
	}
}

// SetClock stamps the records the sandbox writes from now on (their
// created_at and updated_at) with the time now gives; nil gives the real
// time again. A test steps a day on with it, and a catalog loaded as of
// an earlier day shows an incremental import what changed since.
func (s *Server) SetClock(now func() time.Time) {
	if now == nil {
		s.st.clock.Store(nil)
		return
	}
	s.st.clock.Store(&now)
}

// LoadMany runs load, which writes many records through Loader (lading
// sandbox --load), with the indexes of records by time dropped meanwhile
// and built after it, as a database opened after a load stopped midway
// builds them, and commits that do not wait for the disk meanwhile: once
// it returns, what it wrote is on the disk (see store.loading).
func (s *Server) LoadMany(load func() error) error {
	if err := s.st.loading(true); err != nil {
		return fmt.Errorf("sandbox: before the load: %w", err)
	}
	err := load()
	if ierr := s.st.loading(false); ierr != nil && err == nil {
		err = fmt.Errorf("sandbox: after the load: %w", ierr)
	}
	return err
}

// Loader is the interface as the sandbox's own loading sees it: the same
// handlers and write path, without throttling and injected faults, and
// not counted (see lading sandbox --load).
func (s *Server) Loader() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		if path == wire.APIPrefix || strings.HasPrefix(path, wire.APIPrefix+"/") {
			path = strings.TrimPrefix(path, wire.APIPrefix)
		}
		s.serveInterface(w, r, path, true)
	})
}

// serveInterface answers an interface call; loading is a call of the
// sandbox's own loading (see Loader).
func (s *Server) serveInterface(w http.ResponseWriter, r *http.Request, path string, loading bool) {
	rt, ok := s.route(w, r, path)
	if !ok {
		return
	}
	if !loading && !s.admit(w, r, path) {
		return
	}
	c, ok := s.openCall(w, r, loading)
	if !ok {
		return
	}
	if aerr := s.decodeBody(r, rt, c); aerr != nil {
		writeError(w, aerr)
		return
	}
	isWrite, aerr := rt.action(c, path)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	s.answer(w, rt, c, isWrite, loading)
}

// route finds the route of path, or answers that there is none or that
// the path is only POSTed to.
func (s *Server) route(w http.ResponseWriter, r *http.Request, path string) (*route, bool) {
	rt, ok := s.routes[path]
	if !ok {
		writeError(w, newAPIError(http.StatusNotFound, "no such endpoint: %s (paths look like /v2/Variants, /v1/Products/detail)", path))
		return nil, false
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, newAPIError(http.StatusMethodNotAllowed, "%s answers POST only, not %s", path, r.Method))
		return nil, false
	}
	return rt, true
}

// openCall authenticates the call's token and, unless loading, holds the
// call for the latency injected; it answers a call it cannot let on.
func (s *Server) openCall(w http.ResponseWriter, r *http.Request, loading bool) (*call, bool) {
	acc, ok, err := s.authenticate(r.Context(), r.Header.Get(wire.HeaderToken))
	if err != nil {
		writeError(w, newAPIError(http.StatusInternalServerError, "%s", err))
		return nil, false
	}
	if !ok {
		s.counters.update(func(c *Counters) { c.Unauthorized++ })
		writeError(w, newAPIError(http.StatusUnauthorized,
			"missing or unknown %s header: authorize through %s and send the token on every call", wire.HeaderToken, wire.AuthorizePath))
		return nil, false
	}
	if !loading && s.faults.sleep(r.Context()) {
		s.counters.update(func(c *Counters) { c.Faults["latency"]++ })
		if r.Context().Err() != nil {
			return nil, false
		}
	}
	return &call{r: r, acc: acc, srv: s}, true
}

// action says whether the call's envelope asks the route to write (else
// to read), or why the route cannot do what it asks.
func (rt *route) action(c *call, path string) (isWrite bool, aerr *apiError) {
	action, _, _ := scalar(c.env[wire.KeyAction])
	isWrite = action == wire.ActionWrite && rt.write != nil
	isRead := action == wire.ActionRead && rt.read != nil
	if !isWrite && !isRead {
		return false, badRequest("%s: %q must be %s, not %q", path, wire.KeyAction, rt.actions(), action)
	}
	return isWrite, nil
}

// answer serves the read or write of the call, or (unless loading) the
// failure or the dropped connection the faults inject.
func (s *Server) answer(w http.ResponseWriter, rt *route, c *call, isWrite, loading bool) {
	fail, drop := false, false
	if !loading {
		fail, drop = s.faults.draw(isWrite)
	}
	if fail {
		s.counters.update(func(c *Counters) { c.Faults["fail"]++ })
		writeError(w, newAPIError(http.StatusInternalServerError, "internal server error (injected by the sandbox; nothing was applied)"))
		return
	}
	if !isWrite {
		s.serveRead(w, rt, c)
		return
	}
	status, body := s.serveWrite(rt.write, c)
	if drop && status < 500 {
		s.counters.update(func(c *Counters) { c.Faults["drop"]++ })
		dropConnection(w)
		return
	}
	writeBytes(w, status, body)
}

// admit counts an interface call and lets it through the gateway's
// throttle (and the throttling injected), or answers it as throttled.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, path string) bool {
	s.counters.update(func(c *Counters) { c.Requests[path]++ })
	// Throttling is the gateway's, in front of everything else: a
	// request is counted against its token's bucket when it arrives, not
	// after the database has looked the token up.
	ok, wait := s.throttle.allow(tokenHash(r.Header.Get(wire.HeaderToken)))
	injected := ok && s.faults.throttled()
	if injected {
		ok, wait = false, time.Second
	}
	if !ok {
		s.counters.update(func(c *Counters) { c.Throttled++ })
		if s.opts.ThrottleStatus == http.StatusForbidden {
			writeJSON(w, http.StatusForbidden, wire.ErrorBody{Message: wire.ThrottleText})
			return false
		}
		if injected && s.opts.NoRetryAfter {
			writeError(w, newAPIError(http.StatusTooManyRequests, "too many requests for this access token: slow down"))
			return false
		}
		w.Header().Set(wire.HeaderRetryAfter, strconv.FormatInt(retryAfterSeconds(wait), 10))
		writeError(w, newAPIError(http.StatusTooManyRequests, "too many requests for this access token: retry after %d s", retryAfterSeconds(wait)))
		return false
	}
	return true
}

func (rt *route) actions() string {
	switch {
	case rt.read != nil && rt.write != nil:
		return `"read" or "write"`
	case rt.read != nil:
		return `"read" on this path`
	}
	return `"write" on this path`
}

// decodeBody reads the JSON envelope, or for multipart uploads the `json`
// part and the file.
func (s *Server) decodeBody(r *http.Request, rt *route, c *call) *apiError {
	ct := r.Header.Get("Content-Type")
	if rt.write != nil && rt.write.multipart && strings.HasPrefix(ct, "multipart/form-data") {
		env, up, aerr := s.readMultipart(r)
		if aerr != nil {
			return aerr
		}
		c.env, c.upload = env, up
		return nil
	}
	body := http.MaxBytesReader(nil, r.Body, 64<<20)
	// goccy/go-json decodes as encoding/json does (the same values, the
	// same errors), in three quarters of its time: a catalog write of a
	// hundred products is some 150 kB.
	dec := json.NewDecoder(body)
	dec.UseNumber()
	var env record
	if err := dec.Decode(&env); err != nil {
		return badRequest("the body must be one JSON object like {\"action\": \"read\"}: %v", err)
	}
	if env == nil {
		return badRequest("the body must be one JSON object, not null")
	}
	c.env = env
	return nil
}

func (s *Server) serveRead(w http.ResponseWriter, rt *route, c *call) {
	var res *readResult
	var held heldBufs
	defer held.release()
	err := s.st.read(c.r.Context(), func(t *txn) error {
		var err error
		t.held = &held
		res, err = rt.read(t, c)
		return err
	})
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	buf, err := res.encode(rt.side)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeBytes(w, http.StatusOK, buf.Bytes())
	putAnswer(buf)
}

func (s *Server) writeFailure(w http.ResponseWriter, err error) {
	var aerr *apiError
	if errors.As(err, &aerr) {
		writeError(w, aerr)
		return
	}
	s.log.Error("sandbox failure", "error", err)
	writeError(w, newAPIError(http.StatusInternalServerError, "sandbox failure: %v", err))
}

// serveWrite applies a write envelope and returns the answer. [A.6] [B.2]
func (s *Server) serveWrite(wr *writer, c *call) (int, []byte) {
	recs, aerr := writeRecords(c.env, wr.resource)
	if aerr != nil {
		b, _ := json.Marshal(aerr.body)
		return aerr.status, b
	}
	if carriesStock(recs) {
		s.counters.update(func(c *Counters) { c.StockWrites++ })
	}
	var results []wire.WriteResult
	var levels int64
	err := s.st.do(c.r.Context(), func(t *txn) error {
		var err error
		if ba, has := c.env[wire.KeyBulkAction]; has && ba != nil {
			obj, ok := ba.(map[string]any)
			if wr.bulk == nil || !ok {
				return badRequest("%s does not take a %s object here", wr.resource, wire.KeyBulkAction)
			}
			results, err = wr.bulk(t, c, obj, recs)
		} else {
			results, err = t.applyEach(recs, func(i int, rec record) (int64, error) { return wr.apply(t, c, i, rec) })
		}
		if err != nil {
			return err
		}
		levels = t.levelsSet
		return t.recheckWaiting(c.acc.account)
	})
	if err != nil {
		var aerr *apiError
		if !errors.As(err, &aerr) {
			s.log.Error("sandbox failure", "error", err)
			aerr = newAPIError(http.StatusInternalServerError, "sandbox failure: %v", err)
		}
		b, _ := json.Marshal(aerr.body)
		return aerr.status, b
	}
	if levels > 0 {
		s.counters.update(func(c *Counters) { c.LevelsSet += levels })
	}
	return writeAnswer(wr.resource, results)
}

// carriesStock reports whether a write's records carry a
// links.ReconcileInventory entry, on a variant or on a product's variant.
func carriesStock(recs []record) bool {
	for _, rec := range recs {
		links, _ := rec[wire.KeyLinks].(map[string]any)
		if entries, _ := links[wire.ReconcileInventory].([]any); len(entries) > 0 {
			return true
		}
		variants, _ := links[wire.Variants].([]any)
		for _, v := range variants {
			if m, ok := v.(map[string]any); ok && carriesStock([]record{m}) {
				return true
			}
		}
	}
	return false
}

// applyEach applies fn to every record, each in its own savepoint: a
// record failing with a *recErr is undone alone and answered with its
// error; any other error fails the whole write. [B.2]
func (t *txn) applyEach(recs []record, fn func(i int, rec record) (int64, error)) ([]wire.WriteResult, error) {
	results := make([]wire.WriteResult, len(recs))
	for i, rec := range recs {
		var id int64
		levels := t.levelsSet
		err := t.savepoint(func() error {
			var err error
			id, err = fn(i, rec)
			return err
		})
		var re *recErr
		switch {
		case err == nil:
			results[i] = wire.WriteResult{ID: itoa(id)}
		case errors.As(err, &re):
			t.levelsSet = levels // undone with the record
			results[i] = wire.WriteResult{Error: &wire.RecordError{Index: i, Field: re.field, Message: re.msg}}
		default:
			return nil, err
		}
	}
	return results, nil
}

// writeRecords checks the envelope's record array and its size. [B.3]
func writeRecords(env record, resource string) ([]record, *apiError) {
	v, has := env[resource]
	if !has {
		return nil, badRequest("a write needs %q: an array of records", resource)
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, badRequest("%s must be an array of records, not %s", resource, kindOf(v))
	}
	if len(arr) == 0 {
		return nil, badRequest("%s holds no record", resource)
	}
	if len(arr) > wire.MaxWriteRecords {
		return nil, badRequest("%s holds %d records; a write carries at most %d: split it into batches of %d",
			resource, len(arr), wire.MaxWriteRecords, wire.MaxWriteRecords)
	}
	recs := make([]record, len(arr))
	for i, e := range arr {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, badRequest("%s[%d] must be an object, not %s", resource, i, kindOf(e))
		}
		recs[i] = m
	}
	return recs, nil
}

// writeAnswer is 200 with one result per record if any record applied,
// else 400 with a B.1 body (and the same results). [B.1] [B.2]
func writeAnswer(resource string, results []wire.WriteResult) (int, []byte) {
	var errs []wire.RecordError
	for _, r := range results {
		if r.Error != nil {
			errs = append(errs, *r.Error)
		}
	}
	if len(errs) < len(results) {
		b, _ := json.Marshal(map[string]any{resource: results})
		return http.StatusOK, b
	}
	msg := fmt.Sprintf("no record of %s was applied: %s", resource, errs[0].Message)
	if len(errs) > 1 {
		msg = fmt.Sprintf("none of the %d records of %s was applied; first error: %s", len(errs), resource, errs[0].Message)
	}
	b, _ := json.Marshal(map[string]any{"message": msg, "errors": errs, resource: results})
	return http.StatusBadRequest, b
}

// ServeGCPercent is the collector's pace a process serving a sandbox is
// best run at (debug.SetGCPercent), once it only serves: its Go heap is
// small, as its data live in SQLite, whose memory the collector does not
// see, while every answer's buffers come and go; at Go's default (100)
// the collector takes about a tenth of a page's CPU. BenchmarkPageAtDepth
// runs at it.
const ServeGCPercent = 400
