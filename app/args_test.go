package app

import (
	"slices"
	"strings"
	"testing"
)

// A command's flags may follow its arguments; they are moved before them,
// with their values, and nothing else moves.
func TestFlagsFirst(t *testing.T) {
	t.Parallel()
	a := New(Env{})
	tests := []struct{ in, want string }{
		{"lading import products.csv --template shopify --dry-run", "lading import --template shopify --dry-run products.csv"},
		{"lading --quiet stock push stock.csv --template=stock -q", "lading --quiet stock push --template=stock -q stock.csv"},
		{"lading import --template prestashop products.csv combinations.csv --strict", "lading import --template prestashop --strict products.csv combinations.csv"},
		{"lading runs show 12 --state s.db --json", "lading runs show --state s.db --json 12"},
		{"lading --base-url http://x import a.csv", "lading --base-url http://x import a.csv"},
		{"lading import - --template generic", "lading import --template generic -"},
		{"lading import a.csv -- --odd-name.csv", "lading import a.csv -- --odd-name.csv"},
		{"lading templates show shopify", "lading templates show shopify"},
		{"lading nosuch a --b", "lading nosuch a --b"},
		{"lading", "lading"},
	}
	for _, tt := range tests {
		if got := strings.Join(flagsFirst(a, strings.Fields(tt.in)), " "); got != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// Through the command line: a dry run asked for after the file is one.
func TestFlagsAfterTheFile(t *testing.T) {
	t.Parallel()
	_, _, err := run(t, "import", "../samples/catalog.csv", "--template", "generic", "--batch-size", "0")
	if err == nil || !strings.Contains(err.Error(), "--batch-size 0") {
		t.Errorf("a flag after the file was not read: %v", err)
	}
	if got := flagsFirst(New(Env{}), []string{"lading", "mapping", "init", "f.csv", "--header-row", "2"}); !slices.Equal(got[3:], []string{"--header-row", "2", "f.csv"}) {
		t.Errorf("mapping init: %q", got)
	}
}
