// Package imagestest serves images to tests that import catalogs naming
// them, without the network: a Server answers every request its
// Transport carries, whatever the host the URL names, so that the real
// exports in testdata, whose images live on the internet, import against
// it as they are.
package imagestest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"strings"
	"sync"
	"testing"
)

// Server serves the images put in it by their full URL, and counts the
// requests for each.
type Server struct {
	srv *httptest.Server
	url *url.URL

	mu       sync.Mutex
	files    map[string][]byte
	handlers map[string]http.HandlerFunc
	hits     map[string]int
	total    int
	any      bool
	// notModified counts the answers 304.
	notModified int
}

// Original headers carry the scheme and host the request was for.
const (
	headerScheme = "X-Imagestest-Scheme"
	headerHost   = "X-Imagestest-Host"
)

// New starts a Server, closed when the test ends.
func New(t testing.TB) *Server {
	s := &Server{files: map[string][]byte{}, handlers: map[string]http.HandlerFunc{}, hits: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	s.url, _ = url.Parse(s.srv.URL)
	return s
}

// ServeAny makes the server answer a URL it holds nothing for with an
// image of its own (a small JPEG made from the URL) when its path ends in
// an image's extension, for tests that import exports naming images they
// do not look at.
func (s *Server) ServeAny() *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.any = true
	return s
}

// Offline is a transport for tests that import files naming images they
// do not look at: it answers each URL ending in an image's extension with
// an image of its own (a small JPEG made from the URL), and any other
// with 404, itself: nothing reaches the network.
func Offline() http.RoundTripper { return offline{} }

type offline struct{}

func (offline) RoundTrip(r *http.Request) (*http.Response, error) {
	res := &http.Response{Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: http.Header{}, Request: r,
		StatusCode: http.StatusNotFound, Status: "404 Not Found", Body: http.NoBody}
	if imageExt(r.URL.Path) {
		b := JPEG(int(crc32.ChecksumIEEE([]byte(r.URL.String()))), 2048)
		res.StatusCode, res.Status, res.ContentLength = http.StatusOK, "200 OK", int64(len(b))
		res.Body = io.NopCloser(bytes.NewReader(b))
	}
	return res, nil
}

// Key is how a request is known: the URL it was for.
func Key(r *http.Request) string {
	scheme, host := r.Header.Get(headerScheme), r.Header.Get(headerHost)
	if scheme == "" {
		scheme, host = "http", r.Host
	}
	return scheme + "://" + host + r.URL.RequestURI()
}

// Put serves content at rawURL (scheme, host, path and query).
func (s *Server) Put(rawURL string, content []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[rawURL] = content
}

// Handle answers requests for rawURL with h.
func (s *Server) Handle(rawURL string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[rawURL] = h
}

// Hits is how many requests for rawURL came.
func (s *Server) Hits(rawURL string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[rawURL]
}

// Total is how many requests came.
func (s *Server) Total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	key := Key(r)
	s.mu.Lock()
	s.hits[key]++
	s.total++
	h, content, ok := s.handlers[key], s.files[key], false
	if h == nil {
		_, ok = s.files[key]
	}
	if h == nil && !ok && s.any && imageExt(r.URL.Path) {
		content, ok = JPEG(int(crc32.ChecksumIEEE([]byte(key))), 2048), true
	}
	s.mu.Unlock()
	switch {
	case h != nil:
		h(w, r)
	case ok:
		// An ETag of the content: a request naming it is answered 304.
		etag := fmt.Sprintf(`"%08x-%d"`, crc32.ChecksumIEEE(content), len(content))
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			s.mu.Lock()
			s.notModified++
			s.mu.Unlock()
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(content)
	default:
		http.NotFound(w, r)
	}
}

// NotModified is how many requests were answered 304: they named the
// ETag of the content the server holds.
func (s *Server) NotModified() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.notModified
}

// Transport carries every request to the Server, whatever its URL's
// scheme and host: nothing reaches the network.
func (s *Server) Transport() http.RoundTripper {
	return roundTripper{s}
}

type roundTripper struct{ s *Server }

func (rt roundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	out := r.Clone(r.Context())
	out.Header.Set(headerScheme, r.URL.Scheme)
	out.Header.Set(headerHost, r.URL.Host)
	u := *r.URL
	u.Scheme, u.Host = rt.s.url.Scheme, rt.s.url.Host
	out.URL, out.Host = &u, ""
	return rt.s.srv.Client().Transport.RoundTrip(out)
}

func imageExt(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".jpg", ".jpeg", ".png", ".gif", ".webp":
		return true
	}
	return false
}

// JPEG is size bytes that sniff as a JPEG image, different for each
// seed (size at least 16).
func JPEG(seed, size int) []byte {
	return fill([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), seed, size)
}

// PNG is size bytes that sniff as a PNG image, different for each seed
// (size at least 16).
func PNG(seed, size int) []byte {
	return fill([]byte("\x89PNG\r\n\x1a\n"), seed, size)
}

// fill pads magic to size bytes with a pattern of seed.
func fill(magic []byte, seed, size int) []byte {
	b := make([]byte, max(size, len(magic)+8))
	copy(b, magic)
	binary.BigEndian.PutUint64(b[len(magic):], uint64(seed))
	x := uint32(seed)*2654435761 + 1
	for i := len(magic) + 8; i < len(b); i++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return bytes.Clone(b[:size:size])
}

// Generated serves, at every path, size bytes that sniff as a JPEG image,
// made from the path as they are written (a catalog's worth of images
// costs the server no memory), with an ETag of the path and size: a
// request naming it is answered 304. observe, if not nil, is called when
// each download starts and when it ends.
func Generated(size int, observe func(path string, start bool)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		etag := fmt.Sprintf(`"%08x-%d"`, crc32.ChecksumIEEE([]byte(r.URL.Path)), size)
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if observe != nil {
			observe(r.URL.Path, true)
			defer observe(r.URL.Path, false)
		}
		w.Header().Set("Content-Type", "image/jpeg")
		w.Header().Set("Content-Length", fmt.Sprint(size))
		seed := int(crc32.ChecksumIEEE([]byte(r.URL.Path)))
		const chunk = 32 << 10
		for off := 0; off < size; off += chunk {
			n := min(chunk, size-off)
			b := fill([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), seed+off, n)
			if off > 0 {
				b = fill(nil, seed+off, n)
			}
			if _, err := w.Write(b); err != nil {
				return
			}
		}
	})
}
