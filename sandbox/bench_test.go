package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"lading/api/wire"
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

// productBatch is 100 products of 4 variants (2 colours x 2 sizes) each.
func productBatch(batch int) []byte {
	recs := make([]any, wire.MaxWriteRecords)
	for i := range recs {
		var vs []any
		for _, c := range []string{"Black", "White"} {
			for _, s := range []string{"S", "M"} {
				vs = append(vs, map[string]any{"sku": fmt.Sprintf("B%d-P%d-%s-%s", batch, i, c, s), "quantity": "5", "cost": "2.50",
					"links": map[string]any{"AttributeOptions": []any{map[string]any{"value": c}, map[string]any{"value": s}}}})
			}
		}
		recs[i] = map[string]any{"name": fmt.Sprintf("Product %d-%d", batch, i), "links": map[string]any{
			"Attributes":   []any{map[string]any{"name": "Color", "order": 0}, map[string]any{"name": "Size", "order": 1}},
			"PricingTiers": []any{map[string]any{"name": "Retail", "value": "9.99"}},
			"Variants":     vs,
		}}
	}
	b, _ := json.Marshal(map[string]any{"action": "write", wire.Products: recs})
	return b
}

func BenchmarkProductCreate(b *testing.B) {
	ts := benchServer(b)
	bodies := make([][]byte, b.N)
	for i := range bodies {
		bodies[i] = productBatch(i)
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
		benchPost(b, ts, wire.WritePath(wire.Products), productBatch(i))
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
