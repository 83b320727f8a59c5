package app

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

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
// given no command, or one they do not have.
func chooseCommand(c *cli.Context) error {
	var names []string
	for _, s := range c.Command.Subcommands {
		if !s.Hidden && s.Name != "help" {
			names = append(names, s.Name)
		}
	}
	line := commandLine(c)
	list := fmt.Sprintf("the commands of %s are %s (see %s --help)", line, strings.Join(names, ", "), line)
	if c.NArg() == 0 {
		return Usagef("missing command: %s", list)
	}
	typed := strings.TrimSpace(strings.TrimPrefix(line, "lading") + " " + c.Args().First())
	return Usagef("unknown command %q: %s", typed, list)
}

// noArgs refuses arguments given to a command that takes none: they are
// most often a flag put after a value, or a typo.
func noArgs(c *cli.Context) error {
	if c.NArg() == 0 {
		return nil
	}
	return Usagef("%s takes no arguments, got %q (flags go before arguments; see %s --help)",
		commandLine(c), strings.Join(c.Args().Slice(), " "), commandLine(c))
}

// checkGlobalFlags refuses pacing that cannot be meant: a rate that is not
// a number above 0 (NaN would turn pacing off), no burst, no concurrency.
func checkGlobalFlags(c *cli.Context) error {
	if err := positive(c, "rate", "a number of requests per second above 0, e.g. 5"); err != nil {
		return err
	}
	for _, name := range []string{"burst", "concurrency"} {
		if err := atLeast(c, name, 1); err != nil {
			return err
		}
	}
	return nil
}

// positive refuses a float flag that is not a finite number above 0.
func positive(c *cli.Context, name, want string) error {
	if v := c.Float64(name); math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return Usagef("--%s %v: want %s", name, v, want)
	}
	return nil
}

// atLeast refuses an int flag below min.
func atLeast(c *cli.Context, name string, min int) error {
	if v := c.Int(name); v < min {
		return Usagef("--%s %d: want %d or more", name, v, min)
	}
	return nil
}

// inRange refuses a float flag that is not a number from lo to hi.
func inRange(c *cli.Context, name string, lo, hi float64, want string) error {
	if v := c.Float64(name); math.IsNaN(v) || v < lo || v > hi {
		return Usagef("--%s %v: want %s", name, v, want)
	}
	return nil
}

// notNegative refuses a duration flag below 0.
func notNegative(c *cli.Context, name string) error {
	if d := c.Duration(name); d < 0 {
		return Usagef("--%s %s: want a duration of 0 or more, e.g. 50ms", name, d)
	}
	return nil
}

// longerThanZero refuses a duration flag of 0 or less.
func longerThanZero(c *cli.Context, name, example string) error {
	if d := c.Duration(name); d <= 0 {
		return Usagef("--%s %s: want a duration above 0, e.g. %s", name, d, example)
	}
	return nil
}
