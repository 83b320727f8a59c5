package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/auth"
	"lading/plural"
)

var authExamples = []example{
	{"authorize lading for an account, once", "lading --base-url https://HOST/api2 auth login --client-id ID --redirect-uri http://127.0.0.1:8765/callback --client-secret-file secret.txt"},
	{"store the token a merchant's account gave, for the account lading calls acme", "lading auth login --account acme --token-file acme.token"},
	{"which token is used, and whether the service takes it", "lading auth status"},
	{"forget the stored token", "lading auth logout"},
}

// The examples of each auth command.
var (
	loginExamples  = authExamples[:2]
	statusExamples = authExamples[2:3]
	logoutExamples = authExamples[3:]
)

func authCommand(b *builder) *cli.Command {
	return b.group(&cli.Command{
		Name:        "auth",
		Usage:       "log in to an account with OAuth, show or forget the stored token",
		Subcommands: []*cli.Command{loginCommand(b), authStatusCommand(b), logoutCommand(b)},
	}, doc{examples: authExamples})
}

// loginOptions are the options of auth login.
type loginOptions struct {
	globalOptions
	ClientID, RedirectURI, SecretFile, Scope string
	TokenFile                                string
	NoBrowser, Force                         bool
	Timeout                                  time.Duration
}

func loginCommand(b *builder) *cli.Command {
	o := &loginOptions{}
	return b.leaf(&cli.Command{
		Name:  "login",
		Usage: "authorize lading for an account (once per account) and store its permanent token",
		Description: "Opens the service's authorization page, receives the callback on the loopback redirect URI,\n" +
			"exchanges the code and stores the token (mode 0600) in the user's config directory.\n" +
			"Each authentication creates a channel and a warehouse in the account, and a client may\n" +
			"authenticate only once per account: login refuses when a token is already stored unless --force.\n" +
			"The client secret is read from --client-secret-file or LADING_CLIENT_SECRET, never from a flag value.\n\n" +
			"With --account NAME the token is stored for that account (lading accounts add NAME first), apart\n" +
			"from other accounts on the same base URL. --token-file FILE stores a token issued elsewhere (read\n" +
			"from FILE) instead of logging in.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "client-id", Destination: &o.ClientID, Usage: "OAuth client id from the developer portal"},
			&cli.StringFlag{Name: "redirect-uri", Destination: &o.RedirectURI, Usage: "redirect URL registered for the client, e.g. http://127.0.0.1:8765/callback"},
			&cli.StringFlag{Name: "client-secret-file", Destination: &o.SecretFile, Usage: "file holding the client secret (else LADING_CLIENT_SECRET)"},
			&cli.StringFlag{Name: "scope", Destination: &o.Scope, Usage: "scope to request (sent even when empty)"},
			&cli.BoolFlag{Name: "no-browser", Destination: &o.NoBrowser, Usage: "print the authorization URL instead of opening a browser"},
			&cli.BoolFlag{Name: "force", Destination: &o.Force, Usage: "authenticate again although a token is stored (creates another channel and warehouse)"},
			&cli.DurationFlag{Name: "timeout", Value: 5 * time.Minute, Destination: &o.Timeout, Usage: "how long to wait for the browser's callback"},
			&cli.StringFlag{Name: "token-file", Destination: &o.TokenFile, Usage: "store the token in this file (issued elsewhere) rather than log in"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runLogin(c.Context, b.env, o)
		},
	}, &o.globalOptions, doc{examples: loginExamples})
}

// check refuses a login that could not succeed, before the token store is
// read.
func (o *loginOptions) check() error {
	if o.TokenFile != "" {
		if o.ClientID != "" || o.RedirectURI != "" || o.SecretFile != "" {
			return Usagef("give --token-file, or the flags of an OAuth login (--client-id, --redirect-uri, --client-secret-file), not both")
		}
		return nil
	}
	if o.ClientID == "" {
		return Usagef("give --client-id: the OAuth client id from the developer portal's API credentials")
	}
	if o.RedirectURI == "" {
		return Usagef("give --redirect-uri: the redirect URL registered for the client, e.g. http://127.0.0.1:8765/callback")
	}
	if o.Timeout <= 0 {
		return Usagef("--timeout %s: want a duration above 0, e.g. 5m", o.Timeout)
	}
	return nil
}

func (o *loginOptions) secret(env *Env) (string, error) {
	if f := o.SecretFile; f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", Usagef("--client-secret-file: %w", err)
		}
		s := strings.TrimSpace(string(b))
		if s == "" {
			return "", Usagef("--client-secret-file %s is empty", f)
		}
		return s, nil
	}
	if s := env.Getenv("LADING_CLIENT_SECRET"); s != "" {
		return s, nil
	}
	return "", usageHint("Put it in a file and pass --client-secret-file FILE, or set LADING_CLIENT_SECRET.", "no client secret")
}

