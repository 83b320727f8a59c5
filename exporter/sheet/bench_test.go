package sheet

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"lading/source/sourcetest"
)

// benchColumns are the columns of the benchmark's rows: a variants export
// (text, numbers, money, whole numbers, a date-time and a date).
var benchColumns = []Column{
	{Header: "sku", Kind: Text},
	{Header: "product_name", Kind: Text},
	{Header: "options", Kind: Text},
	{Header: "description", Kind: Text},
	{Header: "upc", Kind: Text},
	{Header: "weight", Kind: Number},
	{Header: "cost", Kind: Money},
	{Header: "price", Kind: Money, Total: true},
	{Header: "stock", Kind: Integer, Total: true},
	{Header: "warehouse_id", Kind: Integer},
	{Header: "created_at", Kind: DateTime},
	{Header: "updated_on", Kind: Date},
}

// benchPool is the number of distinct rows the benchmark cycles through
// (each with its own SKU): the generator costs next to nothing, and holds
// nothing that grows with the rows.
const benchPool = 1000

var benchRows = func() [][]string {
	colours := []string{"Black", "White", "Olive", "Navy", "Crème"}
	sizes := []string{"S", "M", "L", "XL"}
	pool := make([][]string, benchPool)
	for i := range pool {
		p := i / 4
		pool[i] = []string{
			"",
			"Tee " + strconv.Itoa(p) + " organic cotton",
			colours[p%len(colours)] + " / " + sizes[i%len(sizes)],
			"A soft tee of organic cotton, cut " + strconv.Itoa(p%7) + " ways, washed at 30°",
			"0" + strconv.Itoa(400000000000+i*7919),
			strconv.FormatFloat(0.1+float64(i%40)/100, 'f', -1, 64),
			strconv.FormatFloat(3.5+float64(i%300)/4, 'f', -1, 64),
			strconv.FormatFloat(9.99+float64(i%500), 'f', 2, 64),
			strconv.Itoa(i % 250),
			"100000004",
			time.Date(2016, 2, 8, 22, 57, 11, 0, time.UTC).Add(time.Duration(i) * 7 * time.Hour).Format(time.RFC3339),
			time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%90).Format(time.DateOnly),
		}
	}
	return pool
}()

// benchRow fills row with the cells of row i.
func benchRow(row []string, i int) {
	copy(row, benchRows[i%benchPool])
	row[0] = "SKU-" + strconv.Itoa(100000+i)
}

// BenchmarkWriter writes the same rows of 12 columns (LADING_BENCH_ROWS,
// default 100,000) to XLSX and to CSV, beside a bare excelize
// StreamWriter loop writing the same cells as the XLSX: text as text,
// numbers parsed, money and dates with their formats, and nothing else
// (no widths, frozen header, autofilter or totals row). Each reports
// rows/s and the peak RSS. xlsx-3-sheets writes the rows to each of three
// sheets, interleaved, as a report of slips, lines and shipments does:
// excelize holds up to 16 MiB (and the slack of its buffer) per sheet.
func BenchmarkWriter(b *testing.B) {
	rows := sourcetest.BenchRows(b)
	b.Run("bare-streamwriter", func(b *testing.B) { benchWrite(b, rows, "bare.xlsx", bareStreamWriter) })
	b.Run("xlsx", func(b *testing.B) { benchWrite(b, rows, "export.xlsx", sheetWriter) })
	b.Run("csv", func(b *testing.B) { benchWrite(b, rows, "export.csv", sheetWriter) })
	b.Run("xlsx-3-sheets", func(b *testing.B) { benchWrite(b, 3*rows, "report.xlsx", threeSheets) })
}

