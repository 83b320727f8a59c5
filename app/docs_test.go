package app

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"lading/images/imagestest"
	"lading/sandbox"
	"lading/source/sourcetest"
	"lading/templates"
)

// The commands of the README and of docs/ (the generated reference
// among them) run as written against a sandbox in this process: the
// lading lines of ```sh blocks, and of ```cron lines after `cd ... &&`.
// The commands of a page run one after the other in a folder of their
// own holding the files they name, as a reader following that page
// would; absolute paths are under that folder.
//
// A command passes when it exits 0, or 3 (some rows failed on the data
// of the samples, which the results file names). A usage error (2), a
// failure (1), a lock (4) or an interruption (130) fails the test with
// the page and line of the command.
func TestDocCommands(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	pages := docPages(t)
	var cmds []docCommand
	files := map[string]docFile{}
	for _, page := range pages {
		text, err := os.ReadFile(filepath.Join("..", page))
		if err != nil {
			t.Fatal(err)
		}
		c, f, err := readDocCommands(page, string(text))
		if err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c...)
		for name, file := range f {
			if old, ok := files[name]; ok && old.text != file.text {
				t.Fatalf("%s and %s give different files named %s", old.where, file.where, name)
			}
			files[name] = file
		}
	}
	if n := countCron(cmds); n < 5 || len(cmds) < 60 {
		t.Fatalf("found %d commands, %d of them cron lines, in %d pages: want the examples of every page and the cron lines of the stock push and the 3PL's loop", len(cmds), n, len(pages))
	}

	fx := newDocFixture(t, t.TempDir(), files)
	t.Setenv("LADING_BASE_URL", fx.base)
	t.Setenv("LADING_TOKEN", cliToken)
	ran, page := 0, ""
	for _, c := range cmds {
		if c.page != page {
			page = c.page
			t.Chdir(fx.copy(t))
		}
		if why := notRun(c.args); why != "" {
			t.Logf("%s: not run (%s): %s", c.where, why, c.line)
			continue
		}
		args := fx.args(c.args)
		out, errOut, err := runDocCommand(t, args)
		var partial *PartialError
		switch {
		case err == nil:
		case errors.As(err, &partial):
			t.Logf("%s: %s: %v (exit 3)", c.where, c.line, err)
		default:
			t.Errorf("%s: %s\n%v\n%s%s", c.where, c.line, said(err), out, errOut)
		}
		ran++
	}
	t.Logf("ran %d of the %d commands of %d pages", ran, len(cmds), len(pages))
}

// docPages are the pages whose commands run, as paths from the
// repository's root.
func docPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md"}
	for _, pattern := range []string{"docs/*.md", "docs/reference/*.md"} {
		found, err := filepath.Glob(filepath.Join("..", pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			pages = append(pages, filepath.ToSlash(strings.TrimPrefix(f, ".."+string(filepath.Separator))))
		}
	}
	return pages
}

// docCommand is a lading command of a page: where it is, as written, and
// its arguments after "lading".
type docCommand struct {
	page, where, line string
	args              []string
	cron              bool
}

// docFile is a file a page gives whole, in a block after a line
// <!-- file: NAME [NAME...] -->: a mapping, a stock file.
type docFile struct {
	where, text string
	names       []string
}

var (
	fence      = regexp.MustCompile("^( *)```([a-z]*)$")
	fileMarker = regexp.MustCompile(`^ *<!-- file: ([^>]+) -->$`)
)