func runLogin(ctx context.Context, env *Env, o *loginOptions) error {
	if err := o.check(); err != nil {
		return err
	}
	if err := o.useAccount(env); err != nil {
		return err
	}
	if o.named != nil && o.named.TokenFile != "" {
		return usageHint("Put the new token in that file instead, or remove the account and add it again without --token-file.",
			"account %s reads its token from %s, so a token stored for it would not be used", o.named.Name, o.named.TokenFile)
	}
	base := auth.NormalizeBaseURL(o.BaseURL)
	store, err := env.store()
	if err != nil {
		return err
	}
	cred := auth.Credential{BaseURL: base, ClientID: o.ClientID}
	if o.named != nil {
		cred.Account = o.named.Name
	}
	if err := o.refuseStored(store, cred); err != nil {
		return err
	}
	if cred.Token, err = o.newToken(ctx, env, base); err != nil {
		return err
	}
	cred.CreatedAt = time.Now().UTC()
	if err := store.Put(cred, true); err != nil {
		return fmt.Errorf("the token could not be stored: %w", err)
	}
	return o.emit(env, map[string]string{"account": cred.Account, "base_url": base, "token": auth.Mask(cred.Token), "stored_in": store.Path}, func(w io.Writer) {
		verb := "Logged in to"
		if o.TokenFile != "" {
			verb = "Stored the token of " + o.TokenFile + " for"
		}
		fmt.Fprintf(w, "%s %s; token %s stored in %s\n", verb, o.target(), auth.Mask(cred.Token), store.Path)
	})
}

// target names what a command works on for people: "account acme
// (https://host/api2)", or the base URL.
func (g *globalOptions) target() string {
	if g.named != nil {
		return fmt.Sprintf("account %s (%s)", g.named.Name, auth.NormalizeBaseURL(g.BaseURL))
	}
	return auth.NormalizeBaseURL(g.BaseURL)
}

// refuseStored refuses to replace a stored token unless --force: a
// client may authenticate only once per account.
func (o *loginOptions) refuseStored(store *auth.Store, cred auth.Credential) error {
	get, what := store.Get, cred.BaseURL
	if cred.Account != "" {
		get, what = store.GetAccount, "account "+cred.Account
	}
	prev, ok, err := get(cmp.Or(cred.Account, cred.BaseURL))
	if err != nil || !ok || o.Force {
		return err
	}
	return usageHint("Each authentication creates a channel and a warehouse in the account, and a client may authenticate\n"+
		"only once per account; the stored token is permanent, so lading keeps using it.\n"+
		"If access was revoked in the account, run lading auth login --force ... to replace it.",
		"a token for %s is already stored (since %s, token %s)", what, prev.CreatedAt.Format(time.DateOnly), auth.Mask(prev.Token))
}

// newToken is the token to store: --token-file's, else one from an OAuth
// login at base.
func (o *loginOptions) newToken(ctx context.Context, env *Env, base string) (string, error) {
	if o.TokenFile != "" {
		token, err := auth.ReadTokenFile(o.TokenFile)
		if err != nil {
			return "", Usagef("--token-file: %w", err)
		}
		return token, nil
	}
	if _, err := auth.ValidateRedirect(o.RedirectURI); err != nil {
		return "", Usagef("--redirect-uri: %w", err)
	}
	secret, err := o.secret(env)
	if err != nil {
		return "", err
	}
	open := func(u string) error {
		if !o.NoBrowser && openBrowser(u) == nil {
			fmt.Fprintf(env.Stderr, "Opened the authorization page in your browser. If nothing appears, open:\n  %s\n", u)
			return nil
		}
		fmt.Fprintf(env.Stderr, "Open this URL in a browser and approve access:\n  %s\n", u)
		return nil
	}
	fmt.Fprintf(env.Stderr, "Waiting for the callback on %s ...\n", o.RedirectURI)
	return auth.Login(ctx, auth.LoginConfig{
		BaseURL: base, ClientID: o.ClientID, ClientSecret: secret,
		RedirectURI: o.RedirectURI, Scope: o.Scope, OpenURL: open, Timeout: o.Timeout,
	})
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

func authStatusCommand(b *builder) *cli.Command {
	o := &globalOptions{}
	return b.leaf(&cli.Command{
		Name:  "status",
		Usage: "show the base URL, the token in use (masked), where it comes from, and whether the service takes it",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runAuthStatus(c.Context, b.env, o)
		},
	}, o, doc{examples: statusExamples})
}

