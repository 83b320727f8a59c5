package app

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"

	"lading/api/wire"
	"lading/images"
	"lading/mapping"
	"lading/source"
	"lading/state"
	"lading/templates"
)

// The flags several commands share are declared here, once each: the
// mapping a file is read through and what reading it may cost (import and
// the pushes), what a job that writes to the account is told (dry run,
// results, state, strict, batch size), a push's schedule, the zone of
// dates and times. Each command binds them into its options struct.

// mappingOptions say which mapping a file is read through, which sheet
// and header row over what the mapping says, and what reading an XLSX
// file may cost.
type mappingOptions struct {
	Template    string
	Mapping     string
	Sheet       string
	HeaderRow   int
	MaxPartSize string
	MaxCellSize string
	// kinds are the kinds of templates the command takes.
	kinds []string
}

// mappingFlags declares --template (naming the built-in templates of
// kinds), --mapping (whose file must have section, "" for a catalog
// mapping), --sheet, --header-row and the XLSX limits.
func mappingFlags(o *mappingOptions, section string, kinds ...string) []cli.Flag {
	o.kinds = kinds
	file := "mapping file (YAML); lading mapping init FILE writes one to start from"
	if section != "" {
		file = fmt.Sprintf("mapping file (YAML) with a %s: section", section)
	}
	return []cli.Flag{
		&cli.StringFlag{Name: "template", Aliases: []string{"t"}, Destination: &o.Template,
			Usage: "built-in mapping: " + strings.Join(templates.Names(kinds...), ", ") + " (lading templates list describes them)"},
		&cli.StringFlag{Name: "mapping", Aliases: []string{"m"}, Destination: &o.Mapping, Usage: file},
		sheetFlag(&o.Sheet),
		headerRowFlag(&o.HeaderRow),
		&cli.StringFlag{Name: "max-xlsx-part-size", Value: "4GiB", Destination: &o.MaxPartSize,
			Usage: "the most one part of an XLSX workbook (a sheet, its shared strings) may unzip to, e.g. 8GiB"},
		&cli.StringFlag{Name: "max-xlsx-cell-size", Value: "1MiB", Destination: &o.MaxCellSize,
			Usage: "the most one XLSX cell may hold, e.g. 4MiB"},
	}
}

// sheetFlag declares --sheet, bound to dst: "" when not given.
func sheetFlag(dst *string) cli.Flag {
	return &cli.StringFlag{Name: "sheet", Destination: dst, DefaultText: "the mapping's, else the first visible one",
		Usage: "XLSX sheet to read, a hidden one too"}
}

// headerRowFlag declares --header-row, bound to dst: 0 when not given.
func headerRowFlag(dst *int) cli.Flag {
	return &cli.IntFlag{Name: "header-row", Destination: dst, DefaultText: "the mapping's, else 1",
		Usage: "row holding the column names; the rows above it are not read"}
}

// readSettings puts --sheet and --header-row, when given, in s.
func readSettings(s *mapping.Source, sheet string, headerRow int) error {
	if sheet != "" && strings.TrimSpace(sheet) == "" {
		return Usagef("--sheet %q: give the name of the sheet to read, or leave the flag out for the first visible sheet", sheet)
	}
	if headerRow < 0 {
		return Usagef("--header-row %d: want the number of the row holding the column names, 1 or more", headerRow)
	}
	if sheet != "" {
		s.Sheet = sheet
	}
	if headerRow > 0 {
		s.HeaderRow = headerRow
	}
	return nil
}

// load reads the mapping named by --template or --mapping.
func (o *mappingOptions) load() (*mapping.Mapping, []byte, error) {
	switch {
	case o.Template != "" && o.Mapping != "":
		return nil, nil, Usagef("give --template or --mapping, not both")
	case o.Template != "":
		text, err := templates.Get(o.Template)
		if err != nil {
			return nil, nil, usageHint("lading templates list shows the templates, with what each reads.", "--template %s: %w", o.Template, err)
		}
		m, err := mapping.Parse(o.Template+".yaml", text)
		return m, text, asUsage(err)
	case o.Mapping != "":
		if err := checkInput("--mapping", o.Mapping); err != nil {
			return nil, nil, err
		}
		text, err := os.ReadFile(o.Mapping)
		if err != nil {
			return nil, nil, Usagef("--mapping: %w", err)
		}
		m, err := mapping.Parse(o.Mapping, text)
		return m, text, asUsage(err)
	}
	return nil, nil, usageHint("lading templates list shows the templates; lading mapping init FILE writes a mapping for another layout.",
		"give a mapping: --template NAME or --mapping FILE")
}

// how is the flag that names the mapping, as the user gave it.
func (o *mappingOptions) how() string {
	if o.Template != "" {
		return "--template " + o.Template
	}
	return "--mapping " + o.Mapping
}

