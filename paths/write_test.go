package paths

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestReplace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// setup prepares dir, where the new file is at "new" and the
		// path to replace is "out.csv".
		setup func(t *testing.T, dir string)
		// missingNew removes the new file before Replace.
		missingNew bool
		wantErr    bool
		want       string   // out.csv's content after
		wantFiles  []string // every name in dir after
	}{
		{name: "no file there", want: "new", wantFiles: []string{"out.csv"}},
		{
			name:      "an old file there",
			setup:     func(t *testing.T, dir string) { write(t, dir, "out.csv", "old") },
			want:      "new",
			wantFiles: []string{"out.csv"},
		},
		{
			name: "hidden names taken",
			setup: func(t *testing.T, dir string) {
				write(t, dir, "out.csv", "old")
				write(t, dir, filepath.Base(asideName(filepath.Join(dir, "out.csv"))), "other")
			},
			want:      "new",
			wantFiles: []string{fmt.Sprintf(".out.csv-old-%d-0", os.Getpid()), "out.csv"},
		},
		{
			name:       "the new file gone: the old one stays",
			setup:      func(t *testing.T, dir string) { write(t, dir, "out.csv", "old") },
			missingNew: true,
			wantErr:    true,
			want:       "old",
			wantFiles:  []string{"out.csv"},
		},
		{
			name: "a folder there",
			setup: func(t *testing.T, dir string) {
				if err := os.Mkdir(filepath.Join(dir, "out.csv"), 0o700); err != nil {
					t.Fatal(err)
				}
				write(t, dir, "out.csv/kept", "kept")
			},
			wantErr:   true,
			wantFiles: []string{"new", "out.csv"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			if !tt.missingNew {
				write(t, dir, "new", "new")
			}
			err := Replace(filepath.Join(dir, "new"), filepath.Join(dir, "out.csv"))
			if (err != nil) != tt.wantErr {
				t.Fatalf("Replace: %v, want an error: %t", err, tt.wantErr)
			}
			if tt.want != "" {
				if got, err := os.ReadFile(filepath.Join(dir, "out.csv")); err != nil || string(got) != tt.want {
					t.Errorf("out.csv holds %q (%v), want %q", got, err, tt.want)
				}
			}
			if got := names(t, dir); !slices.Equal(got, tt.wantFiles) {
				t.Errorf("the folder holds %q, want %q", got, tt.wantFiles)
			}
		})
	}
}

// write writes text to name in dir.
func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// names lists the names in dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
