// Command genxlsx writes the synthetic catalog workbook of the source
// package's benchmarks (sourcetest.GenerateCatalogXLSX): rows variants in
// the generic layout, 19 columns, for scripts/bench-read.sh.
//
//	go run ./scripts/genxlsx -rows 100000 -o inline.xlsx            # inline strings, as excelize's StreamWriter writes them
//	go run ./scripts/genxlsx -rows 100000 -shared -o shared.xlsx    # shared strings and styled prices, as Excel saves them
//
// The output is deterministic: the same flags give the same workbook.
package main

import (
	"flag"
	"fmt"
	"os"

	"lading/source/sourcetest"
)

func main() {
	rows := flag.Int("rows", 100000, "number of rows after the header (rounded down to whole products)")
	shared := flag.Bool("shared", false, "keep text in the shared-string table, as Excel does")
	out := flag.String("o", "", "the workbook to write")
	flag.Parse()
	if err := run(*rows, *shared, *out); err != nil {
		fmt.Fprintf(os.Stderr, "genxlsx: %v\n", err)
		os.Exit(1)
	}
}

func run(rows int, shared bool, out string) error {
	products := rows / sourcetest.BenchVariantsPer
	switch {
	case out == "":
		return fmt.Errorf("want -o FILE, the workbook to write")
	case products < 1:
		return fmt.Errorf("want at least %d rows (one product), got %d", sourcetest.BenchVariantsPer, rows)
	case shared:
		return sourcetest.GenerateCatalogXLSXShared(out, products, sourcetest.BenchVariantsPer)
	}
	return sourcetest.GenerateCatalogXLSX(out, products, sourcetest.BenchVariantsPer)
}
