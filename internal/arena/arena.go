// Package arena hands out immutable strings carved from large byte
// chunks: one allocation per 64 KiB instead of one per value, no
// size-class rounding, and few objects for the garbage collector to track.
// What an arena hands out lives as long as any string of its chunk: it
// suits values kept until a job ends (a catalog's rows, the ids of an
// account's variants), not values dropped one by one.
package arena

import (
	"strconv"
	"strings"
	"unsafe"
)

// Arena copies strings into chunks. The zero value is ready to use; it
// is not safe for concurrent use.
type Arena struct {
	chunk []byte
}

// ChunkSize is the size of a chunk.
const ChunkSize = 64 << 10

// String copies b into the arena and returns it as a string.
func (a *Arena) String(b []byte) string {
	return a.Clone(unsafe.String(unsafe.SliceData(b), len(b)))
}

// Clone copies s into the arena.
func (a *Arena) Clone(s string) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > ChunkSize/4 {
		return strings.Clone(s) // large values get their own allocation
	}
	if cap(a.chunk)-len(a.chunk) < len(s) {
		a.chunk = make([]byte, 0, ChunkSize)
	}
	start := len(a.chunk)
	a.chunk = append(a.chunk, s...)
	return unsafe.String(&a.chunk[start], len(s))
}

// Uint is x in decimal, as strconv.FormatUint makes it, in the arena.
func (a *Arena) Uint(x uint64) string {
	const most = 20 // the digits of the largest
	if cap(a.chunk)-len(a.chunk) < most {
		a.chunk = make([]byte, 0, ChunkSize)
	}
	start := len(a.chunk)
	a.chunk = strconv.AppendUint(a.chunk, x, 10)
	return unsafe.String(&a.chunk[start], len(a.chunk)-start)
}
