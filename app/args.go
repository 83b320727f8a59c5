package app

import (
	"context"
	"strings"

	"github.com/urfave/cli/v2"
)

// Run runs lading with args (args[0] names the program), as main does:
// a command's flags may come after its arguments too (lading import
// products.csv --template shopify), as people and cron lines write them.
func Run(ctx context.Context, env Env, args []string) error {
	a := New(env)
	return a.RunContext(ctx, flagsFirst(a, args))
}

// flagsFirst moves the flags given after a command's arguments before
// them, where the flag package reads them: it finds the command args name
// (after lading's own flags), then splits what follows into flags, with
// the values of those that take one, and arguments. Everything after "--"
// stays an argument.
func flagsFirst(a *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	flags, cmds := a.Flags, a.Commands
	i, found := 1, false
	for i < len(args) {
		arg := args[i]
		if isFlag(arg) {
			i += 1 + valueOf(flags, arg)
			continue
		}
		c := findCommand(cmds, arg)
		if c == nil {
			break
		}
		flags, cmds, found = c.Flags, c.Subcommands, true
		i++
		if len(cmds) == 0 {
			break
		}
	}
	if !found {
		return args
	}
	var front, back []string
	for j := i; j < len(args); j++ {
		arg := args[j]
		switch {
		case arg == "--":
			back = append(back, args[j:]...)
			j = len(args)
		case isFlag(arg):
			n := min(valueOf(flags, arg), len(args)-j-1)
			front = append(front, args[j:j+1+n]...)
			j += n
		default:
			back = append(back, arg)
		}
	}
	out := append([]string{}, args[:i]...)
	return append(append(out, front...), back...)
}

// isFlag reports whether arg is a flag (not "-", the standard input).
func isFlag(arg string) bool { return len(arg) > 1 && arg[0] == '-' && arg != "--" }

// valueOf is 1 when the flag arg (as given: --name or --name=value)
// takes its value from the next argument, else 0.
func valueOf(flags []cli.Flag, arg string) int {
	name := strings.TrimLeft(arg, "-")
	if strings.Contains(name, "=") {
		return 0
	}
	for _, f := range flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if v, ok := f.(cli.DocGenerationFlag); ok && v.TakesValue() {
				return 1
			}
			return 0
		}
	}
	return 0
}