// readDocCommands reads the lading commands of a page, and the files it
// gives.
func readDocCommands(page, text string) ([]docCommand, map[string]docFile, error) {
	var (
		cmds   []docCommand
		files  = map[string]docFile{}
		lines  = strings.Split(text, "\n")
		marker []string
	)
	for i := 0; i < len(lines); i++ {
		m := fence.FindStringSubmatch(lines[i])
		if m == nil {
			if fm := fileMarker.FindStringSubmatch(lines[i]); fm != nil {
				marker = strings.Fields(fm[1])
			} else if strings.TrimSpace(lines[i]) != "" {
				marker = nil
			}
			continue
		}
		indent, lang, start := m[1], m[2], i
		var block []string
		for i++; i < len(lines) && strings.TrimRight(lines[i], " ") != indent+"```"; i++ {
			block = append(block, strings.TrimPrefix(lines[i], indent))
		}
		if i == len(lines) {
			return nil, nil, fmt.Errorf("%s:%d: a code block that never ends", page, start+1)
		}
		if marker != nil {
			f := docFile{where: fmt.Sprintf("%s:%d", page, start+1), text: strings.Join(block, "\n") + "\n", names: marker}
			for _, name := range marker {
				files[name] = f
			}
			marker = nil
		}
		found, err := blockCommands(page, start+2, lang, block)
		if err != nil {
			return nil, nil, err
		}
		cmds = append(cmds, found...)
	}
	return cmds, files, nil
}

// blockCommands are the lading commands of a code block in language lang
// whose first line is line first of page.
func blockCommands(page string, first int, lang string, block []string) ([]docCommand, error) {
	var cmds []docCommand
	for i := 0; i < len(block); i++ {
		line, at := block[i], first+i
		for strings.HasSuffix(line, `\`) && i+1 < len(block) {
			i++
			line = strings.TrimSuffix(line, `\`) + " " + strings.TrimSpace(block[i])
		}
		var cmd string
		switch lang {
		case "sh":
			cmd = strings.TrimPrefix(strings.TrimSpace(line), "$ ")
			if !strings.HasPrefix(cmd, "lading ") && cmd != "lading" {
				continue
			}
		case "cron":
			_, after, ok := strings.Cut(line, "lading ")
			if !ok || strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			cmd = "lading " + after
		default:
			continue
		}
		words, err := shellWords(cmd)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %q: %w", page, at, line, err)
		}
		for _, w := range words {
			if len(w) > 0 && w[0] == "lading" {
				cmds = append(cmds, docCommand{page: page, where: fmt.Sprintf("%s:%d", page, at), line: strings.TrimSpace(line), args: w[1:], cron: lang == "cron"})
			}
		}
	}
	return cmds, nil
}

// dateOf is $(date ...) in a cron line: a fixed day for a date (%F), a
// fixed minute for the rest.
var (
	dateOfDay = regexp.MustCompile(`\$\(date [^)]*%F\)`)
	dateOfAny = regexp.MustCompile(`\$\(date [^)]*\)`)
)

// shellWords splits a command line as a shell does into the words of
// each command of a chain (a && b): quotes, backslashes, $(date ...),
// and the end of the command at a comment, a redirection or a pipe.
func shellWords(line string) ([][]string, error) {
	line = dateOfDay.ReplaceAllString(strings.ReplaceAll(line, `\%`, "%"), "2026-11-23")
	line = dateOfAny.ReplaceAllString(line, "202611240600")
	var (
		cmds         [][]string
		words        []string
		word         strings.Builder
		inWord       bool
		quote        rune
		endOfCommand bool
	)
	flush := func() {
		if inWord {
			words = append(words, word.String())
		}
		word.Reset()
		inWord = false
	}
	rs := []rune(line)
	for i := 0; i < len(rs) && !endOfCommand; i++ {
		r := rs[i]
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == '"' && r == '\\' && i+1 < len(rs) && strings.ContainsRune(`"\$`, rs[i+1]):
			i++
			word.WriteRune(rs[i])
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			word.WriteRune(rs[i])
			inWord = true
		case r == ' ' || r == '\t':
			flush()
		case r == '#' && !inWord, r == '>', r == '<', r == '|' && (i+1 == len(rs) || rs[i+1] != '|'):
			endOfCommand = true
		case r == '&' && i+1 < len(rs) && rs[i+1] == '&':
			i++
			flush()
			cmds, words = append(cmds, words), nil
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a quote (%c) that never ends", quote)
	}
	flush()
	if endOfCommand && inWord {
		words = words[:len(words)-1]
	}
	return append(cmds, words), nil
}

