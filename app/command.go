package app

import (
	"errors"
	"flag"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"lading/suggest"
)

// builder is what the functions declaring commands share: the
// surroundings and the global flags as given before the command's name.
type builder struct {
	env  *Env
	root *globalOptions
	// docs are what the help of each command shows under its options,
	// for HelpOf.
	docs map[*cli.Command]doc
}

// doc is what a command's help shows under its options.
type doc struct {
	examples []example
	// exits are the exit codes the command may end with besides 0, 1
	// and 2 (exitsOfJobs, exitsOfPushes).
	exits []int
}

// example is a command line with what it does.
type example struct{ what, line string }

// leaf finishes a command that runs: it takes the global flags (resolved
// into g before its action runs), its help shows d, and a usage error it
// returns without a hint gets one: the advice for the error it wraps, or
// else one pointing at that help.
func (b *builder) leaf(c *cli.Command, g *globalOptions, d doc) *cli.Command {
	withGlobals(c, b.root, g)
	action := c.Action
	// lading stock push help shows the help, as urfave's help command
	// would; urfave's is one command shared by every app in the process,
	// which each run writes to.
	c.HideHelpCommand = true
	c.Action = func(ctx *cli.Context) error {
		if a := ctx.Args(); a.Len() == 1 && (a.First() == "help" || a.First() == "h") {
			cli.HelpPrinter(ctx.App.Writer, c.CustomHelpTemplate, c)
			return nil
		}
		err := action(ctx)
		var u *UsageError
		if errors.As(err, &u) && u.Hint == "" {
			if u.Hint = Advice(u.Err); u.Hint == "" {
				u.Hint = fmt.Sprintf("See %s --help.", commandLine(ctx))
			}
		}
		return err
	}
	c.CustomHelpTemplate = helpTemplate(cli.CommandHelpTemplate, d)
	b.docs[c] = d
	return c
}

// group finishes a command that only groups others (stock, auth): its
// help shows d, and given no command, or one it does not have, it says
// which it has.
func (b *builder) group(c *cli.Command, d doc) *cli.Command {
	c.Action, c.HideHelpCommand = chooseCommand, true
	c.Flags = append(c.Flags, globalFlags(b.root, false)...)
	// The categories of commands are made when a command runs; help may
	// show a group's before.
	c.CustomHelpTemplate = helpTemplate(strings.Replace(cli.SubcommandHelpTemplate,
		`{{template "visibleCommandCategoryTemplate" .}}`, `{{template "visibleCommandTemplate" .}}`, 1), d)
	b.docs[c] = d
	return c
}

// finish makes every mistake in calling c or its subcommands a usage
// error, and names the subcommands in help after their parent (parent is
// "" for lading's own commands, whose names urfave sets).
func finish(c *cli.Command, parent string) {
	c.OnUsageError = onUsageError
	quietDefaults(c.Flags)
	path := "lading " + c.Name
	if parent != "" {
		path = parent + " " + c.Name
		c.HelpName = path
	}
	for _, s := range c.Subcommands {
		finish(s, path)
	}
}

// quietDefaults leaves out of help the defaults that say nothing: false
// for a switch, 0s for a duration that is off unless given.
func quietDefaults(flags []cli.Flag) {
	for _, f := range flags {
		switch f := f.(type) {
		case *cli.BoolFlag:
			f.DisableDefaultText = true
		case *cli.DurationFlag:
			if f.Value == 0 && f.DefaultText == "" {
				f.DefaultText = "off"
			}
		}
	}
}

// helpTemplate is base, urfave's help of a command, followed by the
// examples and exit codes of d.
func helpTemplate(base string, d doc) string {
	var b strings.Builder
	b.WriteString(base)
	if len(d.examples) > 0 {
		b.WriteString("\nEXAMPLES:\n")
		for i, e := range d.examples {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "   # %s\n   %s\n", literal(e.what), literal(e.line))
		}
	}
	b.WriteString("\nEXIT CODES:\n")
	b.WriteString(exitTable(d.exits))
	return b.String()
}

// literal is s as text of a template.
func literal(s string) string { return strings.ReplaceAll(s, "{{", `{{"{{"}}`) }

// ladingDoc is what lading's help shows under its options: examples, and
// the table of exit codes, which every command shares.
var ladingDoc = doc{
	examples: []example{
		{"try lading on a built-in sandbox", "lading demo"},
		{"import a Shopify export, checking it first", "lading import --template shopify --dry-run products_export.csv"},
		{"push stock levels every 15 minutes", "lading stock push --template stock --every 15m --quiet outbox/stock.csv"},
		{"the help of a command", "lading help stock push"},
	},
	exits: []int{ExitPartial, ExitLocked, ExitInterrupted},
}