// refit says, for a mapping that does not fit its file's header
// (mapping.MismatchError) because the file has another template's
// layout, which template fits it: for a --template in one line instead
// of the mapping's errors, with the flag to use as its hint; for a
// --mapping as the hint under its errors. A file in the given template's
// layout whose columns the template names otherwise gets mapping init.
// Other errors are returned as they are.
func (o *mappingOptions) refit(err error) error {
	var me *mapping.MismatchError
	if !errors.As(err, &me) {
		return err
	}
	s, ok := mapping.Suggest(o.Template, me.Header)
	switch {
	case !ok:
		return err
	case s.Renamed:
		return usageHint(fmt.Sprintf("lading mapping init %s writes a mapping that names them as the file does.", me.File),
			"%s does not fit --template %s: its header names the template's columns otherwise (%s)", me.File, o.Template, s.Renames())
	}
	use := "--template " + s.Template
	if !slices.Contains(o.kinds, templateKind(s.Template)) {
		use = commandFor(s.Template) + " " + use
	}
	if o.Template == "" {
		return &UsageError{Err: err, Hint: fmt.Sprintf("This looks like the %s layout (%s): %s", s.Template, s.Why, use)}
	}
	return usageHint("Use "+use+".", "%s does not fit --template %s: this looks like the %s layout (%s)", me.File, o.Template, s.Template, s.Why)
}

// templateKind is the kind of the template name, or "".
func templateKind(name string) string {
	for _, t := range templates.List() {
		if t.Name == name {
			return t.Kind
		}
	}
	return ""
}

// reading puts --sheet and --header-row in the source section of m (they
// apply to its main file, not to a joined one) and reads the XLSX limits.
func (o *mappingOptions) reading(m *mapping.Mapping) (source.Limits, error) {
	if err := readSettings(&m.Source, o.Sheet, o.HeaderRow); err != nil {
		return source.Limits{}, err
	}
	return o.limits()
}

// limits reads --max-xlsx-part-size and --max-xlsx-cell-size.
func (o *mappingOptions) limits() (source.Limits, error) {
	size := func(flag, value string, most uint64) (uint64, error) {
		n, err := humanize.ParseBytes(value)
		if err != nil || n == 0 || n > most {
			return 0, Usagef("--%s %q: want a size from 1 byte to %s, like 512MiB or 8GiB", flag, value, humanize.IBytes(most))
		}
		return n, nil
	}
	part, err := size("max-xlsx-part-size", o.MaxPartSize, 1<<50)
	if err != nil {
		return source.Limits{}, err
	}
	cell, err := size("max-xlsx-cell-size", o.MaxCellSize, 1<<30)
	if err != nil {
		return source.Limits{}, err
	}
	return source.Limits{MaxPartSize: int64(part), MaxCellSize: int(cell)}, nil
}

// jobOptions are what a job that writes to the account from a file is
// told: the import and the pushes.
type jobOptions struct {
	mappingOptions
	DryRun    bool
	Results   string
	State     string
	Strict    bool
	BatchSize int
}

// jobWords are what a job's shared flags say of it.
type jobWords struct {
	section string   // the mapping's section ("" for a catalog)
	kinds   []string // of the templates --template takes
	dryRun  string   // what a dry run does
	state   string   // what the state holds
	// strict is what --strict refuses ("" for a job without it); batch
	// what a write request carries ("" for a job without --batch-size),
	// batchSize its default.
	strict, batch string
	batchSize     int
}

// jobFlags declares the flags of a job, bound to o.
func jobFlags(o *jobOptions, w jobWords) []cli.Flag {
	flags := mappingFlags(&o.mappingOptions, w.section, w.kinds...)
	flags = append(flags,
		&cli.BoolFlag{Name: "dry-run", Destination: &o.DryRun, Usage: w.dryRun},
		&cli.StringFlag{Name: "results", Destination: &o.Results, Usage: "results file, .csv or .xlsx (default: FILE.results.csv)"},
		stateFlag(&o.State, w.state),
	)
	if w.strict != "" {
		flags = append(flags, &cli.BoolFlag{Name: "strict", Destination: &o.Strict, Usage: "send nothing if " + w.strict})
	}
	if w.batch != "" {
		flags = append(flags, &cli.IntFlag{Name: "batch-size", Value: w.batchSize, Destination: &o.BatchSize,
			Usage: fmt.Sprintf("%s per write request (at most %d)", w.batch, wire.MaxWriteRecords)})
	}
	return flags
}

// stateFlag declares --state, bound to dst ("" when not given: the
// account's state, see stateFile); holds says what the state holds.
func stateFlag(dst *string, holds string) cli.Flag {
	return &cli.StringFlag{Name: "state", Destination: dst, DefaultText: state.DefaultPath + ", or the --account's own",
		Usage: "local state file (" + holds + ")"}
}

