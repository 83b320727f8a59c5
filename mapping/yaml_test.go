package mapping

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Hostile YAML is refused before the YAML parser, whose time and memory
// grow with the square of the nesting: 1 MB of "[" took gigabytes.
func TestYAMLLimits(t *testing.T) {
	var blocks, tiers strings.Builder
	blocks.WriteString("a:\n")
	for i := 1; i <= 200; i++ {
		blocks.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	tiers.WriteString(minimal + "tiers:\n  columns:\n")
	for i := range 2500 {
		fmt.Fprintf(&tiers, "    T%d: {value: \"1\"}\n", i)
	}
	tests := []struct {
		name, yaml string
		line, col  int
		want       string
	}{
		{"nested [", "x: " + strings.Repeat("[", 100_000), 1, 36, "[ and { are nested more than 32 deep here"},
		{"nested {", "x: " + strings.Repeat("{a: ", 50_000), 1, 132, "[ and { are nested more than 32 deep here"},
		{"nested blocks", blocks.String(), 121, 121, "indented more than 120 columns"},
		{"nested lists", "x:\n" + strings.Repeat("- ", 100), 2, 121, `(or more than 60 "- " on a line)`},
		{"too many lines", tiers.String(), 2001, 1, "the mapping is too long: a mapping file may have at most 2000 lines or 256 KiB besides its lookup tables"},
		{"a long line", "x: \"" + strings.Repeat("y", 300<<10) + "\"\n", 1, 1, "at most 2000 lines or 256 KiB"},
		{"too large a file", minimal + "# " + strings.Repeat("x", 64<<20) + "\n", 0, 0, "a mapping file may be at most 64 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("m.yaml", []byte(tt.yaml))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T), want *Error", err, err)
			}
			if e.File != "m.yaml" || e.Line != tt.line || e.Column != tt.col || !strings.Contains(e.Msg, tt.want) {
				t.Errorf("error %q at %d:%d, want %d:%d and %q", err, e.Line, e.Column, tt.line, tt.col, tt.want)
			}
		})
	}
}
