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
// reports: uploads; image-MB; peak-heap-MB, the most heap in use while
// the import ran above what was in use before (sampled every 5 ms;
// bounded if it does not grow with the images' total, which the two sizes
// compare); before-1st-upload, the downloads finished before the first
// upload began (all of them, were downloads a phase of their own);
// during-uploads, the share of downloads that ended while the uploads
// went on; and beside-a-write, the share that ran, some of their time,
// while the sandbox was answering a write (a product's or an upload; the
// rest of an upload's time is lading's own: the state records each
// upload before it is sent and after, on disk).
func BenchmarkImportImages(b *testing.B) {
	for _, products := range []int{250, 1000} {
		b.Run(fmt.Sprintf("products=%d", products), func(b *testing.B) {
			for range b.N {
				benchImportImages(b, products, 3, 200<<10)
			}
		})
	}
}

// timeline records when downloads and writes were under way.
type timeline struct {
	mu          sync.Mutex
	start       time.Time
	downloads   [][2]time.Duration
	writes      [][2]time.Duration
	open        map[string]time.Duration
	firstUpload time.Duration
}

func (tl *timeline) download(path string, start bool) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	now := time.Since(tl.start)
	if start {
		tl.open[path] = now
		return
	}
	tl.downloads = append(tl.downloads, [2]time.Duration{tl.open[path], now})
}

// wrap wraps the sandbox, noting when its writes are in flight.
func (tl *timeline) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path[len(wire.APIPrefix):]
		upload := path == wire.WritePath(wire.ProductFiles)
		if !upload && path != wire.WritePath(wire.Products) {
			h.ServeHTTP(w, r)
			return
		}
		from := time.Since(tl.start)
		h.ServeHTTP(w, r)
		tl.mu.Lock()
		defer tl.mu.Unlock()
		tl.writes = append(tl.writes, [2]time.Duration{from, time.Since(tl.start)})
		if upload && tl.firstUpload == 0 {
			tl.firstUpload = from
		}
	})
}

// overlap is the share of downloads that ran, some of their time, while
// a write was being answered by the sandbox; during is the share that
// ended while the uploads went on (after the first began, before the
// last ended): downloading is not a phase of its own; early is how many
// ended before the first upload began.
func (tl *timeline) overlap() (share, during float64, early int) {
	lastUpload := time.Duration(0)
	for _, w := range tl.writes {
		lastUpload = max(lastUpload, w[1])
	}
	n, m := 0, 0
	for _, d := range tl.downloads {
		switch {
		case d[1] < tl.firstUpload:
			early++
		case d[1] <= lastUpload:
			m++
		}
		for _, w := range tl.writes {
			if w[0] < d[1] && d[0] < w[1] {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(tl.downloads)), float64(m) / float64(len(tl.downloads)), early
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
	hs := httptest.NewServer(tl.wrap(srv))
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
	share, during, early := tl.overlap()
	b.ReportMetric(float64(uploads), "uploads")
	b.ReportMetric(float64(products*per*size)/(1<<20), "image-MB")
	b.ReportMetric(float64(*peak-base.HeapInuse)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(early), "before-1st-upload")
	b.ReportMetric(during, "during-uploads")
	b.ReportMetric(share, "beside-a-write")
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
