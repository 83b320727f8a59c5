package sandbox

import (
	"strings"
	"testing"

	"lading/api/wire"
)

// Archiving or deleting a product or a variant the account does not have
// (never had, or deleted) is an error on its record, in a bulk archive as
// in a write; the other records go through.
func TestArchiveAndDeleteUnknownRecords(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	ids := e.mustIDs(wire.Products, product("A", "a1", "a2"), product("B", "b1"))
	v, _ := e.variantBySKU("a1")
	variant := v["id"].(string)
	e.mustIDs(wire.Products, map[string]any{"id": ids[1], "delete": 1})

	bulk := e.post(wire.WritePath(wire.Products), map[string]any{"action": "write", "bulk_action": map[string]any{"archive": 1},
		"Products": []any{map[string]any{"id": ids[0]}, map[string]any{"id": "999999"}, map[string]any{"id": ids[1]}}}).expect(t, 200)
	if bulk.recordError(wire.Products, 0) != nil {
		t.Errorf("archiving %s: %v", ids[0], bulk.recordError(wire.Products, 0))
	}
	for i := 1; i <= 2; i++ {
		if err := bulk.recordError(wire.Products, i); err == nil || err["field"] != "id" || !strings.Contains(err["message"].(string), "no Products record") {
			t.Errorf("bulk archive record %d: %v, want an error on its id", i, err)
		}
	}
	for _, tt := range []struct {
		resource string
		rec      map[string]any
	}{
		{wire.Products, map[string]any{"id": "999999", "delete": 1}},
		{wire.Products, map[string]any{"id": ids[1], "delete": 1}},
		{wire.Products, map[string]any{"id": ids[1], "archive": 1}},
		{wire.Variants, map[string]any{"id": "999999", "delete": 1}},
	} {
		r := e.write(tt.resource, tt.rec)
		if err := r.recordError(tt.resource, 0); err == nil || err["field"] != "id" {
			t.Errorf("%s %v: %s, want an error on its id", tt.resource, tt.rec, r.raw)
		}
	}
	e.mustIDs(wire.Variants, map[string]any{"id": variant, "delete": 1})
	if r := e.write(wire.Variants, map[string]any{"id": variant, "delete": 1}); r.recordError(wire.Variants, 0) == nil {
		t.Errorf("deleting variant %s twice: %s, want an error", variant, r.raw)
	}
}
