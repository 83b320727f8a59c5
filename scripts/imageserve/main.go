// Command imageserve serves generated images for benchmarks
// (scripts/bench-images.sh): every path is an image of -size bytes that
// sniffs as a JPEG, made from the path as it is written, with an ETag.
//
//	go run ./scripts/imageserve -addr 127.0.0.1:8798 -size 204800
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"

	"lading/images/imagestest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8798", "address to listen on")
	size := flag.Int("size", 200<<10, "bytes of each image")
	flag.Parse()
	fmt.Printf("serving %d-byte images on http://%s\n", *size, *addr)
	if err := http.ListenAndServe(*addr, imagestest.Generated(*size, nil)); err != nil {
		fmt.Fprintln(os.Stderr, "imageserve:", err)
		os.Exit(1)
	}
}
