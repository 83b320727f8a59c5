package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"

	"lading/engine"
	"lading/importer"
	"lading/mapping"
	"lading/paths"
	"lading/plural"
	"lading/source"
	"lading/state"
	"lading/summary"
	"lading/templates"
)

// importOptions are the options of import.
type importOptions struct {
	globalOptions
	jobOptions
	imageOptions
	Mode        string
	Plan        string
	ReadIDs     bool
	Incremental bool
	// Files are the input file and, for a mapping that joins two, the
	// second one.
	Files []string
}

var importExamples = []example{
	{"see what a Shopify export would change, writing nothing", "lading import --template shopify --dry-run --plan plan.json products_export.csv"},
	{"import it; run the same command again after a failure or Ctrl-C to continue", "lading import --template shopify products_export.csv"},
	{"PrestaShop's products and combinations, two files", "lading import --template prestashop products.csv combinations.csv"},
	{"your own layout: write a mapping, edit it, import through it", "lading mapping init catalog.xlsx && lading import --mapping catalog.mapping.yaml catalog.xlsx"},
	{"archive, delete or skip rows through the file's command column (the generic layout's command)", "lading import --template generic --dry-run commands.csv"},
}

const importExample = "lading import --template shopify products_export.csv"

func importCommand(b *builder) *cli.Command {
	o := &importOptions{}
	flags := jobFlags(&o.jobOptions, jobWords{
		kinds:  []string{templates.KindCatalog},
		dryRun: "read the account and show what would be written; write nothing",
		state:  "runs, batches, ids",
		strict: "any row is invalid",
		batch:  "records", batchSize: 50,
	})
	return b.leaf(&cli.Command{
		Name:      "import",
		Usage:     "upload a catalog (products, variants, options, tiers, tags, opening stock) from CSV or XLSX",
		ArgsUsage: "FILE [SECOND-FILE]",
		Description: "Reads FILE through a mapping (--template NAME or --mapping FILE), checks every row, compares the\n" +
			"catalog with the account's and writes only what is new or changed. Every row gets a line in the\n" +
			"results file. Running the same command again after a failure or Ctrl-C continues where it stopped\n" +
			"(state in .lading/state.db); running it on an imported file writes nothing.\n\n" +
			"A mapping that reads variants from a second file (a join, like --template prestashop's\n" +
			"combinations) takes that file after FILE. Without it, the file the mapping names (join.file) is\n" +
			"read from FILE's folder.\n\n" +
			"The images the mapping names (http and https URLs, paths under --images) are downloaded beside the\n" +
			"writes and uploaded once each as files of their products; an image that cannot be had fails its\n" +
			"own line and the import ends with exit 3. --no-images leaves them out.\n\n" +
			"A mapping's command (a column, like the generic layout's command or Matrixify's Command) says\n" +
			"per row what to do: upsert, create, update, archive, delete or skip; --mode is the default for\n" +
			"rows that say nothing. Every record written is kept in the run's history (lading runs show), and\n" +
			"lading undo takes the import back.\n\n" +
			"With --incremental, an import keeps in the state what it found of each product equal in the file\n" +
			"and the account, and the next --incremental import reads from the account only what changed\n" +
			"there since (by its records' updated_at) and the products whose rows changed. It compares the\n" +
			"whole file instead when tags were renamed or variants deleted in the account since. A change\n" +
			"the account makes without moving a record's updated_at (a variant created and deleted again\n" +
			"within a day of the last import, say) is not seen: an import without --incremental, weekly\n" +
			"say, compares everything.",
		Flags: append(append(flags,
			&cli.StringFlag{Name: "mode", Value: "upsert", Destination: &o.Mode, Usage: "upsert, create-only (never update) or update-only (never create), for rows whose command says none"},
			&cli.StringFlag{Name: "plan", Destination: &o.Plan, Usage: "write the plan (every product's action and field changes) as JSON to this file"},
			&cli.BoolFlag{Name: "read-ids", Destination: &o.ReadIDs, Usage: "read created products back at the end for their variants' ids (results file, later stock pushes); one read per 250 products"},
			&cli.BoolFlag{Name: "incremental", Destination: &o.Incremental, Usage: "compare with what the last --incremental import found, reading from the account only the products changed there since and those the file changed: a few reads where a large catalog takes thousands (see the description)"},
		), imageFlags(&o.imageOptions)...),
		Action: func(c *cli.Context) error {
			o.Files = c.Args().Slice()
			return runImport(c.Context, b.env, o)
		},
	}, &o.globalOptions, doc{examples: importExamples, exits: exitsOfJobs})
}

