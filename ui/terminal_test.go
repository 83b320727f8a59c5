package ui

import (
	"slices"
	"testing"

	"lading/state"
)

// The command the page shows for a terminal works on the page's account
// and state: by the account's name when it was chosen by name, by the
// state file otherwise, quoted for a shell.
func TestTerminalFlags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		cfg  Config
		want []string
	}{
		{"the default state", Config{State: state.DefaultPath}, nil},
		{"another state", Config{State: "my shop/state.db"}, []string{"--state", "'my shop/state.db'"}},
		{"an account by name", Config{State: "/home/u/.local/share/lading/accounts/acme/state.db", Flags: []string{"--account", "acme"}},
			[]string{"--account", "acme"}},
		{"an account and a state given", Config{State: "x y.db", Flags: []string{"--account", "acme", "--state", "x y.db"}},
			[]string{"--account", "acme", "--state", "'x y.db'"}},
	} {
		if got := c.cfg.terminalFlags(); !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