// Example is a command line in a command's help, with what it does.
type Example struct{ What, Line string }

// Help is what a command's help shows besides its usage, description
// and flags.
type Help struct {
	Examples []Example
	// Exits are the exit codes the command may end with, 0, 1 and 2
	// among them, in the order of ExitCodes.
	Exits []int
}

// docsKey is where New keeps the docs of the commands, in the
// application's Metadata.
const docsKey = "lading.docs"

// HelpOf is the Help of c, a command of a (an application New made), or
// of lading itself when c is nil.
func HelpOf(a *cli.App, c *cli.Command) Help {
	docs, _ := a.Metadata[docsKey].(map[*cli.Command]doc)
	d := docs[c]
	h := Help{Exits: withCommonExits(d.exits)}
	for _, e := range d.examples {
		h.Examples = append(h.Examples, Example{What: e.what, Line: e.line})
	}
	return h
}

// commandLine is c's command as typed, e.g. "lading auth status".
func commandLine(c *cli.Context) string {
	var names []string
	for _, ctx := range slices.Backward(c.Lineage()) {
		if ctx.Command != nil && ctx.Command.Name != "" && (len(names) == 0 || names[len(names)-1] != ctx.Command.Name) {
			names = append(names, ctx.Command.Name)
		}
	}
	if len(names) == 0 || names[0] != "lading" {
		names = slices.Insert(names, 0, "lading")
	}
	return strings.Join(names, " ")
}

// chooseCommand is the action of lading itself and of the commands that
// only group others (auth, templates, mapping): it is reached when they are
// given no command, or one they do not have. "help" shows the help of
// what follows it: lading stock help push.
func chooseCommand(c *cli.Context) error {
	line := commandLine(c)
	names := commandNames(c.Command.Subcommands)
	list := fmt.Sprintf("the commands of %s are %s", line, strings.Join(names, ", "))
	hint := fmt.Sprintf("See %s --help for what each does.", line)
	if c.NArg() == 0 {
		return usageHint(hint, "missing command: %s", list)
	}
	if c.Args().First() == "help" {
		path := append(strings.Fields(strings.TrimPrefix(line, "lading")), c.Args().Tail()...)
		return showHelp(c, path)
	}
	typed := strings.TrimSpace(strings.TrimPrefix(line, "lading") + " " + c.Args().First())
	if dym := suggest.DidYouMean(c.Args().First(), names, "%s"); dym != "" {
		return usageHint(hint, "unknown command %q; %s", typed, dym)
	}
	return usageHint(hint, "unknown command %q: %s", typed, list)
}

// commandNames are the names of the visible commands among cmds.
func commandNames(cmds []*cli.Command) []string {
	var names []string
	for _, s := range cmds {
		if !s.Hidden && s.Name != "help" {
			names = append(names, s.Name)
		}
	}
	return names
}

// helpCommand is `lading help [COMMAND [SUBCOMMAND]]`.
func helpCommand(b *builder) *cli.Command {
	d := doc{examples: []example{
		{"what lading does, its commands and exit codes", "lading help"},
		{"a command's flags, examples and exit codes", "lading help stock push"},
	}}
	c := &cli.Command{
		Name:               "help",
		Usage:              "show the help of lading or of a command: lading help stock push",
		ArgsUsage:          "[COMMAND [SUBCOMMAND]]",
		Action:             func(c *cli.Context) error { return showHelp(c, c.Args().Slice()) },
		CustomHelpTemplate: helpTemplate(cli.CommandHelpTemplate, d),
	}
	b.docs[c] = d
	return c
}

// showHelp prints the help of the command path names (lading's own for
// none).
func showHelp(c *cli.Context, path []string) error {
	var cmd *cli.Command
	cmds, typed := c.App.Commands, "lading"
	for _, name := range path {
		next := findCommand(cmds, name)
		if next == nil {
			hint := fmt.Sprintf("See %s --help for its commands.", typed)
			if dym := suggest.DidYouMean(name, commandNames(cmds), "%s"); dym != "" {
				return usageHint(hint, "no command %q in %s; %s", name, typed, dym)
			}
			return usageHint(hint, "no command %q in %s: its commands are %s", name, typed, strings.Join(commandNames(cmds), ", "))
		}
		cmd, cmds, typed = next, next.Subcommands, typed+" "+name
	}
	if cmd == nil {
		return cli.ShowAppHelp(c)
	}
	cli.HelpPrinter(c.App.Writer, cmd.CustomHelpTemplate, cmd)
	return nil
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// helpOfCommand shows the help of the command of c, to whose --help
// arguments were given: lading import --help catalog.csv (urfave takes
// them for the name of a command to show the help of).
func helpOfCommand(c *cli.Context, _ string) {
	cli.HelpPrinter(c.App.Writer, c.Command.CustomHelpTemplate, c.Command)
}

// Messages of the flag package, which urfave passes on.
var (
	undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -+(.+)$`)
	invalidValue  = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]+): (.*)$`)
	missingValue  = regexp.MustCompile(`^flag needs an argument: -+(.+)$`)
)

