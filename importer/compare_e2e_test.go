package importer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/api"
	"lading/engine"
	"lading/sandbox"
)

// Values compare by the field's kind: a UPC that lost its leading zero in
// the account is written again, while a price or cost spelled differently
// ("1.50" for "1.5") is left alone.
func TestImportComparesByKind(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	const header = "product_key,product_name,product_description,product_notes,tags,sku,description,weight,cost,upc,stock," +
		"option1_name,option1_value,option2_name,option2_value,option3_name,option3_value,tier:Retail,tier:Wholesale\n"
	write := func(name, row string) string {
		p := filepath.Join(e.dir, name)
		if err := os.WriteFile(p, []byte(header+row+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctx := context.Background()
	first := write("first.csv", "mug,Mug,,,,0042,,,1.5,012345678905,3,,,,,,,19.9,")
	if _, err := e.importFile(ctx, "generic", first, nil); err != nil {
		t.Fatal(err)
	}
	// Someone (or another tool) stored the UPC as a number.
	v := e.variant("0042")
	upc := "12345678905"
	if _, err := e.c.Variants.Write(ctx, []api.VariantWrite{{ID: v.ID, UPC: &upc}}); err != nil {
		t.Fatal(err)
	}

	// The same catalog with its prices spelled otherwise, and a trailing
	// space in the cost: only the UPC is written.
	again := write("again.csv", "mug,Mug,,,,0042,,,1.50 ,012345678905,3,,,,,,,19.90,")
	rep, err := e.importFile(ctx, "generic", again, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Variants[engine.Updated] != 1 || rep.RequestsPlanned != 1 {
		t.Fatalf("variants %v, %d writes planned; want 1 updated in 1 write", rep.Variants, rep.RequestsPlanned)
	}
	res := readResults(t, rep.Results)
	if msg := res[0][7]; !strings.Contains(msg, `upc "12345678905" → "012345678905"`) || strings.Contains(msg, "cost") || strings.Contains(msg, "Retail") {
		t.Errorf("results message %q: want the UPC change only", msg)
	}
	if got := string(e.variant("0042").UPC); got != "012345678905" {
		t.Errorf("UPC in the account = %q, want 012345678905", got)
	}

	// A SKU is an identifier too: "42" is another variant than "0042".
	other := write("other.csv", "cup,Cup,,,,42,,,1.5,012345678906,3,,,,,,,19.9,")
	rep, err = e.importFile(ctx, "generic", other, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Variants[engine.Created] != 1 {
		t.Errorf("variants %v: want SKU 42 created beside 0042", rep.Variants)
	}
}

// variant reads the live variant with that SKU.
func (e *env) variant(sku string) *api.Variant {
	e.t.Helper()
	got, err := e.c.Variants.BySKU(context.Background(), []string{sku})
	if err != nil {
		e.t.Fatal(err)
	}
	v := got[sku]
	if v == nil {
		e.t.Fatalf("no variant with SKU %s in the account", sku)
	}
	return v
}

// A variant's options are compared like its fields: the service cannot
// change an existing variant's options, so a row that changes one, or adds
// an attribute, fails saying what to do, and nothing is sent for it.
func TestImportOptionChangesFail(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	ctx := context.Background()
	in := e.copyTo("../samples/catalog.csv", nil)
	if _, err := e.importFile(ctx, "generic", in, nil); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, from, to, want string
	}{
		{"changed value", ",Color,Black,Size,S,,,", ",Color,Black,Size,XS,,,", `Size "S" in the account, "XS" in the file`},
		{"new attribute", ",Color,Black,Size,S,,,", ",Color,Black,Size,S,Fit,Slim,", `Fit "Slim" is new`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			changed := e.copyTo("../samples/catalog.csv", func(s string) string {
				if !strings.Contains(s, "TEE-BLA-S"+",Black / S,0.22,7.5,084012300074,12"+tt.from) {
					t.Fatalf("the sample's TEE-BLA-S row is not as the test expects")
				}
				return strings.Replace(s, "TEE-BLA-S,Black / S,0.22,7.5,084012300074,12"+tt.from, "TEE-BLA-S,Black / S,0.22,7.5,084012300074,12"+tt.to, 1)
			})
			rep, err := e.importFile(ctx, "generic", changed, nil)
			if err != nil {
				t.Fatal(err)
			}
			if rep.RequestsPlanned != 0 || rep.Rows[engine.Failed] != 1 {
				t.Errorf("%d writes planned, rows %v; want none and the one row failed", rep.RequestsPlanned, rep.Rows)
			}
			for _, l := range readResults(t, rep.Results) {
				if l[3] == "TEE-BLA-S" && (l[4] != "failed" || !strings.Contains(l[7], tt.want) || !strings.Contains(l[7], "new SKU")) {
					t.Errorf("results line %q: want failed, naming %s and what to do", l, tt.want)
				}
			}
		})
	}
}

// A product none of whose variants has a SKU, renamed in the file, is
// found by the id an earlier run remembered for its key, and renamed in
// the account: not made again beside it.
func TestImportFindsProductByRememberedID(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	ctx := context.Background()
	write := func(name, rows string) string {
		p := filepath.Join(e.dir, name)
		if err := os.WriteFile(p, []byte("product_key,product_name,sku,option1_name,option1_value\n"+rows), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, err := e.importFile(ctx, "generic", write("mug.csv", "k,Mug,,Size,S\nm,Plate,P-1,Size,S\n"), nil); err != nil {
		t.Fatal(err)
	}
	rep, err := e.importFile(ctx, "generic", write("cup.csv", "k,Cup,,Size,S\nm,Plate,P-1,Size,S\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := engine.Counts{engine.Updated: 1, engine.Unchanged: 1}
	if !equalCounts(rep.Products, want) {
		t.Errorf("products %v, want %v (the mug renamed)", rep.Products, want)
	}
	if got := e.read().Products; len(got) != 2 || got["Cup"] != 1 || got["Plate"] != 1 {
		t.Errorf("the account's products by name: %v, want a Cup and a Plate", got)
	}
}
