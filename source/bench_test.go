package source

import (
	"errors"
	"io"
	"testing"

	"lading/source/sourcetest"
)

// Bare reads and source reads side by side: the bare CSV loop
// (sourcetest.BenchBareCSV) is the floor the CSV source, and the import
// pipeline after it, are measured against. The bare XLSX loop
// (sourcetest.BenchBareXLSX) is excelize's streaming read, a reference: the
// XLSX source reads the package itself.
//
//	go test -run '^$' -bench 'Bare|Source' ./source
//	LADING_BENCH_ROWS=1000000 go test -run '^$' -bench 'CSV' -benchmem ./source

func TestMain(m *testing.M) { sourcetest.Main(m) }

// The bare reads must read the way the sources do, or the floor is not one.
func TestBareReadsUseTheSourceSettings(t *testing.T) {
	t.Parallel()
	if sourcetest.CSVBufferSize != csvBufferSize {
		t.Errorf("bare CSV buffer %d, the source's %d", sourcetest.CSVBufferSize, csvBufferSize)
	}
}

func BenchmarkBareCSV(b *testing.B)    { sourcetest.BenchBareCSV(b) }
func BenchmarkSourceCSV(b *testing.B)  { benchSource(b, FormatCSV) }
func BenchmarkBareXLSX(b *testing.B)   { sourcetest.BenchBareXLSX(b) }
func BenchmarkSourceXLSX(b *testing.B) { benchSource(b, FormatXLSX) }

// BenchmarkSourceXLSXShared reads the catalog as Excel saves it: shared
// strings, and styles on the prices (BenchmarkSourceXLSX's file has inline
// strings and no styles).
func BenchmarkSourceXLSXShared(b *testing.B) { benchSource(b, "xlsx-shared") }

// benchSource reads a generated file of format (see sourcetest.BenchFile)
// through Open.
func benchSource(b *testing.B, format string) {
	rows := sourcetest.BenchRows(b)
	p := sourcetest.BenchFile(b, format, rows)
	b.ResetTimer()
	n, passes := 0, 0
	for b.Loop() {
		n += drainSource(b, p)
		passes++
	}
	sourcetest.ReportRows(b, rows/sourcetest.BenchVariantsPer*sourcetest.BenchVariantsPer, n, passes)
}

// drainSource reads every row of path and returns how many there were.
func drainSource(b *testing.B, path string) int {
	src, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	n := 0
	for {
		_, _, err := src.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			if re := (*RowError)(nil); !errors.As(err, &re) {
				b.Fatal(err)
			}
		}
		n++
	}
}
