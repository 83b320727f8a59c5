package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"testing"
	"time"

	"lading/api/wire"
	"lading/source/sourcetest"
)

// benchPost posts a prepared body and checks the status.
func benchPost(b *testing.B, ts *httptest.Server, path string, body []byte) {
	req, _ := http.NewRequest(http.MethodPost, ts.URL+path, bytes.NewReader(body))
	req.Header.Set(wire.HeaderToken, testToken)
	res, err := ts.Client().Do(req)
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		b.Fatalf("status %d: %.300s", res.StatusCode, raw)
	}
}

func benchServer(b *testing.B) *httptest.Server {
	srv, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := srv.RegisterToken(testToken); err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	b.Cleanup(func() { ts.Close(); srv.Close() })
	return ts
}

// productBatch is 100 products of 4 variants (2 colours x 2 sizes) each,
// priced in the first tiers of Retail and Compare (every variant of a
// product at each), and tagged with one of tags names when tags is not 0.
func productBatch(batch, tiers, tags int) []byte {
	var prices []any
	for _, t := range []map[string]any{{"name": "Retail", "value": "9.99"}, {"name": "Compare", "value": "12.00"}}[:tiers] {
		prices = append(prices, t)
	}
	recs := make([]any, wire.MaxWriteRecords)
	for i := range recs {
		var vs []any
		for _, c := range []string{"Black", "White"} {
			for _, s := range []string{"S", "M"} {
				vs = append(vs, map[string]any{"sku": fmt.Sprintf("B%d-P%d-%s-%s", batch, i, c, s), "quantity": "5", "cost": "2.50",
					"links": map[string]any{"AttributeOptions": []any{map[string]any{"value": c}, map[string]any{"value": s}}}})
			}
		}
		links := map[string]any{
			"Attributes":   []any{map[string]any{"name": "Color", "order": 0}, map[string]any{"name": "Size", "order": 1}},
			"PricingTiers": prices,
			"Variants":     vs,
		}
		if tags > 0 {
			links["ProductTags"] = []any{map[string]any{"name": fmt.Sprint("Tag ", (batch*wire.MaxWriteRecords+i)%tags)}}
		}
		recs[i] = map[string]any{"name": fmt.Sprintf("Product %d-%d", batch, i), "links": links}
	}
	b, _ := json.Marshal(map[string]any{"action": "write", wire.Products: recs})
	return b
}

func BenchmarkProductCreate(b *testing.B) {
	ts := benchServer(b)
	bodies := make([][]byte, b.N)
	for i := range bodies {
		bodies[i] = productBatch(i, 1, 0)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		benchPost(b, ts, wire.WritePath(wire.Products), bodies[i])
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N*wire.MaxWriteRecords)/secs, "records/s")
	b.ReportMetric(float64(b.N*wire.MaxWriteRecords*4)/secs, "variants/s")
}

