package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// {time} in an order file's name is the pull's time, and a name an
// earlier pull of the same second took is not taken again.
func TestFreshName(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 22, 19, 9, 53, 0, time.FixedZone("CET", 3600))
	pattern := filepath.Join(dir, "orders-{time}.csv")
	want := []string{"orders-20261122T180953Z.csv", "orders-20261122T180953Z-2.csv", "orders-20261122T180953Z-3.csv"}
	for _, w := range want {
		got := freshName(pattern, at)
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
	if got := freshName(fixed, at); got != fixed {
		t.Errorf("a name without {time}: %s, want %s itself", got, fixed)
	}
}

// --every goes with --new only, and {time} in the name only.
func TestPullFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--every", "5m", "-o", filepath.Join(dir, "o.csv")}, "--every pulls again and again, so it goes with --new"},
		{[]string{"--new", "--every", "10ms", "-o", filepath.Join(dir, "o.csv")}, "--every 10ms: want an interval of 1s or more"},
		{[]string{"--new", "-o", filepath.Join(dir, "{time}", "o.csv")}, "{time} goes in the file's name, not in its folder"},
	} {
		args := append([]string{"--token", "T", "fulfillments", "pull", "--state", filepath.Join(dir, "st.db")}, tt.args...)
		_, _, err := run(t, args...)
		var u *UsageError
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &u) {
			t.Errorf("%v: %v, want a usage error saying %q", tt.args, err, tt.want)
		}
	}
}
