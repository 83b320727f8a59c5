// Command gencatalog writes a synthetic Shopify product export for
// benchmarks (scripts/bench-import.sh):
//
//	go run ./scripts/gencatalog -products 250000 -variants 4 -o catalog.csv
//
// With -change N, every Nth variant has a price 1 higher than without it:
// the same catalog with a few changes, for a re-import
// (scripts/bench-reimport.sh).
//
// The output is deterministic: the same flags give the same bytes.
package main

import (
	"bufio"
	"flag"
	"fmt"

	"os"
)

func main() {
	products := flag.Int("products", 250000, "number of products")
	variants := flag.Int("variants", 4, "variants per product (one row each)")
	out := flag.String("o", "", "output file (default: standard output)")
	change := flag.Int("change", 0, "raise the price of every Nth variant by 1 (0: none)")
	flag.Parse()
	if err := run(*products, *variants, *change, *out); err != nil {
		fmt.Fprintf(os.Stderr, "gencatalog: %v\n", err)
		os.Exit(1)
	}
}

func run(products, variants, change int, out string) error {
	if products < 1 || variants < 1 {
		return fmt.Errorf("want at least one product and one variant, got %d and %d", products, variants)
	}
	if change < 0 {
		return fmt.Errorf("-change %d: want 0 (no change) or more", change)
	}
	if out == "" {
		return writeShopify(os.Stdout, products, variants, change)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 256<<10)
	err = writeShopify(bw, products, variants, change)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
