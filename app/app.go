// Package app is lading's command line: the commands, their flags bound
// into options structs, run functions that tests call directly, the advice
// that names commands and flags, and the errors main turns into exit
// codes. Business rules live in the packages it wires, never here.
//
// Each command is declared in one function: its flags (the shared ones
// come from flags.go, the global ones from globals.go), its help (usage,
// description, examples and exit codes) and an action that binds the
// arguments and calls the command's run function with its options.
package app

import (
	"io"
	"net/http"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"lading/api"
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
	// Local is the zone --timezone Local names (main: time.Local); nil
	// means UTC, so that a test reads the same on every machine.
	Local *time.Location
	// APIOptions are added to those of every client a command makes (a
	// test's backoff of milliseconds).
	APIOptions []api.Option
	// Reload, when lading run asks for it, passes on each request to read
	// the jobs file again (main: SIGHUP); nil for none.
	Reload func() <-chan struct{}
	// Now is the time, for what a command says of the time to come
	// (jobs check's next runs); nil is time.Now.
	Now func() time.Time
	// ImageTransport carries the downloads of an import's images; nil is
	// the network. Tests give one that serves them locally.
	ImageTransport http.RoundTripper
	// Serving is called by a command that is about to serve for long
	// (lading sandbox, before it loads a catalog), so that main gives the
	// collector a server's pace; Listening, once it listens and only
	// serves from then on (main: sandbox.ServeGCPercent). nil for nothing.
	Serving   func()
	Listening func()
}

// New builds the lading application.
func New(env Env) *cli.App {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	root := &globalOptions{}
	b := &builder{env: &env, root: root, docs: map[*cli.Command]doc{nil: ladingDoc}}
	a := &cli.App{
		Name:  "lading",
		Usage: "move catalog, stock and fulfillment data between spreadsheets and the integrations service",
		Description: "lading uploads catalogs from CSV/XLSX exports (Shopify, WooCommerce, any layout through a\n" +
			"mapping file) to the service's rate-limited integrations interface, pushes stock levels, shipments\n" +
			"and packing slips from warehouse files, pulls open fulfillments and exports reports. Only what changed\n" +
			"is written, every row is accounted for in a results file, and an interrupted run continues where it\n" +
			"stopped. Global options go before or after the command's name. Try it on the built-in sandbox first:\n" +
			"lading demo",
		Version:   versionLine(),
		Writer:    env.Stdout,
		ErrWriter: env.Stderr,
		Reader:    env.Stdin,
		// urfave adds --help only when no command is named help.
		Flags: append(globalFlags(root, true), cli.HelpFlag),
		// main maps errors to exit codes; the app must never call os.Exit.
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError:    onUsageError,
		HideHelpCommand: true,
		Action:          chooseCommand,
		CommandNotFound: helpOfCommand,
	}
	a.Commands = []*cli.Command{
		demoCommand(b),
		importCommand(b),
		stockCommand(b),
		exportCommand(b),
		fulfillmentsCommand(b),
		shipmentsCommand(b),
		slipsCommand(b),
		runsCommand(b),
		undoCommand(b),
		uiCommand(b),
		templatesCommand(b),
		mappingCommand(b),
		authCommand(b),
		accountsCommand(b),
		jobsCommand(b),
		runCommand(b),
		sandboxCommand(b),
		versionCommand(b),
		helpCommand(b),
	}
	for _, c := range a.Commands {
		finish(c, "")
	}
	quietDefaults(a.Flags)
	a.CustomAppHelpTemplate = helpTemplate(cli.AppHelpTemplate, ladingDoc)
	a.Metadata = map[string]any{docsKey: b.docs}
	return a
}