// runImport imports o.Files.
func runImport(ctx context.Context, env *Env, o *importOptions) error {
	var err error
	if o.State, err = o.stateFile(env, o.State); err != nil {
		return err
	}
	opts, err := o.check()
	if err != nil {
		return err
	}
	if opts.Images, err = o.imageOptions.options(env.ImageTransport); err != nil {
		return err
	}
	opts.NoImages = o.NoImages
	client, token, err := o.client(env)
	if err != nil {
		return err
	}
	var st *state.DB
	if !o.DryRun || o.Incremental && stateExists(o.State) {
		if st, err = state.Open(o.State); err != nil {
			return err
		}
		defer st.Close()
	}
	prog := o.progress(env, client)
	defer prog.Finish()
	opts.Client, opts.State, opts.Scope, opts.Progress, opts.Logger = client, st, o.account(token), prog, o.logger(env)
	rep, err := importer.Import(ctx, opts)
	prog.Finish()
	if rep != nil {
		if perr := o.emit(env, rep, func(w io.Writer) { printReport(w, rep, o.Rate) }); perr != nil {
			return perr
		}
	}
	return importOutcome(rep, o.refit(err))
}

// importOutcome is outcome, and when that is success but some images
// could not be had (their products were written), a partial outcome
// naming them.
func importOutcome(rep *importer.Report, err error) error {
	if err := outcome(reportOf(rep), err); err != nil || rep == nil {
		return err
	}
	if n := rep.Images.Failed(); n > 0 {
		return &PartialError{Failed: n, Total: rep.Images.Total(), Of: "image", Note: "their products were written", See: rep.Results}
	}
	return nil
}

// check checks the arguments and flags of an import before anything is
// read or sent, and gives the importer's options but for the client,
// state and display.
func (o *importOptions) check() (importer.Options, error) {
	if len(o.Files) == 0 || len(o.Files) > 2 {
		return importer.Options{}, usageHint("For example: "+importExample+", or lading import --template prestashop products.csv combinations.csv",
			"import takes one input file, and a second one for a mapping that joins two")
	}
	input := o.Files[0]
	if err := checkInput("input file", input); err != nil {
		return importer.Options{}, err
	}
	m, text, err := o.load()
	if err != nil {
		return importer.Options{}, err
	}
	if err := o.setJoinedFile(m); err != nil {
		return importer.Options{}, err
	}
	mode, err := importer.ParseMode(o.Mode)
	if err != nil {
		return importer.Options{}, Usagef("--%w", err)
	}
	if err := checkBatchSize(o.BatchSize); err != nil {
		return importer.Options{}, err
	}
	limits, err := o.reading(m)
	if err != nil {
		return importer.Options{}, err
	}
	if err := o.checkPaths(m); err != nil {
		return importer.Options{}, err
	}
	return importer.Options{
		Options: engine.Options{Mapping: m, Input: input, Limits: limits, Strict: o.Strict, DryRun: o.DryRun,
			BatchSize: o.BatchSize, Concurrency: o.Concurrency, ResultsFile: o.Results},
		MappingText: text, Mode: mode, ReadIDs: o.ReadIDs, PlanFile: o.Plan, Incremental: o.Incremental,
	}, nil
}

// setJoinedFile points the mapping's join at the second input file when one
// is given, and otherwise checks that the file the mapping names is beside
// the input, saying how to give it when it is not.
func (o *importOptions) setJoinedFile(m *mapping.Mapping) error {
	call := fmt.Sprintf("lading import %s %s", o.how(), o.Files[0])
	return joinFiles(m, o.Files, joinWords{
		second: "second input file",
		one:    "Give one input file: " + call,
		two:    "Give that file after the input file: " + call + " SECOND-FILE",
	})
}

// joinWords are how a command speaks of its second file: what it is,
// and how to call the command with one file and with two.
type joinWords struct{ second, one, two string }

