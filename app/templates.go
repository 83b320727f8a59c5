package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"lading/mapping"
	"lading/paths"
	"lading/plural"
	"lading/source"
	"lading/templates"
)

func templatesCommand(b *builder) *cli.Command {
	examples := []example{
		{"the built-in mappings and report layouts", "lading templates list"},
		{"a template to copy and adapt", "lading templates show shopify > mine.yaml"},
	}
	return b.group(&cli.Command{
		Name:        "templates",
		Usage:       "list and show the mapping templates and report layouts built into lading",
		Subcommands: []*cli.Command{templatesListCommand(b, examples[0]), templatesShowCommand(b, examples[1])},
	}, doc{examples: examples})
}

// templateKinds are the kinds of templates, with the command that takes
// each, in the order lading templates list shows them.
var templateKinds = []struct{ kind, title, command string }{
	{templates.KindCatalog, "catalogs", "lading import --template NAME"},
	{templates.KindStock, "stock levels", "lading stock push --template NAME"},
	{templates.KindShipments, "shipments with tracking", "lading shipments push --template NAME"},
	{templates.KindSlips, "packing slips and their shipments", "lading slips push --template NAME"},
	{templates.KindReport, "export reports", "lading export RESOURCE --template NAME"},
}

func templatesListCommand(b *builder, e example) *cli.Command {
	o := &globalOptions{}
	return b.leaf(&cli.Command{
		Name:  "list",
		Usage: "list the templates, by the command that takes them",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runTemplatesList(b.env, o)
		},
	}, o, doc{examples: []example{e}})
}

// templateLine is a template as lading templates list --json prints it.
type templateLine struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	Command     string `json:"command"`
}

func runTemplatesList(env *Env, o *globalOptions) error {
	w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	for i, k := range templateKinds {
		if !o.JSON {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "%s (%s):\n", k.title, k.command)
		}
		for _, t := range templates.List() {
			if t.Kind != k.kind {
				continue
			}
			line := templateLine{t.Name, t.Kind, t.Description, strings.ReplaceAll(k.command, "NAME", t.Name)}
			if err := o.emit(env, line, func(io.Writer) { fmt.Fprintf(w, "  %s\t%s\n", t.Name, t.Description) }); err != nil {
				return err
			}
		}
	}
	return w.Flush()
}

// showOptions are the options of templates show.
type showOptions struct {
	globalOptions
	Name string
}

func templatesShowCommand(b *builder, e example) *cli.Command {
	o := &showOptions{}
	return b.leaf(&cli.Command{
		Name:      "show",
		Usage:     "print a template (a commented mapping file or report layout) to copy and adapt",
		ArgsUsage: "NAME",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageHint("lading templates list shows the templates.", "templates show takes one template name")
			}
			o.Name = c.Args().First()
			text, err := templates.Get(o.Name)
			if err != nil {
				return usageHint("lading templates list shows the templates.", "%w", err)
			}
			_, err = b.env.Stdout.Write(text)
			return err
		},
	}, &o.globalOptions, doc{examples: []example{e}})
}

func mappingCommand(b *builder) *cli.Command {
	return b.group(&cli.Command{
		Name:        "mapping",
		Usage:       "write mapping files",
		Subcommands: []*cli.Command{mappingInitCommand(b)},
	}, doc{examples: mappingExamples})
}

var mappingExamples = []example{
	{"a mapping for a file: a template when its layout is known, else a starter listing its columns", "lading mapping init catalog.csv"},
	{"from the second sheet of a workbook, whose column names are on row 3", "lading mapping init --sheet Products --header-row 3 price-list.xlsx"},
}

// mappingInitOptions are the options of mapping init.
type mappingInitOptions struct {
	globalOptions
	Out       string
	Sheet     string
	HeaderRow int
	Force     bool
	File      string
}

func mappingInitCommand(b *builder) *cli.Command {
	o := &mappingInitOptions{}
	return b.leaf(&cli.Command{
		Name:      "init",
		Usage:     "read a file's header and write a mapping for it",
		ArgsUsage: "FILE",
		Description: "Recognises from its header the layouts of the built-in templates (lading templates list: platform\n" +
			"exports like Shopify, WooCommerce, Magento 2, BigCommerce, Squarespace; stock files; shipment files),\n" +
			"says why, and writes that template; otherwise writes a commented starter mapping listing every column.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Destination: &o.Out, Usage: "where to write the mapping (default: FILE's name with .mapping.yaml; - for stdout)"},
			sheetFlag(&o.Sheet),
			headerRowFlag(&o.HeaderRow),
			&cli.BoolFlag{Name: "force", Destination: &o.Force, Usage: "overwrite an existing mapping file"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageHint("For example: "+mappingExamples[0].line, "mapping init takes one file")
			}
			o.File = c.Args().First()
			return runMappingInit(c.Context, b.env, o)
		},
	}, &o.globalOptions, doc{examples: mappingExamples})
}

// initLine is what mapping init --json prints.
type initLine struct {
	File     string `json:"file"`
	Mapping  string `json:"mapping"`
	Template string `json:"template,omitempty"`
	Why      string `json:"why,omitempty"`
	Columns  int    `json:"columns"`
	Next     string `json:"next"`
}

