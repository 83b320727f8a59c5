package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestWriteShopify(t *testing.T) {
	tests := []struct {
		name               string
		products, variants int
		wantSKUs           []string
	}{
		{"one variant each", 2, 1, []string{"SH000001", "SH000002"}},
		{"colors and sizes", 1, 3, []string{"SH000001-RED-S", "SH000001-RED-M", "SH000001-RED-L"}},
		{"materials beyond 32", 1, 33, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := writeShopify(&buf, tt.products, tt.variants, 0); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1+tt.products*tt.variants {
				t.Fatalf("%d records, want %d", len(recs), 1+tt.products*tt.variants)
			}
			seen := map[string]bool{}
			for i, r := range recs[1:] {
				if seen[r[13]] {
					t.Errorf("row %d: SKU %s repeats", i+2, r[13])
				}
				seen[r[13]] = true
				if i < len(tt.wantSKUs) && r[13] != tt.wantSKUs[i] {
					t.Errorf("row %d: SKU %s, want %s", i+2, r[13], tt.wantSKUs[i])
				}
				if first := i%tt.variants == 0; (r[1] != "") != first {
					t.Errorf("row %d: title %q on a first row: %v", i+2, r[1], first)
				}
			}
		})
	}
}

func TestRunIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	for _, p := range []string{a, b} {
		if err := run(5, 4, 0, p); err != nil {
			t.Fatal(err)
		}
	}
	x, _ := os.ReadFile(a)
	y, _ := os.ReadFile(b)
	if len(x) == 0 || !bytes.Equal(x, y) {
		t.Fatalf("two runs differ (%d and %d bytes)", len(x), len(y))
	}
	if err := run(0, 4, 0, filepath.Join(dir, "c.csv")); err == nil {
		t.Fatal("no products: no error")
	}
}

// -change N raises the price of every Nth variant by 1 and changes
// nothing else.
func TestChange(t *testing.T) {
	var plain, changed bytes.Buffer
	if err := writeShopify(&plain, 10, 4, 0); err != nil {
		t.Fatal(err)
	}
	if err := writeShopify(&changed, 10, 4, 7); err != nil {
		t.Fatal(err)
	}
	a, err := csv.NewReader(&plain).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	b, err := csv.NewReader(&changed).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatalf("%d and %d records", len(a), len(b))
	}
	var differ []int
	for i := range a {
		for c := range a[i] {
			if a[i][c] == b[i][c] {
				continue
			}
			if c != 19 {
				t.Errorf("row %d: column %s changed from %q to %q", i+1, shopifyColumns[c], a[i][c], b[i][c])
			}
			if b[i][c] != decimal(price((i-1)/4)+1) {
				t.Errorf("row %d: price %q became %q, want it 1 higher", i+1, a[i][c], b[i][c])
			}
			differ = append(differ, i)
		}
	}
	// Variants 6, 13, 20, ... are rows 8, 15, 22, ... (one header row,
	// counting from 1 as the records do from 0).
	if want := []int{7, 14, 21, 28, 35}; !slices.Equal(differ, want) {
		t.Errorf("records %v changed, want %v", differ, want)
	}
}
