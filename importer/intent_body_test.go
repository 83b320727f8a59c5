package importer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"lading/api/wire"
	"lading/importer"
	"lading/sandbox"
	"lading/state"
)

// writeBodies is a sandbox that looks, for every write it is sent, for
// the batch the state keeps open for it (recorded before it was sent, not
// yet settled) with its records as sent: the JSON of the envelope's
// resource member.
type writeBodies struct {
	srv   *sandbox.Server
	state *state.DB
	mu    sync.Mutex
	sent  int
	// unkept are the records of the writes sent that no open batch of
	// the newest run kept as sent.
	unkept [][]byte
}

func (wb *writeBodies) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var env map[string]json.RawMessage
	if json.Unmarshal(body, &env) == nil && string(env[wire.KeyAction]) == `"write"` {
		for k, v := range env {
			if k != wire.KeyAction && k != wire.KeyBulkAction {
				wb.look(r.Context(), v)
			}
		}
	}
	wb.srv.ServeHTTP(w, r)
}

// look looks for recs among the records of the newest run's open batches.
func (wb *writeBodies) look(ctx context.Context, recs []byte) {
	runs, err := wb.state.Runs(ctx, 1)
	kept := false
	if err == nil && len(runs) == 1 {
		open, _ := wb.state.OpenIntents(ctx, runs[0].ID)
		for _, it := range open {
			kept = kept || bytes.Equal(it.Payload, recs)
		}
	}
	wb.mu.Lock()
	defer wb.mu.Unlock()
	wb.sent++
	if !kept {
		wb.unkept = append(wb.unkept, recs)
	}
}

// newBodiesEnv is an env whose sandbox looks for the records written to it
// in the state's open batches.
func newBodiesEnv(t *testing.T) (*env, *writeBodies) {
	t.Helper()
	var wb *writeBodies
	e := newServedEnv(t, sandbox.Options{}, func(srv *sandbox.Server) http.Handler {
		wb = &writeBodies{srv: srv}
		return wb
	})
	wb.state = e.state
	return e, wb
}

// TestIntentKeepsTheRecordsSent checks that the state keeps a batch's
// records as the request sent them, byte for byte, while the batch is open
// (for creates and edits of products and variants, with text that JSON
// encoders escape apart: <, >, &, quotes, U+2028, not ASCII; they are
// encoded once), and lets go of them once it is settled.
func TestIntentKeepsTheRecordsSent(t *testing.T) {
	t.Parallel()
	e, wb := newBodiesEnv(t)
	in := filepath.Join(e.dir, "in.csv")
	head := "product_key,product_name,product_description,sku,option1_name,option1_value,option2_name,option2_value,tier:Retail\n"
	first := head +
		"tee,\"Tee <b> & \"\"co\"\"\",Soft & light > cotton,TEE-S,Size,S<,Colour,Black & White,12.00\n" +
		"tee,,,TEE-M,Size,M>,Colour,Black & White,12.00\n" +
		"mug,Mug — 12 oz\u2028,,MUG-1,,,,,5.50\n"
	second := head +
		"tee,\"Tee <b> & \"\"co\"\"\",Softer & lighter,TEE-S,Size,S<,Colour,Black & White,13.00\n" +
		"tee,,,TEE-M,Size,M>,Colour,Black & White,12.00\n" +
		"tee,,,TEE-L,Size,L&,Colour,Black & White,14.00\n" +
		"mug,Mug — 12 oz\u2028,,MUG-1,,,,,5.50\n"
	kinds := map[string]bool{}
	for i, csv := range []string{first, second} {
		if err := os.WriteFile(in, []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := e.importFile(context.Background(), "generic", in, nil)
		if err != nil {
			t.Fatal(err)
		}
		intents, err := e.state.Intents(context.Background(), rep.RunID)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range intents {
			kinds[it.Kind] = true
			if it.Payload != nil {
				t.Errorf("import %d: intent %d (%s) settled %s keeps its records", i+1, it.Seq, it.Kind, it.Outcome)
			}
		}
	}
	wb.mu.Lock()
	if wb.sent == 0 || len(wb.unkept) > 0 {
		t.Errorf("%d writes sent; the state kept no open batch of %d of them as sent, the first: %s", wb.sent, len(wb.unkept), firstOf(wb.unkept))
	}
	wb.mu.Unlock()
	for _, k := range []string{importer.KindProductCreate, importer.KindProductUpdate, importer.KindVariantCreate, importer.KindVariantUpdate} {
		if !kinds[k] && !kinds[strings.SplitN(k, ".", 2)[0]+".write"] {
			t.Errorf("no intent of kind %s: the test no longer covers it (kinds %v)", k, kinds)
		}
	}
}

// firstOf is the first of bs, nil for none.
func firstOf(bs [][]byte) []byte {
	if len(bs) == 0 {
		return nil
	}
	return bs[0]
}
