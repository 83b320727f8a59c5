package app

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"lading/auth"
	"lading/ops"
)

var accountsExamples = []example{
	{"a merchant's account, whose token lading auth login then stores", "lading accounts add acme --base-url https://HOST/api2"},
	{"one whose token is kept in a file, paced at 2 requests a second", "lading accounts add globex --base-url https://HOST/api2 --token-file /etc/lading/globex.token --rate 2"},
	{"the accounts, the default one, where each token and state is", "lading accounts list"},
	{"push stock to one of them", "lading --account acme stock push --template stock stock.csv"},
}

func accountsCommand(b *builder) *cli.Command {
	return b.group(&cli.Command{
		Name:        "accounts",
		Usage:       "name the merchants' accounts lading works on (3PLs): each its base URL, token and state",
		Subcommands: []*cli.Command{accountsAddCommand(b), accountsListCommand(b), accountsDefaultCommand(b), accountsRemoveCommand(b)},
	}, doc{examples: accountsExamples})
}

// accountsAddOptions are the options of accounts add.
type accountsAddOptions struct {
	globalOptions
	Name, TokenFile string
	Default         bool
}

func accountsAddCommand(b *builder) *cli.Command {
	o := &accountsAddOptions{}
	return b.oneArg(&cli.Command{
		Name:      "add",
		Usage:     "add an account by name: its base URL, and where its token comes from",
		ArgsUsage: "NAME",
		Description: "Names an account for --account NAME (or LADING_ACCOUNT) and jobs files. Its token is the one\n" +
			"lading auth login --account NAME stores (in the same 0600 store as other tokens, under the name), or\n" +
			"the one in --token-file, read each time it is used. Its state is a file of its own under the user's\n" +
			"data folder ($XDG_DATA_HOME, else ~/.local/share: lading/accounts/NAME/state.db), so that nothing\n" +
			"of one account is read for another. --rate and --burst, when given, pace its token from then on.\n" +
			"The first account added is the default: commands given no --account (nor --base-url or --token)\n" +
			"work on it; --default makes another the default (as lading accounts default NAME does later).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "token-file", Destination: &o.TokenFile, Usage: "file holding the account's token (else lading auth login --account NAME stores one)"},
			&cli.BoolFlag{Name: "default", Destination: &o.Default, Usage: "make it the default account"},
		},
	}, &o.globalOptions, &o.Name, "the account's name", doc{examples: accountsExamples[:2]}, func(context.Context) error { return runAccountsAdd(b.env, o) })
}

// oneArg finishes a command that takes one argument, into dst (what
// names it in the message when it is missing), and then calls run.
func (b *builder) oneArg(c *cli.Command, g *globalOptions, dst *string, what string, d doc, run func(context.Context) error) *cli.Command {
	c.Action = func(ctx *cli.Context) error {
		if ctx.NArg() != 1 {
			return usageHint("For example: "+d.examples[0].line, "%s takes %s", commandLine(ctx), what)
		}
		*dst = ctx.Args().First()
		return run(ctx.Context)
	}
	return b.leaf(c, g, d)
}

// accountLine is an account as accounts add, list and remove print it
// with --json.
type accountLine struct {
	Name      string  `json:"name"`
	BaseURL   string  `json:"base_url"`
	Token     string  `json:"token"` // where it comes from, never the token
	TokenFile string  `json:"token_file,omitempty"`
	State     string  `json:"state"`
	Default   bool    `json:"default"`
	Rate      float64 `json:"rate,omitempty"`
	Burst     int     `json:"burst,omitempty"`
}

func runAccountsAdd(env *Env, o *accountsAddOptions) error {
	if !o.typed["base-url"] && !o.fromEnv["base-url"] {
		return usageHint("For example: "+accountsExamples[0].line, "give the account's base URL: --base-url https://HOST/api2")
	}
	a := ops.Account{Name: o.Name, BaseURL: o.BaseURL}
	if o.TokenFile != "" {
		if _, err := auth.ReadTokenFile(o.TokenFile); err != nil {
			return Usagef("--token-file: %w", err)
		}
		// Kept whole, so that the file is found from any folder.
		abs, err := filepath.Abs(o.TokenFile)
		if err != nil {
			return err
		}
		a.TokenFile = abs
	}
	if o.typed["rate"] {
		a.Rate = o.Rate
	}
	if o.typed["burst"] {
		a.Burst = o.Burst
	}
	reg, dirs, err := changeRegistry(env, func(reg *ops.Registry) error { return reg.Add(a, o.Default) })
	if err != nil {
		return err
	}
	line := accountLineOf(reg, dirs, reg.Accounts[a.Name])
	return o.emit(env, line, func(w io.Writer) {
		fmt.Fprintf(w, "added account %s (%s); its state: %s\n", line.Name, line.BaseURL, line.State)
		if line.Default {
			fmt.Fprintf(w, "it is the default account: commands without --account work on it\n")
		} else {
			fmt.Fprintf(w, "commands work on it with --account %s (the default is %s)\n", line.Name, reg.Default)
		}
		if a.TokenFile == "" {
			fmt.Fprintf(w, "next: store its token with lading auth login --account %s (--token-file FILE for a token you have)\n", a.Name)
		}
	})
}