// notRun says why a command is not run here: it serves until stopped,
// or needs what a test cannot have.
func notRun(args []string) string {
	for _, r := range []struct {
		words []string
		why   string
	}{
		{[]string{"auth", "login"}, "it needs the service's authorization page, a browser and a registered client"},
		{[]string{"--account"}, "it works on a merchant's account, with the token lading auth login stored for it"},
		{[]string{"run"}, "it runs the jobs of a jobs file naming the 3PL's folders and token files (e2e/run_test.go runs such files)"},
		{[]string{"jobs", "check"}, "it checks a jobs file naming the 3PL's folders and token files (app and ops check such files)"},
		{[]string{"ui", "--jobs"}, "it lists the jobs of a jobs file naming the 3PL's folders and token files (app's TestUIListsTheJobsOfAJobsFile reads such a file)"},
		{[]string{"accounts", "remove"}, "the account it removes is added on another page"},
		{[]string{"accounts", "default"}, "the account it makes the default is added on another page"},
	} {
		for i := range args {
			if slices.Equal(args[i:min(i+len(r.words), len(args))], r.words) {
				return r.why
			}
		}
	}
	return ""
}

func countCron(cmds []docCommand) int {
	n := 0
	for _, c := range cmds {
		if c.cron {
			n++
		}
	}
	return n
}

// runDocCommand runs lading with args. A command that runs until stopped
// is stopped as Ctrl-C would: one with --every once its first run has
// ended (its summary printed, or "next ... at"), a sandbox or lading ui
// (lading demo --ui) once it listens, on a free port rather than its own.
func runDocCommand(t *testing.T, args []string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var out, errOut bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errOut, Getenv: folderHome(t), ImageTransport: imagestest.Offline(), APIOptions: unpaced}
	sandbox := len(args) > 0 && args[0] == "sandbox"
	page := len(args) > 0 && (args[0] == "ui" || args[0] == "demo" && slices.Contains(args, "--ui"))
	if sandbox || page {
		args = append(slices.Clone(args), "--addr", "127.0.0.1:0")
	}
	switch {
	case page:
		env.Stdout = &stopOnWrite{w: &out, stop: cancel, after: "lading ui: http"}
	case sandbox || slices.Contains(args, "--every"):
		env.Stdout = &stopOnWrite{w: &out, stop: cancel}
		env.Stderr = &stopOnWrite{w: &errOut, stop: cancel, after: "next "}
	}
	err := Run(ctx, env, append([]string{"lading"}, args...))
	if ctx.Err() == context.DeadlineExceeded {
		t.Errorf("lading %s ran for more than a minute", strings.Join(args, " "))
	}
	return out.String(), errOut.String(), err
}

// folderHome is an environment whose user's folders (HOME, and the XDG
// config and data folders, where lading accounts add keeps accounts) are
// in the folder the command runs in: each page's own.
func folderHome(t *testing.T) func(string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, ".config"), "XDG_DATA_HOME": filepath.Join(dir, ".local", "share")}
	return func(k string) string { return vars[k] }
}

// stopOnWrite calls stop once what is written to w holds after (once
// anything is written, for "").
type stopOnWrite struct {
	mu    sync.Mutex
	w     *bytes.Buffer
	stop  func()
	after string
}

func (s *stopOnWrite) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.w.Write(p)
	if strings.Contains(s.w.String(), s.after) {
		s.stop()
	}
	return n, err
}

// docFixture is what the docs' commands find: a sandbox account with the
// sample catalog, open fulfillments and a month of packing slips, and a
// folder holding the files they read.
type docFixture struct {
	base, dir string
	// ids are the example ids of the docs and the sandbox's ids the
	// commands take in their place.
	ids map[string]string
}

