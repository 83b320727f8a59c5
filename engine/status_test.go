package engine

import (
	"maps"
	"testing"
)

// Count counts every line by its status, in runs or not.
func TestCount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		actions []Status
		want    Counts
	}{
		{nil, Counts{}},
		{[]Status{""}, Counts{"": 1}},
		{[]Status{Unchanged, Unchanged, Invalid, Unchanged, "", "", Unchanged}, Counts{Unchanged: 4, Invalid: 1, "": 2}},
		{[]Status{Failed, Skipped, Failed, Skipped}, Counts{Failed: 2, Skipped: 2}},
	}
	for _, tt := range tests {
		lines := make([]stockLine, len(tt.actions))
		for i, a := range tt.actions {
			lines[i].Action = a
		}
		if got := Count(lines); !maps.Equal(got, tt.want) {
			t.Errorf("Count(%q) = %v, want %v", tt.actions, got, tt.want)
		}
	}
}
