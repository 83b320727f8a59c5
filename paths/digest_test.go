package paths_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"lading/paths"
)

func TestHashFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	os.WriteFile(a, []byte("sku,qty\n"), 0o600)
	os.WriteFile(b, []byte("A1,3\n"), 0o600)
	h := sha256.New()
	if err := paths.HashFiles(h, a, b); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%x", h.Sum(nil)), fmt.Sprintf("%x", sha256.Sum256([]byte("sku,qty\nA1,3\n"))); got != want {
		t.Errorf("hash of the two files %s, want the hash of their content in order %s", got, want)
	}
	if err := paths.HashFiles(sha256.New(), a, filepath.Join(dir, "missing.csv")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want not exist", err)
	}
}
