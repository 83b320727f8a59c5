package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/api/wire"
	"lading/sandbox"
)

// TestCLIExport: an export from the command line writes the file and its
// summary; conditions, columns and templates that do not fit are usage
// errors (exit 2) sent before any request, and write no file.
func TestCLIExport(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{}, wire.APIPrefix)
	dir := t.TempDir()
	common := []string{"--base-url", e.base, "--token", testToken, "--quiet"}
	ctx := context.Background()
	importGood(t, common, dir, filepath.Join(dir, "state.db"))
	out := filepath.Join(dir, "out.csv")
	r := lading(ctx, append(common, "export", "products", "--json", "--bom", "--delimiter", ";", "-o", out)...)
	if r.err != nil {
		t.Fatalf("export: %v\n%s", r.err, r.output())
	}
	var sum struct {
		Records, Rows, Pages int
		Requests             int64
		Files                []string
	}
	if err := json.Unmarshal([]byte(r.stdout.String()), &sum); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout.String())
	}
	if sum.Records != 4 || sum.Rows != 6 || sum.Requests != 1 || len(sum.Files) != 1 || sum.Files[0] != out {
		t.Errorf("summary %+v", sum)
	}
	got, _ := os.ReadFile(out)
	if !bytes.HasPrefix(got, []byte("\xef\xbb\xbfproduct_key;product_name;")) {
		t.Errorf("the file does not start with a BOM and the ; header: %q", got[:min(len(got), 40)])
	}
	before := e.srv.Counters()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"products", "--where", "sku = A"}, `"sku" cannot be filtered on; allowed: id, archived`},
		{[]string{"packing-slips", "--where", "packing_slip_date >= 10/01/2026"}, "YYYY-MM-DD"},
		{[]string{"variants", "--sort", "-color"}, `cannot be sorted by "color"`},
		{[]string{"variants", "--columns", "sku,colour"}, `unknown column "colour"`},
		{[]string{"tags", "--template", "picking"}, "is for fulfillments, not tags"},
		{[]string{"products", "--template", "shopify"}, "is a mapping template"},
		{[]string{"products", "--delimiter", "::"}, "--delimiter"},
	} {
		bad := filepath.Join(dir, "bad.csv")
		r := lading(ctx, append(append(append(common, "export"), tt.args...), "-o", bad)...)
		if exitCodeOf(r.err) != 2 || !strings.Contains(r.output(), tt.want) {
			t.Errorf("%v: exit %d, output %q; want 2 and %q", tt.args, exitCodeOf(r.err), r.output(), tt.want)
		}
		if _, err := os.Stat(bad); err == nil {
			t.Errorf("%v wrote %s", tt.args, bad)
		}
	}
	if after := e.srv.Counters(); total(after.Requests) != total(before.Requests) {
		t.Errorf("the refused exports sent %d requests", total(after.Requests)-total(before.Requests))
	}
}

func total(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}