// docInputs are the files the docs' commands read, by the name the docs
// give them, and the file of the repository each is a copy of.
var docInputs = map[string]string{
	"products_export.csv":                  "testdata/catalogs/shopify-apparel.csv",
	"products_export_1.csv":                "testdata/catalogs/shopify-apparel.csv",
	"wc-product-export.csv":                "testdata/catalogs/woocommerce-sample-products.csv",
	"wc-product-export-1-5-2024.csv":       "testdata/catalogs/woocommerce-sample-products.csv",
	"products-2024-05-01.csv":              "testdata/catalogs/bigcommerce-machdemo.csv",
	"products-2024-05-01-bulk-edit.csv":    "testdata/catalogs/bigcommerce-bulk-edit-skus.csv",
	"squarespace-products.csv":             "testdata/catalogs/squarespace-vallcan.csv",
	"catalog_product_20240501_101010.csv":  "testdata/catalogs/magento2-sample-data-hoodies.csv",
	"products.csv":                         "testdata/catalogs/prestashop-products_import.csv",
	"combinations.csv":                     "testdata/catalogs/prestashop-combinations_import.csv",
	"inventory_export.csv":                 "testdata/stock/shopify-inventory-export.csv",
	"catalog.csv":                          "samples/catalog.csv",
	"catalog.xlsx":                         "samples/catalog.xlsx",
	"samples/catalog.csv":                  "samples/catalog.csv",
	"images/tee-classic-front.png":         "samples/images/tee-classic-front.png",
	"samples/images/tee-classic-front.png": "samples/images/tee-classic-front.png",
	"images/tee-classic-back.png":          "samples/images/tee-classic-back.png",
	"samples/images/tee-classic-back.png":  "samples/images/tee-classic-back.png",
	"images/mug-enamel.png":                "samples/images/mug-enamel.png",
	"samples/images/mug-enamel.png":        "samples/images/mug-enamel.png",
	"images/cap-canvas.png":                "samples/images/cap-canvas.png",
	"samples/images/cap-canvas.png":        "samples/images/cap-canvas.png",
	"images/tote-canvas.png":               "samples/images/tote-canvas.png",
	"samples/images/tote-canvas.png":       "samples/images/tote-canvas.png",
}

// docFolders are the folders the docs' cron lines and services write in.
var docFolders = []string{"inbox", "outbox", "reports", "srv/exchange", "srv/3pl", "var/lib/lading"}

// The example ids of the docs.
const exampleFulfillment = "100000123"