func runMappingInit(_ context.Context, env *Env, o *mappingInitOptions) error {
	var read mapping.Source
	if err := readSettings(&read, o.Sheet, o.HeaderRow); err != nil {
		return err
	}
	out, err := o.out()
	if err != nil {
		return err
	}
	if err := checkInput("input file", o.File); err != nil {
		return err
	}
	src, err := source.Open(o.File, read.ReadOptions(source.Limits{}))
	if err != nil {
		return asUsage(err)
	}
	header := src.Header()
	src.Close()
	name, text := mapping.Init(header, filepath.Base(o.File))
	if out == "-" {
		_, err := env.Stdout.Write(text)
		return err
	}
	if err := os.WriteFile(out, text, 0o644); err != nil {
		return err
	}
	line := initLine{File: o.File, Mapping: out, Template: name, Columns: len(header)}
	if name == "" {
		line.Next = fmt.Sprintf("lading import --mapping %s%s --dry-run %s", out, readFlags(read), o.File)
		return o.emit(env, line, func(w io.Writer) {
			fmt.Fprintf(w, "wrote a starter mapping listing the %s of %s to %s\n", plural.Count(len(header), "column"), o.File, out)
			fmt.Fprintf(w, "edit it, then: %s\n", line.Next)
		})
	}
	if d, ok := mapping.Recognise(header); ok {
		line.Why = d.Why
	}
	var said strings.Builder
	second := secondFile(&said, o.File, name, text)
	line.Next = fmt.Sprintf("%s --mapping %s%s --dry-run %s%s", commandFor(name), out, readFlags(read), o.File, second)
	return o.emit(env, line, func(w io.Writer) {
		why := ""
		if line.Why != "" {
			why = " (" + line.Why + ")"
		}
		fmt.Fprintf(w, "%s looks like a %s file%s: wrote the %s template to %s\n", o.File, name, why, name, out)
		fmt.Fprint(w, said.String())
		fmt.Fprintf(w, "next: %s\n", line.Next)
	})
}

// readFlags are the --sheet and --header-row flags that read a file as s
// says, for the command to run next.
func readFlags(s mapping.Source) string {
	f := ""
	if s.Sheet != "" {
		f += fmt.Sprintf(" --sheet %q", s.Sheet)
	}
	if s.HeaderRow > 1 {
		f += fmt.Sprintf(" --header-row %d", s.HeaderRow)
	}
	return f
}

// out is where mapping init writes the mapping ("-" for stdout), checked
// before the file is read: not the file itself, not an existing file
// unless --force, and writable.
func (o *mappingInitOptions) out() (string, error) {
	out := o.Out
	if out == "" {
		out = trimExt(o.File) + ".mapping.yaml"
	}
	if out == "-" {
		return out, nil
	}
	if err := checkOutputs([]paths.Named{{What: "the file read", Path: o.File}}, []paths.Named{{What: "--out", Path: out}}); err != nil {
		return "", err
	}
	if _, err := os.Stat(out); err == nil && !o.Force {
		return "", usageHint("Pass --force to overwrite it, or --out another file.", "%s exists", out)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	return out, nil
}

func trimExt(p string) string { return p[:len(p)-len(filepath.Ext(p))] }

// commandFor is the command that takes the template name's mappings.
func commandFor(name string) string {
	for _, t := range templates.List() {
		if t.Name != name {
			continue
		}
		for _, k := range templateKinds {
			if k.kind == t.Kind {
				return strings.TrimSuffix(k.command, " --template NAME")
			}
		}
	}
	return "lading import"
}

// secondFile, for a template of two files (a join), looks beside path for
// the second one: a file its layout does not take for the first, whose
// header has the join's key column. It says what it found (or that the
// second file must be given) and returns " FILE" to add to the next
// command, or "".
func secondFile(w io.Writer, path, name string, text []byte) string {
	m, err := mapping.Parse(name+".yaml", text)
	if err != nil || m.Join == nil || m.Join.Key == nil {
		return ""
	}
	key := m.Join.Key.Column
	entries, _ := os.ReadDir(filepath.Dir(path))
	var found []string
	for _, e := range entries {
		p := filepath.Join(filepath.Dir(path), e.Name())
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.IsDir() || paths.Same(p, path) || (ext != ".csv" && ext != ".xlsx" && ext != ".txt") || len(found) > 1 {
			continue
		}
		src, err := source.Open(p, m.Join.Source.ReadOptions(source.Limits{}))
		if err != nil {
			continue
		}
		header := src.Header()
		src.Close()
		if d, ok := mapping.Recognise(header); ok && d.Template == name {
			continue
		}
		if slices.ContainsFunc(header, func(h string) bool { return globMatch(key, strings.TrimSpace(h)) }) {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 1:
		fmt.Fprintf(w, "its second file is %s, beside it (its header has %s)\n", found[0], key)
		return " " + found[0]
	case 0:
		fmt.Fprintf(w, "this layout takes a second file (%s, with a column %s): give it after the first\n", m.Join.File, key)
	default:
		fmt.Fprintf(w, "this layout takes a second file (with a column %s), and several files beside it have one: give it after the first\n", key)
	}
	return " SECOND-FILE"
}

// globMatch matches name against a column pattern with at most one *
// (mapping's column patterns), ignoring case.
func globMatch(pattern, name string) bool {
	pattern, name = strings.ToLower(pattern), strings.ToLower(name)
	before, after, star := strings.Cut(pattern, "*")
	if !star {
		return pattern == name
	}
	return len(name) >= len(before)+len(after) && strings.HasPrefix(name, before) && strings.HasSuffix(name, after)
}
