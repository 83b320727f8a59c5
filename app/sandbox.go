package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"lading/sandbox"
	"lading/templates"
)

// sandboxOptions are the options of sandbox. Its --rate, --burst and
// --token are its own: the throttle it applies, the tokens it takes.
type sandboxOptions struct {
	globalOptions
	mappingOptions
	Addr, DB                         string
	Tokens, Clients                  []string
	Rate                             float64
	Burst, ThrottleStatus            int
	FailRate, DropRate, ThrottleRate float64
	Latency                          time.Duration
	Seed                             int64
	// Loads are the catalog file of --load and, when the mapping joins
	// two files, the second.
	Loads []string
	// LoadDate is the day the loaded records are stamped with
	// (YYYY-MM-DD; "": today).
	LoadDate string
}

var sandboxExamples = []example{
	{"a sandbox that keeps its data, with a token of your choice", "lading sandbox --db sandbox.db --token demo-token"},
	{"one whose account holds a catalog file, loaded once", "lading sandbox --db big.db --token demo-token --load products_export.csv --template shopify"},
	{"one that throttles and fails like a busy service, to try lading's pacing against", "lading sandbox --token demo-token --rate 2 --fail-rate 0.05 --drop-rate 0.02"},
}

func sandboxCommand(b *builder) *cli.Command {
	o := &sandboxOptions{}
	return b.leaf(&cli.Command{
		Name:  "sandbox",
		Usage: "run the local emulator of the integrations interface (for trying lading and for tests)",
		Description: "Serves the whole interface on a loopback address, at / and under /api2, with its data in SQLite.\n" +
			"It prints its base URL and a ready token. Point lading at it with --base-url and --token,\n" +
			"or call it with curl (see docs/sandbox.md). The admin API under /_sandbox/ creates orders, resets data\n" +
			"and shows counters; it is not part of the real interface. Its --rate, --burst and --token are its\n" +
			"own (the throttle it applies, the tokens it takes), not lading's global ones.\n\n" +
			"--load FILE imports a catalog file into the first token's account before serving, through the mapping\n" +
			"--template or --mapping names, as lading import would write it (without throttling, faults or images);\n" +
			"a mapping that joins two files (PrestaShop's) takes the second with another --load.\n" +
			"With --db, a later start with the same file and mapping finds it loaded and leaves it as it is;\n" +
			"a load that was stopped is finished by the next start, which writes only what the account lacks.\n" +
			"A load does not wait for the disk at each write: what it wrote is on the disk once it is done, but a crash\n" +
			"of the machine during it may damage the --db file (delete it and load again).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8700", Destination: &o.Addr, Usage: "loopback address to listen on"},
			&cli.StringFlag{Name: "db", Destination: &o.DB, Usage: "SQLite file keeping the data across restarts (default: in memory)"},
			&cli.GenericFlag{Name: "token", Value: &stringList{&o.Tokens}, Usage: "register a ready token (account, channel and warehouse created); a random one if none; repeatable"},
			&cli.GenericFlag{Name: "client", Value: &stringList{&o.Clients}, Usage: "register an OAuth client as ID:SECRET:REDIRECT_URI; repeatable"},
			&cli.Float64Flag{Name: "rate", Destination: &o.Rate, Usage: "throttle each token to this many requests per second (0: no limit)"},
			&cli.IntFlag{Name: "burst", Value: 1, Destination: &o.Burst, Usage: "requests a token may send at once above --rate"},
			&cli.IntFlag{Name: "throttle-status", Value: 429, Destination: &o.ThrottleStatus, Usage: "status of a throttled answer: 429 (with Retry-After) or 403 (the gateway's text)"},
			&cli.Float64Flag{Name: "fail-rate", Destination: &o.FailRate, Usage: "fraction of requests answered 500 before anything is applied"},
			&cli.Float64Flag{Name: "drop-rate", Destination: &o.DropRate, Usage: "fraction of writes applied and then left unanswered (connection closed)"},
			&cli.Float64Flag{Name: "throttle-rate", Destination: &o.ThrottleRate, Usage: "fraction of requests answered as throttled whatever the rate (Retry-After 1 s)"},
			&cli.DurationFlag{Name: "latency", Destination: &o.Latency, Usage: "delay added to every request"},
			&cli.Int64Flag{Name: "seed", Value: 1, Destination: &o.Seed, Usage: "seed of the fault injection, for reproducible runs"},
			&cli.GenericFlag{Name: "load", Value: &stringList{&o.Loads}, Usage: "catalog file (CSV or XLSX) to import into the account before serving, through --template or --mapping; " +
				"a second --load gives the file the mapping joins (PrestaShop's combinations)"},
			&cli.StringFlag{Name: "load-date", Destination: &o.LoadDate, Usage: "day the records --load writes are created and updated on, as YYYY-MM-DD, for trying import --incremental against a catalog loaded earlier (default: today)"},
		}, mappingFlags(&o.mappingOptions, "", templates.KindCatalog)...),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runSandbox(c.Context, b.env, o)
		},
	}, &o.globalOptions, doc{examples: sandboxExamples, exits: []int{ExitInterrupted}})
}

