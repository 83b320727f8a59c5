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
	"lading/state"
)

// loadCatalog imports the file of --load into the account of token
// before the sandbox serves: as lading import writes it, through the
// interface's write path (srv.Loader), without throttling, faults or
// images. A sandbox on a file that loaded the same file through the same
// mapping before is left as it is.
func loadCatalog(ctx context.Context, env *Env, srv *sandbox.Server, token string, o *sandboxOptions) error {
	m, text, err := o.load()
	if err != nil {
		return err
	}
	limits, err := o.reading(m)
	if err != nil {
		return err
	}
	file := o.Loads[0]
	call := fmt.Sprintf("lading sandbox --load %s %s", file, o.how())
	if err := joinFiles(m, o.Loads, joinWords{
		second: "the second --load",
		one:    "Give one file: " + call,
		two:    fmt.Sprintf("Give that file with a second --load: lading sandbox --load %s --load SECOND-FILE %s", file, o.how()),
	}); err != nil {
		return err
	}
	key, err := loadKey(file, m, text)
	if err != nil {
		return Usagef("--load: %w", err)
	}
	if done, err := srv.Loaded(ctx, token, key); err != nil || done {
		if done {
			fmt.Fprintf(env.Stderr, "%s is loaded already (through %s): the sandbox serves it as it is\n", file, o.how())
		}
		return err
	}
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
	fmt.Fprintf(env.Stderr, "loading %s through %s...\n", file, o.how())
	start := time.Now()
	rep, err := importer.Import(ctx, importer.Options{
		Options: engine.Options{Client: client, State: st, Scope: "sandbox-load", Mapping: m, Input: file, Limits: limits,
			BatchSize: wire.MaxWriteRecords, ResultsFile: filepath.Join(dir, "results.csv"), Logger: o.logger(env)},
		MappingText: text, Mode: importer.ModeUpsert, NoImages: true,
	})
	if err != nil {
		return fmt.Errorf("--load %s: %w", file, o.refit(err))
	}
	fmt.Fprintf(env.Stderr, "loaded %s and %s in %s (%s)%s\n", plural.Count(rep.Products.Total(), "product"),
		plural.Count(rep.Variants.Total(), "variant"), time.Since(start).Round(time.Millisecond), plural.Count(rep.Writes, "write"),
		foundThere(rep.Products, rep.Variants))
	if n := rep.Failed(); n > 0 {
		keep = true
		fmt.Fprintf(env.Stderr, "warning: %s of %s could not be loaded: see %s\n", plural.Count(n, "row"), file, rep.Results)
	}
	return srv.MarkLoaded(ctx, token, key)
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
