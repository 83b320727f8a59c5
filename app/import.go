package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"

	"lading/api/wire"
	"lading/engine"
	"lading/importer"
	"lading/mapping"
	"lading/source"
	"lading/state"
	"lading/templates"
)

func importCommand() *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "upload a catalog (products, variants, options, tiers, tags, opening stock) from CSV or XLSX",
		ArgsUsage: "FILE [SECOND-FILE]",
		Description: "Reads FILE through a mapping (--template NAME or --mapping FILE), checks every row, compares the\n" +
			"catalog with the account's and writes only what is new or changed. Every row gets a line in the\n" +
			"results file. Running the same command again after a failure or Ctrl-C continues where it stopped\n" +
			"(state in .lading/state.db); running it on an imported file writes nothing.\n\n" +
			"A mapping that reads variants from a second file (a join, like --template prestashop's\n" +
			"combinations) takes that file after FILE: lading import --template prestashop products.csv\n" +
			"combinations.csv. Without it, the file the mapping names (join.file) is read from FILE's folder.\n\n" +
			"Exit codes: 0 every row done, 3 some rows failed (see the results file), 1 fatal error,\n" +
			"2 usage or mapping error, 130 interrupted (run again to continue).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "template", Aliases: []string{"t"}, Usage: "built-in mapping: shopify, woocommerce, generic (see lading templates list)"},
			&cli.StringFlag{Name: "mapping", Aliases: []string{"m"}, Usage: "mapping file (YAML); see lading mapping init"},
			&cli.StringFlag{Name: "mode", Value: "upsert", Usage: "upsert, create-only (never update) or update-only (never create)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "read the account and show what would be written; write nothing"},
			&cli.StringFlag{Name: "plan", Usage: "write the plan (every product's action and field changes) as JSON to this file"},
			&cli.StringFlag{Name: "results", Usage: "results file, .csv or .xlsx (default: FILE.results.csv)"},
			&cli.IntFlag{Name: "batch-size", Value: 50, Usage: "records per write request (at most 100)"},
			&cli.BoolFlag{Name: "strict", Usage: "send nothing if any row is invalid"},
			&cli.BoolFlag{Name: "read-ids", Usage: "read created products back at the end for their variants' ids (results file, later stock pushes); one read per 250 products"},
			&cli.StringFlag{Name: "state", Value: state.DefaultPath, Usage: "local state file (runs, batches, ids)"},
			&cli.BoolFlag{Name: "json", Usage: "print the final summary as JSON on stdout"},
		}, xlsxLimitFlags()...),
		Action: runImport,
	}
}

// loadMapping reads the mapping named by --template or --mapping.
func loadMapping(c *cli.Context) (*mapping.Mapping, []byte, error) {
	tmpl, file := c.String("template"), c.String("mapping")
	switch {
	case tmpl != "" && file != "":
		return nil, nil, Usagef("give --template or --mapping, not both")
	case tmpl != "":
		text, err := templates.Get(tmpl)
		if err != nil {
			return nil, nil, &UsageError{Err: err}
		}
		m, err := mapping.Parse(tmpl+".yaml", text)
		if err != nil {
			return nil, nil, &UsageError{Err: err}
		}
		return m, text, nil
	case file != "":
		text, err := os.ReadFile(file)
		if err != nil {
			return nil, nil, Usagef("--mapping: %v", err)
		}
		m, err := mapping.Parse(file, text)
		if err != nil {
			return nil, nil, &UsageError{Err: err}
		}
		return m, text, nil
	}
	return nil, nil, Usagef("give a mapping: --template NAME (lading templates list) or --mapping FILE (lading mapping init FILE writes one)")
}

func runImport(c *cli.Context) error {
	env := envOf(c)
	args := c.Args().Slice()
	for _, a := range args[min(1, len(args)):] {
		if strings.HasPrefix(a, "-") {
			return Usagef("flag %s comes after the input file: put flags before it, e.g. lading import --template shopify %s FILE", a, a)
		}
	}
	if len(args) == 0 || len(args) > 2 {
		return Usagef("import takes one input file, and a second one for a mapping that joins two: lading import --template shopify products.csv, or lading import --template prestashop products.csv combinations.csv")
	}
	input := args[0]
	if _, err := os.Stat(input); err != nil {
		return Usagef("input file: %v", err)
	}
	m, text, err := loadMapping(c)
	if err != nil {
		return err
	}
	if err := setJoinedFile(c, m, args); err != nil {
		return err
	}
	mode, err := importer.ParseMode(c.String("mode"))
	if err != nil {
		return Usagef("--%v", err)
	}
	if bs := c.Int("batch-size"); bs < 1 || bs > wire.MaxWriteRecords {
		return Usagef("--batch-size %d: want 1 to %d records per request", bs, wire.MaxWriteRecords)
	}
	limits, err := xlsxLimits(c)
	if err != nil {
		return err
	}
	if err := checkImportPaths(c, input, m); err != nil {
		return err
	}
	client, token, err := newClient(c)
	if err != nil {
		return err
	}
	var st *state.DB
	if !c.Bool("dry-run") {
		st, err = state.Open(c.String("state"))
		if err != nil {
			return err
		}
		defer st.Close()
	}
	prog := newProgress(c, client)
	defer prog.Finish()
	rep, err := importer.Import(c.Context, importer.Options{
		Client: client, State: st, Scope: accountScope(c.String("base-url"), token),
		Mapping: m, MappingText: text, Input: input,
		Mode: mode, BatchSize: c.Int("batch-size"), Concurrency: c.Int("concurrency"),
		Strict: c.Bool("strict"), DryRun: c.Bool("dry-run"), ReadIDs: c.Bool("read-ids"), Limits: limits,
		PlanFile: c.String("plan"), ResultsFile: c.String("results"),
		Progress: prog, Logger: logger(c),
	})
	prog.Finish()
	if rep != nil {
		if c.Bool("json") {
			enc := json.NewEncoder(env.Stdout)
			enc.SetIndent("", "  ")
			if jerr := enc.Encode(rep); jerr != nil {
				return jerr
			}
		} else {
			printReport(env.Stdout, rep, c.Float64("rate"))
		}
	}
	var mErr *mapping.Error
	var mList mapping.ErrorList
	switch {
	case errors.Is(err, engine.ErrInterrupted):
		return &InterruptedError{Msg: err.Error()}
	case errors.Is(err, engine.ErrInvalid):
		return &PartialError{Failed: rep.Failed(), Total: total(rep.Rows), What: "rows", Note: "nothing was sent (--strict)", See: rep.Results}
	case errors.As(err, &mErr), errors.As(err, &mList):
		return &UsageError{Err: err}
	case err != nil:
		return err
	case rep.Failed() > 0:
		return &PartialError{Failed: rep.Failed(), Total: total(rep.Rows), What: "rows", See: rep.Results}
	}
	return nil
}