func parseClients(specs []string) ([]sandbox.Client, error) {
	var out []sandbox.Client
	for _, s := range specs {
		parts := strings.SplitN(s, ":", 3)
		if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
			return nil, Usagef("--client %q: want ID:SECRET:REDIRECT_URI, e.g. demo:s3cret:http://127.0.0.1:8765/callback", s)
		}
		out = append(out, sandbox.Client{ID: parts[0], Secret: parts[1], RedirectURI: parts[2]})
	}
	return out, nil
}

func randomToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// check refuses numbers the sandbox cannot mean: NaN, infinite or
// negative rates, fractions outside 0 to 1, negative latency.
func (o *sandboxOptions) check() error {
	if o.ThrottleStatus != 429 && o.ThrottleStatus != 403 {
		return Usagef("--throttle-status %d: want 429 or 403", o.ThrottleStatus)
	}
	if o.Burst < 1 {
		return Usagef("--burst %d: want 1 or more", o.Burst)
	}
	if o.Latency < 0 {
		return Usagef("--latency %s: want a duration of 0 or more, e.g. 50ms", o.Latency)
	}
	if (o.Template != "" || o.Mapping != "") && len(o.Loads) == 0 {
		return usageHint("For example: lading sandbox --load products_export.csv --template shopify",
			"%s names the mapping of a file to load: give the file with --load", o.how())
	}
	if o.LoadDate != "" && len(o.Loads) == 0 {
		return usageHint("For example: lading sandbox --load products_export.csv --template shopify --load-date 2026-01-31",
			"--load-date is the day of what --load loads: give the file with --load")
	}
	if len(o.Loads) > 2 {
		return Usagef("--load is given %d times: give the catalog file, and a second --load only for the file the mapping joins", len(o.Loads))
	}
	if len(o.Loads) > 0 {
		if err := checkInput("--load", o.Loads[0]); err != nil {
			return err
		}
	}
	for _, err := range []error{
		inRange("rate", o.Rate, 0, math.MaxFloat64, "a number of requests per second, or 0 for no limit"),
		inRange("fail-rate", o.FailRate, 0, 1, "a fraction from 0 to 1, e.g. 0.1"),
		inRange("drop-rate", o.DropRate, 0, 1, "a fraction from 0 to 1, e.g. 0.05"),
		inRange("throttle-rate", o.ThrottleRate, 0, 1, "a fraction from 0 to 1, e.g. 0.1"),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// sandboxLine is what sandbox --json prints once it listens.
type sandboxLine struct {
	BaseURL string   `json:"base_url"`
	Tokens  []string `json:"tokens"`
}

func runSandbox(ctx context.Context, env *Env, o *sandboxOptions) error {
	if err := o.check(); err != nil {
		return err
	}
	if env.Serving != nil {
		env.Serving()
	}
	clients, err := parseClients(o.Clients)
	if err != nil {
		return err
	}
	srv, err := sandbox.New(sandbox.Options{
		DBPath: o.DB, Rate: o.Rate, Burst: o.Burst, ThrottleStatus: o.ThrottleStatus,
		FailRate: o.FailRate, DropRate: o.DropRate, ThrottleRate: o.ThrottleRate,
		Latency: o.Latency, Seed: o.Seed, Clients: clients, Logger: o.logger(env),
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	tokens := o.Tokens
	if len(tokens) == 0 {
		tokens = []string{randomToken()}
	}
	for _, t := range tokens {
		if _, err := srv.RegisterToken(t); err != nil {
			return err
		}
	}
	if len(o.Loads) > 0 {
		if err := loadCatalog(ctx, env, srv, tokens[0], o); err != nil {
			return err
		}
	}
	return sandbox.ListenAndServe(ctx, o.Addr, srv, func(base string) {
		if env.Listening != nil {
			env.Listening()
		}
		o.emit(env, sandboxLine{BaseURL: base, Tokens: tokens}, func(w io.Writer) {
			fmt.Fprintf(w, "sandbox listening on %s (also under %s/api2)\n", base, base)
			for _, t := range tokens {
				fmt.Fprintf(w, "token: %s\n", t)
			}
			fmt.Fprintf(w, "try:   lading --base-url %s --token %s auth status\n", base, tokens[0])
		})
	})
}