// checkBatchSize refuses a batch size the interface does not take.
func checkBatchSize(n int) error {
	if n < 1 || n > wire.MaxWriteRecords {
		return Usagef("--batch-size %d: want 1 to %d records per request", n, wire.MaxWriteRecords)
	}
	return nil
}

// scheduleOptions are how a push or a pull runs again and again.
type scheduleOptions struct {
	Every  time.Duration
	Settle time.Duration
}

// everyFlag declares --every, with how often a command is run in example.
func everyFlag(o *scheduleOptions, what, example string) cli.Flag {
	return &cli.DurationFlag{Name: "every", Destination: &o.Every,
		Usage: fmt.Sprintf("keep running and %s again at this interval, e.g. %s", what, example)}
}

// settleFlag declares --settle.
func settleFlag(o *scheduleOptions) cli.Flag {
	return &cli.DurationFlag{Name: "settle", Value: 5 * time.Second, Destination: &o.Settle,
		Usage: "wait until FILE has not changed for this long before reading it"}
}

// check refuses an interval too short to mean and a negative settle.
func (o *scheduleOptions) check(example string) error {
	if o.Every != 0 && o.Every < time.Second {
		return Usagef("--every %s: want an interval of 1s or more, e.g. %s (or leave it out to run once)", o.Every, example)
	}
	if o.Settle < 0 {
		return Usagef("--settle %s: want a duration of 0 or more, e.g. 5s", o.Settle)
	}
	return nil
}

// timezoneFlag declares --timezone, bound to dst; what says what it is
// the zone of.
func timezoneFlag(dst *string, what string) cli.Flag {
	return &cli.StringFlag{Name: "timezone", Value: "Local", EnvVars: []string{"LADING_TIMEZONE"}, Destination: dst,
		Usage: what + ", e.g. Europe/Berlin, America/New_York or UTC; Local is this computer's zone (or LADING_TIMEZONE)"}
}

// zone is the zone a --timezone value names.
func (env *Env) zone(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		if env.Local == nil {
			return time.UTC, nil
		}
		return env.Local, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		if n := strings.TrimSpace(name); n != "" && !strings.Contains(n, "/") && n != "UTC" {
			return nil, usageHint("Zones are named by region and city (tz database), e.g. Europe/Berlin; abbreviations like CET name no sure zone.",
				"--timezone %q: no such zone", name)
		}
		return nil, Usagef("--timezone %q: no such zone; give one like Europe/Berlin, America/New_York, UTC or Local", name)
	}
	return loc, nil
}

// inRange refuses a float flag that is not a number from lo to hi.
func inRange(name string, v, lo, hi float64, want string) error {
	if math.IsNaN(v) || v < lo || v > hi {
		return Usagef("--%s %v: want %s", name, v, want)
	}
	return nil
}

// imageOptions say where an import reads the images its mapping names
// from, and how large they may be.
type imageOptions struct {
	Images       string
	MaxImageSize string
	NoImages     bool
}

// imagesFolder is what --images names, said when it names a file.
const imagesFolder = "give the folder the images' paths are relative to"

// imageFlags declares --images, --max-image-size and --no-images.
func imageFlags(o *imageOptions) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "images", Destination: &o.Images, DefaultText: "the input file's folder",
			Usage: "folder the images' paths are relative to (http and https URLs are downloaded)"},
		&cli.StringFlag{Name: "max-image-size", Value: strings.ReplaceAll(humanize.IBytes(images.DefaultMaxSize), " ", ""), Destination: &o.MaxImageSize,
			Usage: fmt.Sprintf("largest image read, e.g. 5MiB (at most %s); a larger one fails its line", humanize.IBytes(wire.MaxProductFileBytes))},
		&cli.BoolFlag{Name: "no-images", Destination: &o.NoImages, Usage: "leave the images the mapping names out: no download, no upload"},
	}
}

// options checks the image flags and gives the importer's image options.
func (o *imageOptions) options(transport http.RoundTripper) (images.Options, error) {
	if o.NoImages && o.Images != "" {
		return images.Options{}, Usagef("give --images or --no-images, not both")
	}
	size := o.MaxImageSize
	if size == "" {
		size = humanize.IBytes(images.DefaultMaxSize)
	}
	n, err := humanize.ParseBytes(size)
	if err != nil || n == 0 || n > wire.MaxProductFileBytes {
		return images.Options{}, Usagef("--max-image-size %q: want a size from 1 byte to %s, like 5MiB", o.MaxImageSize, humanize.IBytes(wire.MaxProductFileBytes))
	}
	if o.Images != "" {
		if err := checkFolder("--images", o.Images, imagesFolder); err != nil {
			return images.Options{}, err
		}
	}
	return images.Options{Dir: o.Images, MaxSize: int64(n), Transport: transport}, nil
}
