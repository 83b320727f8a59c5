package app

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"strings"

	"github.com/urfave/cli/v2"

	"lading/sandbox"
)

func sandboxCommand() *cli.Command {
	return &cli.Command{
		Name:  "sandbox",
		Usage: "run the local emulator of the integrations interface (for trying lading and for tests)",
		Description: "Serves the whole interface on a loopback address, at / and under /api2, with its data in SQLite.\n" +
			"It prints its base URL and a ready token. Point lading at it with --base-url and --token,\n" +
			"or call it with curl (see README). The admin API under /_sandbox/ creates orders, resets data\n" +
			"and shows counters; it is not part of the real interface.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8700", Usage: "loopback address to listen on"},
			&cli.StringFlag{Name: "db", Usage: "SQLite file keeping the data across restarts (default: in memory)"},
			&cli.StringSliceFlag{Name: "token", Usage: "register a ready token (account, channel and warehouse created); a random one if none"},
			&cli.StringSliceFlag{Name: "client", Usage: "register an OAuth client as ID:SECRET:REDIRECT_URI (repeatable)"},
			&cli.Float64Flag{Name: "rate", Usage: "throttle each token to this many requests per second (0: no limit)"},
			&cli.IntFlag{Name: "burst", Value: 1, Usage: "requests a token may send at once above --rate"},
			&cli.IntFlag{Name: "throttle-status", Value: 429, Usage: "status of a throttled answer: 429 (with Retry-After) or 403 (the gateway's text)"},
			&cli.Float64Flag{Name: "fail-rate", Usage: "fraction of requests answered 500 before anything is applied"},
			&cli.Float64Flag{Name: "drop-rate", Usage: "fraction of writes applied and then left unanswered (connection closed)"},
			&cli.Float64Flag{Name: "throttle-rate", Usage: "fraction of requests answered as throttled whatever the rate (Retry-After 1 s)"},
			&cli.DurationFlag{Name: "latency", Usage: "delay added to every request"},
			&cli.Int64Flag{Name: "seed", Value: 1, Usage: "seed of the fault injection, for reproducible runs"},
		},
		Action: runSandbox,
	}
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

// checkSandboxFlags refuses numbers the sandbox cannot mean: NaN, infinite
// or negative rates, fractions outside 0 to 1, negative latency.
func checkSandboxFlags(c *cli.Context) error {
	if err := noArgs(c); err != nil {
		return err
	}
	if ts := c.Int("throttle-status"); ts != 429 && ts != 403 {
		return Usagef("--throttle-status %d: want 429 or 403", ts)
	}
	for _, err := range []error{
		inRange(c, "rate", 0, math.MaxFloat64, "a number of requests per second, or 0 for no limit"),
		atLeast(c, "burst", 1),
		inRange(c, "fail-rate", 0, 1, "a fraction from 0 to 1, e.g. 0.1"),
		inRange(c, "drop-rate", 0, 1, "a fraction from 0 to 1, e.g. 0.05"),
		inRange(c, "throttle-rate", 0, 1, "a fraction from 0 to 1, e.g. 0.1"),
		notNegative(c, "latency"),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

func runSandbox(c *cli.Context) error {
	env := envOf(c)
	if err := checkSandboxFlags(c); err != nil {
		return err
	}
	clients, err := parseClients(c.StringSlice("client"))
	if err != nil {
		return err
	}
	srv, err := sandbox.New(sandbox.Options{
		DBPath:         c.String("db"),
		Rate:           c.Float64("rate"),
		Burst:          c.Int("burst"),
		ThrottleStatus: c.Int("throttle-status"),
		FailRate:       c.Float64("fail-rate"),
		DropRate:       c.Float64("drop-rate"),
		ThrottleRate:   c.Float64("throttle-rate"),
		Latency:        c.Duration("latency"),
		Seed:           c.Int64("seed"),
		Clients:        clients,
		Logger:         logger(c),
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	tokens := c.StringSlice("token")
	if len(tokens) == 0 {
		tokens = []string{randomToken()}
	}
	for _, t := range tokens {
		if _, err := srv.RegisterToken(t); err != nil {
			return err
		}
	}
	return sandbox.ListenAndServe(c.Context, c.String("addr"), srv, func(base string) {
		fmt.Fprintf(env.Stdout, "sandbox listening on %s (also under %s/api2)\n", base, base)
		for _, t := range tokens {
			fmt.Fprintf(env.Stdout, "token: %s\n", t)
		}
		fmt.Fprintf(env.Stdout, "try:   lading --base-url %s --token %s auth status\n", base, tokens[0])
	})
}
