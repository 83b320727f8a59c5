package source

import (
	"strings"
	"testing"
)

func TestDetectDelimiter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		sample string
		want   rune
	}{
		{"comma", "a,b,c\n1,2,3\n", ','},
		{"semicolon with decimal commas", "sku;price;qty\nA;1,5;3\nB;2,25;4\n", ';'},
		{"tab with commas in text", "sku\tname\nA\tTee, red\nB\tCap, blue, large\n", '\t'},
		{"pipe", "a|b\n1|2\n", '|'},
		{"commas inside quotes do not count", "a;b\n\"1,2,3\";x\n\"4,5\";y\n", ';'},
		{"quoted line breaks do not end records", "a,b\n\"x;\ny;z\",1\n2,3\n", ','},
		{"semicolons vary, commas consistent", "a,b,c\nx;y,1,2\nz,3,4\n", ','},
		{"single column falls back to comma", "sku\nA\nB\n", ','},
		{"empty sample", "", ','},
		{"UTF-8 BOM ignored", "\uFEFFa;b\n1;2\n", ';'},
		{"CRLF", "a;b\r\n1;2\r\n", ';'},
		{"cut last record ignored", "a;b\n1;2\n3;4;5;6;7,8,9,1,2,3", ';'},
		{"header only, no line break", "a\tb\tc", '\t'},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DetectDelimiter([]byte(tt.sample)); got != tt.want {
				t.Errorf("DetectDelimiter(%q) = %q, want %q", tt.sample, got, tt.want)
			}
		})
	}
}

func TestDetectDelimiterLooksAtFirstLinesOnly(t *testing.T) {
	t.Parallel()
	// Past detectLines records a different shape must not matter.
	sample := strings.Repeat("a;b\n", detectLines) + strings.Repeat("a,b,c,d,e\n", 3*detectLines)
	if got := DetectDelimiter([]byte(sample)); got != ';' {
		t.Errorf("got %q, want ';'", got)
	}
}
