package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/auth"
	"lading/ops"
	"lading/progress"
	"lading/state"
)

// globalOptions are the flags every command takes, before or after its
// name: `lading --quiet stock push ...` and `lading stock push --quiet ...`
// are one command. Each field's tag is the name of its flag (globalFlags).
type globalOptions struct {
	Account     string  `flag:"account"`
	BaseURL     string  `flag:"base-url"`
	Token       string  `flag:"token"`
	Rate        float64 `flag:"rate"`
	Burst       int     `flag:"burst"`
	Concurrency int     `flag:"concurrency"`
	Quiet       bool    `flag:"quiet"`
	Debug       bool    `flag:"debug"`
	JSON        bool    `flag:"json"`

	// typed are the global flags given on the command line, fromEnv
	// those set from the environment (LADING_BASE_URL, LADING_TOKEN).
	typed, fromEnv map[string]bool
	// named is the account the command works on (see useAccount), nil
	// for none; namedErr why it could not be found.
	named    *ops.Account
	namedErr error
	resolved bool
}

// globalCategory heads the global flags in a command's help.
const globalCategory = "GLOBAL OPTIONS (also before the command's name)"

// globalFlags declares the global flags: for lading itself (root), bound
// to g and read from the environment too; for a command, bound to a copy
// of their own, as resolve reads them from the command's flags.
func globalFlags(g *globalOptions, root bool) []cli.Flag {
	env := func(name string) []string {
		if root {
			return []string{name}
		}
		return nil
	}
	category := ""
	if !root {
		g, category = &globalOptions{}, globalCategory
	}
	return []cli.Flag{
		&cli.StringFlag{Name: "account", EnvVars: env("LADING_ACCOUNT"), Destination: &g.Account, Category: category,
			Usage: "the account to work on, by the name lading accounts add gave it, or LADING_ACCOUNT; the default: lading accounts list"},
		&cli.StringFlag{Name: "base-url", EnvVars: env("LADING_BASE_URL"), Value: DefaultBaseURL, Destination: &g.BaseURL, Category: category,
			Usage: "service base URL, path prefix included (e.g. https://host/api2), or LADING_BASE_URL; the default is a local lading sandbox"},
		&cli.StringFlag{Name: "token", EnvVars: env("LADING_TOKEN"), Destination: &g.Token, Category: category,
			Usage: "access token, or LADING_TOKEN; else the token stored by lading auth login for the base URL"},
		&cli.Float64Flag{Name: "rate", Value: 5, Destination: &g.Rate, Category: category,
			Usage: "requests per second to the service (lowered automatically when throttled)"},
		&cli.IntFlag{Name: "burst", Value: 5, Destination: &g.Burst, Category: category,
			Usage: "requests allowed at once above the rate"},
		&cli.IntFlag{Name: "concurrency", Value: 4, Destination: &g.Concurrency, Category: category,
			Usage: "requests in flight at once"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Destination: &g.Quiet, Category: category,
			Usage: "print only warnings, errors and final results (no progress)"},
		&cli.BoolFlag{Name: "debug", Destination: &g.Debug, Category: category,
			Usage: "log every request and what lading does on stderr, in log format (the token is redacted)"},
		&cli.BoolFlag{Name: "json", Destination: &g.JSON, Category: category,
			Usage: "print results as JSON on stdout, one object per line"},
	}
}

// withGlobals gives a command the global flags it does not define itself
// (sandbox has a --rate of its own), and makes its action first resolve
// them into dst from where the user put them (see resolve).
func withGlobals(c *cli.Command, root, dst *globalOptions) {
	// A flag's Names runs a regular expression over its names: asked of
	// every flag of every command for every global one, they took most of
	// the few milliseconds building the commands takes.
	own := make(map[string]bool, len(c.Flags))
	for _, o := range c.Flags {
		own[o.Names()[0]] = true
	}
	var names []string
	for _, f := range globalFlags(root, false) {
		if fn := f.Names(); !own[fn[0]] {
			c.Flags = append(c.Flags, f)
			names = append(names, fn...)
		}
	}
	action := c.Action
	c.Action = func(ctx *cli.Context) error {
		if err := dst.resolve(ctx, root, names); err != nil {
			return err
		}
		return action(ctx)
	}
}

