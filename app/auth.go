package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/auth"
)

func authCommand() *cli.Command {
	return &cli.Command{
		Name:  "auth",
		Usage: "log in to an account with OAuth, show or forget the stored token",
		Subcommands: []*cli.Command{
			{
				Name:  "login",
				Usage: "authorize lading for an account (once per account) and store its permanent token",
				Description: "Opens the service's authorization page, receives the callback on the loopback redirect URI,\n" +
					"exchanges the code and stores the token (mode 0600) in the user's config directory.\n" +
					"Each authentication creates a channel and a warehouse in the account, and a client may\n" +
					"authenticate only once per account: login refuses when a token is already stored unless --force.\n" +
					"The client secret is read from --client-secret-file or LADING_CLIENT_SECRET, never from a flag value.",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "client-id", Usage: "OAuth client id from the developer portal"},
					&cli.StringFlag{Name: "redirect-uri", Usage: "redirect URL registered for the client, e.g. http://127.0.0.1:8765/callback"},
					&cli.StringFlag{Name: "client-secret-file", Usage: "file holding the client secret (else LADING_CLIENT_SECRET)"},
					&cli.StringFlag{Name: "scope", Usage: "scope to request (sent even when empty)"},
					&cli.BoolFlag{Name: "no-browser", Usage: "print the authorization URL instead of opening a browser"},
					&cli.BoolFlag{Name: "force", Usage: "authenticate again although a token is stored (creates another channel and warehouse)"},
					&cli.DurationFlag{Name: "timeout", Value: 5 * time.Minute, Usage: "how long to wait for the browser's callback"},
				},
				Action: authLogin,
			},
			{
				Name:   "status",
				Usage:  "show the base URL, the token in use (masked) and where it comes from",
				Action: authStatus,
			},
			{
				Name:   "logout",
				Usage:  "forget the stored token of the base URL",
				Action: authLogout,
			},
		},
	}
}

func clientSecret(c *cli.Context) (string, error) {
	if f := c.String("client-secret-file"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", Usagef("--client-secret-file: %v", err)
		}
		s := strings.TrimSpace(string(b))
		if s == "" {
			return "", Usagef("--client-secret-file %s is empty", f)
		}
		return s, nil
	}
	if s := envOf(c).Getenv("LADING_CLIENT_SECRET"); s != "" {
		return s, nil
	}
	return "", Usagef("no client secret: put it in a file and pass --client-secret-file FILE, or set LADING_CLIENT_SECRET")
}

// checkLoginFlags refuses a login that could not succeed, before the token
// store is read.
func checkLoginFlags(c *cli.Context) error {
	if err := noArgs(c); err != nil {
		return err
	}
	if c.String("client-id") == "" {
		return Usagef("give --client-id: the OAuth client id from the developer portal's API credentials")
	}
	if c.String("redirect-uri") == "" {
		return Usagef("give --redirect-uri: the redirect URL registered for the client, e.g. http://127.0.0.1:8765/callback")
	}
	return longerThanZero(c, "timeout", "5m")
}

func authLogin(c *cli.Context) error {
	env := envOf(c)
	if err := checkLoginFlags(c); err != nil {
		return err
	}
	base := auth.NormalizeBaseURL(c.String("base-url"))
	store, err := auth.DefaultStore()
	if err != nil {
		return err
	}
	if prev, ok, err := store.Get(base); err != nil {
		return err
	} else if ok && !c.Bool("force") {
		return Usagef("a token for %s is already stored (since %s, token %s).\n"+
			"Each authentication creates a channel and a warehouse in the account, and a client may authenticate\n"+
			"only once per account; the stored token is permanent, so lading keeps using it.\n"+
			"If access was revoked in the account, run `lading auth login --force ...` to replace it",
			base, prev.CreatedAt.Format(time.DateOnly), auth.Mask(prev.Token))
	}
	if _, err := auth.ValidateRedirect(c.String("redirect-uri")); err != nil {
		return Usagef("--redirect-uri: %v", err)
	}
	secret, err := clientSecret(c)
	if err != nil {
		return err
	}
	open := func(u string) error {
		if !c.Bool("no-browser") && openBrowser(u) == nil {
			fmt.Fprintf(env.Stderr, "Opened the authorization page in your browser. If nothing appears, open:\n  %s\n", u)
			return nil
		}
		fmt.Fprintf(env.Stderr, "Open this URL in a browser and approve access:\n  %s\n", u)
		return nil
	}
	fmt.Fprintf(env.Stderr, "Waiting for the callback on %s ...\n", c.String("redirect-uri"))
	token, err := auth.Login(c.Context, auth.LoginConfig{
		BaseURL: base, ClientID: c.String("client-id"), ClientSecret: secret,
		RedirectURI: c.String("redirect-uri"), Scope: c.String("scope"),
		OpenURL: open, Timeout: c.Duration("timeout"),
	})
	if err != nil {
		return err
	}
	cred := auth.Credential{BaseURL: base, Token: token, ClientID: c.String("client-id"), CreatedAt: time.Now().UTC()}
	if err := store.Put(cred, true); err != nil {
		return fmt.Errorf("the login succeeded but the token could not be stored: %w", err)
	}
	fmt.Fprintf(env.Stdout, "Logged in to %s; token %s stored in %s\n", base, auth.Mask(token), store.Path)
	return nil
}

