package catalog

import (
	"strings"
	"testing"
)

func TestPackedEntriesRoundTrip(t *testing.T) {
	t.Parallel()
	type entry struct {
		kind byte
		id   uint32
		val  string
	}
	tests := []struct {
		name    string
		entries []entry
		size    int // packed bytes
	}{
		{"short values of the first names: two bytes each and the value", []entry{{kOption, 0, "Red"}, {kField, 30, "0.2"}, {kStock, 0, ""}}, 2 + 3 + 2 + 3 + 2},
		{"id 31 and beyond carry a varint", []entry{{kTier, idMore, "x"}, {kField, idMore + 127, "y"}, {kField, idMore + 128, "z"}}, 4 + 4 + 5},
		{"a long value has a longer length", []entry{{kSlot, 2, strings.Repeat("v", 200)}}, 3 + 200},
		{"every kind", []entry{{kOption, 1, "a"}, {kSlot, 1, "b"}, {kField, 1, "c"}, {kTier, 1, "d"}, {kStock, 0, "5"}}, 15},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b []byte
			for _, e := range tt.entries {
				b = appendEntry(b, e.kind, e.id, e.val)
			}
			if len(b) != tt.size {
				t.Errorf("packed into %d bytes, want %d", len(b), tt.size)
			}
			d := string(b)
			for i, want := range tt.entries {
				if len(d) == 0 {
					t.Fatalf("entry %d: no data left", i)
				}
				if k := entryKind(d); k != want.kind {
					t.Errorf("entry %d: entryKind %d, want %d", i, k, want.kind)
				}
				var got entry
				got.kind, got.id, got.val, d = nextEntry(d)
				if got != want {
					t.Errorf("entry %d: %+v, want %+v", i, got, want)
				}
			}
			if d != "" {
				t.Errorf("%d bytes left over", len(d))
			}
		})
	}
}