// resolve sets g to the global flags as the user gave them, the nearest
// to the command winning: after its name (among names, the global flags c
// has), after its group's (lading stock --quiet push), before them, in the
// environment, else the defaults. urfave reads a flag defined at several
// levels from the innermost only, which would put back its default over a
// value given further out.
func (g *globalOptions) resolve(c *cli.Context, root *globalOptions, names []string) error {
	*g = *root
	g.typed, g.fromEnv = map[string]bool{}, map[string]bool{}
	v := reflect.ValueOf(g).Elem()
	lineage := c.Lineage()
	app := lineage[len(lineage)-1]
	for i := range v.NumField() {
		if name := v.Type().Field(i).Tag.Get("flag"); name != "" && app.IsSet(name) {
			if slices.Contains(app.LocalFlagNames(), name) {
				g.typed[name] = true
			} else {
				g.fromEnv[name] = true
			}
		}
	}
	for _, ctx := range slices.Backward(lineage[:len(lineage)-1]) {
		if ctx.Command == nil {
			continue
		}
		set := ctx.LocalFlagNames()
		for i := range v.NumField() {
			name := v.Type().Field(i).Tag.Get("flag")
			if name == "" || ctx == c && !slices.Contains(names, name) || findFlag(ctx.Command.Flags, name) == nil || !slices.Contains(set, name) {
				continue
			}
			v.Field(i).Set(reflect.ValueOf(ctx.Value(name)))
			g.typed[name] = true
		}
	}
	return g.check()
}

// check refuses pacing that cannot be meant: a rate that is not a number
// above 0 (NaN would turn pacing off), no burst, no concurrency.
func (g *globalOptions) check() error {
	if math.IsNaN(g.Rate) || math.IsInf(g.Rate, 0) || g.Rate <= 0 {
		return Usagef("--rate %v: want a number of requests per second above 0, e.g. 5", g.Rate)
	}
	if g.Burst < 1 {
		return Usagef("--burst %d: want 1 or more", g.Burst)
	}
	if g.Concurrency < 1 {
		return Usagef("--concurrency %d: want 1 or more", g.Concurrency)
	}
	return nil
}

// logger writes what lading does to stderr: as sentences ("warning: ..."),
// at the level --quiet asks, or with --debug everything in log format.
func (g *globalOptions) logger(env *Env) *slog.Logger {
	if g.Debug {
		return slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	level := slog.LevelInfo
	if g.Quiet {
		level = slog.LevelWarn
	}
	return slog.New(&sentences{w: env.Stderr, level: level, mu: &sync.Mutex{}})
}

// sentences is a slog handler for people: a record is its message, with
// "warning: " before a warning and its error after it; its other
// attributes (ids, counts, paths for --debug) are left out.
type sentences struct {
	w     io.Writer
	level slog.Level
	mu    *sync.Mutex
	err   string // an error attribute given through WithAttrs
}

func (s *sentences) Enabled(_ context.Context, l slog.Level) bool { return l >= s.level }

func (s *sentences) Handle(_ context.Context, r slog.Record) error {
	line := r.Message
	if r.Level >= slog.LevelWarn {
		line = "warning: " + line
	}
	why := s.err
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "err" || a.Key == "error" {
			why = a.Value.String()
		}
		return true
	})
	if why != "" {
		line += ": " + why
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := fmt.Fprintln(s.w, line)
	return err
}

func (s *sentences) WithAttrs(as []slog.Attr) slog.Handler {
	c := *s
	for _, a := range as {
		if a.Key == "err" || a.Key == "error" {
			c.err = a.Value.String()
		}
	}
	return &c
}

func (s *sentences) WithGroup(string) slog.Handler { return s }

// client builds the service client from the global flags and the token
// precedence (see token), and returns the token.
func (g *globalOptions) client(env *Env) (*api.Client, string, error) {
	token, _, err := g.token(env)
	if err != nil {
		return nil, "", err
	}
	opts := []api.Option{
		api.WithRate(g.Rate, g.Burst),
		api.WithLogger(g.logger(env)),
		api.WithUserAgent("lading"),
	}
	if g.Debug {
		opts = append(opts, api.WithDebug(env.Stderr))
	}
	cl, err := api.NewClient(g.BaseURL, token, append(opts, env.APIOptions...)...)
	if err != nil {
		return nil, "", usageHint("Give the service's address with --base-url (or LADING_BASE_URL), e.g. https://HOST/api2.", "%w", err)
	}
	return cl, token, nil
}

