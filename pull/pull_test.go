package pull

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"lading/paths"
)

// {time} in an order file's name is the pull's time, and a name an
// earlier pull of the same second took is not taken again.
func TestFreshName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	at := time.Date(2026, 11, 22, 19, 9, 53, 0, time.FixedZone("CET", 3600))
	pattern := filepath.Join(dir, "orders-{time}.csv")
	want := []string{"orders-20261122T180953Z.csv", "orders-20261122T180953Z-2.csv", "orders-20261122T180953Z-3.csv"}
	for _, w := range want {
		got := freshName(pattern, at, nil)
		if got != filepath.Join(dir, w) {
			t.Fatalf("freshName = %s, want %s", got, w)
		}
		if err := os.WriteFile(got, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fixed := filepath.Join(dir, "orders.csv")
	if err := os.WriteFile(fixed, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := freshName(fixed, at, nil); got != fixed {
		t.Errorf("a name without {time}: %s, want %s itself", got, fixed)
	}
}

func TestCheckOutput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern string
		bad     bool
	}{
		{"orders.csv", false},
		{"inbox/orders-{time}.csv", false},
		{"inbox-{time}/orders.csv", true},
		{"reports/{month}/slips.xlsx", true},
	} {
		if err := CheckOutput(tc.pattern); errors.Is(err, paths.ErrFieldInFolder) != tc.bad {
			t.Errorf("%s: %v", tc.pattern, err)
		}
	}
}
