package importer

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"lading/mapping"
	"lading/source"
	"lading/source/sourcetest"
	"lading/templates"
)

// The import pipeline up to the plan (read, map, validate, group) against
// the bare reads of package source/sourcetest, on the same generated files:
//
//	LADING_BENCH_ROWS=1000000 go test -run '^$' -bench 'BareCSV|PipelineCSV' -benchtime 3x ./importer
//	go test -run '^$' -bench 'BareXLSX|PipelineXLSX' -benchtime 3x ./importer
//
// Besides rows/s they report peak-RSS-MB, the process's resident high-water
// mark (VmHWM of /proc/self/status) over the benchmark, reset at its start
// through /proc/self/clear_refs; and for the pipeline retained-MB, the heap
// the grouped result holds once read.

// resetPeakRSS frees what earlier benchmarks left and resets VmHWM to the
// current RSS. It reports whether the reset worked.
func resetPeakRSS() bool {
	runtime.GC()
	debug.FreeOSMemory()
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakRSS is VmHWM in bytes, 0 when unknown.
func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

func reportPeakRSS(b *testing.B, reset bool) {
	if p := peakRSS(); p > 0 && reset {
		b.ReportMetric(float64(p)/(1<<20), "peak-RSS-MB")
	}
}

// templateMapping is the mapping of the template name.
func templateMapping(tb testing.TB, name string) *mapping.Mapping {
	text, err := templates.Get(name)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := mapping.Parse(name+".yaml", text)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// benchPipeline reads the generated file of format through the generic
// mapping into products, b.N times, and checks every row and product.
func benchPipeline(b *testing.B, format string) {
	rows := sourcetest.BenchRows(b)
	p := sourcetest.BenchFile(b, format, rows)
	m := templateMapping(b, "generic")
	products := rows / sourcetest.BenchVariantsPer
	reset := resetPeakRSS()
	b.ResetTimer()
	n, passes := 0, 0
	var retained uint64
	for b.Loop() {
		in, err := Read(context.Background(), m, p, source.Limits{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(in.Products) != products || len(in.Errors) != 0 || len(in.Skipped) != 0 {
			b.Fatalf("%d products, %d errors, %d skipped; want %d products", len(in.Products), len(in.Errors), len(in.Skipped), products)
		}
		for _, pr := range in.Products {
			if !pr.Valid() || len(pr.Variants) != sourcetest.BenchVariantsPer {
				b.Fatalf("product %s: valid %v, %d variants", pr.Key, pr.Valid(), len(pr.Variants))
			}
		}
		n += in.Rows
		passes++
		if passes == 1 {
			b.StopTimer()
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			retained = ms.HeapAlloc
			runtime.KeepAlive(in)
			b.StartTimer()
		}
	}
	sourcetest.ReportRows(b, products*sourcetest.BenchVariantsPer, n, passes)
	reportPeakRSS(b, reset)
	b.ReportMetric(float64(retained)/(1<<20), "retained-MB")
}

func BenchmarkPipelineCSV(b *testing.B)  { benchPipeline(b, source.FormatCSV) }
func BenchmarkPipelineXLSX(b *testing.B) { benchPipeline(b, source.FormatXLSX) }

// The bare reads of package source/sourcetest with their peak RSS, for the side
// by side figures.
func BenchmarkPeakBareCSV(b *testing.B) {
	sourcetest.BenchFile(b, source.FormatCSV, sourcetest.BenchRows(b))
	reset := resetPeakRSS()
	sourcetest.BenchBareCSV(b)
	reportPeakRSS(b, reset)
}

func BenchmarkPeakBareXLSX(b *testing.B) {
	sourcetest.BenchFile(b, source.FormatXLSX, sourcetest.BenchRows(b))
	reset := resetPeakRSS()
	sourcetest.BenchBareXLSX(b)
	reportPeakRSS(b, reset)
}