func openBrowser(u string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", u)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", u)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return errors.New("no display")
		}
		cmd = exec.Command("xdg-open", u)
	}
	return cmd.Start()
}

// resolveToken applies the precedence --token, LADING_TOKEN, stored token,
// and says which one it used.
func resolveToken(c *cli.Context) (token, source string, err error) {
	if t := c.String("token"); t != "" {
		if envOf(c).Getenv("LADING_TOKEN") == t {
			return t, "LADING_TOKEN", nil
		}
		return t, "--token", nil
	}
	store, err := auth.DefaultStore()
	if err != nil {
		return "", "", err
	}
	cred, ok, err := store.Get(c.String("base-url"))
	if err != nil {
		return "", "", err
	}
	if !ok {
		return "", "", Usagef("no token for %s: pass --token, set LADING_TOKEN, or run `lading auth login`", auth.NormalizeBaseURL(c.String("base-url")))
	}
	return cred.Token, "stored in " + store.Path, nil
}

func authStatus(c *cli.Context) error {
	env := envOf(c)
	if err := noArgs(c); err != nil {
		return err
	}
	base := auth.NormalizeBaseURL(c.String("base-url"))
	token, src, err := resolveToken(c)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "base URL:  %s\ntoken:     %s (%s)\n", base, auth.Mask(token), src)
	if store, err := auth.DefaultStore(); err == nil {
		if cred, ok, _ := store.Get(base); ok && cred.Token == token {
			if cred.ClientID != "" {
				fmt.Fprintf(env.Stdout, "client:    %s\n", cred.ClientID)
			}
			fmt.Fprintf(env.Stdout, "since:     %s\n", cred.CreatedAt.Format(time.RFC3339))
		}
	}
	return checkService(c)
}

// checkService reads one variant to show that the service accepts the
// token, and names the warehouses its stock levels are in: the token's
// warehouse is among them once the account has variants.
func checkService(c *cli.Context) error {
	env := envOf(c)
	client, _, err := newClient(c)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Context, 30*time.Second)
	defer cancel()
	for pg, err := range client.Variants.ListPages(ctx, &api.ListOptions{PageSize: 1, MaxPages: 1}) {
		if err != nil {
			fmt.Fprintf(env.Stdout, "service:   not reachable with this token\n")
			return fmt.Errorf("checking the token: %w", err)
		}
		fmt.Fprintf(env.Stdout, "service:   token accepted; %d variants in the account\n", pg.Meta.Total)
		whs := pg.Sideloads.Warehouses()
		if len(whs) == 0 {
			fmt.Fprintf(env.Stdout, "warehouse: not known yet (it shows once the account has variants)\n")
		}
		for _, w := range whs {
			fmt.Fprintf(env.Stdout, "warehouse: %s %s\n", w.ID, w.Label)
		}
	}
	return nil
}

func authLogout(c *cli.Context) error {
	env := envOf(c)
	if err := noArgs(c); err != nil {
		return err
	}
	base := auth.NormalizeBaseURL(c.String("base-url"))
	store, err := auth.DefaultStore()
	if err != nil {
		return err
	}
	ok, err := store.Delete(base)
	if err != nil {
		return err
	}
	if !ok {
		fmt.Fprintf(env.Stdout, "No token stored for %s.\n", base)
		return nil
	}
	fmt.Fprintf(env.Stdout, "Forgot the token for %s.\n"+
		"The token is permanent: it stays valid until access is revoked in the account (the service has no\n"+
		"revoke call). Revoke it there to end access; a new login would create another channel and warehouse.\n", base)
	return nil
}
