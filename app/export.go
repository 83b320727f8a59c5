package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"lading/exporter"
	"lading/paths"
	"lading/plural"
	"lading/templates"
)

// exportOptions are the options of an export, and the export part of a
// fulfillments pull.
type exportOptions struct {
	globalOptions
	Resource  string
	Output    string
	Where     []string
	Any       bool
	Sort      string
	Template  string
	Columns   string
	BOM       bool
	Delimiter string
	Timezone  string
}

var exportExamples = []example{
	{"the catalog in the import layout: the file imports back unchanged", "lading export products -o catalog.csv"},
	{"October's packing slips for the accountant, dates in Berlin's time", "lading export packing-slips --template accounting-slips --timezone Europe/Berlin \\\n     --where \"packing_slip_date >= 2026-10-01\" --where \"packing_slip_date < 2026-11-01\" -o slips-october.xlsx"},
	{"the open fulfillments by location, for a pick walk", "lading export fulfillments --template picking -o picking.xlsx"},
}

func exportCommand(b *builder) *cli.Command {
	cmd := &cli.Command{
		Name:  "export",
		Usage: "write a listing of the account to XLSX or CSV: products, variants, packing slips, fulfillments, tags",
		Description: "lading export products -o catalog.csv writes the catalog in the generic import layout: the file\n" +
			"imports back unchanged. Conditions (--where, repeatable; all must hold, or any with --any) and sorting\n" +
			"(--sort -created_at) are checked against what the service allows before any request. Dates and times\n" +
			"are written in --timezone, which the file names.",
	}
	for _, r := range exporter.ResourceNames {
		o := &exportOptions{Resource: r}
		cmd.Subcommands = append(cmd.Subcommands, b.leaf(&cli.Command{
			Name:  r,
			Usage: "export " + strings.ReplaceAll(r, "-", " "),
			Flags: exportFlags(o, false),
			Action: func(c *cli.Context) error {
				if err := noArgs(c); err != nil {
					return err
				}
				return runExport(c.Context, b.env, o)
			},
		}, &o.globalOptions, doc{examples: exportExamplesOf(r), exits: []int{ExitInterrupted}}))
	}
	return b.group(cmd, doc{examples: exportExamples, exits: []int{ExitInterrupted}})
}

// exportExamplesOf are the examples of the export of resource: those that
// export it, or the first one.
func exportExamplesOf(resource string) []example {
	var out []example
	for _, e := range exportExamples {
		if strings.Contains(e.line, "export "+resource+" ") {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		out = []example{{"every " + strings.ReplaceAll(resource, "-", " ") + " of the account, to a spreadsheet",
			"lading export " + resource + " -o " + resource + ".xlsx"}}
	}
	return out
}

// exportFlags declares the flags of an export, bound to o; a pull's say
// what they do for a pull.
func exportFlags(o *exportOptions, pull bool) []cli.Flag {
	output := "the file to write: .xlsx, or .csv; {month} (or {date}, {time}) in its name is the export's month, e.g. slips-{month}.xlsx"
	template := "a report layout: " + strings.Join(templates.Names(templates.KindReport), ", ") + " (lading templates list describes them), or a report file of yours"
	if pull {
		output = "the file to write: .xlsx, or .csv; {time} in its name is the pull's time (UTC; {date} its day), e.g. orders-{time}.csv"
		template = "an order-file layout: shipstream, ShipStream's order import (lading templates list)"
	}
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Destination: &o.Output, Usage: output},
		&cli.GenericFlag{Name: "where", Value: &stringList{&o.Where},
			Usage: `a condition, like "updated_at >= 2026-01-01" (operators = != > >= < <=); repeatable, all must hold`},
		&cli.BoolFlag{Name: "any", Destination: &o.Any, Usage: "any condition may hold, rather than all"},
		&cli.StringFlag{Name: "sort", Destination: &o.Sort, Usage: "attributes to sort by, comma-separated; - first for descending, like -created_at"},
		&cli.StringFlag{Name: "template", Aliases: []string{"t"}, Destination: &o.Template, Usage: template},
		&cli.StringFlag{Name: "columns", Destination: &o.Columns, Usage: "the columns to write, comma-separated, in that order (default: every column)"},
		&cli.BoolFlag{Name: "bom", Destination: &o.BOM, Usage: "CSV: begin with a UTF-8 byte order mark, for Excel on Windows"},
		&cli.StringFlag{Name: "delimiter", Value: ",", Destination: &o.Delimiter, Usage: `CSV: the field separator: , ; | or "tab"`},
		timezoneFlag(&o.Timezone, "time zone the file's dates and times are written in (and which it names)"),
	}
}

// stringList is the values of a repeatable flag, bound to a slice: each
// is taken whole (a condition may hold a comma).
type stringList struct{ dst *[]string }

func (l *stringList) Set(s string) error {
	*l.dst = append(*l.dst, s)
	return nil
}

func (l *stringList) String() string {
	if l == nil || l.dst == nil {
		return ""
	}
	return strings.Join(*l.dst, ", ")
}

