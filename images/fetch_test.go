package images_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lading/images"
	"lading/images/imagestest"
)

func mustParse(t testing.TB, s string) images.Source {
	t.Helper()
	src, err := images.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func newFetcher(t testing.TB, o images.Options, wants ...images.Want) *images.Fetcher {
	t.Helper()
	o.TempDir = t.TempDir()
	f, err := images.New(context.Background(), o, wants)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := f.Close(); err != nil {
			t.Error(err)
		}
		if left, _ := os.ReadDir(o.TempDir); len(left) != 0 {
			t.Errorf("Close left %d entries in the temporary folder", len(left))
		}
	})
	return f
}

func hashOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func content(t testing.TB, f *images.Fetcher, img *images.Image) []byte {
	t.Helper()
	rc, err := f.Open(context.Background(), img)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFetchOnce: a URL many uses name is downloaded once; its content,
// type, name and hash are the image's; its content is deleted after the
// last use is released.
func TestFetchOnce(t *testing.T) {
	t.Parallel()
	srv := imagestest.New(t)
	const u = "https://cdn.shopify.com/s/files/1/products/tee.jpg?v=1"
	data := imagestest.JPEG(1, 5000)
	srv.Put(u, data)
	src := mustParse(t, u)
	f := newFetcher(t, images.Options{Transport: srv.Transport()}, images.Want{Source: src, Uses: 2}, images.Want{Source: src, Uses: 1})
	for range 3 {
		img, err := f.Get(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		if img.Name != "tee.jpg" || img.Type != "image/jpeg" || img.Size != 5000 || img.Hash != hashOf(data) {
			t.Errorf("image %+v", img)
		}
		if !bytes.Equal(content(t, f, img), data) {
			t.Error("the content read back differs")
		}
	}
	if n := srv.Hits(u); n != 1 {
		t.Errorf("%d downloads of one URL named three times, want 1", n)
	}
	if st := f.Stats(); st.Downloads != 1 || st.Bytes != 5000 {
		t.Errorf("stats %+v", st)
	}
}

// TestFetchRefusals: each way an image cannot be had is an *Error naming
// its URL and why, and only its own.
func TestFetchRefusals(t *testing.T) {
	t.Parallel()
	srv := imagestest.New(t)
	base := "https://img.example.com/"
	srv.Put(base+"ok.png", imagestest.PNG(1, 300))
	srv.Handle(base+"slow.jpg", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	srv.Handle(base+"stalls.jpg", func(w http.ResponseWriter, r *http.Request) {
		w.Write(imagestest.JPEG(2, 600))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	srv.Put(base+"big.png", imagestest.PNG(3, 2001))
	srv.Handle(base+"big-chunked.png", func(w http.ResponseWriter, r *http.Request) {
		for i := range 5 {
			w.Write(imagestest.PNG(i, 500))
			w.(http.Flusher).Flush()
		}
	})
	srv.Put(base+"page.jpg", []byte("<!DOCTYPE html><html><body>Not here</body></html>"))
	srv.Put(base+"empty.jpg", nil)
	srv.Handle(base+"loop.jpg", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop.jpg", http.StatusFound) })
	srv.Handle(base+"to-file.jpg", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	srv.Handle(base+"private.jpg", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) })
	f := newFetcher(t, images.Options{Transport: srv.Transport(), MaxSize: 2000, Timeout: 200 * time.Millisecond})
	for _, tc := range []struct{ path, reason string }{
		{"missing.jpg", "not found (HTTP 404 Not Found)"},
		{"slow.jpg", "no complete answer within 200ms"},
		{"stalls.jpg", "no complete answer within 200ms"},
		{"big.png", "it weighs 2.0 KiB, more than 2.0 KiB"},
		{"big-chunked.png", "larger than 2.0 KiB"},
		{"page.jpg", "its content is text/html; charset=utf-8, not an image or a PDF"},
		{"empty.jpg", "it is empty"},
		{"loop.jpg", "redirected more than 5 times"},
		{"to-file.jpg", "redirected to an address that is not http or https"},
		{"private.jpg", "the server refused it (HTTP 403 Forbidden)"},
	} {
		img, err := f.Get(context.Background(), mustParse(t, base+tc.path))
		var ie *images.Error
		if !errors.As(err, &ie) || ie.Source != base+tc.path || !strings.Contains(ie.Reason, tc.reason) || ie.Advice == "" {
			t.Errorf("%s: %+v, %v; want an error of its URL saying %q, with advice", tc.path, img, err, tc.reason)
		}
	}
	if img, err := f.Get(context.Background(), mustParse(t, base+"ok.png")); err != nil || img.Type != "image/png" {
		t.Errorf("ok.png beside them: %+v, %v", img, err)
	}
	if n := srv.Hits(base + "missing.jpg"); n != 1 {
		t.Errorf("a 404 was asked %d times, want once", n)
	}
}

// TestFetchRetries: a server error is tried again, and the image had.
func TestFetchRetries(t *testing.T) {
	t.Parallel()
	srv := imagestest.New(t)
	const u = "https://img.example.com/flaky.jpg"
	var calls atomic.Int32
	srv.Handle(u, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Write(imagestest.JPEG(1, 100))
	})
	f := newFetcher(t, images.Options{Transport: srv.Transport()})
	if _, err := f.Get(context.Background(), mustParse(t, u)); err != nil || calls.Load() != 2 {
		t.Errorf("after a 503: %v, %d requests; want the image at the second", err, calls.Load())
	}
}

// TestFetchNotModified: with what an earlier import learned, the server
// is asked whether the image changed; "not modified" gives the known
// hash without the content, which Open downloads when it is needed.
func TestFetchNotModified(t *testing.T) {
	t.Parallel()
	srv := imagestest.New(t)
	const u = "https://img.example.com/tee.jpg"
	data := imagestest.JPEG(7, 900)
	srv.Handle(u, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write(data)
	})
	src := mustParse(t, u)
	f := newFetcher(t, images.Options{Transport: srv.Transport()},
		images.Want{Source: src, Known: &images.Known{Hash: hashOf(data), Size: 900, ETag: `"v1"`}})
	img, err := f.Get(context.Background(), src)
	if err != nil || !img.NotModified || img.Hash != hashOf(data) || img.Size != 900 {
		t.Fatalf("%+v, %v; want not modified, with the known hash", img, err)
	}
	// Opened twice: a not-modified image is downloaded in full once (the
	// hits below count that), then read again from the kept copy.
	if first, again := content(t, f, img), content(t, f, img); !bytes.Equal(first, data) || !bytes.Equal(again, data) {
		t.Error("the content downloaded after all differs")
	}
	if n := srv.Hits(u); n != 2 {
		t.Errorf("%d requests, want 2: the question, then one download", n)
	}
}

// TestFetchLocal: paths are read under the images folder and nowhere
// else.
func TestFetchLocal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	media := filepath.Join(dir, "media")
	if err := os.MkdirAll(filepath.Join(media, "m", "h"), 0o755); err != nil {
		t.Fatal(err)
	}
	data := imagestest.JPEG(3, 1200)
	os.WriteFile(filepath.Join(media, "m", "h", "mh01.jpg"), data, 0o644)
	os.WriteFile(filepath.Join(media, "notes.txt"), []byte("not an image"), 0o644)
	os.WriteFile(filepath.Join(dir, "outside.jpg"), data, 0o644)
	if err := os.Symlink(filepath.Join(dir, "outside.jpg"), filepath.Join(media, "link.jpg")); err != nil {
		t.Fatal(err)
	}
	f := newFetcher(t, images.Options{Dir: media})
	img, err := f.Get(context.Background(), mustParse(t, "/m/h/mh01.jpg"))
	if err != nil || img.Name != "mh01.jpg" || img.Hash != hashOf(data) || !bytes.Equal(content(t, f, img), data) {
		t.Fatalf("%+v, %v", img, err)
	}
	for _, tc := range []struct{ path, reason string }{
		{"m/h/missing.jpg", "no such file in the images folder " + media},
		{"notes.txt", "not an image or a PDF"},
		{"link.jpg", "leads out of the images folder"},
		{"m", "is a folder"},
	} {
		_, err := f.Get(context.Background(), mustParse(t, tc.path))
		if err == nil || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: %v; want %q", tc.path, err, tc.reason)
		}
	}
	none := newFetcher(t, images.Options{})
	if _, err := none.Get(context.Background(), mustParse(t, "m/h/mh01.jpg")); err == nil || !strings.Contains(err.Error(), "no images folder") {
		t.Errorf("a path without a folder: %v", err)
	}
}

// TestFetchAhead: images are fetched in order, at most Ahead beyond those
// released, and at most Concurrency at once.
func TestFetchAhead(t *testing.T) {
	t.Parallel()
	srv := imagestest.New(t)
	var (
		mu              sync.Mutex
		arrived         []string
		inFlight, most  int
		asked           atomic.Bool
		early           atomic.Int32
		arrivedTwo      = make(chan struct{})
		release         = make(chan struct{})
		wants           []images.Want
		closeArrivedTwo sync.Once
	)
	for i := range 6 {
		u := "https://img.example.com/" + string(rune('a'+i)) + ".jpg"
		wants = append(wants, images.Want{Source: mustParse(t, u)})
		srv.Handle(u, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			arrived = append(arrived, u)
			inFlight++
			most = max(most, inFlight)
			n := len(arrived)
			mu.Unlock()
			if n == 2 {
				closeArrivedTwo.Do(func() { close(arrivedTwo) })
			}
			if n > 2 && !asked.Load() {
				early.Add(1)
			}
			if n <= 2 {
				<-release
			}
			w.Write(imagestest.JPEG(i, 64))
			mu.Lock()
			inFlight--
			mu.Unlock()
		})
	}
	f := newFetcher(t, images.Options{Transport: srv.Transport(), Ahead: 2, Concurrency: 2}, wants...)
	<-arrivedTwo
	asked.Store(true)
	close(release)
	for _, w := range wants {
		if _, err := f.Get(context.Background(), w.Source); err != nil {
			t.Fatal(err)
		}
		f.Release(w.Source)
	}
	mu.Lock()
	defer mu.Unlock()
	if early.Load() > 0 {
		t.Errorf("%d images were fetched before any was released, beyond the 2 ahead", early.Load())
	}
	if most > 2 {
		t.Errorf("%d downloads at once, want at most 2", most)
	}
	if arrived[0] != wants[0].Source.Key && arrived[1] != wants[0].Source.Key {
		t.Errorf("the first image was not among the first fetched: %v", arrived)
	}
}