func BenchmarkListPage(b *testing.B) {
	ts := benchServer(b)
	for i := 0; i < 10; i++ { // 1000 products, 4000 variants
		benchPost(b, ts, wire.WritePath(wire.Products), productBatch(i, 1, 0))
	}
	pages := 4000 / wire.MaxPageSize
	bodies := make([][]byte, pages)
	for i := range bodies {
		bodies[i], _ = json.Marshal(map[string]any{"action": "read", "page_size": wire.MaxPageSize, "page_num": i + 1})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		benchPost(b, ts, wire.ListPath(wire.Variants), bodies[i%pages])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// BenchmarkPageAtDepth answers pages of 250 variants of an account of
// LADING_BENCH_ROWS variants (default 100,000, in products of 100 with a
// Size each, two prices and a stock level), read in-process with no
// network between: page 1, the last page, and a run of pages in order deep
// in the listing. cpu-ms/page is the process's CPU time a page takes
// (user and system, from getrusage): the rendering, its queries and its
// JSON, with the collector at the pace lading sandbox serves at
// (ServeGCPercent). The goal is under 5 ms, and the last page as fast as
// the first.
//
//	LADING_BENCH_ROWS=1000000 go test -run '^$' -bench PageAtDepth -benchtime 200x ./sandbox
func BenchmarkPageAtDepth(b *testing.B) {
	srv := depthServer(b)
	defer debug.SetGCPercent(debug.SetGCPercent(ServeGCPercent))
	last := (srv.benchRows + wire.MaxPageSize - 1) / wire.MaxPageSize
	for _, c := range []struct {
		name  string
		first int
		run   bool // pages in order from first; else first, again and again
	}{{"page-1", 1, false}, {"last-page", last, false}, {"deep-in-order", max(1, last-last/10), true}} {
		b.Run(c.name, func(b *testing.B) {
			srv.page(b, c.first) // the first answer of a listing counts it
			cpu := sourcetest.StartCPU()
			n := c.first
			for b.Loop() {
				srv.page(b, n)
				if c.run {
					if n++; n > last {
						n = max(1, last-last/10)
					}
				}
			}
			cpu.Report(b, b.N, time.Millisecond, "cpu-ms/page")
		})
	}
}

// depthSandbox is a sandbox holding benchRows variants.
type depthSandbox struct {
	*Server
	benchRows int
	bodies    map[int][]byte
	// answer takes the answers, one after the other, in one buffer, as a
	// connection would: the answers' bytes are the sandbox's work, a
	// buffer for each is not.
	answer recorder
}

// depthServer seeds the benchmark's account: products of 100 variants, 10
// products a write.
func depthServer(b *testing.B) *depthSandbox {
	rows := sourcetest.BenchRows(b)
	srv, _ := tokenServer(b, Options{})
	start := time.Now()
	for p := 0; p*100 < rows; p += 10 {
		var prods []any
		for q := p; q < p+10 && q*100 < rows; q++ {
			var vs []any
			for i := q * 100; i < min(rows, q*100+100); i++ {
				vs = append(vs, map[string]any{"sku": fmt.Sprintf("SKU-%07d", i), "quantity": i % 250, "cost": "3.50", "weight": "0.25",
					"links": map[string]any{"AttributeOptions": []any{map[string]any{"value": fmt.Sprint("S", i)}}}})
			}
			prods = append(prods, map[string]any{"name": fmt.Sprint("Product ", q), "links": map[string]any{
				"Attributes":   []any{map[string]any{"name": "Size"}},
				"PricingTiers": []any{map[string]any{"name": "Retail", "value": "9.99"}, map[string]any{"name": "Wholesale", "value": "4.50"}},
				"Variants":     vs}})
		}
		body, _ := json.Marshal(map[string]any{"action": "write", wire.Products: prods})
		w := serveDirect(srv, wire.WritePath(wire.Products), body)
		if w.status != 200 {
			b.Fatalf("seeding: %d %.300s", w.status, w.body.Bytes())
		}
	}
	b.Logf("seeded %d variants in %v", rows, time.Since(start).Round(time.Millisecond))
	return &depthSandbox{Server: srv, benchRows: rows, bodies: map[int][]byte{}}
}

// page answers page n of the variants listing.
func (s *depthSandbox) page(b *testing.B, n int) {
	body, ok := s.bodies[n]
	if !ok {
		body, _ = json.Marshal(map[string]any{"action": "read", "page_size": wire.MaxPageSize, "page_num": n})
		s.bodies[n] = body
	}
	w := &s.answer
	w.header, w.status = http.Header{}, 0
	w.body.Reset()
	serveInto(w, s.Server, wire.ListPath(wire.Variants), body)
	if w.status != 200 {
		b.Fatalf("page %d: %d %.300s", n, w.status, w.body.Bytes())
	}
}

// recorder is an answer kept in memory.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}
func (r *recorder) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(p)
}

// serveDirect has srv answer a POST of body to path, in this goroutine.
func serveDirect(srv *Server, path string, body []byte) *recorder {
	w := &recorder{header: http.Header{}}
	serveInto(w, srv, path, body)
	return w
}

// serveInto has srv answer a POST of body to path into w.
func serveInto(w *recorder, srv *Server, path string, body []byte) {
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set(wire.HeaderToken, testToken)
	srv.ServeHTTP(w, req)
}

// BenchmarkProductPage answers pages of the Products listing (125
// products, each of 4 variants in 2 colours and 2 sizes, two prices, a
// tag of 16) of an account of LADING_BENCH_ROWS variants (default
// 100,000): in order, as an import comparing the whole account reads
// them (pages of some 500 variants), and by ids scattered over the
// account, as an import reads the products it
// changes. cpu-ms/page is the process's CPU time a page takes, with the
// collector at the pace lading sandbox serves at (ServeGCPercent).
//
//	go test -run '^$' -bench ProductPage -benchtime 200x ./sandbox
func BenchmarkProductPage(b *testing.B) {
	rows := sourcetest.BenchRows(b)
	srv, _ := tokenServer(b, Options{})
	for batch := 0; batch*wire.MaxWriteRecords*4 < rows; batch++ {
		if w := serveDirect(srv, wire.WritePath(wire.Products), productBatch(batch, 2, 16)); w.status != 200 {
			b.Fatalf("seeding: %d %.300s", w.status, w.body.Bytes())
		}
	}
	defer debug.SetGCPercent(debug.SetGCPercent(ServeGCPercent))
	const size = 125
	last := (rows/4 + size - 1) / size
	var w recorder
	read := func(fields map[string]any) {
		body, _ := json.Marshal(fields)
		w.header, w.status = http.Header{}, 0
		w.body.Reset()
		serveInto(&w, srv, wire.ListPath(wire.Products), body)
		if w.status != 200 {
			b.Fatalf("%s: %d %.300s", body, w.status, w.body.Bytes())
		}
	}
	page := func(n int) map[string]any {
		return map[string]any{"action": "read", "page_size": size, "page_num": n}
	}
	read(page(1)) // the first answer of a listing counts it
	b.Run("in-order", func(b *testing.B) {
		cpu := sourcetest.StartCPU()
		n := 1
		for b.Loop() {
			read(page(n))
			if n++; n > last {
				n = 1
			}
		}
		cpu.Report(b, b.N, time.Millisecond, "cpu-ms/page")
	})
	b.Run("scattered", func(b *testing.B) {
		var ids []any // the first product of pages spread over the listing
		for i := range size {
			read(page(1 + i*last/size))
			var got struct{ Products []struct{ ID string } }
			if err := json.Unmarshal(w.body.Bytes(), &got); err != nil || len(got.Products) == 0 {
				b.Fatalf("page %d: %v", 1+i*last/size, err)
			}
			ids = append(ids, map[string]any{"id": got.Products[0].ID})
		}
		fields := map[string]any{"action": "read", "page_size": size, "filter": map[string]any{"or": ids}}
		cpu := sourcetest.StartCPU()
		for b.Loop() {
			read(fields)
		}
		cpu.Report(b, b.N, time.Millisecond, "cpu-ms/page")
	})
}