// joinFiles points m's join at files[1] when it is given, and otherwise
// checks that the file the mapping joins is beside files[0].
func joinFiles(m *mapping.Mapping, files []string, w joinWords) error {
	switch {
	case len(files) == 2 && m.Join == nil:
		return usageHint(w.one, "%s: the mapping reads one file (it has no join section)", files[1])
	case len(files) == 2:
		if err := checkInput(w.second, files[1]); err != nil {
			return err
		}
		abs, err := filepath.Abs(files[1])
		if err != nil {
			return Usagef("%s: %w", w.second, err)
		}
		m.Join.File = abs
	case m.Join != nil:
		jf := importer.JoinedFile(files[0], m.Join.File)
		if _, err := os.Stat(jf); errors.Is(err, fs.ErrNotExist) {
			return usageHint(w.two, "the mapping reads variants from a second file, and %s is not there", jf)
		}
	}
	return nil
}

// checkPaths refuses an import whose outputs (results, plan) are one of
// its inputs (the input, the file the mapping joins, the mapping, the
// state) or cannot be written, before anything is read or sent.
func (o *importOptions) checkPaths(m *mapping.Mapping) error {
	input := o.Files[0]
	inputs := []paths.Named{{What: "the input file", Path: input}}
	if m.Join != nil {
		inputs = append(inputs, paths.Named{What: "the file the mapping joins", Path: importer.JoinedFile(input, m.Join.File)})
	}
	if o.Mapping != "" {
		inputs = append(inputs, paths.Named{What: "the --mapping file", Path: o.Mapping})
	}
	stateFile := paths.Named{What: "the state file", Path: o.State}
	inputs = append(inputs, stateFile)
	var outputs []paths.Named
	switch {
	case o.Results != "":
		outputs = append(outputs, paths.Named{What: "--results", Path: o.Results, Sheet: true})
	case !o.DryRun: // a dry run writes the results file only when it is named
		outputs = append(outputs, paths.Named{What: "the results file", Path: engine.DefaultResultsPath(input)})
	}
	if o.Plan != "" {
		outputs = append(outputs, paths.Named{What: "--plan", Path: o.Plan})
	}
	if err := checkOutputs(inputs, outputs); err != nil {
		return err
	}
	if o.DryRun { // a dry run does not open the state
		return nil
	}
	return checkStatePath(paths.Named{What: "--state", Path: stateFile.Path})
}

func printReport(w io.Writer, rep *importer.Report, rate float64) {
	verb := "import"
	if rep.DryRun {
		verb = "dry run (nothing written)"
	}
	if rep.Resumed {
		verb += ", resumed an unfinished run"
	}
	fmt.Fprintf(w, "%s of %s (mode %s)\n", verb, source.Label(rep.Input, rep.Sheet), rep.Mode)
	fmt.Fprintf(w, "  products: %s\n", summary.Text(rep.Products))
	fmt.Fprintf(w, "  variants: %s\n", summary.Text(rep.Variants))
	fmt.Fprintf(w, "  rows:     %s\n", summary.Text(rep.Rows))
	printImages(w, rep)
	if rep.DryRun {
		est := summary.Duration(rep.RequestsPlanned, rate)
		of := ""
		if rep.ImageRequests > 0 {
			of = fmt.Sprintf(" (%d of them for images)", rep.ImageRequests)
		}
		fmt.Fprintf(w, "  writes needed: %s%s, about %s at %.4g requests/s\n", plural.Count(rep.RequestsPlanned, "request"), of, est, rate)
	} else {
		printTraffic(w, "  requests: ", rep.Traffic, rep.Elapsed)
	}
	if rep.Results != "" {
		fmt.Fprintf(w, "  results:  %s\n", rep.Results)
	}
	if rep.PlanFile != "" {
		fmt.Fprintf(w, "  plan:     %s\n", rep.PlanFile)
	}
}

// printImages prints the images' line of an import that has some: in a
// dry run "images: N to upload (SIZE)", then what else became of them.
func printImages(w io.Writer, rep *importer.Report) {
	if rep.Images == nil {
		return
	}
	size := humanize.IBytes(uint64(rep.ImageBytes))
	if rep.DryRun {
		rest := maps.Clone(rep.Images)
		delete(rest, importer.ToUpload)
		line := fmt.Sprintf("  images: %d to upload (%s)", rep.Images[importer.ToUpload], size)
		if len(rest) > 0 {
			line += "; " + summary.Text(rest)
		}
		fmt.Fprintln(w, line)
		return
	}
	fmt.Fprintf(w, "  images:   %s", summary.Text(rep.Images))
	if n := rep.Images[importer.Uploaded]; n > 0 {
		fmt.Fprintf(w, " (%s)", size)
	}
	fmt.Fprintln(w)
}

// stateExists says the state file is there: a dry run reads it, but
// makes none.
func stateExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
