package arena

import (
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
