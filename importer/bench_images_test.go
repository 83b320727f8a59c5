package importer_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/images"
	"lading/images/imagestest"
	"lading/importer"
	"lading/mapping"
	"lading/sandbox"
	"lading/state"
	"lading/templates"
)

// BenchmarkImportImages imports products with 3 images of 200 KB each,
// served by a local server, into an in-memory sandbox (whose files go to
// disk, so that they do not weigh in the figures), side by side for 250
// and 1,000 products:
//
//	go test -run '^$' -bench ImportImages -benchtime 1x ./importer
//
// It checks that the uploads are as many as the distinct images, and
// reports: uploads; image MB; peak-heap-MB, the most heap in use while
// the import ran (sampled every 5 ms; bounded if it does not grow with
// the images' total, which the two sizes compare); early-downloads, the
// downloads finished before the first write; and overlap, the share of
// downloads that ran while writes were in flight.
func BenchmarkImportImages(b *testing.B) {
	for _, products := range []int{250, 1000} {
		b.Run(fmt.Sprintf("products=%d", products), func(b *testing.B) {
			for b.Loop() {
				benchImportImages(b, products, 3, 200<<10)
			}
		})
	}
}

// timeline records when downloads and writes were under way.
type timeline struct {
	mu                    sync.Mutex
	start                 time.Time
	downloads             [][2]time.Duration
	open                  map[string]time.Duration
	firstWrite, lastWrite time.Duration
	writing               atomic.Int32
	during                atomic.Int32 // downloads that started while a write was in flight
}

func (tl *timeline) download(path string, start bool) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	now := time.Since(tl.start)
	if start {
		tl.open[path] = now
		if tl.writing.Load() > 0 {
			tl.during.Add(1)
		}
		return
	}
	tl.downloads = append(tl.downloads, [2]time.Duration{tl.open[path], now})
}

// writes wraps the sandbox, noting when its writes are in flight.
func (tl *timeline) writes(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path[len(wire.APIPrefix):]
		if path != wire.WritePath(wire.ProductFiles) && path != wire.WritePath(wire.Products) {
			h.ServeHTTP(w, r)
			return
		}
		tl.writing.Add(1)
		tl.mu.Lock()
		if now := time.Since(tl.start); tl.firstWrite == 0 {
			tl.firstWrite = now
		}
		tl.mu.Unlock()
		h.ServeHTTP(w, r)
		tl.writing.Add(-1)
		tl.mu.Lock()
		tl.lastWrite = time.Since(tl.start)
		tl.mu.Unlock()
	})
}

func benchImportImages(b *testing.B, products, per, size int) {
	b.StopTimer()
	dir := b.TempDir()
	srv, err := sandbox.New(sandbox.Options{MaxMemoryFileBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	if _, err := srv.RegisterToken("tok"); err != nil {
		b.Fatal(err)
	}
	tl := &timeline{open: map[string]time.Duration{}}
	hs := httptest.NewServer(tl.writes(srv))
	defer hs.Close()
	imgs := httptest.NewServer(imagestest.Generated(size, tl.download))
	defer imgs.Close()
	in := filepath.Join(dir, "catalog.csv")
	writeImageCatalog(b, in, imgs.URL, products, per)
	c, err := api.NewClient(hs.URL+wire.APIPrefix, "tok", api.WithRate(10000, 100))
	if err != nil {
		b.Fatal(err)
	}
	st, err := state.Open(filepath.Join(dir, "state.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	text, _ := templates.Get("generic")
	m, err := mapping.Parse("generic.yaml", text)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	peak, stop := samplePeakHeap()
	tl.start = time.Now()
	b.StartTimer()
	rep, err := importer.Import(context.Background(), importer.Options{
		Options: engine.Options{Client: c, State: st, Scope: hs.URL, Mapping: m, Input: in, Concurrency: 4,
			ResultsFile: filepath.Join(dir, "results.csv")},
		MappingText: text, Images: images.Options{TempDir: dir}})
	b.StopTimer()
	stop()
	if err != nil {
		b.Fatal(err)
	}
	uploads := srv.Counters().Requests[wire.WritePath(wire.ProductFiles)]
	if want := products * per; uploads != int64(want) || rep.Images[importer.Uploaded] != want {
		b.Fatalf("%d uploads, images %v; want one upload for each of the %d distinct images", uploads, rep.Images, want)
	}
	early := 0
	for _, d := range tl.downloads {
		if d[1] < tl.firstWrite {
			early++
		}
	}
	b.ReportMetric(float64(uploads), "uploads")
	b.ReportMetric(float64(products*per*size)/(1<<20), "image-MB")
	b.ReportMetric(float64(*peak-base.HeapInuse)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(early), "early-downloads")
	b.ReportMetric(float64(tl.during.Load())/float64(len(tl.downloads)), "overlap")
}

// samplePeakHeap samples the heap in use every 5 ms until stop is called,
// and gives the most it saw.
func samplePeakHeap() (peak *uint64, stop func()) {
	peak = new(uint64)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		var ms runtime.MemStats
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return peak, func() { close(done); <-finished }
}

// writeImageCatalog writes a catalog of products in the generic layout,
// each with one variant and per images of its own at base.
func writeImageCatalog(b *testing.B, path, base string, products, per int) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "product_key,product_name,sku,images")
	for p := range products {
		fmt.Fprintf(w, "p%d,Product %d,SKU-%d,", p, p, p)
		for i := range per {
			if i > 0 {
				w.WriteByte('|')
			}
			fmt.Fprintf(w, "%s/img/%d-%d.jpg", base, p, i)
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
}