// accountLineOf is a for people and scripts: where its token comes from
// (looked up in the store, never shown), its state file.
func accountLineOf(reg *ops.Registry, dirs ops.Dirs, a ops.Account) accountLine {
	l := accountLine{Name: a.Name, BaseURL: a.BaseURL, TokenFile: a.TokenFile, State: dirs.StatePath(a.Name), Default: reg.Default == a.Name, Rate: a.Rate, Burst: a.Burst}
	switch _, ok, err := dirs.Store().GetAccount(a.Name); {
	case a.TokenFile != "":
		l.Token = "file " + a.TokenFile
	case err == nil && ok:
		l.Token = "stored"
	default:
		l.Token = "none (lading auth login --account " + a.Name + ")"
	}
	return l
}

func accountsListCommand(b *builder) *cli.Command {
	o := &globalOptions{}
	return b.leaf(&cli.Command{
		Name:  "list",
		Usage: "list the accounts: base URL, where the token comes from, the state file; * marks the default",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runAccountsList(b.env, o)
		},
	}, o, doc{examples: accountsExamples[2:3]})
}

func runAccountsList(env *Env, o *globalOptions) error {
	dirs, err := env.dirs()
	if err != nil {
		return err
	}
	reg, err := ops.OpenRegistry(dirs)
	if err != nil {
		return err
	}
	if o.JSON {
		for _, name := range reg.Names() {
			if err := jsonLine(env.Stdout, accountLineOf(reg, dirs, reg.Accounts[name])); err != nil {
				return err
			}
		}
		return nil
	}
	if len(reg.Accounts) == 0 {
		fmt.Fprintln(env.Stdout, "no accounts yet: add one with lading accounts add NAME --base-url URL")
		return nil
	}
	w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "  NAME\tBASE URL\tTOKEN\tSTATE")
	for _, name := range reg.Names() {
		l := accountLineOf(reg, dirs, reg.Accounts[name])
		mark := " "
		if l.Default {
			mark = "*"
		}
		fmt.Fprintf(w, "%s %s\t%s\t%s\t%s\n", mark, l.Name, l.BaseURL, l.Token, l.State)
	}
	return w.Flush()
}

// accountNameOptions are the options of a command on one account, by
// name (accounts remove, accounts default).
type accountNameOptions struct {
	globalOptions
	Name string
}

// accountNameCommand finishes c, a command on the account its argument
// names, which run does.
func (b *builder) accountNameCommand(c *cli.Command, ex example, run func(*Env, *accountNameOptions) error) *cli.Command {
	o := &accountNameOptions{}
	c.ArgsUsage = "NAME"
	return b.oneArg(c, &o.globalOptions, &o.Name, "the account's name", doc{examples: []example{ex}},
		func(context.Context) error { return run(b.env, o) })
}

// changeRegistry opens the accounts, changes them and saves them; an
// error of change is the user's (a name that is none, or taken).
func changeRegistry(env *Env, change func(*ops.Registry) error) (*ops.Registry, ops.Dirs, error) {
	dirs, err := env.dirs()
	if err != nil {
		return nil, dirs, err
	}
	reg, err := ops.OpenRegistry(dirs)
	if err != nil {
		return nil, dirs, err
	}
	if err := change(reg); err != nil {
		return nil, dirs, usageHint("lading accounts list shows the accounts.", "%w", err)
	}
	return reg, dirs, reg.Save()
}

func accountsRemoveCommand(b *builder) *cli.Command {
	return b.accountNameCommand(&cli.Command{
		Name:  "remove",
		Usage: "forget an account and its stored token (its state file is kept)",
	}, example{"forget the account acme", "lading accounts remove acme"}, runAccountsRemove)
}

func runAccountsRemove(env *Env, o *accountNameOptions) error {
	var (
		a          ops.Account
		wasDefault bool
	)
	reg, dirs, err := changeRegistry(env, func(reg *ops.Registry) (err error) {
		wasDefault = reg.Default == o.Name
		a, err = reg.Remove(o.Name)
		return err
	})
	if err != nil {
		return err
	}
	forgot, err := dirs.Store().DeleteAccount(a.Name)
	if err != nil {
		return fmt.Errorf("the account is removed, but its stored token could not be forgotten: %w", err)
	}
	state := dirs.StatePath(a.Name)
	return o.emit(env, map[string]any{"removed": a.Name, "token_forgotten": forgot, "state": state, "was_default": wasDefault}, func(w io.Writer) {
		fmt.Fprintf(w, "removed account %s (%s)", a.Name, auth.NormalizeBaseURL(a.BaseURL))
		if forgot {
			fmt.Fprint(w, "; its stored token is forgotten (it stays valid until access is revoked in the account)")
		}
		fmt.Fprintf(w, "\nits state is kept in %s: delete %s when it is no longer wanted\n", state, filepath.Dir(state))
		if wasDefault && len(reg.Accounts) > 0 {
			fmt.Fprintf(w, "it was the default account, and no account is now: give --account NAME, or make one the default with lading accounts default NAME (%s)\n",
				strings.Join(reg.Names(), ", "))
		}
	})
}

func accountsDefaultCommand(b *builder) *cli.Command {
	return b.accountNameCommand(&cli.Command{
		Name:  "default",
		Usage: "make an account the default: the one commands given no --account work on",
	}, example{"commands without --account work on globex from now on", "lading accounts default globex"}, runAccountsDefault)
}

func runAccountsDefault(env *Env, o *accountNameOptions) error {
	reg, dirs, err := changeRegistry(env, func(reg *ops.Registry) error { return reg.SetDefault(o.Name) })
	if err != nil {
		return err
	}
	line := accountLineOf(reg, dirs, reg.Accounts[o.Name])
	return o.emit(env, line, func(w io.Writer) {
		fmt.Fprintf(w, "%s (%s) is the default account: commands without --account work on it\n", line.Name, line.BaseURL)
	})
}