// runExport writes the export o asks for.
func runExport(ctx context.Context, env *Env, o *exportOptions) error {
	eo, err := o.options(env, "lading export "+o.Resource+" -o "+o.Resource+".xlsx")
	if err != nil {
		return err
	}
	client, _, err := o.client(env)
	if err != nil {
		return err
	}
	prog := o.progress(env, client)
	defer prog.Finish()
	eo.Client, eo.Progress = client, prog
	sum, err := exporter.Export(ctx, eo)
	prog.Finish()
	if err := exportError(ctx, err); err != nil {
		return err
	}
	return o.emit(env, sum, func(w io.Writer) { printExport(w, sum) })
}

// options checks the flags of an export (example is the command called
// right) and gives the exporter's options but for the client, output and
// display.
func (o *exportOptions) options(env *Env, example string) (exporter.Options, error) {
	if o.Output == "" {
		return exporter.Options{}, usageHint("For example: "+example, "missing --output (-o): the file to write, .xlsx or .csv")
	}
	delim, err := delimiter(o.Delimiter)
	if err != nil {
		return exporter.Options{}, err
	}
	report, err := o.report()
	if err != nil {
		return exporter.Options{}, err
	}
	loc, err := env.zone(o.Timezone)
	if err != nil {
		return exporter.Options{}, err
	}
	if err := paths.CheckFields(o.Output); err != nil {
		return exporter.Options{}, Usagef("--output %w", err)
	}
	out := paths.Fill(o.Output, time.Now(), loc)
	if err := checkOutputs(nil, []paths.Named{{What: "--output", Path: out, Sheet: true}}); err != nil {
		return exporter.Options{}, err
	}
	return exporter.Options{
		Resource: o.Resource, Report: report, Location: loc, Output: out,
		Query:   exporter.Query{Where: o.Where, Any: o.Any, Sort: split(o.Sort)},
		Columns: split(o.Columns), BOM: o.BOM, Delimiter: delim, Concurrency: o.Concurrency,
	}, nil
}

// split is a comma-separated flag's items, trimmed, empty ones dropped.
func split(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func delimiter(d string) (rune, error) {
	switch d {
	case "tab", `\t`, "\t":
		return '\t', nil
	case ",", ";", "|":
		r, _ := utf8.DecodeRuneInString(d)
		return r, nil
	}
	return 0, Usagef("--delimiter %q: want , ; | or tab", d)
}

// exportError maps an export's error: a query, columns or template that
// do not fit are usage errors; one cut short by Ctrl-C wrote nothing.
func exportError(ctx context.Context, err error) error {
	var qe *exporter.QueryError
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return &InterruptedError{Msg: "export interrupted: no file was written"}
	case errors.As(err, &qe), errors.Is(err, exporter.ErrColumns), errors.Is(err, exporter.ErrReport):
		return &UsageError{Err: err}
	}
	return &ReadOnlyError{Err: err}
}

func printExport(w io.Writer, s *exporter.Summary) {
	fmt.Fprintf(w, "export of %s: %s, %s\n", s.Resource, plural.Count(s.Records, "record"), plural.Count(s.Rows, "row"))
	printReads(w, s)
	for _, f := range s.Files {
		fmt.Fprintf(w, "  file:     %s\n", f)
	}
}

// printReads prints the requests of an export or pull, and the zone of
// the times it wrote.
func printReads(w io.Writer, s *exporter.Summary) {
	fmt.Fprintf(w, "  requests: %s (%s; %d throttled) in %s\n", plural.Count(s.Requests, "read"), plural.Count(s.Pages, "page"), s.Throttled, s.Elapsed.Round(time.Millisecond))
	if s.Zone != "" {
		fmt.Fprintf(w, "  times:    %s\n", s.Zone)
	}
}

// report reads the report template --template names, if any.
func (o *exportOptions) report() (*exporter.Report, error) {
	name := o.Template
	if name == "" {
		return nil, nil
	}
	if o.Columns != "" {
		return nil, Usagef("give --template or --columns, not both")
	}
	if isFileName(name) {
		text, err := os.ReadFile(name)
		if err != nil {
			return nil, usageHint(fmt.Sprintf("Give a built-in report (%s) or a report file of yours (lading templates show NAME > mine.yaml writes one to start from).", reportNames()),
				"--template %s: %w", name, err)
		}
		r, err := exporter.ParseReport(name, text)
		return r, asUsage(err)
	}
	text, err := templates.Get(name)
	if err != nil {
		return nil, usageHint("Report layouts: "+reportNames()+".", "--template %s: %w", name, err)
	}
	for _, t := range templates.List() {
		if t.Name == strings.ToLower(strings.TrimSuffix(name, ".yaml")) && t.Kind != templates.KindReport {
			return nil, usageHint("Report layouts: "+reportNames()+".", "%s is a mapping template for %s, not a report layout", t.Name, commandFor(t.Name))
		}
	}
	r, err := exporter.ParseReport(name, text)
	return r, asUsage(err)
}

// isFileName reports whether a --template value names a file rather than a
// built-in template: it has a directory or a .yaml/.yml extension and is
// no built-in's name.
func isFileName(name string) bool {
	if _, err := templates.Get(name); err == nil {
		return false
	}
	ext := strings.ToLower(filepath.Ext(name))
	return strings.ContainsAny(name, `/\`) || ext == ".yaml" || ext == ".yml"
}

func reportNames() string { return strings.Join(templates.Names(templates.KindReport), ", ") }
