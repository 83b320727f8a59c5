// Command readrows reads a CSV or XLSX file through lading's source reader
// and prints how many rows it has: the bare read that
// scripts/bench-import.sh sets the whole import command beside.
//
//	go run ./scripts/readrows catalog.csv
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"lading/source"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: readrows FILE")
		os.Exit(2)
	}
	n, err := count(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "readrows: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(n)
}

// count reads every row of path after the header, the unreadable ones
// included, and returns how many there are.
func count(path string) (int, error) {
	src, err := source.Open(path, source.Options{})
	if err != nil {
		return 0, err
	}
	defer src.Close()
	n := 0
	for {
		_, _, err := src.Next()
		if err == io.EOF {
			return n, nil
		}
		var re *source.RowError
		if err != nil && !errors.As(err, &re) {
			return n, err
		}
		n++
	}
}
