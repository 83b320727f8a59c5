package sourcetest

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// StockColumns are the columns of the generated stock files: lading's
// stock layout (templates/stock.yaml) without its optional warehouse.
var StockColumns = []string{"sku", "quantity"}

// StockSKU is the SKU of variant i of a generated stock file: SKU-000000,
// SKU-000001, ... (sorted as numbered).
func StockSKU(i int) string { return fmt.Sprintf("SKU-%06d", i) }

// GenerateStockCSV writes a stock file of n rows after the header: row i
// gives StockSKU(i) the level units(i).
func GenerateStockCSV(w io.Writer, n int, units func(i int) int64) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	cw := csv.NewWriter(bw)
	if err := cw.Write(StockColumns); err != nil {
		return err
	}
	row := make([]string, len(StockColumns))
	for i := range n {
		row[0], row[1] = StockSKU(i), strconv.FormatInt(units(i), 10)
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// BenchDir is the directory of the process's generated files, created on
// first use; Main removes it. Benchmarks keep there what outlives one
// benchmark (a seeded sandbox's database, say).
func BenchDir(b testing.TB) string {
	b.Helper()
	benchFiles.Lock()
	defer benchFiles.Unlock()
	if benchFiles.dir == "" {
		dir, err := os.MkdirTemp("", "lading-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchFiles.dir, benchFiles.paths = dir, map[string]string{}
	}
	return benchFiles.dir
}

// BenchStockFile returns the path of the generated stock file name.csv
// (GenerateStockCSV of n rows and units), written on first use into
// BenchDir and reused for the rest of the process: a name stands for one
// content.
func BenchStockFile(b testing.TB, name string, n int, units func(i int) int64) string {
	b.Helper()
	dir := BenchDir(b)
	benchFiles.Lock()
	defer benchFiles.Unlock()
	key := "stock:" + name
	if p, ok := benchFiles.paths[key]; ok {
		return p
	}
	p := filepath.Join(dir, "stock-"+name+".csv")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	err = GenerateStockCSV(f, n, units)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.Fatal(err)
	}
	benchFiles.paths[key] = p
	return p
}

// BenchBareCSVFile is BenchBareCSV on the CSV file at path, which has rows
// data rows: the floor a job reading that file is measured against.
func BenchBareCSVFile(b *testing.B, path string, rows int) {
	n, passes := 0, 0
	for b.Loop() {
		n += bareCSV(b, path)
		passes++
	}
	ReportRows(b, rows, n, passes)
}

// PeakRSS measures the process's resident high-water mark (VmHWM of
// /proc/self/status, Linux only) over a benchmark.
type PeakRSS struct {
	startKB uint64
	ok      bool
}

// StartPeakRSS frees what earlier benchmarks left and resets the
// high-water mark to the current RSS, through /proc/self/clear_refs.
func StartPeakRSS() PeakRSS {
	runtime.GC()
	debug.FreeOSMemory()
	ok := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	return PeakRSS{startKB: procStatusKB("VmRSS"), ok: ok}
}

// Report reports the high-water mark since StartPeakRSS as peak-RSS-MB,
// and as peak-rise-MB how far it rose above the RSS at the start: what the
// benchmark's work added to what the process held (an in-process sandbox,
// say). It reports nothing when the reset did not work.
func (p PeakRSS) Report(b *testing.B) {
	peak := procStatusKB("VmHWM")
	if !p.ok || peak == 0 || p.startKB == 0 {
		return
	}
	b.ReportMetric(float64(peak)/1024, "peak-RSS-MB")
	b.ReportMetric((float64(peak)-float64(p.startKB))/1024, "peak-rise-MB")
}

// procStatusKB is the field of /proc/self/status in kB, 0 when unknown.
func procStatusKB(field string) uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), field+":"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb
		}
	}
	return 0
}

// CPU measures the CPU time the process spends (user and system, from
// getrusage) over a benchmark: on a machine others share, it says what the
// work cost better than the time it took.
type CPU struct{ start time.Duration }

// StartCPU starts measuring.
func StartCPU() CPU { return CPU{start: CPUTime()} }

// Report reports the CPU time since StartCPU, per op, in unit
// ("cpu-s/op", "cpu-ms/page"), scale being the unit's length.
func (c CPU) Report(b *testing.B, ops int, scale time.Duration, unit string) {
	if ops > 0 {
		b.ReportMetric(float64(CPUTime()-c.start)/float64(scale)/float64(ops), unit)
	}
}

// CPUTime is the CPU time the process has used.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
