package catalog

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"

	"lading/mapping"
	"lading/templates"
)

var benchHeader = []string{"product_key", "product_name", "product_description", "product_notes", "tags", "sku",
	"description", "weight", "cost", "upc", "stock", "option1_name", "option1_value", "option2_name", "option2_value",
	"option3_name", "option3_value", "tier:Retail", "tier:Wholesale"}

// benchRow fills row i of a catalog of products with 4 variants each
// (Color × Size), product cells on every row as exports write them.
func benchRow(i int, row []string) {
	p := i / 4
	v := i % 4
	key := "P" + strconv.Itoa(p)
	row[0] = key
	row[1] = "Product " + key
	row[2] = "A fine product with a description of moderate length."
	row[3] = ""
	row[4] = "summer|cotton"
	row[5] = key + "-" + strconv.Itoa(v)
	row[6] = ""
	row[7] = "0.25"
	row[8] = "4.5"
	row[9] = ""
	row[10] = strconv.Itoa(v * 3)
	row[11], row[12] = "Color", [...]string{"Red", "Blue"}[v/2]
	row[13], row[14] = "Size", [...]string{"S", "M"}[v%2]
	row[15], row[16] = "", ""
	row[17] = "19.99"
	row[18] = "12"
}

func genericProgram(b testing.TB) (*mapping.Mapping, *mapping.Program) {
	text, err := templates.Get("generic")
	if err != nil {
		b.Fatal(err)
	}
	m, err := mapping.Parse("generic.yaml", text)
	if err != nil {
		b.Fatal(err)
	}
	p, err := m.Compile("bench.csv", benchHeader)
	if err != nil {
		b.Fatal(err)
	}
	return m, p
}

// BenchmarkEvalGroup evaluates and groups b.N generated rows (4 variants
// per product) through the generic template, and reports rows/s and the
// heap still in use per row after grouping.
func BenchmarkEvalGroup(b *testing.B) {
	m, p := genericProgram(b)
	rows := make([][]string, 4096)
	for i := range rows {
		rows[i] = make([]string, len(benchHeader))
	}
	g := NewGrouper(m)
	var out mapping.Row
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Fresh strings per row, as a reader gives them.
		row := rows[i%len(rows)]
		benchRow(i, row)
		if err := p.Eval(row, &out); err != nil {
			b.Fatal(err)
		}
		g.Add(RowRef{File: "bench.csv", Line: i + 2}, &out)
	}
	res := g.Finish()
	b.StopTimer()
	if n := countVariants(res.Products); n != b.N {
		b.Fatalf("variants = %d, want %d", n, b.N)
	}
	for _, pr := range res.Products {
		if !pr.Valid() {
			b.Fatalf("%s: %v", pr.Key, &pr.Errs()[0])
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-min(after.HeapAlloc, before.HeapAlloc))/float64(b.N), "live-B/row")
	runtime.KeepAlive(res)
	_ = fmt.Sprint()
}

// BenchmarkEval evaluates generated rows through the generic template
// without grouping.
func BenchmarkEval(b *testing.B) {
	_, p := genericProgram(b)
	rows := make([][]string, 4096)
	for i := range rows {
		rows[i] = make([]string, len(benchHeader))
		benchRow(i, rows[i])
	}
	var out mapping.Row
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := p.Eval(rows[i%len(rows)], &out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkAppendContent writes the content of 10,000 products of 4
// variants, as an incremental import sums every product of its file.
func BenchmarkAppendContent(b *testing.B) {
	m, p := genericProgram(b)
	g := NewGrouper(m)
	row := make([]string, len(benchHeader))
	for i := range 40000 {
		benchRow(i, row)
		var r mapping.Row
		if err := p.Eval(row, &r); err != nil {
			b.Fatal(err)
		}
		g.Add(RowRef{File: "bench.csv", Line: i + 2}, &r)
	}
	res := g.Finish()
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range res.Products {
			buf = p.AppendContent(buf[:0])
		}
	}
	b.ReportMetric(float64(b.N*len(res.Products))/b.Elapsed().Seconds(), "products/s")
}