// token applies the precedence: the named account's token (its token
// file, or the one stored for its name); else --token, LADING_TOKEN, the
// token stored for the base URL. It says which one it used.
func (g *globalOptions) token(env *Env) (token, source string, err error) {
	if err := g.useAccount(env); err != nil {
		return "", "", err
	}
	if g.named != nil {
		dirs, err := env.dirs()
		if err != nil {
			return "", "", err
		}
		token, source, err := g.named.Token(dirs.Store())
		var nt *ops.NoTokenError
		if errors.As(err, &nt) {
			return "", "", usageHint(fmt.Sprintf("Run lading auth login --account %s, or give it a token file: lading accounts remove %s, then add it again with --token-file FILE.", nt.Account, nt.Account),
				"account %s has no token", nt.Account)
		}
		return token, source, err
	}
	if g.Token != "" {
		if env.Getenv("LADING_TOKEN") == g.Token {
			return g.Token, "LADING_TOKEN", nil
		}
		return g.Token, "--token", nil
	}
	store, err := env.store()
	if err != nil {
		return "", "", err
	}
	cred, ok, err := store.Get(g.BaseURL)
	if err != nil {
		return "", "", err
	}
	if !ok {
		return "", "", usageHint("Pass --token, set LADING_TOKEN, run lading auth login, or name an account with --account (lading accounts list).", "no token for %s", auth.NormalizeBaseURL(g.BaseURL))
	}
	return cred.Token, "stored in " + store.Path, nil
}

// useAccount finds the account the command works on, once: the one
// --account (or LADING_ACCOUNT) names; else, unless --base-url or --token
// is given (or LADING_BASE_URL, LADING_TOKEN), the registry's default;
// else none, and the base URL and token are as given. The account's base
// URL then replaces the flag's. An account named beside --base-url or
// --token on the command line is a usage error: which one is meant?
func (g *globalOptions) useAccount(env *Env) error {
	if g.resolved {
		return g.namedErr
	}
	g.resolved = true
	g.named, g.namedErr = g.findAccount(env)
	if a := g.named; a != nil {
		g.BaseURL, g.Token = a.BaseURL, ""
		if a.Rate > 0 && !g.typed["rate"] {
			g.Rate = a.Rate
		}
		if a.Burst > 0 && !g.typed["burst"] {
			g.Burst = a.Burst
		}
	}
	return g.namedErr
}

func (g *globalOptions) findAccount(env *Env) (*ops.Account, error) {
	name := strings.TrimSpace(g.Account)
	if name == "" && (g.typed["base-url"] || g.typed["token"] || g.fromEnv["base-url"] || g.fromEnv["token"] || g.Token != "") {
		return nil, nil
	}
	for _, flag := range []string{"base-url", "token"} {
		if name != "" && g.typed[flag] {
			return nil, usageHint("The account has its own base URL and token (lading accounts list); leave out --"+flag+", or --account.",
				"--account %s and --%s do not go together", name, flag)
		}
	}
	dirs, err := env.dirs()
	if err != nil {
		if name == "" {
			return nil, nil // no registry to have a default
		}
		return nil, err
	}
	reg, err := ops.OpenRegistry(dirs)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = reg.Default
		if name == "" {
			return nil, nil
		}
	}
	a, err := reg.Account(name)
	if err != nil {
		return nil, usageHint("lading accounts list shows the accounts; lading accounts add NAME --base-url URL adds one.", "--account: %w", err)
	}
	return &a, nil
}

// stateFile is the state file of the command: --state when given, else
// the named account's own, else state.DefaultPath in the working folder.
func (g *globalOptions) stateFile(env *Env, given string) (string, error) {
	if given != "" {
		return given, nil
	}
	if err := g.useAccount(env); err != nil {
		return "", err
	}
	if g.named == nil {
		return state.DefaultPath, nil
	}
	dirs, err := env.dirs()
	if err != nil {
		return "", err
	}
	return dirs.StatePath(g.named.Name), nil
}

// account names the account token opens at --base-url (see ops.Scope).
func (g *globalOptions) account(token string) string { return ops.Scope(g.BaseURL, token) }

// dirs are the user's config and data folders (see ops.UserDirs).
func (env *Env) dirs() (ops.Dirs, error) { return ops.UserDirs(env.Getenv) }

// store is the token store.
func (env *Env) store() (*auth.Store, error) {
	d, err := env.dirs()
	if err != nil {
		return nil, err
	}
	return d.Store(), nil
}

// progress shows a job's progress on stderr, unless --quiet.
func (g *globalOptions) progress(env *Env, client *api.Client) *progress.Progress {
	if g.Quiet {
		return nil
	}
	return progress.New(env.Stderr, env.IsTerminal, 10*time.Second, func() (int64, float64) {
		s := client.Stats()
		return s.Requests, s.Rate
	})
}
