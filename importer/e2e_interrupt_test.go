package importer_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"lading/api"
	"lading/engine"
	"lading/importer"
	"lading/sandbox"
)

// cancelAfterReads cancels the import once it has made its planning reads:
// the user pressed Ctrl-C between planning and the first write.
type cancelAfterReads struct {
	next   http.RoundTripper
	reads  int64
	seen   atomic.Int64
	cancel context.CancelFunc
}

func (c *cancelAfterReads) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	if c.seen.Add(1) == c.reads {
		c.cancel()
	}
	return resp, err
}

// Interrupted before its first write, an import says so: no row is
// reported created, the account holds nothing, and running it again
// creates everything.
func TestImportInterruptedBeforeTheFirstWrite(t *testing.T) {
	t.Parallel()
	{
		e := newEnv(t, sandbox.Options{})
		// The account holds another product: planning reads its size
		// (beside the import's own work), then the whole account.
		seed := filepath.Join(e.dir, "seed.csv")
		if err := os.WriteFile(seed, []byte("product_key,product_name,sku\ns,Seed,SEED-1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := e.importFile(context.Background(), "generic", seed, nil); err != nil {
			t.Fatal(err)
		}
		in := e.generate("gen.csv", 30, 2)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		rt := &cancelAfterReads{next: http.DefaultTransport, reads: 2, cancel: cancel}
		c, err := api.NewClient(e.url+"/api2", "tok", api.WithRate(1000, 100), api.WithHTTPClient(&http.Client{Transport: rt}))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := e.importFile(ctx, "generic", in, func(o *importer.Options) { o.Client, o.BatchSize = c, 10 })
		if !errors.Is(err, engine.ErrInterrupted) {
			t.Fatalf("err = %v, want an interruption", err)
		}
		if rep.Rows[engine.Created] != 0 || rep.Products[engine.Created] != 0 || rep.Variants[engine.Created] != 0 {
			t.Errorf("report claims rows %v, products %v, variants %v created; nothing was sent", rep.Rows, rep.Products, rep.Variants)
		}
		if n := rep.Rows[engine.Skipped]; n != 60 {
			t.Errorf("%d rows skipped, want all 60 (not sent)", n)
		}
		for _, l := range readResults(t, rep.Results) {
			if l[4] != "skipped" || l[7] == "" {
				t.Fatalf("results line %q: want skipped, saying it was not sent", l)
			}
		}
		if got := len(e.read().Variants); got != 1 {
			t.Errorf("%d variants in the account, want the other product's alone", got)
		}
		rep, err = e.importFile(context.Background(), "generic", in, nil)
		if err != nil {
			t.Fatalf("the run again: %v", err)
		}
		if rep.Variants[engine.Created] != 60 {
			t.Errorf("the run again: variants %v; want all 60 created", rep.Variants)
		}
	}
}
