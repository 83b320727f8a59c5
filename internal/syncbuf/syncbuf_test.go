package syncbuf

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// Writes from many goroutines while another reads all arrive whole.
func TestConcurrentWritesAndReads(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				fmt.Fprintf(&b, "w%d-%d\n", i, j)
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if n := strings.Count(b.String(), "\n"); n != 800 {
		t.Errorf("%d lines, want 800", n)
	}
}