func newDocFixture(t *testing.T, dir string, given map[string]docFile) *docFixture {
	t.Helper()
	a, _ := withCatalog(t)
	fx := &docFixture{base: a.flags[1], dir: dir}
	for _, d := range docFolders {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{}
	for name, from := range docInputs {
		b, err := os.ReadFile(filepath.Join("..", from))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	for _, f := range given {
		for _, name := range f.names {
			files[strings.TrimPrefix(name, "/")] = f.text
		}
	}
	generic, err := templates.Get("generic")
	if err != nil {
		t.Fatal(err)
	}
	files["my-layout.yaml"] = string(generic)
	levels := "sku,quantity\nTEE-BLA-S,4\nTEE-BLA-M,7\nMUG-350,12\n"
	files["outbox/stock.csv"], files["srv/exchange/stock.csv"] = levels, levels
	// The token files the accounts of the pages are added with.
	files["etc/lading/acme.token"], files["etc/lading/globex.token"] = cliToken+"\n", cliToken+"\n"
	writeOld(t, dir, files)
	priceList(t, filepath.Join(dir, "price-list.xlsx"))
	if _, err := a.srv.Seed(t.Context(), sandbox.SeedSpec{Token: cliToken, Orders: 12, Seed: 1, Month: "2026-10"}); err != nil {
		t.Fatal(err)
	}
	fx.shipAndPack(t, a)
	fx.firstRun(t, a)
	return fx
}

// firstRun pushes the stock file of outbox/ with the folder's state, so
// that the pages that read the history, or undo a run, find run 1: a
// stock push that changed three levels.
func (fx *docFixture) firstRun(t *testing.T, a *account) {
	t.Helper()
	state := filepath.Join(fx.dir, ".lading", "state.db")
	results := filepath.Join(t.TempDir(), "first.results.csv")
	if _, errOut, err := a.lading(t, "--quiet", "stock", "push", "--template", "stock", "--state", state, "--results", results,
		filepath.Join(fx.dir, "outbox", "stock.csv")); err != nil {
		t.Fatalf("the first run: %v\n%s", said(err), errOut)
	}
}

// shipAndPack opens two fulfillments, and writes the files that ship the
// first (a shipments push) and pack the second (a slips push); the
// docs' example fulfillment is the second.
func (fx *docFixture) shipAndPack(t *testing.T, a *account) {
	t.Helper()
	var orders []string
	for i, sku := range []string{"HOOD-GRE-M", "RAIN-NAV-L"} {
		id, err := a.srv.CreateOrder(t.Context(), sandbox.OrderSpec{Token: cliToken, PONum: fmt.Sprintf("PO-DOCS-%d", i+1),
			ShippingAddress: map[string]string{"contact": "Ada Lovelace", "street1": "12 Analytical Way", "city": "London", "zip": "N1 7GU", "country": "GB"},
			Lines:           []sandbox.OrderLine{{SKU: sku, Quantity: 2}}})
		if err != nil {
			t.Fatal(err)
		}
		orders = append(orders, id)
	}
	open := filepath.Join(t.TempDir(), "open.csv")
	if _, errOut, err := a.lading(t, "--quiet", "fulfillments", "pull", "--state", filepath.Join(t.TempDir(), "state.db"), "-o", open); err != nil {
		t.Fatalf("pulling the open fulfillments: %v\n%s", said(err), errOut)
	}
	lines := byHeader(t, open)
	row := func(order string) map[string]string {
		for _, l := range lines {
			if l["order_id"] == order {
				return l
			}
		}
		t.Fatalf("order %s has no open fulfillment:\n%v", order, lines)
		return nil
	}
	ship, pack := row(orders[0]), row(orders[1])
	shipped := [][]string{{"fulfillment_id", "sku", "quantity", "tracking_number", "carrier"},
		{ship["fulfillment_id"], ship["sku"], ship["quantity_left"], "1ZDOCS0001", "UPS"}}
	packed := [][]string{{"slip_key", "order_id", "line_item_id", "quantity", "ship_date", "tracking_number", "carrier"},
		{"WMS-DOCS-1", pack["order_id"], pack["line_item_id"], pack["quantity_left"], "2026-11-21", "1ZDOCS0002", "UPS"}}
	files := map[string]string{}
	for _, name := range []string{"shipped.csv", "outbox/shipped.csv"} {
		files[name] = csvText(t, shipped)
	}
	for _, name := range []string{"packed.csv", "outbox/slips.csv"} {
		files[name] = csvText(t, packed)
	}
	writeOld(t, fx.dir, files)
	sourcetest.WriteBook(t, filepath.Join(fx.dir, "shipped.xlsx"), shipped)
	fx.ids = map[string]string{exampleFulfillment: pack["fulfillment_id"]}
}

// priceList writes a workbook whose second sheet, Products, holds the
// sample catalog under two rows of title, as the mapping init example
// reads it.
func priceList(t *testing.T, path string) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Notes"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.NewSheet("Products"); err != nil {
		t.Fatal(err)
	}
	if err := f.SetCellStr("Products", "A1", "Price list, autumn 2026"); err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, filepath.Join("..", "samples", "catalog.csv"))
	for i, r := range rows {
		if err := f.SetSheetRow("Products", fmt.Sprintf("A%d", i+3), &r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}

// args are a command's arguments as the fixture runs them: absolute
// paths under the folder it runs in, the docs' example ids the
// sandbox's.
func (fx *docFixture) args(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case fx.ids[a] != "":
			out[i] = fx.ids[a]
		case strings.HasPrefix(a, "/"):
			out[i] = filepath.Join(".", a)
		default:
			out[i] = a
		}
	}
	return out
}

