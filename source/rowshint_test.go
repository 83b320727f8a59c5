package source

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RowsHint counts the rows of a file that fits in the first block, and
// estimates those of a larger one from its size, close enough to size a
// slice without growing it; a workbook gives none.
func TestRowsHint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		rows   int
		cell   func(i int) string
		lo, hi int
	}{
		{0, nil, 1, 3},
		{10, func(i int) string { return fmt.Sprint(i) }, 10, 12},
		{100_000, func(i int) string { return fmt.Sprintf("SKU-%06d,%d", i, i%500) }, 100_000, 110_000},
		// Longer rows later than the first block: a guess, never a bound.
		{50_000, func(i int) string { return strings.Repeat("x", 5+i/5000) }, 40_000, 80_000},
	}
	for _, tt := range tests {
		var b strings.Builder
		b.WriteString("sku,quantity\n")
		for i := range tt.rows {
			b.WriteString(tt.cell(i) + "\n")
		}
		path := filepath.Join(dir, fmt.Sprintf("rows%d.csv", tt.rows))
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		src, err := Open(path, Options{AllowShortRows: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := RowsHint(src); got < tt.lo || got > tt.hi {
			t.Errorf("%d rows: RowsHint %d, want %d to %d", tt.rows, got, tt.lo, tt.hi)
		}
		src.Close()
	}
	if got := RowsHint(&xlsxSource{}); got != 0 {
		t.Errorf("a workbook: RowsHint %d, want 0", got)
	}
}