// setJoinedFile points the mapping's join at the second input file when one
// is given, and otherwise checks that the file the mapping names is beside
// the input, saying how to give it when it is not.
func setJoinedFile(c *cli.Context, m *mapping.Mapping, args []string) error {
	how := "--mapping " + c.String("mapping")
	if t := c.String("template"); t != "" {
		how = "--template " + t
	}
	switch {
	case len(args) == 2 && m.Join == nil:
		return Usagef("%s: the mapping reads one file (it has no join section): give one input file, lading import %s %s", args[1], how, args[0])
	case len(args) == 2:
		if _, err := os.Stat(args[1]); err != nil {
			return Usagef("second input file: %v", err)
		}
		abs, err := filepath.Abs(args[1])
		if err != nil {
			return Usagef("second input file: %v", err)
		}
		m.Join.File = abs
	case m.Join != nil:
		jf := importer.JoinedFile(args[0], m.Join.File)
		if _, err := os.Stat(jf); errors.Is(err, fs.ErrNotExist) {
			return Usagef("the mapping reads variants from a second file, and %s is not there: give that file after the input file, lading import %s %s SECOND-FILE", jf, how, args[0])
		}
	}
	return nil
}

// xlsxLimits reads --max-xlsx-part-size and --max-xlsx-cell-size.
func xlsxLimits(c *cli.Context) (source.Limits, error) {
	size := func(flag string, most uint64) (uint64, error) {
		n, err := humanize.ParseBytes(c.String(flag))
		if err != nil || n == 0 || n > most {
			return 0, Usagef("--%s %q: want a size from 1 byte to %s, like 512MiB or 8GiB", flag, c.String(flag), humanize.IBytes(most))
		}
		return n, nil
	}
	part, err := size("max-xlsx-part-size", 1<<50)
	if err != nil {
		return source.Limits{}, err
	}
	cell, err := size("max-xlsx-cell-size", 1<<30)
	if err != nil {
		return source.Limits{}, err
	}
	return source.Limits{MaxPartSize: int64(part), MaxCellSize: int(cell)}, nil
}

func total(cs engine.Counts) int {
	n := 0
	for _, v := range cs {
		n += v
	}
	return n
}

func countsText(cs engine.Counts) string {
	if len(cs) == 0 {
		return "none"
	}
	order := []engine.Status{engine.Created, engine.Updated, engine.Unchanged, engine.Skipped, engine.Failed}
	var parts []string
	for _, a := range order {
		if n := cs[a]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, a))
		}
	}
	var rest []string
	for a, n := range cs {
		if !slices.Contains(order, a) && n > 0 {
			rest = append(rest, fmt.Sprintf("%d %s", n, a))
		}
	}
	slices.Sort(rest)
	return strings.Join(append(parts, rest...), ", ")
}

func printReport(w io.Writer, rep *importer.Report, rate float64) {
	verb := "import"
	if rep.DryRun {
		verb = "dry run (nothing written)"
	}
	if rep.Resumed {
		verb += ", resumed an unfinished run"
	}
	fmt.Fprintf(w, "%s of %s (mode %s)\n", verb, rep.Input, rep.Mode)
	fmt.Fprintf(w, "  products: %s\n", countsText(rep.Products))
	fmt.Fprintf(w, "  variants: %s\n", countsText(rep.Variants))
	fmt.Fprintf(w, "  rows:     %s\n", countsText(rep.Rows))
	if rep.DryRun {
		est := time.Duration(float64(rep.RequestsPlanned) / rate * float64(time.Second)).Round(time.Second)
		fmt.Fprintf(w, "  writes needed: %d requests, about %s at %.4g requests/s\n", rep.RequestsPlanned, est, rate)
	} else {
		fmt.Fprintf(w, "  requests: %d (%d writes, %d reads; %d throttled) in %s\n", rep.Requests, rep.Writes, rep.Reads, rep.Throttled, rep.Elapsed.Round(time.Millisecond))
	}
	if rep.Results != "" {
		fmt.Fprintf(w, "  results:  %s\n", rep.Results)
	}
	if rep.PlanFile != "" {
		fmt.Fprintf(w, "  plan:     %s\n", rep.PlanFile)
	}
}
