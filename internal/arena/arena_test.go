package arena

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// Strings handed out keep their value while the arena fills new chunks,
// and copy their source: changing it changes nothing handed out.
func TestArena(t *testing.T) {
	var a Arena
	src := []byte("abc")
	s := a.String(src)
	src[0] = 'x'
	if s != "abc" {
		t.Fatalf("String = %q after its source changed, want abc", s)
	}
	var kept []string
	for i := range 3 * ChunkSize / 10 {
		kept = append(kept, a.Clone(strings.Repeat(string(rune('a'+i%26)), 10)))
	}
	for i, k := range kept {
		if want := strings.Repeat(string(rune('a'+i%26)), 10); k != want {
			t.Fatalf("value %d = %q, want %q", i, k, want)
		}
	}
	if a.Clone("") != "" {
		t.Error("an empty string is not empty")
	}
	big := strings.Repeat("z", ChunkSize)
	if got := a.Clone(big); got != big {
		t.Error("a value larger than a chunk is not kept whole")
	}
}

// Uint makes numbers as strconv.FormatUint does, across chunks, each
// string left as it was made.
func TestUint(t *testing.T) {
	var a Arena
	xs := []uint64{0, 9, 10, 12345, 100002164, math.MaxUint64}
	for i := range 2 * ChunkSize / 8 {
		xs = append(xs, uint64(i)*2654435761)
	}
	got := make([]string, len(xs))
	for i, x := range xs {
		got[i] = a.Uint(x)
	}
	for i, x := range xs {
		if want := strconv.FormatUint(x, 10); got[i] != want {
			t.Fatalf("Uint(%d) = %q, want %q", x, got[i], want)
		}
	}
}
