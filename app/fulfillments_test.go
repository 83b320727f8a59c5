package app

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// --every goes with --new only, and {time} in the name only.
func TestPullFlags(t *testing.T) {
	t.Parallel()
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
