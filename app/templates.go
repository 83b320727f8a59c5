package app

import (
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
	"lading/source"
	"lading/templates"
)

func templatesCommand() *cli.Command {
	return &cli.Command{
		Name:  "templates",
		Usage: "list and show the mapping templates built into lading",
		Subcommands: []*cli.Command{
			{
				Name:  "list",
				Usage: "list the templates",
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					w := tabwriter.NewWriter(envOf(c).Stdout, 0, 4, 2, ' ', 0)
					for i, kind := range []struct{ kind, title string }{
						{templates.KindCatalog, "catalogs (lading import --template NAME)"},
						{templates.KindStock, "stock levels (lading stock push --template NAME)"},
						{templates.KindShipments, "shipments with tracking (lading shipments push --template NAME)"},
						{templates.KindSlips, "packing slips and their shipments (lading slips push --template NAME)"},
						{templates.KindReport, "export reports (lading export RESOURCE --template NAME)"},
					} {
						if i > 0 {
							fmt.Fprintln(w)
						}
						fmt.Fprintf(w, "%s:\n", kind.title)
						for _, t := range templates.List() {
							if t.Kind == kind.kind {
								fmt.Fprintf(w, "  %s\t%s\n", t.Name, t.Description)
							}
						}
					}
					return w.Flush()
				},
			},
			{
				Name:      "show",
				Usage:     "print a template (a commented mapping file) to copy and adapt",
				ArgsUsage: "NAME",
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return Usagef("templates show takes one template name (see lading templates list)")
					}
					b, err := templates.Get(c.Args().First())
					if err != nil {
						return &UsageError{Err: err}
					}
					_, err = envOf(c).Stdout.Write(b)
					return err
				},
			},
		},
	}
}

func mappingCommand() *cli.Command {
	return &cli.Command{
		Name:  "mapping",
		Usage: "write mapping files",
		Subcommands: []*cli.Command{
			{
				Name:      "init",
				Usage:     "read a file's header and write a mapping for it",
				ArgsUsage: "FILE",
				Description: "Recognises from its header the layouts of the built-in templates (lading templates list: platform\n" +
					"exports like Shopify, WooCommerce, Magento 2, BigCommerce, Squarespace; stock files; shipment files),\n" +
					"says why, and writes that template; otherwise writes a commented starter mapping listing every column.",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "where to write the mapping (default: FILE's name with .mapping.yaml; - for stdout)"},
					&cli.StringFlag{Name: "sheet", Usage: "XLSX sheet to read the header from (default: the first)"},
					&cli.IntFlag{Name: "header-row", Usage: "row holding the column names (default 1)"},
					&cli.BoolFlag{Name: "force", Usage: "overwrite an existing mapping file"},
				},
				Action: mappingInit,
			},
		},
	}
}

func mappingInit(c *cli.Context) error {
	env := envOf(c)
	if c.NArg() != 1 {
		return Usagef("mapping init takes one file: lading mapping init catalog.csv")
	}
	if n := c.Int("header-row"); n < 0 {
		return Usagef("--header-row %d: want the number of the row holding the column names, 1 or more", n)
	}
	path := c.Args().First()
	out, err := mappingOut(c, path)
	if err != nil {
		return err
	}
	src, err := source.Open(path, source.Options{Sheet: c.String("sheet"), HeaderRow: c.Int("header-row")})
	if err != nil {
		return &UsageError{Err: err}
	}
	header := src.Header()
	src.Close()
	name, text := mapping.Init(header, filepath.Base(path))
	if out == "-" {
		_, err := env.Stdout.Write(text)
		return err
	}
	if err := os.WriteFile(out, text, 0o644); err != nil {
		return err
	}
	if name != "" {
		why := ""
		if d, ok := mapping.Recognise(header); ok {
			why = " (" + d.Why + ")"
		}
		fmt.Fprintf(env.Stdout, "%s looks like a %s file%s: wrote the %s template to %s\n", path, name, why, name, out)
		second := secondFile(env.Stdout, path, name, text)
		fmt.Fprintf(env.Stdout, "next: %s --mapping %s --dry-run %s%s\n", commandFor(name), out, path, second)
		return nil
	}
	fmt.Fprintf(env.Stdout, "wrote a starter mapping listing the %d columns of %s to %s\n", len(header), path, out)
	fmt.Fprintf(env.Stdout, "edit it, then: lading import --mapping %s --dry-run %s\n", out, path)
	return nil
}

// mappingOut is where mapping init writes the mapping of path ("-" for
// stdout), checked before path is read: not path itself, not an existing
// file unless --force, and writable.
func mappingOut(c *cli.Context, path string) (string, error) {
	out := c.String("out")
	if out == "" {
		out = trimExt(path) + ".mapping.yaml"
	}
	if out == "-" {
		return out, nil
	}
	if err := checkOutputs([]namedPath{{What: "the file read", Path: path}}, []namedPath{{What: "--out", Path: out}}); err != nil {
		return "", err
	}
	if _, err := os.Stat(out); err == nil && !c.Bool("force") {
		return "", Usagef("%s exists: pass --force to overwrite it, or --out another file", out)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	return out, nil
}

func trimExt(p string) string { return p[:len(p)-len(filepath.Ext(p))] }

// commandFor is the command that takes the template name's mappings.
func commandFor(name string) string {
	for _, t := range templates.List() {
		switch {
		case t.Name != name:
		case t.Kind == templates.KindStock:
			return "lading stock push"
		case t.Kind == templates.KindShipments:
			return "lading shipments push"
		case t.Kind == templates.KindSlips:
			return "lading slips push"
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
