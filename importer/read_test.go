package importer_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/importer"
	"lading/mapping"
	"lading/source"
	"lading/source/sourcetest"
	"lading/templates"
)

func genericMapping(t *testing.T) *mapping.Mapping {
	t.Helper()
	text, err := templates.Get("generic")
	if err != nil {
		t.Fatal(err)
	}
	m, err := mapping.Parse("generic.yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Read hands rows from the reading goroutine to the grouping one in
// chunks: every row must arrive once, in order, with its line, across chunk
// boundaries, unreadable rows included.
func TestReadEveryRowOnce(t *testing.T) {
	t.Parallel()
	const products = 700 // 1400 rows: several chunks
	var b strings.Builder
	b.WriteString(strings.Join(sourcetest.GenericColumns, ",") + "\n")
	badLines := map[int]bool{}
	line := 1
	for i := 1; i <= products; i++ {
		for v := 1; v <= 2; v++ {
			line++
			if i%97 == 0 && v == 2 {
				// A bare quote: the row cannot be read.
				fmt.Fprintf(&b, "P%d,Name %d,,,,P%d-%d,x\"y,,,,,,,,,,,1,\n", i, i, i, v)
				badLines[line] = true
				continue
			}
			fmt.Fprintf(&b, "P%d,Name %d,,,,P%d-%d,,0.%d,,,,Size,S%d,,,,,1,\n", i, i, i, v, v, v)
		}
	}
	p := filepath.Join(t.TempDir(), "c.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var seen []int
	in, err := importer.Read(context.Background(), genericMapping(t), p, source.Limits{}, func(n int) { seen = append(seen, n) })
	if err != nil {
		t.Fatal(err)
	}
	if in.Rows != 2*products || len(in.Products) != products || len(in.Errors) != 0 {
		t.Fatalf("rows %d, products %d, rows of no product %d; want %d, %d, 0", in.Rows, len(in.Products), len(in.Errors), 2*products, products)
	}
	// An unreadable row is still its product's, and holds it back.
	lines := map[int]bool{}
	bad := 0
	for _, pr := range in.Products {
		for _, e := range pr.Errs() {
			if !badLines[e.Row.Line] || !strings.Contains(e.Error(), "bare") || e.SKU != pr.Key+"-2" || e.Column != "description" {
				t.Errorf("product %s: error %v (SKU %q): not its bad line's", pr.Key, e.Error(), e.SKU)
			}
			bad++
		}
		for _, v := range pr.Variants {
			want := fmt.Sprintf("%s-", pr.Key)
			if !strings.HasPrefix(v.SKU(), want) || lines[v.Row().Line] || badLines[v.Row().Line] {
				t.Fatalf("variant %s at line %d of product %s", v.SKU(), v.Row().Line, pr.Key)
			}
			lines[v.Row().Line] = true
		}
	}
	if bad != len(badLines) {
		t.Errorf("%d errors on products, want %d", bad, len(badLines))
	}
	if len(lines)+len(badLines) != 2*products {
		t.Errorf("%d variant lines + %d bad, want %d", len(lines), len(badLines), 2*products)
	}
	if len(seen) == 0 || seen[len(seen)-1] != 2*products {
		t.Errorf("progress told %v, want ending at %d", seen, 2*products)
	}
}

func TestReadCancelled(t *testing.T) {
	t.Parallel()
	e := &env{t: t, dir: t.TempDir()}
	p := e.generate("big.csv", 5000, 4)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := importer.Read(ctx, genericMapping(t), p, source.Limits{}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