// copy is a new folder holding the fixture's files, an hour old (a
// push does not wait for them to settle).
func (fx *docFixture) copy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(fx.dir)); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(path, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func readRows(t *testing.T, path string) [][]string {
	t.Helper()
	rows, err := readCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// byHeader are the rows of a CSV file by their header's names.
func byHeader(t *testing.T, path string) []map[string]string {
	t.Helper()
	rows := readRows(t, path)
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

func csvText(t *testing.T, rows [][]string) string {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The command lines of the docs split as a shell splits them.
func TestShellWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		want [][]string
	}{
		{`lading import --template shopify products.csv`, [][]string{{"lading", "import", "--template", "shopify", "products.csv"}}},
		{`lading export -o x.csv --where "updated_at >= 2026-10-01"   # a comment`, [][]string{{"lading", "export", "-o", "x.csv", "--where", "updated_at >= 2026-10-01"}}},
		{`lading fulfillments status 100000123 "on hold"`, [][]string{{"lading", "fulfillments", "status", "100000123", "on hold"}}},
		{`lading templates show shopify > mine.yaml`, [][]string{{"lading", "templates", "show", "shopify"}}},
		{`lading mapping init c.xlsx && lading import --mapping c.mapping.yaml c.xlsx`, [][]string{{"lading", "mapping", "init", "c.xlsx"}, {"lading", "import", "--mapping", "c.mapping.yaml", "c.xlsx"}}},
		{`lading --quiet stock push s.csv >>/var/log/x.log 2>&1`, [][]string{{"lading", "--quiet", "stock", "push", "s.csv"}}},
		{`lading export -o reports/slips-$(date +\%F).xlsx --where "ship_date >= $(date -d yesterday +\%F)"`, [][]string{{"lading", "export", "-o", "reports/slips-2026-11-23.xlsx", "--where", "ship_date >= 2026-11-23"}}},
		{`lading pull -o inbox/orders-$(date +\%Y\%m\%d\%H\%M).csv`, [][]string{{"lading", "pull", "-o", "inbox/orders-202611240600.csv"}}},
		{`lading x 'a "b"' a\ b`, [][]string{{"lading", "x", `a "b"`, "a b"}}},
	} {
		got, err := shellWords(tc.line)
		if err != nil || !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("shellWords(%q) = %q, %v; want %q", tc.line, got, err, tc.want)
		}
	}
	if _, err := shellWords(`lading x "open`); err == nil {
		t.Error("an unclosed quote: no error")
	}
}

// A page's commands are read from its sh blocks (over continued lines)
// and cron blocks, its files from the blocks marked with their names;
// other blocks and lines are not commands.
func TestReadDocCommands(t *testing.T) {
	t.Parallel()
	page := "Text lading import x.csv\n\n```sh\n$ lading stock push \\\n  --template stock s.csv\ngo build .\n```\n\n" +
		"```text\nlading: an error\n```\n\n<!-- file: wms.yaml /srv/wms.yaml -->\n\n  ```yaml\n  stock:\n    sku: A\n  ```\n\n" +
		"```cron\n# lading in a comment\n*/5 * * * *  cd /srv && lading fulfillments pull --new -o inbox/o.csv --quiet\n```\n"
	cmds, files, err := readDocCommands("p.md", page)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 2 || cmds[0].where != "p.md:4" || strings.Join(cmds[0].args, " ") != "stock push --template stock s.csv" ||
		!cmds[1].cron || strings.Join(cmds[1].args, " ") != "fulfillments pull --new -o inbox/o.csv --quiet" {
		t.Errorf("commands: %+v", cmds)
	}
	if f := files["wms.yaml"]; f.text != "stock:\n  sku: A\n" || files["/srv/wms.yaml"].text != f.text || f.where != "p.md:15" {
		t.Errorf("files: %+v", files)
	}
	if _, _, err := readDocCommands("p.md", "```sh\nlading x\n"); err == nil {
		t.Error("a block that never ends: no error")
	}
}
