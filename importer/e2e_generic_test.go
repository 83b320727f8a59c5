package importer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/engine"
	"lading/sandbox"
)

// TestGenericMinimalFile imports a generic file with only the columns the
// layout cannot do without, and a SKU and opening stock: no column is
// missing, and a second import writes nothing.
func TestGenericMinimalFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	in := filepath.Join(e.dir, "minimal.csv")
	csv := "product_key,product_name,sku,stock\n" +
		"mug,Mug,MUG-1,5\n" +
		"cap,Cap,CAP-1,0\n" +
		"bag,Bag,BAG-1,12\n"
	if err := os.WriteFile(in, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := e.importFile(context.Background(), "generic", in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows[engine.Created] != 3 || rep.Rows[engine.Failed] != 0 || rep.Products[engine.Created] != 3 {
		t.Fatalf("rows %v products %v, want 3 created", rep.Rows, rep.Products)
	}
	live := e.read().bySKU(t)
	want := map[string]liveVariant{
		"MUG-1": {Product: "Mug", SKU: "MUG-1", Stock: "5"},
		"CAP-1": {Product: "Cap", SKU: "CAP-1", Stock: "0"},
		"BAG-1": {Product: "Bag", SKU: "BAG-1", Stock: "12"},
	}
	if len(live) != len(want) {
		t.Errorf("%d variants in the sandbox, want %d: %v", len(live), len(want), live)
	}
	for sku, w := range want {
		if got := live[sku]; got.Product != w.Product || got.Stock != w.Stock || got.Weight != "" && got.Weight != "0" {
			t.Errorf("%s: %v, want %v", sku, got, w)
		}
	}
	again, err := e.importFile(context.Background(), "generic", in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Writes != 0 || again.Rows[engine.Unchanged] != 3 {
		t.Errorf("second import: %d writes, rows %v; want none and 3 unchanged", again.Writes, again.Rows)
	}
}

// TestGenericRequiresKeyAndName: without product_key or product_name the
// mapping cannot bind, and says which column is missing.
func TestGenericRequiresKeyAndName(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ header, missing string }{
		{"product_name,sku", `no column "product_key"`},
		{"product_key,sku", `no column "product_name"`},
	} {
		t.Run(tt.missing, func(t *testing.T) {
			e := newEnv(t, sandbox.Options{})
			in := filepath.Join(e.dir, "in.csv")
			if err := os.WriteFile(in, []byte(tt.header+"\nx,y\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := e.importFile(context.Background(), "generic", in, nil)
			if err == nil || !strings.Contains(err.Error(), tt.missing) {
				t.Errorf("err = %v, want one with %q", err, tt.missing)
			}
		})
	}
}
