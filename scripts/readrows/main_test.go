package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCount(t *testing.T) {
	tests := []struct {
		name, text string
		want       int
	}{
		{"header only", "a,b\n", 0},
		{"rows", "a,b\n1,2\n3,4\n", 2},
		{"a quoted newline is one row", "a,b\n\"x\ny\",2\n3,4\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "in.csv")
			if err := os.WriteFile(p, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			n, err := count(p)
			if err != nil || n != tt.want {
				t.Fatalf("count = %d, %v; want %d", n, err, tt.want)
			}
		})
	}
	if _, err := count(filepath.Join(t.TempDir(), "missing.csv")); err == nil {
		t.Fatal("a missing file: no error")
	}
}
