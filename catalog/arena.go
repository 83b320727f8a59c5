package catalog

import (
	"strings"
	"unsafe"
)

// arena hands out immutable strings carved from large byte chunks: one
// allocation per 64 KiB instead of one per value, no size-class rounding,
// and few objects for the garbage collector to track. Everything a
// grouper keeps lives until its products are dropped, so nothing is
// freed early.
type arena struct {
	chunk []byte
}

const chunkSize = 64 << 10

// string copies b into the arena and returns it as a string.
func (a *arena) string(b []byte) string {
	return a.clone(unsafe.String(unsafe.SliceData(b), len(b)))
}

// clone copies s into the arena.
func (a *arena) clone(s string) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > chunkSize/4 {
		return strings.Clone(s) // large values get their own allocation
	}
	if cap(a.chunk)-len(a.chunk) < len(s) {
		a.chunk = make([]byte, 0, chunkSize)
	}
	start := len(a.chunk)
	a.chunk = append(a.chunk, s...)
	return unsafe.String(&a.chunk[start], len(s))
}
