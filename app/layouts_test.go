package app

import (
	"path/filepath"
	"strings"
	"testing"
)

// Column names in any case and spacing, mapping init on the stock,
// shipments and slips layouts, and a file given with the wrong template,
// through the command line against the sandbox (issue 18).
func TestColumnsAndLayoutsThroughTheCommandLine(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	a, st := withCatalog(t)
	dir := t.TempDir()
	writeOld(t, dir, map[string]string{
		"levels.csv":    "SKU,Qty\nTEE-BLA-S,3\n",
		"quantity.csv":  "SKU , QUANTITY\nTEE-BLA-S,4\n",
		"twice.csv":     "SKU,Sku,Qty\nTEE-BLA-S,TEE-BLA-S,3\n",
		"shipped.csv":   "Order Number,SKU,Qty Shipped,Tracking #\n#1001,TEE-BLA-S,1,1Z9\n",
		"packed.csv":    "Slip No,Order ID,Tracking Number\nW-1,5001,1Z9\n",
		"lower.yaml":    "stock:\n  sku: sku\n  quantity: qty\n",
		"shopify.yaml":  "group:\n  key: Handle\nproduct:\n  name: Title\n",
		"catalog-2.csv": "product_key,product_name,sku\np,P,S-9\n",
	})
	in := func(name string) string { return filepath.Join(dir, name) }
	stock := []string{"stock", "push", "--dry-run", "--state", st}

	t.Run("column names in any case and spacing", func(t *testing.T) {
		for _, args := range [][]string{
			append(stock, "--mapping", in("lower.yaml"), in("levels.csv")),
			append(stock, "--template", "stock", in("quantity.csv")),
		} {
			if _, errOut, err := a.lading(t, args...); err != nil {
				t.Errorf("%v: %v\n%s", args, said(err), errOut)
			}
		}
		_, _, err := a.lading(t, append(stock, "--mapping", in("lower.yaml"), in("twice.csv"))...)
		if !isUsage(err) || !strings.Contains(err.Error(), `"SKU" (column 1), "Sku" (column 2)`) {
			t.Errorf("two columns fitting loosely: %q, want a usage error naming both", said(err))
		}
	})

	t.Run("mapping init writes a stock, shipments or slips mapping", func(t *testing.T) {
		for _, tc := range []struct{ file, says, next string }{
			{"levels.csv", "looks like a stock file (its header has SKU and Qty: a SKU and its units on each row", "lading stock push --mapping"},
			{"shipped.csv", "looks like a shipments file (its header has Order Number, SKU, Qty Shipped and Tracking #", "lading shipments push --mapping"},
			{"packed.csv", "looks like a slips file (its header has Slip No and Order ID", "lading slips push --mapping"},
			{"catalog-2.csv", "looks like a generic file", "lading import --mapping"},
		} {
			out, errOut, err := a.lading(t, "mapping", "init", in(tc.file))
			if err != nil || !strings.Contains(out, tc.says) || !strings.Contains(out, "next: "+tc.next) {
				t.Errorf("mapping init %s: %v\n%s%s\nwant %q and %q", tc.file, said(err), out, errOut, tc.says, tc.next)
			}
		}
		written := strings.TrimSuffix(in("levels.csv"), ".csv") + ".mapping.yaml"
		if _, errOut, err := a.lading(t, append(stock, "--mapping", written, in("levels.csv"))...); err != nil {
			t.Errorf("the stock mapping mapping init wrote: %v\n%s", said(err), errOut)
		}
	})

	t.Run("a file in another template's layout", func(t *testing.T) {
		for _, tc := range []struct {
			args       []string
			says, hint string
		}{
			{[]string{"import", "--dry-run", "--template", "shopify", "../samples/catalog.csv"},
				"catalog.csv does not fit --template shopify: this looks like the generic layout (its header has product_key and sku)", "Use --template generic."},
			{[]string{"import", "--dry-run", "--template", "generic", in("levels.csv")},
				"levels.csv does not fit --template generic: this looks like the stock layout", "Use lading stock push --template stock."},
			{append(stock, "--template", "stock", in("levels.csv")),
				"levels.csv does not fit --template stock: its header names the template's columns otherwise (Qty for quantity)", "lading mapping init " + in("levels.csv")},
			{[]string{"import", "--dry-run", "--mapping", in("shopify.yaml"), "../samples/catalog.csv"},
				`no column "Handle"`, "This looks like the generic layout (its header has product_key and sku): --template generic"},
		} {
			_, _, err := a.lading(t, tc.args...)
			switch {
			case !isUsage(err):
				t.Errorf("%v: %v, want a usage error", tc.args, err)
			case !strings.Contains(err.Error(), tc.says) || !strings.HasPrefix(Advice(err), tc.hint):
				t.Errorf("%v:\n%s\nwant %q, then %q", tc.args, said(err), tc.says, tc.hint)
			case tc.args[len(tc.args)-2] != in("shopify.yaml") && strings.Contains(err.Error(), "\n"):
				t.Errorf("%v: %q, want one line", tc.args, err)
			}
		}
	})
}
