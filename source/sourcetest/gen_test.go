package sourcetest

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"testing"
)

func TestGenerateCatalogCSV(t *testing.T) {
	var buf bytes.Buffer
	if err := GenerateCatalogCSV(&buf, 10, 4); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(recs[0], GenericColumns) {
		t.Fatalf("header %q", recs[0])
	}
	if len(recs) != 1+40 {
		t.Fatalf("%d records, want 41", len(recs))
	}
	skus := map[string]bool{}
	combos := map[string]bool{}
	for i, r := range recs[1:] {
		if skus[r[5]] {
			t.Errorf("duplicate sku %q", r[5])
		}
		skus[r[5]] = true
		combo := r[0] + "|" + r[12] + "|" + r[14]
		if combos[combo] {
			t.Errorf("duplicate option combination %q", combo)
		}
		combos[combo] = true
		first := i%4 == 0
		if (r[1] != "") != first {
			t.Errorf("row %d: product_name %q given on a product's first row only", i+2, r[1])
		}
		if r[9][0] != '0' || len(r[9]) != 12 {
			t.Errorf("upc %q: want 12 digits with a leading zero", r[9])
		}
	}

	var again bytes.Buffer
	if err := GenerateCatalogCSV(&again, 10, 4); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("output not deterministic")
	}
}

func TestGenerateCatalogSingleVariantHasNoOptions(t *testing.T) {
	var buf bytes.Buffer
	if err := GenerateCatalogCSV(&buf, 2, 1); err != nil {
		t.Fatal(err)
	}
	recs, _ := csv.NewReader(&buf).ReadAll()
	for _, r := range recs[1:] {
		if r[11] != "" || r[12] != "" || r[5] != r[0] {
			t.Errorf("single-variant row %q: want no options and sku = product key", r)
		}
	}
}
