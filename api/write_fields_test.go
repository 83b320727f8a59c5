package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"lading/api/wire"
)

// TestSetCoversTheWireFieldLists sets every writable field by name and
// checks it is sent under that name.
func TestSetCoversTheWireFieldLists(t *testing.T) {
	t.Parallel()
	var v VariantWrite
	fields := append(append([]string(nil), wire.VariantWriteFields...), wire.VariantQuantity)
	for i, f := range fields {
		if err := v.Set(f, fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := json.Marshal(v)
	var got map[string]string
	json.Unmarshal(b, &got)
	for i, f := range fields {
		if got[f] != fmt.Sprint(i) {
			t.Errorf("variant field %s sent as %q (body %s)", f, got[f], b)
		}
	}
	if len(got) != len(fields) {
		t.Errorf("body has %d fields, want %d: %s", len(got), len(fields), b)
	}

	var p ProductWrite
	for i, f := range wire.ProductWriteFields {
		if err := p.Set(f, fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	b, _ = json.Marshal(p)
	got = nil
	json.Unmarshal(b, &got)
	for i, f := range wire.ProductWriteFields {
		if got[f] != fmt.Sprint(i) {
			t.Errorf("product field %s sent as %q", f, got[f])
		}
	}

	if err := v.Set("colour", "x"); err == nil || !strings.Contains(err.Error(), "location_1") {
		t.Errorf("unknown variant field: %v", err)
	}
	if err := p.Set("sku", "x"); err == nil || !strings.Contains(err.Error(), "description") {
		t.Errorf("unknown product field: %v", err)
	}
}

// WriteField reads each writable field of a decoded variant under the name
// the wire gives it.
func TestWriteFieldReadsTheWireNames(t *testing.T) {
	t.Parallel()
	rec := map[string]string{"id": "1"}
	for i, f := range wire.VariantWriteFields {
		rec[f] = fmt.Sprint("v", i)
	}
	b, _ := json.Marshal(rec)
	var v Variant
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for i, f := range wire.VariantWriteFields {
		if got := v.WriteField(f); got != fmt.Sprint("v", i) {
			t.Errorf("WriteField(%s) = %q, want %q", f, got, fmt.Sprint("v", i))
		}
	}
	if v.WriteField("quantity") != "" {
		t.Error("WriteField of a field that is not writable once created gave a value")
	}
}
