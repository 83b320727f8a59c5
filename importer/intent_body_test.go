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
)

// writeBodies is a sandbox that keeps the records of every write it is
// sent, as sent: the JSON of the envelope's resource member.
type writeBodies struct {
	srv  *sandbox.Server
	mu   sync.Mutex
	sent [][]byte
}

func (wb *writeBodies) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var env map[string]json.RawMessage
	if json.Unmarshal(body, &env) == nil && string(env[wire.KeyAction]) == `"write"` {
		wb.mu.Lock()
		for k, v := range env {
			if k != wire.KeyAction && k != wire.KeyBulkAction {
				wb.sent = append(wb.sent, v)
			}
		}
		wb.mu.Unlock()
	}
	wb.srv.ServeHTTP(w, r)
}

// newBodiesEnv is an env whose sandbox keeps the records written to it.
func newBodiesEnv(t *testing.T) (*env, *writeBodies) {
	t.Helper()
	var wb *writeBodies
	e := newServedEnv(t, sandbox.Options{}, func(srv *sandbox.Server) http.Handler {
		wb = &writeBodies{srv: srv}
		return wb
	})
	return e, wb
}

// TestIntentKeepsTheRecordsSent checks that the state keeps a batch's
// records as the request sent them, byte for byte, for creates and edits
// of products and variants, with text that JSON encoders escape apart
// (<, >, &, quotes, U+2028, not ASCII): they are encoded once.
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
			if !wb.wasSent(it.Payload) {
				t.Errorf("import %d: intent %d (%s) keeps %s, which no request sent", i+1, it.Seq, it.Kind, it.Payload)
			}
		}
	}
	for _, k := range []string{importer.KindProductCreate, importer.KindProductUpdate, importer.KindVariantCreate, importer.KindVariantUpdate} {
		if !kinds[k] && !kinds[strings.SplitN(k, ".", 2)[0]+".write"] {
			t.Errorf("no intent of kind %s: the test no longer covers it (kinds %v)", k, kinds)
		}
	}
}

func (wb *writeBodies) wasSent(recs []byte) bool {
	wb.mu.Lock()
	defer wb.mu.Unlock()
	for _, s := range wb.sent {
		if bytes.Equal(s, recs) {
			return true
		}
	}
	return false
}
