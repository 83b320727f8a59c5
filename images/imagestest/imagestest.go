// Package imagestest serves images to tests that import catalogs naming
// them, without the network: a Server answers every request its
// Transport carries, whatever the host the URL names, so that the real
// exports in testdata, whose images live on the internet, import against
// it as they are.
package imagestest

import (
	"bytes"
	"encoding/binary"
	"net/http"
	"net/http/httptest"
	"net/url"
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
	s.mu.Unlock()
	switch {
	case h != nil:
		h(w, r)
	case ok:
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(content)
	default:
		http.NotFound(w, r)
	}
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
