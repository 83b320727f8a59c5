package main

import (
	"errors"
	"io"
	"path/filepath"
	"slices"
	"testing"

	"lading/source"
	"lading/source/sourcetest"
)

func TestRun(t *testing.T) {
	t.Parallel()
	for _, shared := range []bool{false, true} {
		p := filepath.Join(t.TempDir(), "catalog.xlsx")
		if err := run(10, shared, p); err != nil {
			t.Fatalf("shared %v: %v", shared, err)
		}
		src, err := source.Open(p, source.Options{})
		if err != nil {
			t.Fatalf("shared %v: %v", shared, err)
		}
		if h := src.Header(); !slices.Equal(h, sourcetest.GenericColumns) {
			t.Errorf("shared %v: header %q, want %q", shared, h, sourcetest.GenericColumns)
		}
		n := 0
		for ; n <= 100; n++ { // bounded: 8 rows are written
			if _, _, err := src.Next(); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("shared %v, row %d: %v", shared, n+1, err)
			}
		}
		src.Close()
		if n != 8 { // 10 rows round down to 2 products of 4 variants
			t.Errorf("shared %v: %d rows, want 8", shared, n)
		}
	}
	for _, tt := range []struct {
		rows int
		out  string
	}{{100, ""}, {3, filepath.Join(t.TempDir(), "x.xlsx")}} {
		if err := run(tt.rows, false, tt.out); err == nil {
			t.Errorf("run(%d, %q): no error", tt.rows, tt.out)
		}
	}
}