// onUsageError turns a flag urfave could not parse into one line saying
// what is wrong with it in the user's words, and a hint.
func onUsageError(c *cli.Context, err error, _ bool) error {
	line := commandLine(c)
	hint := fmt.Sprintf("See %s --help.", line)
	flags := c.Command.VisibleFlags()
	if c.Command.Name == c.App.Name {
		flags = c.App.VisibleFlags()
	}
	msg := err.Error()
	if m := undefinedFlag.FindStringSubmatch(msg); m != nil {
		var names []string
		for _, f := range flags {
			for _, n := range f.Names() {
				if len([]rune(n)) > 1 {
					names = append(names, n)
				}
			}
		}
		if dym := suggest.DidYouMean(m[1], names, "--%s"); dym != "" {
			return usageHint(hint, "unknown flag %s for %s; %s", dashed(m[1]), line, dym)
		}
		// A group's command was misspelt, or its flags put before it.
		if subs := commandNames(c.Command.Subcommands); len(subs) > 0 && c.Command.Name != c.App.Name {
			return usageHint(hint, "unknown flag %s for %s, which chooses a command: give one of %s, then its flags",
				dashed(m[1]), line, strings.Join(subs, ", "))
		}
		return usageHint(hint, "unknown flag %s for %s", dashed(m[1]), line)
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		return usageHint(hint, "%s", badValue(findFlag(flags, m[2]), dashed(m[2]), m[1]))
	}
	if m := missingValue.FindStringSubmatch(msg); m != nil {
		return usageHint(hint, "%s needs a value", dashed(m[1]))
	}
	return usageHint(hint, "%v", err)
}

// dashed is a flag's name as typed: -o, --output.
func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

func findFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

// badValue says what a value given to flag (typed as name) should be.
func badValue(flag cli.Flag, name, value string) string {
	switch flag.(type) {
	case *cli.DurationFlag:
		if _, err := strconv.ParseFloat(value, 64); err == nil {
			return fmt.Sprintf("%s %s: write it with a unit, e.g. %sm (s for seconds, m for minutes, h for hours)", name, value, value)
		}
		return fmt.Sprintf("%s %q: want a duration like 90s, 15m or 1h30m", name, value)
	case *cli.IntFlag, *cli.Int64Flag:
		return fmt.Sprintf("%s %q: want a whole number", name, value)
	case *cli.Float64Flag:
		return fmt.Sprintf("%s %q: want a number, like 2.5", name, value)
	case *cli.BoolFlag:
		return fmt.Sprintf("%s=%s: give %s alone to turn it on (or %s=false)", name, value, name, name)
	}
	return fmt.Sprintf("%s %q: not a value it takes", name, value)
}

// noArgs refuses arguments given to a command that takes none: they are
// most often a flag put after a value, or a typo.
func noArgs(c *cli.Context) error {
	if c.NArg() == 0 {
		return nil
	}
	return usageHint(fmt.Sprintf("See %s --help.", commandLine(c)),
		"%s takes no arguments, got %q", commandLine(c), strings.Join(c.Args().Slice(), " "))
}

// sharedSwitch is a switch urfave keeps one of for every app in the
// process (cli.HelpFlag, cli.VersionFlag). A cli.BoolFlag writes its
// default into itself each time a command's options are parsed, so two
// commands run at once in one process (lading's tests do) would write
// the same flag; this one parses through a copy of itself.
type sharedSwitch struct{ cli.BoolFlag }

func (f *sharedSwitch) Apply(set *flag.FlagSet) error {
	c := f.BoolFlag
	return c.Apply(set)
}

// GetDefaultText is "": a switch is off unless given.
func (f *sharedSwitch) GetDefaultText() string { return "" }

func init() {
	for _, f := range []*cli.Flag{&cli.HelpFlag, &cli.VersionFlag} {
		if bf, ok := (*f).(*cli.BoolFlag); ok {
			*f = &sharedSwitch{*bf}
		}
	}
}
