// Package app is lading's command line: flags, wiring of the packages that do
// the work, and the errors main turns into exit codes. Business rules live in
// the packages it wires, never here.
package app

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/urfave/cli/v2"
)

// DefaultBaseURL is where `lading sandbox` listens unless told otherwise, so
// a fresh machine needs no configuration to try lading against it.
const DefaultBaseURL = "http://127.0.0.1:8700"

// Env holds what a command needs from its surroundings; tests replace it.
type Env struct {
	Stdout, Stderr io.Writer
	Stdin          io.Reader
	// Getenv reads environment variables not bound to flags (client secret).
	Getenv func(string) string
	// IsTerminal reports whether stderr is a terminal (progress bars).
	IsTerminal bool
}

// New builds the lading application.
func New(env Env) *cli.App {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	a := &cli.App{
		Name:  "lading",
		Usage: "move catalog and stock data between spreadsheets and the integrations service",
		Description: "lading uploads catalogs from CSV/XLSX exports (Shopify, WooCommerce, any layout through a\n" +
			"mapping file) to the service's rate-limited integrations interface: only what changed is written,\n" +
			"every row is accounted for in a results file, and an interrupted import continues where it stopped.\n" +
			"Try it on the built-in sandbox first: lading demo",
		Writer:    env.Stdout,
		ErrWriter: env.Stderr,
		Reader:    env.Stdin,
		Flags:     globalFlags(),
		// main maps errors to exit codes; the app must never call os.Exit.
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError:    onUsageError,
		HideHelpCommand: true,
		Suggest:         true,
		Before:          checkGlobalFlags,
		Action:          chooseCommand,
		Metadata:        map[string]any{envKey: &env},
	}
	a.Commands = []*cli.Command{
		demoCommand(),
		importCommand(),
		stockCommand(),
		exportCommand(),
		fulfillmentsCommand(),
		shipmentsCommand(),
		slipsCommand(),
		templatesCommand(),
		mappingCommand(),
		authCommand(),
		sandboxCommand(),
	}
	for _, c := range a.Commands {
		setUsageErrors(c)
	}
	return a
}

const envKey = "env"

func envOf(c *cli.Context) *Env { return c.App.Metadata[envKey].(*Env) }

func onUsageError(c *cli.Context, err error, _ bool) error {
	return &UsageError{Err: fmt.Errorf("%w (see %s --help)", err, commandLine(c))}
}

// setUsageErrors makes every mistake in calling c or its subcommands a
// UsageError: bad flags, and a missing or unknown subcommand.
func setUsageErrors(c *cli.Command) {
	c.OnUsageError = onUsageError
	if len(c.Subcommands) > 0 && c.Action == nil {
		c.Action = chooseCommand
	}
	for _, s := range c.Subcommands {
		setUsageErrors(s)
	}
}

func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "base-url", EnvVars: []string{"LADING_BASE_URL"}, Value: DefaultBaseURL,
			Usage: "service base URL, path prefix included (e.g. https://host/api2); the default is a local lading sandbox"},
		&cli.StringFlag{Name: "token", EnvVars: []string{"LADING_TOKEN"},
			Usage: "access token; else the token stored by lading auth login for the base URL"},
		&cli.Float64Flag{Name: "rate", Value: 5, Usage: "requests per second to the service (lowered automatically when throttled)"},
		&cli.IntFlag{Name: "burst", Value: 5, Usage: "requests allowed at once above the rate"},
		&cli.IntFlag{Name: "concurrency", Value: 4, Usage: "requests in flight at once"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only warnings, errors and final results"},
		&cli.BoolFlag{Name: "debug", Usage: "trace HTTP requests and responses on stderr (the token is redacted)"},
	}
}

// logger writes human-readable logs to stderr at the level the flags ask.
func logger(c *cli.Context) *slog.Logger {
	level := slog.LevelInfo
	if c.Bool("quiet") {
		level = slog.LevelWarn
	}
	if c.Bool("debug") {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(envOf(c).Stderr, &slog.HandlerOptions{Level: level}))
}
