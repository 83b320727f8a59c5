package engine_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"lading/api"
	"lading/engine"
	"lading/state"
)

// answerAll answers a write of n records with an id for each, without a
// network: the benchmark measures what lading does with a batch.
type answerAll struct{ n int }

func (a answerAll) RoundTrip(r *http.Request) (*http.Response, error) {
	io.Copy(io.Discard, r.Body)
	r.Body.Close()
	body := `{"Products":[` + strings.TrimSuffix(strings.Repeat(`{"id":"1"},`, a.n), ",") + `]}`
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
}

// answeringClient is a client whose writes answerAll answers, n ids each.
func answeringClient(b *testing.B, n int) *api.Client {
	c, err := api.NewClient("http://bench.invalid/api2", "tok", api.WithRate(1e9, 1e6),
		api.WithHTTPClient(&http.Client{Transport: answerAll{n}}))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// createBatch is a batch of products to create, of 4 variants each, with
// their options and prices, as an import sends them.
func createBatch(products int) ([]api.ProductWrite, []string) {
	recs := make([]api.ProductWrite, products)
	keys := make([]string, products)
	sizes := []string{"S", "M", "L", "XL"}
	for i := range recs {
		keys[i] = fmt.Sprintf("P-%d", i)
		vs := make([]api.VariantWrite, len(sizes))
		for j, s := range sizes {
			order := j
			vs[j] = api.VariantWrite{SKU: api.String(fmt.Sprintf("P-%d-%s", i, s)), Cost: api.String("4.20"), Weight: api.String("0.3"),
				Links: &api.VariantLinks{AttributeOptions: []api.OptionRef{{Value: s, Order: &order}, {Value: "Black & White"}},
					PricingTiers: []api.TierValue{{Name: "Retail", Value: "12.00"}, {Name: "Wholesale", Value: "6.00"}}}}
		}
		recs[i] = api.ProductWrite{Name: api.String(fmt.Sprintf("Tee <%d>", i)), Description: api.String("A cotton tee, 180 g/m²"),
			Links: &api.ProductLinks{Variants: vs, Attributes: []api.AttributeRef{{Name: "Size"}, {Name: "Colour", Order: 1}},
				PricingTiers: []api.TierValue{{Name: "Retail", Value: "12.00"}}}}
	}
	return recs, keys
}

// BenchmarkPostProducts records and sends a batch of 100 products × 4
// variants through Post, to a client answering in memory:
//
//	go test -run '^$' -bench PostProducts -count 3 ./engine
func BenchmarkPostProducts(b *testing.B) {
	const n = 100
	st, err := state.Open(filepath.Join(b.TempDir(), "state.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	run, _, err := st.StartRun(ctx, "fp", "bench", nil)
	if err != nil {
		b.Fatal(err)
	}
	c := answeringClient(b, n)
	recs, keys := createBatch(n)
	b.ReportAllocs()
	for b.Loop() {
		p, err := postBatch(ctx, st, run, c, keys, recs)
		if err != nil || p.Err != nil {
			b.Fatal(err, p.Err)
		}
	}
}

// BenchmarkSendProducts is BenchmarkPostProducts without the state: the
// records kept and sent, encoded, and the answer read.
func BenchmarkSendProducts(b *testing.B) {
	const n = 100
	c := answeringClient(b, n)
	recs, _ := createBatch(n)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := keepAndSend(ctx, c, recs); err != nil {
			b.Fatal(err)
		}
	}
}

// keepAndSend encodes recs once, to keep, and sends those bytes.
func keepAndSend(ctx context.Context, c *api.Client, recs []api.ProductWrite) ([]byte, error) {
	enc, err := api.Encode(recs)
	if err != nil {
		return nil, err
	}
	_, err = c.Products.WriteEncoded(ctx, enc)
	return enc.JSON(), err
}

// postBatch posts recs as an import does: encoded once, kept in the state
// and sent as they are.
func postBatch(ctx context.Context, st *state.DB, run *state.Run, c *api.Client, keys []string, recs []api.ProductWrite) (*engine.Posted, error) {
	enc, err := api.Encode(recs)
	if err != nil {
		return nil, err
	}
	return engine.Post(ctx, st, run, "products.create", keys, enc.JSON(), nil, func(ctx context.Context) (*api.WriteResult, error) {
		return c.Products.WriteEncoded(ctx, enc)
	})
}
