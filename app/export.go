package app

import (
	"encoding/json"
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
	"lading/templates"
)

func exportCommand() *cli.Command {
	cmd := &cli.Command{
		Name:  "export",
		Usage: "write a listing of the account to XLSX or CSV: products, variants, packing slips, fulfillments, tags",
		Description: "lading export products -o catalog.csv writes the catalog in the generic import layout: the file\n" +
			"imports back unchanged. Conditions (--where, repeatable; all must hold, or any with --any) and sorting\n" +
			"(--sort -created_at) are checked against what the service allows before any request.",
	}
	for _, r := range exporter.ResourceNames {
		cmd.Subcommands = append(cmd.Subcommands, &cli.Command{
			Name:   r,
			Usage:  "export " + strings.ReplaceAll(r, "-", " "),
			Flags:  exportFlags(),
			Action: func(c *cli.Context) error { return runExport(c, r) },
		})
	}
	return cmd
}

func exportFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Required: true, Usage: "the file to write: .xlsx, or .csv"},
		&cli.StringSliceFlag{Name: "where", Usage: `a condition, like "updated_at >= 2026-01-01" (operators = != > >= < <=); repeatable, all must hold`},
		&cli.BoolFlag{Name: "any", Usage: "any condition may hold, rather than all"},
		&cli.StringFlag{Name: "sort", Usage: "attributes to sort by, comma-separated; - first for descending, like -created_at"},
		&cli.StringFlag{Name: "template", Aliases: []string{"t"}, Usage: "a report layout: catalog, accounting-slips, picking (see lading templates list)"},
		&cli.StringFlag{Name: "columns", Usage: "the columns to write, comma-separated, in that order (default: every column)"},
		&cli.BoolFlag{Name: "bom", Usage: "CSV: begin with a UTF-8 byte order mark, for Excel on Windows"},
		&cli.StringFlag{Name: "delimiter", Value: ",", Usage: `CSV: the field separator: , ; | or "tab"`},
		&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON on stdout"},
	}
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

func delimiterFlag(c *cli.Context) (rune, error) {
	d := c.String("delimiter")
	switch d {
	case "tab", `\t`, "\t":
		return '\t', nil
	case ",", ";", "|":
		r, _ := utf8.DecodeRuneInString(d)
		return r, nil
	}
	return 0, Usagef("--delimiter %q: want , ; | or tab", d)
}

func runExport(c *cli.Context, resource string) error {
	if err := noArgs(c); err != nil {
		return err
	}
	delim, err := delimiterFlag(c)
	if err != nil {
		return err
	}
	out := c.String("output")
	if err := checkOutputs(nil, []namedPath{{"--output", out}}); err != nil {
		return err
	}
	report, err := reportTemplate(c)
	if err != nil {
		return err
	}
	q := exporter.Query{Where: c.StringSlice("where"), Any: c.Bool("any"), Sort: split(c.String("sort"))}
	client, _, err := newClient(c)
	if err != nil {
		return err
	}
	prog := newProgress(c, client)
	defer prog.Finish()
	sum, err := exporter.Export(c.Context, exporter.Options{
		Client: client, Resource: resource, Query: q, Columns: split(c.String("columns")), Report: report,
		Output: out, BOM: c.Bool("bom"), Delimiter: delim, Concurrency: c.Int("concurrency"), Progress: prog,
	})
	prog.Finish()
	if err := exportError(err); err != nil {
		return err
	}
	return printSummary(c, sum)
}

// exportError maps an export's error: a query, columns or template that
// do not fit are usage errors.
func exportError(err error) error {
	var qe *exporter.QueryError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &qe) || errors.Is(err, exporter.ErrColumns) || errors.Is(err, exporter.ErrReport):
		return &UsageError{Err: err}
	}
	return &ReadOnlyError{Err: err}
}

// printSummary prints an export's summary, as JSON with --json.
func printSummary(c *cli.Context, sum *exporter.Summary) error {
	if c.Bool("json") {
		return json.NewEncoder(envOf(c).Stdout).Encode(sum)
	}
	printExport(envOf(c).Stdout, sum)
	return nil
}

func printExport(w io.Writer, s *exporter.Summary) {
	fmt.Fprintf(w, "export of %s: %d records, %d rows\n", s.Resource, s.Records, s.Rows)
	fmt.Fprintf(w, "  requests: %d reads (%d pages; %d throttled) in %s\n", s.Requests, s.Pages, s.Throttled, s.Elapsed.Round(time.Millisecond))
	for _, f := range s.Files {
		fmt.Fprintf(w, "  file:     %s\n", f)
	}
}

// reportTemplate reads the report template --template names, if any.
func reportTemplate(c *cli.Context) (*exporter.Report, error) {
	name := c.String("template")
	if name == "" {
		return nil, nil
	}
	if c.String("columns") != "" {
		return nil, Usagef("give --template or --columns, not both")
	}
	if isFileName(name) {
		text, err := os.ReadFile(name)
		if err != nil {
			return nil, Usagef("--template %s: %v; give a built-in report (%s) or a report file of yours (lading templates show NAME > mine.yaml writes one to start from)", name, err, reportNames())
		}
		r, err := exporter.ParseReport(name, text)
		if err != nil {
			return nil, &UsageError{Err: err}
		}
		return r, nil
	}
	text, err := templates.Get(name)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	for _, t := range templates.List() {
		if t.Name == strings.ToLower(strings.TrimSuffix(name, ".yaml")) && t.Kind != templates.KindReport {
			return nil, Usagef("%s is a mapping template for %s; export report templates are: %s", t.Name, commandFor(t.Name), reportNames())
		}
	}
	r, err := exporter.ParseReport(name, text)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	return r, nil
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

func reportNames() string {
	var names []string
	for _, t := range templates.List() {
		if t.Kind == templates.KindReport {
			names = append(names, t.Name)
		}
	}
	return strings.Join(names, ", ")
}
