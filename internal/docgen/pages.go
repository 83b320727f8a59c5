package main

import (
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"lading/app"
)

// page is what the reference says of one command, or of lading itself.
type page struct {
	// Name is the command as typed, "lading stock push"; File the name of
	// its files, "lading-stock-push".
	Name, File string
	// Usage is its line in the list of commands; Synopsis how it is
	// called.
	Usage, Synopsis string
	// Description is its help's description, in paragraphs.
	Description []string
	// Commands are its subcommands (for lading, every command).
	Commands []entry
	// Flags are its own flags; Globals the global flags it takes too
	// (for lading itself, Flags are the global ones).
	Flags   []flagDoc
	Globals []string
	// Examples and Exits are those its help shows.
	Examples []app.Example
	Exits    []exitDoc
	// Parent is the group it belongs to, nil for lading's own commands
	// and lading.
	Parent *entry
}

// entry names a page: a command and what it does.
type entry struct{ Name, File, Usage string }

// flagDoc is one flag: its names as typed (--template, -t), the kind of
// value it takes ("" for a switch), its default and what it does.
type flagDoc struct {
	Names                 []string
	Value, Default, Usage string
	// Env is the environment variable it is read from, if any.
	Env string
}

// exitDoc is an exit code and what it means.
type exitDoc struct {
	Code    int
	Meaning string
}

// pages are the pages of lading and every command of a, an application
// app.New made, lading's first, then each command's before its
// subcommands'.
func pages(a *cli.App) []page {
	a.Setup() // adds --version, as running it would
	root := page{Name: a.Name, File: a.Name, Usage: a.Usage, Synopsis: a.Name + " [global options] COMMAND [options]",
		Description: paragraphs(a.Description), Flags: flagDocs(a.VisibleFlags()), Examples: app.HelpOf(a, nil).Examples,
		Exits: exitDocs(app.HelpOf(a, nil).Exits)}
	globals := flagNames(a.VisibleFlags())
	var cmds []page
	var walk func(parent *entry, cs []*cli.Command)
	walk = func(parent *entry, cs []*cli.Command) {
		for _, c := range cs {
			if c.Hidden {
				continue
			}
			p := commandPage(a, parent, c, globals)
			root.Commands = append(root.Commands, entry{p.Name, p.File, p.Usage})
			cmds = append(cmds, p)
			walk(&entry{p.Name, p.File, p.Usage}, c.Subcommands)
		}
	}
	walk(nil, a.Commands)
	return append([]page{root}, cmds...)
}

// commandPage is the page of c, whose group is parent (nil for one of
// lading's own commands); globals are the names of lading's flags.
func commandPage(a *cli.App, parent *entry, c *cli.Command, globals []string) page {
	name := a.Name + " " + c.Name
	if parent != nil {
		name = parent.Name + " " + c.Name
	}
	help := app.HelpOf(a, c)
	p := page{Name: name, File: strings.ReplaceAll(name, " ", "-"), Usage: c.Usage,
		Description: paragraphs(c.Description), Examples: help.Examples, Exits: exitDocs(help.Exits), Parent: parent}
	var own []cli.Flag
	for _, f := range c.VisibleFlags() {
		if cf, ok := f.(cli.CategorizableFlag); ok && cf.GetCategory() != "" && slices.Contains(globals, f.Names()[0]) {
			p.Globals = append(p.Globals, "--"+f.Names()[0])
			continue
		}
		own = append(own, f)
	}
	p.Flags = flagDocs(own)
	p.Synopsis = name + " [options]"
	if len(c.Subcommands) > 0 {
		p.Synopsis = name + " COMMAND [options]"
		for _, s := range c.Subcommands {
			if !s.Hidden {
				p.Commands = append(p.Commands, entry{name + " " + s.Name, p.File + "-" + s.Name, s.Usage})
			}
		}
	}
	if c.ArgsUsage != "" {
		p.Synopsis += " " + c.ArgsUsage
	}
	return p
}

// paragraphs are the paragraphs of text, each with its lines joined.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, strings.Join(strings.Fields(p), " "))
		}
	}
	return out
}

// flagDocs describe flags, sorted by name as help lists them; --help
// and --version, which urfave adds, come last.
func flagDocs(flags []cli.Flag) []flagDoc {
	var out []flagDoc
	for _, f := range flags {
		df, ok := f.(cli.DocGenerationFlag)
		if !ok {
			continue
		}
		d := flagDoc{Value: valueKind(f), Usage: df.GetUsage(), Default: defaultOf(f)}
		for _, n := range f.Names() {
			d.Names = append(d.Names, dashed(n))
		}
		if env := df.GetEnvVars(); len(env) > 0 {
			d.Env = env[0]
		}
		out = append(out, d)
	}
	builtin := func(d flagDoc) bool { return d.Names[0] == "--help" || d.Names[0] == "--version" }
	slices.SortStableFunc(out, func(x, y flagDoc) int {
		if bx, by := builtin(x), builtin(y); bx != by {
			if bx {
				return 1
			}
			return -1
		}
		if builtin(x) {
			return 0
		}
		return strings.Compare(x.Names[0], y.Names[0])
	})
	return out
}

// flagNames are the first names of flags.
func flagNames(flags []cli.Flag) []string {
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()[0])
	}
	return names
}

// dashed is a flag's name as typed: -o, --output.
func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

// valueKind says what value a flag takes, in words; "" for a switch.
func valueKind(f cli.Flag) string {
	if df, ok := f.(cli.DocGenerationFlag); ok && !df.TakesValue() {
		return ""
	}
	switch f.(type) {
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
		return "whole number"
	case *cli.Float64Flag:
		return "number"
	case *cli.DurationFlag:
		return "duration"
	}
	return "text"
}

// defaultOf is the default a flag's help shows, without quotes; "" for
// none, and for a switch, which is off unless given.
func defaultOf(f cli.Flag) string {
	if bf, ok := f.(*cli.BoolFlag); ok && bf.DisableDefaultText {
		return ""
	}
	df, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return ""
	}
	text := df.GetDefaultText()
	if s, err := strconv.Unquote(text); err == nil {
		return s
	}
	return text
}

// exitDocs are the codes with their meanings, in the order of
// app.ExitCodes.
func exitDocs(codes []int) []exitDoc {
	var out []exitDoc
	for _, e := range app.ExitCodes {
		if slices.Contains(codes, e.Code) {
			out = append(out, exitDoc{e.Code, e.Meaning})
		}
	}
	return out
}
