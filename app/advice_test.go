package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/exporter"
	"lading/source"
)

func TestAdvice(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want string // a part of the advice; "" for none
	}{
		{"none", nil, ""},
		{"unknown error", errors.New("disk full"), ""},
		{"token refused", fmt.Errorf("stopped: %w", &api.APIError{StatusCode: 401}), "lading auth login"},
		{"forbidden", &api.APIError{StatusCode: 403}, "--token"},
		{"throttled", fmt.Errorf("reading: %w", &api.RateLimitError{Attempts: 6}), "lower --rate"},
		{"no such path", &api.APIError{StatusCode: 404}, "--base-url"},
		{"server error", &api.APIError{StatusCode: 503}, "is recorded and is not sent twice"},
		{"server error in an export", exportError(context.Background(), fmt.Errorf("reading page 3: %w", &api.APIError{StatusCode: 500})), "an export or pull changes nothing in the account"},
		{"unreachable", fmt.Errorf("api: POST /v2/Variants: %w: connection refused", api.ErrNotApplied), "could not reach"},
		{"bad request", &api.APIError{StatusCode: 400}, ""},
		{"XLSX part", fmt.Errorf("f.xlsx: part xl/styles.xml: (%w)", source.ErrPartLimit), "--max-xlsx-part-size"},
		{"XLSX cell", fmt.Errorf("f.xlsx: row 5: (%w)", source.ErrCellLimit), "--max-xlsx-cell-size"},
		{"a pull's layout given to an export", &exporter.MismatchError{Report: "shipstream", For: exporter.PullLines, Resource: "fulfillments"}, "lading fulfillments pull --template shipstream"},
		{"a report for another export", &exporter.MismatchError{Report: "picking", For: "fulfillments", Resource: "tags"}, "lading export fulfillments --template picking"},
		{"too many attributes", fmt.Errorf("%w: product 7", exporter.ErrTooManyAttributes), "--columns"},
		{"a usage error's hint", &UsageError{Err: errors.New("bad"), Hint: "See lading import --help."}, "See lading import --help."},
		{"header not found", fmt.Errorf("reading: %w", &source.HeaderError{Msg: "f.xlsx: no header row"}), "--sheet NAME and the row holding the column names with --header-row N"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Advice(tt.err)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("Advice(%v) = %q, want one containing %q", tt.err, got, tt.want)
			}
		})
	}
}

// The XLSX limits reach the reader from their flags: a workbook whose
// cells go over --max-xlsx-cell-size fails naming the limit, with advice
// naming the flag; raised, the same workbook imports. Bad sizes are usage
// errors.
func TestXLSXLimitFlags(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const token = "app-test-token-0123456789"
	base := newSandbox(t, token)
	_, in := sampleCopy(t, "catalog.xlsx")
	args := func(flags ...string) []string {
		return append(append([]string{"--base-url", base, "--token", token, "import", "--template", "generic", "--dry-run"}, flags...), in)
	}
	_, _, err := run(t, args("--max-xlsx-cell-size", "16")...)
	if !errors.Is(err, source.ErrCellLimit) || !strings.Contains(Advice(err), "--max-xlsx-cell-size") {
		t.Fatalf("16-byte cells: err %v, advice %q; want the cell limit and the flag", err, Advice(err))
	}
	if _, errOut, err := run(t, args("--max-xlsx-cell-size", "2MiB", "--max-xlsx-part-size", "64MiB")...); err != nil {
		t.Fatalf("raised limits: %v\n%s", err, errOut)
	}
	for _, bad := range []string{"0", "lots", "-5", "2PiB"} {
		var u *UsageError
		if _, _, err := run(t, args("--max-xlsx-part-size", bad)...); !errors.As(err, &u) || !strings.Contains(err.Error(), "--max-xlsx-part-size") {
			t.Errorf("--max-xlsx-part-size %s: %v, want a usage error naming the flag", bad, err)
		}
	}
}

// Every command that reads an input file takes --sheet and --header-row;
// a blank sheet name and a negative row are usage errors.
func TestSheetFlags(t *testing.T) {
	t.Parallel()
	commands := map[string]bool{"import": false, "stock push": false, "shipments push": false, "slips push": false, "mapping init": false}
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			name := strings.TrimSpace(prefix + " " + c.Name)
			if _, ok := commands[name]; ok {
				var flags []string
				for _, f := range c.Flags {
					flags = append(flags, f.Names()...)
				}
				commands[name] = slices.Contains(flags, "sheet") && slices.Contains(flags, "header-row")
			}
			walk(name, c.Subcommands)
		}
	}
	walk("", New(Env{}).Commands)
	for name, ok := range commands {
		if !ok {
			t.Errorf("lading %s does not take --sheet and --header-row", name)
		}
	}

	_, in := sampleCopy(t, "catalog.xlsx")
	for _, flags := range [][]string{{"--sheet", " "}, {"--header-row", "-2"}} {
		var u *UsageError
		args := append(append([]string{"--token", "t", "import", "--template", "generic", "--dry-run"}, flags...), in)
		if _, _, err := run(t, args...); !errors.As(err, &u) || !strings.Contains(err.Error(), flags[0]) {
			t.Errorf("%q: %v, want a usage error naming the flag", flags, err)
		}
	}
}
