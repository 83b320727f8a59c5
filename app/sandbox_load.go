package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/importer"
	"lading/mapping"
	"lading/paths"
	"lading/plural"
	"lading/sandbox"
	"lading/source"
	"lading/state"
)

// loadCatalog imports the file of --load into the account of token
// before the sandbox serves: as lading import writes it, through the
// interface's write path (srv.Loader), without throttling, faults or
// images. A sandbox on a file that loaded the same file through the same
// mapping before is left as it is.
func loadCatalog(ctx context.Context, env *Env, srv *sandbox.Server, token string, o *sandboxOptions) error {
	l, err := o.catalogLoad()
	if err != nil {
		return err
	}
	if done, err := srv.Loaded(ctx, token, l.key); err != nil || done {
		if done {
			fmt.Fprintf(env.Stderr, "%s is loaded already (through %s): the sandbox serves it as it is\n", l.file, o.how())
		}
		return err
	}
	if err := srv.LoadMany(func() error { return l.run(ctx, env, srv, token, o) }); err != nil {
		return err
	}
	return srv.MarkLoaded(ctx, token, l.key)
}

// catalogLoad is what --load loads: its file, the mapping (its join
// pointed at the second --load, if given), the limits of its reading, and
// the key naming all of it (see loadKey).
type catalogLoad struct {
	file   string
	m      *mapping.Mapping
	text   []byte
	limits source.Limits
	key    string
	// day, when not zero, is the time the loaded records are stamped with.
	day time.Time
}

// catalogLoad reads and checks the mapping and the files of --load.
func (o *sandboxOptions) catalogLoad() (*catalogLoad, error) {
	m, text, err := o.load()
	if err != nil {
		return nil, err
	}
	limits, err := o.reading(m)
	if err != nil {
		return nil, err
	}
	file := o.Loads[0]
	if err := joinFiles(m, o.Loads, joinWords{
		second: "the second --load",
		one:    fmt.Sprintf("Give one file: lading sandbox --load %s %s", file, o.how()),
		two:    fmt.Sprintf("Give that file with a second --load: lading sandbox --load %s --load SECOND-FILE %s", file, o.how()),
	}); err != nil {
		return nil, err
	}
	key, err := loadKey(file, m, text)
	if err != nil {
		return nil, Usagef("--load: %w", err)
	}
	var day time.Time
	if o.LoadDate != "" {
		if day, err = time.Parse(time.DateOnly, o.LoadDate); err != nil {
			return nil, Usagef("--load-date %q: give the day as YYYY-MM-DD, like 2026-01-31", o.LoadDate)
		}
	}
	return &catalogLoad{file: file, m: m, text: text, limits: limits, key: key, day: day}, nil
}

// run imports the catalog with a state thrown away after, and says what
// it loaded; a results file of rows that failed is kept.
func (l *catalogLoad) run(ctx context.Context, env *Env, srv *sandbox.Server, token string, o *sandboxOptions) error {
	dir, err := os.MkdirTemp("", "lading-sandbox-load-")
	if err != nil {
		return err
	}
	keep := false
	defer func() {
		if !keep {
			os.RemoveAll(dir)
		}
	}()
	st, err := state.OpenScratch(filepath.Join(dir, "state.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	client, err := api.NewClient("http://sandbox.load", token, api.WithRate(1e9, 1e6), api.WithRetries(0),
		api.WithHTTPClient(&http.Client{Transport: handlerTransport{srv.Loader()}}))
	if err != nil {
		return err
	}
	if !l.day.IsZero() {
		srv.SetClock(func() time.Time { return l.day })
		defer srv.SetClock(nil)
	}
	fmt.Fprintf(env.Stderr, "loading %s through %s...\n", l.file, o.how())
	start, prog := time.Now(), o.progress(env, client)
	defer prog.Finish()
	rep, err := importer.Import(ctx, importer.Options{
		Options: engine.Options{Client: client, State: st, Scope: "sandbox-load", Mapping: l.m, Input: l.file, Limits: l.limits,
			BatchSize: wire.MaxWriteRecords, ResultsFile: filepath.Join(dir, "results.csv"), Progress: prog, Logger: o.logger(env)},
		MappingText: l.text, Mode: importer.ModeUpsert, NoImages: true,
	})
	prog.Finish()
	if err != nil {
		return fmt.Errorf("--load %s: %w", l.file, o.refit(err))
	}
	fmt.Fprintf(env.Stderr, "loaded %s and %s in %s (%s)%s\n", plural.Count(rep.Products.Total(), "product"),
		plural.Count(rep.Variants.Total(), "variant"), time.Since(start).Round(time.Millisecond), plural.Count(rep.Writes, "write"),
		foundThere(rep.Products, rep.Variants))
	if n := rep.Failed(); n > 0 {
		keep = true
		fmt.Fprintf(env.Stderr, "warning: %s of %s could not be loaded: see %s\n", plural.Count(n, "row"), l.file, rep.Results)
	}
	return nil
}

// foundThere says how many of the products and variants a load counted
// were in the account before it (a load that was stopped, run again, or
// another file of the same catalog), if any.
func foundThere(products, variants engine.Counts) string {
	there := func(c engine.Counts) int { return c[engine.Unchanged] + c[engine.Updated] }
	p, v := there(products), there(variants)
	if p+v == 0 {
		return ""
	}
	return fmt.Sprintf("; %s and %s of them were in the account already", plural.Count(p, "product"), plural.Count(v, "variant"))
}

// loadKey names what --load loads: the content of the file at path, the
// digest of the file m joins to it if any, and the mapping's text.
func loadKey(path string, m *mapping.Mapping, text []byte) (string, error) {
	h := sha256.New()
	if err := paths.HashFiles(h, path); err != nil {
		return "", err
	}
	if m.Join != nil {
		j := sha256.New()
		if err := paths.HashFiles(j, importer.JoinedFile(path, m.Join.File)); err != nil {
			return "", err
		}
		h.Write(j.Sum(nil))
	}
	h.Write(text)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// handlerTransport makes the exchanges of a client with a handler in the
// same process.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	// A server reads its request's header names canonical, whatever way
	// they were sent.
	in := req.Clone(req.Context())
	in.Header = make(http.Header, len(req.Header))
	for k, v := range req.Header {
		in.Header[http.CanonicalHeaderKey(k)] = v
	}
	w := &memoryResponse{header: http.Header{}, status: http.StatusOK}
	t.h.ServeHTTP(w, in)
	if req.Body != nil {
		req.Body.Close()
	}
	return &http.Response{
		StatusCode: w.status, Status: http.StatusText(w.status), Header: w.header,
		Body: io.NopCloser(&w.body), ContentLength: int64(w.body.Len()), Request: req,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
	}, nil
}

// memoryResponse is an answer written into memory.
type memoryResponse struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (w *memoryResponse) Header() http.Header { return w.header }

func (w *memoryResponse) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
}

func (w *memoryResponse) Write(b []byte) (int, error) {
	w.wrote = true
	return w.body.Write(b)
}
