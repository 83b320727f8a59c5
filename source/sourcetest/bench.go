package sourcetest

import (
	"bufio"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/xuri/excelize/v2"
)

// The bare reads are the floor the sources, and the import pipeline after
// them, are measured against. A package benchmarking with BenchFile
// removes the generated files at the end with Main:
//
//	func TestMain(m *testing.M) { sourcetest.Main(m) }

// BenchVariantsPer is the number of variants of each product in the files
// of BenchFile.
const BenchVariantsPer = 4

// CSVBufferSize is the read buffer of the bare CSV read: the source
// package's own, so that the floor is the same work minus what the source
// adds.
const CSVBufferSize = 256 << 10

// XLSXOptions open workbooks for the bare XLSX read: excelize's streaming
// read of raw cell values, a reference for the source package's own reader.
var XLSXOptions = excelize.Options{UnzipXMLSizeLimit: 1 << 20, RawCellValue: true}

// BenchRows is the number of data rows of the generated files: the
// LADING_BENCH_ROWS environment variable, default 100,000.
func BenchRows(b testing.TB) int {
	b.Helper()
	if v := os.Getenv("LADING_BENCH_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < BenchVariantsPer {
			b.Fatalf("LADING_BENCH_ROWS=%q: want a number of rows, %d or more", v, BenchVariantsPer)
		}
		return n
	}
	return 100_000
}

// benchFiles caches generated files per process, keyed by format and rows.
var benchFiles struct {
	sync.Mutex
	dir   string
	paths map[string]string
}

// BenchFile returns the path of a generated catalog in the generic layout,
// format "csv", "xlsx" (inline strings, as excelize's StreamWriter writes)
// or "xlsx-shared" (shared strings and styles, as Excel saves), with rows
// data rows rounded down to whole products. It writes the file on first use and reuses it for the rest of
// the process.
func BenchFile(b testing.TB, format string, rows int) string {
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
	p := filepath.Join(benchFiles.dir, "catalog-"+key+"."+strings.TrimSuffix(format, "-shared"))
	products := rows / BenchVariantsPer
	var err error
	switch format {
	case "xlsx":
		err = GenerateCatalogXLSX(p, products, BenchVariantsPer)
	case "xlsx-shared":
		err = GenerateCatalogXLSXShared(p, products, BenchVariantsPer)
	case "csv":
		var f *os.File
		if f, err = os.Create(p); err == nil {
			err = GenerateCatalogCSV(f, products, BenchVariantsPer)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	default:
		b.Fatalf("BenchFile: format %q: want csv, xlsx or xlsx-shared", format)
	}
	if err != nil {
		b.Fatal(err)
	}
	benchFiles.paths[key] = p
	return p
}

// Main runs the tests and benchmarks of m, removes the files BenchFile
// wrote and exits with m's code.
func Main(m *testing.M) {
	code := m.Run()
	if benchFiles.dir != "" {
		os.RemoveAll(benchFiles.dir)
	}
	os.Exit(code)
}

// ReportRows fails b unless every one of passes read want rows (got in
// all), and reports the throughput in rows/s.
func ReportRows(b *testing.B, want, got, passes int) {
	b.Helper()
	if got != want*passes {
		b.Fatalf("read %d rows in %d passes, want %d per pass", got, passes, want)
	}
	b.ReportMetric(float64(got)/b.Elapsed().Seconds(), "rows/s")
}

// BenchBareCSV reads the generated CSV file with encoding/csv alone: no
// decoding, delimiter detection or row checks.
func BenchBareCSV(b *testing.B) { benchBare(b, "csv", bareCSV) }

// benchBare reads the generated file of format with read, which returns
// its rows, and reports rows/s.
func benchBare(b *testing.B, format string, read func(*testing.B, string) int) {
	rows := BenchRows(b)
	p := BenchFile(b, format, rows)
	b.ResetTimer()
	n, passes := 0, 0
	for b.Loop() {
		n += read(b, p)
		passes++
	}
	ReportRows(b, rows/BenchVariantsPer*BenchVariantsPer, n, passes)
}

// bareCSV returns the number of records of path after the header.
func bareCSV(b *testing.B, path string) int {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReaderSize(f, CSVBufferSize))
	r.ReuseRecord = true
	r.FieldsPerRecord = -1
	if _, err := r.Read(); err != nil { // header
		b.Fatal(err)
	}
	n := 0
	for {
		_, err := r.Read()
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
}

// BenchBareXLSX reads the generated XLSX file with excelize's row iterator
// alone: no header handling, dates or row checks.
func BenchBareXLSX(b *testing.B) { benchBare(b, "xlsx", bareXLSX) }

// bareXLSX returns the number of rows of path's first sheet after the
// header.
func bareXLSX(b *testing.B, path string) int {
	f, err := excelize.OpenFile(path, XLSXOptions)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	it, err := f.Rows(f.GetSheetList()[0])
	if err != nil {
		b.Fatal(err)
	}
	defer it.Close()
	n := 0
	for it.Next() {
		if _, err := it.Columns(XLSXOptions); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if err := it.Error(); err != nil {
		b.Fatal(err)
	}
	return n - 1 // header
}
