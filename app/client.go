package app

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/auth"
	"lading/progress"
)

// newClient builds the service client from the global flags and the token
// precedence (--token, LADING_TOKEN, stored token).
func newClient(c *cli.Context) (*api.Client, string, error) {
	token, _, err := resolveToken(c)
	if err != nil {
		return nil, "", err
	}
	opts := []api.Option{
		api.WithRate(c.Float64("rate"), c.Int("burst")),
		api.WithLogger(logger(c)),
		api.WithUserAgent("lading"),
	}
	if c.Bool("debug") {
		opts = append(opts, api.WithDebug(envOf(c).Stderr))
	}
	cl, err := api.NewClient(c.String("base-url"), token, opts...)
	if err != nil {
		return nil, "", &UsageError{Err: err}
	}
	return cl, token, nil
}

// accountScope names the account a token opens, without the token: local
// state (ids, runs) is kept apart per base URL and token.
func accountScope(baseURL, token string) string {
	h := sha256.Sum256([]byte(token))
	return auth.NormalizeBaseURL(baseURL) + "#" + hex.EncodeToString(h[:6])
}

// newProgress shows a job's progress on stderr, unless --quiet.
func newProgress(c *cli.Context, client *api.Client) *progress.Progress {
	if c.Bool("quiet") {
		return nil
	}
	env := envOf(c)
	return progress.New(env.Stderr, env.IsTerminal, 10*time.Second, func() (int64, float64) {
		s := client.Stats()
		return s.Requests, s.Rate
	})
}