// benchWrite times write of rows rows into a file named name and reports
// rows/s, the peak RSS and the file's size.
func benchWrite(b *testing.B, rows int, name string, write func(*testing.B, string, int) int) {
	path := filepath.Join(b.TempDir(), name)
	rss := sourcetest.StartPeakRSS()
	n, passes := 0, 0
	for b.Loop() {
		n += write(b, path, rows)
		passes++
	}
	b.StopTimer()
	sourcetest.ReportRows(b, rows, n, passes)
	rss.Report(b)
	if fi, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(fi.Size())/(1<<20), "file-MB")
	}
}

// sheetWriter writes rows rows with a Writer and returns how many.
func sheetWriter(b *testing.B, path string, rows int) int {
	w, err := Create(path, Options{Title: "benchmark"}, Sheet{Name: "Variants", Columns: benchColumns})
	if err != nil {
		b.Fatal(err)
	}
	row := make([]string, len(benchColumns))
	for i := range rows {
		benchRow(row, i)
		if err := w.Row(0, row...); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return rows
}

// threeSheets writes rows/3 rows to each of three sheets, interleaved,
// and returns how many in all.
func threeSheets(b *testing.B, path string, rows int) int {
	sheets := []Sheet{{Name: "Slips", Columns: benchColumns}, {Name: "Lines", Columns: benchColumns}, {Name: "Shipments", Columns: benchColumns}}
	w, err := Create(path, Options{}, sheets...)
	if err != nil {
		b.Fatal(err)
	}
	row := make([]string, len(benchColumns))
	for i := range rows / len(sheets) {
		benchRow(row, i)
		for s := range sheets {
			if err := w.Row(s, row...); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return rows / len(sheets) * len(sheets)
}

// bareStreamWriter writes the same cells with excelize's StreamWriter
// alone, as its documentation shows, and returns the rows written.
func bareStreamWriter(b *testing.B, path string, rows int) int {
	f := excelize.NewFile()
	defer f.Close()
	bold, err1 := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	money, err2 := f.NewStyle(&excelize.Style{NumFmt: 4})
	integer, err6 := f.NewStyle(&excelize.Style{NumFmt: 1})
	date, dateTime := "yyyy-mm-dd", "yyyy-mm-dd hh:mm:ss"
	dateStyle, err3 := f.NewStyle(&excelize.Style{CustomNumFmt: &date})
	dateTimeStyle, err4 := f.NewStyle(&excelize.Style{CustomNumFmt: &dateTime})
	sw, err5 := f.NewStreamWriter("Sheet1")
	for _, err := range []error{err1, err2, err3, err4, err5, err6} {
		if err != nil {
			b.Fatal(err)
		}
	}
	cells := make([]any, len(benchColumns))
	for i, c := range benchColumns {
		cells[i] = excelize.Cell{StyleID: bold, Value: c.Header}
	}
	if err := sw.SetRow("A1", cells); err != nil {
		b.Fatal(err)
	}
	row := make([]string, len(benchColumns))
	for i := range rows {
		benchRow(row, i)
		for c, v := range row {
			cells[c] = v
		}
		weight, _ := strconv.ParseFloat(row[5], 64)
		cost, _ := strconv.ParseFloat(row[6], 64)
		price, _ := strconv.ParseFloat(row[7], 64)
		stock, _ := strconv.Atoi(row[8])
		warehouse, _ := strconv.Atoi(row[9])
		created, _ := time.Parse(time.RFC3339, row[10])
		updated, _ := time.Parse(time.DateOnly, row[11])
		cells[5] = weight
		cells[8] = excelize.Cell{StyleID: integer, Value: stock}
		cells[9] = excelize.Cell{StyleID: integer, Value: warehouse}
		cells[6] = excelize.Cell{StyleID: money, Value: cost}
		cells[7] = excelize.Cell{StyleID: money, Value: price}
		cells[10] = excelize.Cell{StyleID: dateTimeStyle, Value: created}
		cells[11] = excelize.Cell{StyleID: dateStyle, Value: updated}
		if err := sw.SetRow("A"+strconv.Itoa(i+2), cells); err != nil {
			b.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.SaveAs(path); err != nil {
		b.Fatal(err)
	}
	return rows
}
