package api

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"testing"

	"lading/api/wire"
)

// TestEnvelopeAsTheMapWrote checks that a write's body is, byte for byte,
// what encoding the envelope as a map wrote: members by key, records and
// bulk action as the client's encoder writes them.
func TestEnvelopeAsTheMapWrote(t *testing.T) {
	order := 1
	tests := []struct {
		name     string
		resource string
		records  any
		bulk     any
	}{
		{"products", wire.Products, []ProductWrite{{Name: String("Tee <b> & co"), Links: &ProductLinks{
			Variants: []VariantWrite{{SKU: String("T-S"), Links: &VariantLinks{AttributeOptions: []OptionRef{{Value: "S<", Order: &order, Attribute: "Size"}}}}}}}}, nil},
		{"bulk archive", wire.Products, Refs("11", "12"), map[string]int{wire.BulkArchive: 1}},
		{"bulk tags", wire.Products, Refs("11"), map[string]any{wire.BulkTags: []map[string]any{{"id": ID("3"), wire.BulkAssign: 0}}}},
		{"shipments", wire.Shipments, []ShipmentWrite{{TrackingNumber: "1Z&2"}}, nil},
		{"files", wire.ProductFiles, []map[string]string{{"id": "31", "delete": "1"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]any{wire.KeyAction: wire.ActionWrite, tt.resource: tt.records}
			var bulk []byte
			if tt.bulk != nil {
				env[wire.KeyBulkAction] = tt.bulk
				bulk, _ = marshal(tt.bulk)
			}
			want, err := marshal(env)
			if err != nil {
				t.Fatal(err)
			}
			recs, _ := marshal(tt.records)
			if got := envelope(tt.resource, recs, bulk); !bytes.Equal(got, want) {
				t.Errorf("envelope:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestWriteEncodedSendsTheBytesKept checks that WriteEncoded sends the
// records' JSON that Encode gave, as it is, in the body Write sends.
func TestWriteEncodedSendsTheBytesKept(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) { writeAnswer(w, body) })
	c := newTestClient(t, srv.URL+"/api2")
	ctx := context.Background()
	order := 2
	products := []ProductWrite{{Name: String("Mug <12 oz> & lid"), Links: &ProductLinks{Variants: []VariantWrite{{}}}}, {ID: "7", Notes: String("é\u2028")}}
	variants := []VariantWrite{{SKU: String("M-1"), Links: &VariantLinks{AttributeOptions: []OptionRef{{Value: "a&b", Order: &order, Attribute: "Size"}}}}}
	pe, err := Encode(products)
	if err != nil || pe.Len() != 2 {
		t.Fatal(pe.Len(), err)
	}
	ve, err := Encode(variants)
	if err != nil || ve.Len() != 1 {
		t.Fatal(ve.Len(), err)
	}
	tests := []struct {
		name          string
		write, encode func() (*WriteResult, error)
		kept          []byte
		resource      string
	}{
		{"products", func() (*WriteResult, error) { return c.Products.Write(ctx, products) },
			func() (*WriteResult, error) { return c.Products.WriteEncoded(ctx, pe) }, pe.JSON(), wire.Products},
		{"variants", func() (*WriteResult, error) { return c.Variants.Write(ctx, variants) },
			func() (*WriteResult, error) { return c.Variants.WriteEncoded(ctx, ve) }, ve.JSON(), wire.Variants},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := len(srv.requests())
			if _, err := tt.write(); err != nil {
				t.Fatal(err)
			}
			res, err := tt.encode()
			if err != nil || !res.OK(0) {
				t.Fatal(res, err)
			}
			got := srv.requests()[n:]
			want := `{"` + tt.resource + `":` + string(tt.kept) + `,"action":"write"}`
			if len(got) != 2 || string(got[1].Body) != want || !bytes.Equal(got[0].Body, got[1].Body) {
				t.Errorf("WriteEncoded sent %s, want %s, as Write sent %s", got[1].Body, want, got[0].Body)
			}
		})
	}
}

func TestWriteEncodedRefusesNoRecords(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) { writeAnswer(w, body) })
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	empty, err := Encode([]VariantWrite{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Encoded[VariantWrite]{{}, empty} {
		if _, err := c.Variants.WriteEncoded(ctx, e); !errors.Is(err, ErrInvalid) {
			t.Errorf("WriteEncoded of %d records: %v", e.Len(), err)
		}
	}
	if len(srv.requests()) != 0 {
		t.Errorf("%d requests sent", len(srv.requests()))
	}
}
