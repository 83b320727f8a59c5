package importer

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/xuri/excelize/v2"
)

// Bare reads and source reads side by side: the bare loops are the floor
// the sources (and later the import pipeline) are measured against.
//
//	go test -run '^$' -bench 'Bare|Source' ./importer
//	LADING_BENCH_ROWS=1000000 go test -run '^$' -bench 'CSV' -benchmem ./importer

// benchRows is the number of data rows in the generated files: the
// LADING_BENCH_ROWS environment variable, default 100,000.
func benchRows(b *testing.B) int {
	if v := os.Getenv("LADING_BENCH_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 4 {
			b.Fatalf("LADING_BENCH_ROWS=%q: want a number of rows, 4 or more", v)
		}
		return n
	}
	return 100_000
}

const benchVariantsPer = 4

// benchFiles caches generated files per process, keyed by format and rows.
var benchFiles struct {
	sync.Mutex
	dir   string
	paths map[string]string
}

// benchFile returns the path of a generated catalog ("csv" or "xlsx") with
// rows data rows, writing it on first use.
func benchFile(b *testing.B, format string, rows int) string {
	b.Helper()
	benchFiles.Lock()
	defer benchFiles.Unlock()
	key := format + strconv.Itoa(rows)
	if p, ok := benchFiles.paths[key]; ok {
		return p
	}
	if benchFiles.dir == "" {
		// b.TempDir would vanish with the first benchmark; the files are
		// shared by all benchmarks of the process.
		dir, err := os.MkdirTemp("", "lading-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchFiles.dir, benchFiles.paths = dir, map[string]string{}
	}
	p := filepath.Join(benchFiles.dir, "catalog-"+key+"."+format)
	products := rows / benchVariantsPer
	var err error
	if format == FormatXLSX {
		err = GenerateCatalogXLSX(p, products, benchVariantsPer)
	} else {
		var f *os.File
		if f, err = os.Create(p); err == nil {
			err = GenerateCatalogCSV(f, products, benchVariantsPer)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	}
	if err != nil {
		b.Fatal(err)
	}
	benchFiles.paths[key] = p
	return p
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchFiles.dir != "" {
		os.RemoveAll(benchFiles.dir)
	}
	os.Exit(code)
}

// reportRows reports throughput and checks every pass saw all rows.
func reportRows(b *testing.B, want, got, passes int) {
	b.Helper()
	if got != want*passes {
		b.Fatalf("read %d rows in %d passes, want %d per pass", got, passes, want)
	}
	b.ReportMetric(float64(got)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkBareCSV(b *testing.B) {
	rows := benchRows(b)
	p := benchFile(b, FormatCSV, rows)
	b.ResetTimer()
	n, passes := 0, 0
	for b.Loop() {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		r := csv.NewReader(bufio.NewReaderSize(f, csvBufferSize))
		r.ReuseRecord = true
		r.FieldsPerRecord = -1
		if _, err := r.Read(); err != nil { // header
			b.Fatal(err)
		}
		for {
			_, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		f.Close()
		passes++
	}
	reportRows(b, rows/benchVariantsPer*benchVariantsPer, n, passes)
}

func BenchmarkSourceCSV(b *testing.B) { benchSource(b, FormatCSV) }

// benchSource reads a generated file of format through OpenSource.
func benchSource(b *testing.B, format string) {
	rows := benchRows(b)
	p := benchFile(b, format, rows)
	b.ResetTimer()
	n, passes := 0, 0
	for b.Loop() {
		n += drainSource(b, p)
		passes++
	}
	reportRows(b, rows/benchVariantsPer*benchVariantsPer, n, passes)
}

func BenchmarkBareXLSX(b *testing.B) {
	rows := benchRows(b)
	p := benchFile(b, FormatXLSX, rows)
	b.ResetTimer()
	n, passes := 0, 0
	for b.Loop() {
		f, err := excelize.OpenFile(p, xlsxOptions)
		if err != nil {
			b.Fatal(err)
		}
		it, err := f.Rows(f.GetSheetList()[0])
		if err != nil {
			b.Fatal(err)
		}
		for it.Next() {
			if _, err := it.Columns(xlsxOptions); err != nil {
				b.Fatal(err)
			}
			n++
		}
		it.Close()
		f.Close()
		n-- // header
		passes++
	}
	reportRows(b, rows/benchVariantsPer*benchVariantsPer, n, passes)
}

func BenchmarkSourceXLSX(b *testing.B) { benchSource(b, FormatXLSX) }

// drainSource reads every row of path and returns how many there were.
func drainSource(b *testing.B, path string) int {
	src, err := OpenSource(path, SourceOptions{})
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