// authState is what auth status finds.
type authState struct {
	Account    string   `json:"account,omitempty"`
	BaseURL    string   `json:"base_url"`
	Token      string   `json:"token"` // masked
	Source     string   `json:"source"`
	Client     string   `json:"client,omitempty"`
	Since      string   `json:"since,omitempty"`
	Service    string   `json:"service"` // accepted, refused or unreachable
	Variants   int      `json:"variants"`
	Warehouses []string `json:"warehouses"`
}

// The answers of the service to auth status.
const (
	tokenAccepted = "accepted"
	tokenRefused  = "refused"
	unreachable   = "unreachable"
)

func runAuthStatus(ctx context.Context, env *Env, o *globalOptions) error {
	token, src, err := o.token(env)
	if err != nil {
		return err
	}
	s := authState{BaseURL: auth.NormalizeBaseURL(o.BaseURL), Token: auth.Mask(token), Source: src, Warehouses: []string{}}
	if store, err := env.store(); err == nil {
		cred, ok, _ := store.Get(s.BaseURL)
		if o.named != nil {
			s.Account = o.named.Name
			cred, ok, _ = store.GetAccount(o.named.Name)
		}
		if ok && cred.Token == token {
			s.Client, s.Since = cred.ClientID, cred.CreatedAt.Format(time.RFC3339)
		}
	}
	checkErr := checkService(ctx, env, o, &s)
	if err := o.emit(env, s, func(w io.Writer) { printAuthState(w, s) }); err != nil {
		return err
	}
	return checkErr
}

// checkService reads one variant to show that the service accepts the
// token, and names the warehouses its stock levels are in: the token's
// warehouse is among them once the account has variants.
func checkService(ctx context.Context, env *Env, o *globalOptions, s *authState) error {
	client, _, err := o.client(env)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for pg, err := range client.Variants.ListPages(ctx, &api.ListOptions{PageSize: 1, MaxPages: 1}) {
		switch {
		case errors.Is(err, api.ErrAccessDenied):
			s.Service = tokenRefused
			return fmt.Errorf("the service at %s refused this token: %w", s.BaseURL, err)
		case err != nil:
			s.Service = unreachable
			return fmt.Errorf("checking the token at %s: %w", s.BaseURL, err)
		}
		s.Service, s.Variants = tokenAccepted, pg.Meta.Total
		for _, w := range pg.Sideloads.Warehouses() {
			s.Warehouses = append(s.Warehouses, strings.TrimSpace(fmt.Sprintf("%s %s", w.ID, w.Label)))
		}
	}
	return nil
}

func printAuthState(w io.Writer, s authState) {
	if s.Account != "" {
		fmt.Fprintf(w, "account:   %s\n", s.Account)
	}
	fmt.Fprintf(w, "base URL:  %s\ntoken:     %s (%s)\n", s.BaseURL, s.Token, s.Source)
	if s.Client != "" {
		fmt.Fprintf(w, "client:    %s\n", s.Client)
	}
	if s.Since != "" {
		fmt.Fprintf(w, "since:     %s\n", s.Since)
	}
	switch s.Service {
	case tokenRefused:
		fmt.Fprintf(w, "service:   reached, and it refused this token\n")
		return
	case unreachable:
		fmt.Fprintf(w, "service:   not reachable at %s\n", s.BaseURL)
		return
	}
	fmt.Fprintf(w, "service:   token accepted; %s in the account\n", plural.Count(s.Variants, "variant"))
	if len(s.Warehouses) == 0 {
		fmt.Fprintf(w, "warehouse: not known yet (it shows once the account has variants)\n")
	}
	for _, wh := range s.Warehouses {
		fmt.Fprintf(w, "warehouse: %s\n", wh)
	}
}

func logoutCommand(b *builder) *cli.Command {
	o := &globalOptions{}
	return b.leaf(&cli.Command{
		Name:  "logout",
		Usage: "forget the stored token of the base URL",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runLogout(b.env, o)
		},
	}, o, doc{examples: logoutExamples})
}

func runLogout(env *Env, o *globalOptions) error {
	if err := o.useAccount(env); err != nil {
		return err
	}
	store, err := env.store()
	if err != nil {
		return err
	}
	var (
		ok      bool
		account string
	)
	if o.named != nil {
		account = o.named.Name
		ok, err = store.DeleteAccount(account)
	} else {
		ok, err = store.Delete(o.BaseURL)
	}
	if err != nil {
		return err
	}
	what := o.target()
	return o.emit(env, map[string]any{"account": account, "base_url": auth.NormalizeBaseURL(o.BaseURL), "forgotten": ok}, func(w io.Writer) {
		if !ok {
			fmt.Fprintf(w, "No token stored for %s.\n", what)
			return
		}
		fmt.Fprintf(w, "Forgot the token for %s.\n"+
			"The token is permanent: it stays valid until access is revoked in the account (the service has no\n"+
			"revoke call). Revoke it there to end access; a new login would create another channel and warehouse.\n", what)
	})
}
