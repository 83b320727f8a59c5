package ops

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"

	"lading/api"
	"lading/auth"
	"lading/paths"
	"lading/suggest"
)

// An Account is a merchant's account as lading knows it by name: where the
// service is, where its token comes from, how fast its token may be used.
type Account struct {
	Name    string `json:"-"`
	BaseURL string `json:"base_url"`
	// TokenFile holds the token; "" means the token stored for the
	// account's name (lading auth login --account NAME).
	TokenFile string `json:"token_file,omitempty"`
	// Rate and Burst pace every request made with the token, by all of
	// the account's jobs together; 0 means api.DefaultRate and
	// api.DefaultBurst.
	Rate  float64 `json:"rate,omitempty"`
	Burst int     `json:"burst,omitempty"`
}

// CheckName refuses an account name that could not be a folder's name or
// a word on the command line: 1 to 64 letters, digits, '-', '_' and '.',
// starting with a letter or digit.
func CheckName(name string) error {
	ok := name != "" && len(name) <= 64 && name[0] != '.' && name[0] != '-' && name[0] != '_'
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("account name %q: use 1 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit, e.g. acme or acme-eu", name)
	}
	return nil
}

// Check checks what an account says: its name, base URL and pacing.
func (a Account) Check() error {
	if err := CheckName(a.Name); err != nil {
		return err
	}
	if err := api.CheckBaseURL(a.BaseURL); err != nil {
		return fmt.Errorf("account %s: %w", a.Name, err)
	}
	if math.IsNaN(a.Rate) || math.IsInf(a.Rate, 0) || a.Rate < 0 {
		return fmt.Errorf("account %s: rate %v: want a number of requests per second above 0, e.g. 5", a.Name, a.Rate)
	}
	if a.Burst < 0 {
		return fmt.Errorf("account %s: burst %d: want 1 or more", a.Name, a.Burst)
	}
	return nil
}

// Token reads the account's token: from its token file, else from the
// store, under the account's name; source says where it came from (a
// file's name, or the store's), never the token.
func (a Account) Token(store *auth.Store) (token, source string, err error) {
	if a.TokenFile != "" {
		token, err := auth.ReadTokenFile(a.TokenFile)
		if err != nil {
			return "", "", fmt.Errorf("account %s: %w", a.Name, err)
		}
		return token, "file " + a.TokenFile, nil
	}
	cred, ok, err := store.GetAccount(a.Name)
	if err != nil {
		return "", "", err
	}
	if !ok || cred.Token == "" {
		return "", "", &NoTokenError{Account: a.Name}
	}
	return cred.Token, "stored in " + store.Path, nil
}

// NoTokenError says an account has neither a token file nor a stored
// token.
type NoTokenError struct{ Account string }

func (e *NoTokenError) Error() string {
	return fmt.Sprintf("account %s has no token: run lading auth login --account %s, or give it a token file (token_file in a jobs file, --token-file of lading accounts add)", e.Account, e.Account)
}

// Scope names the account a token opens at baseURL without the token, so
// that what the state remembers of different accounts (ids, levels, runs)
// is kept apart: the base URL and a digest of the token.
func Scope(baseURL, token string) string {
	h := sha256.Sum256([]byte(token))
	return auth.NormalizeBaseURL(baseURL) + "#" + hex.EncodeToString(h[:6])
}

// Registry is the accounts lading knows by name, and the default one: a
// JSON file in the config folder (accounts.json beside the token store),
// which lading accounts add and remove edit.
type Registry struct {
	path string
	// Default is the account of commands given no --account (nor
	// LADING_ACCOUNT, --base-url or --token); "" for none.
	Default  string             `json:"default,omitempty"`
	Accounts map[string]Account `json:"accounts"`
}

// ErrAccountExists is the error of adding an account under a name taken.
var ErrAccountExists = errors.New("an account of that name exists")

// OpenRegistry reads the registry in d (an empty one when there is none
// yet).
func OpenRegistry(d Dirs) (*Registry, error) {
	r := &Registry{path: d.registryPath(), Accounts: map[string]Account{}}
	b, err := os.ReadFile(r.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return r, nil
	case err != nil:
		return nil, fmt.Errorf("reading the accounts: %w", err)
	}
	if err := json.Unmarshal(b, r); err != nil {
		return nil, fmt.Errorf("the accounts file %s is not valid JSON (%v): mend it, or remove it and add the accounts again", r.path, err)
	}
	if r.Accounts == nil {
		r.Accounts = map[string]Account{}
	}
	for name, a := range r.Accounts {
		a.Name = name
		r.Accounts[name] = a
	}
	return r, nil
}

// Path is the registry's file.
func (r *Registry) Path() string { return r.path }

// Names are the accounts' names, sorted.
func (r *Registry) Names() []string {
	var names []string
	for n := range r.Accounts {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Account is the account called name, or a *NoAccountError.
func (r *Registry) Account(name string) (Account, error) {
	a, ok := r.Accounts[name]
	if !ok {
		return Account{}, &NoAccountError{Name: name, Known: r.Names()}
	}
	return a, nil
}

// NoAccountError says no account has the name given.
type NoAccountError struct {
	Name  string
	Known []string
}

func (e *NoAccountError) Error() string {
	msg := fmt.Sprintf("no account is called %q", e.Name)
	switch {
	case len(e.Known) == 0:
		return msg + ": lading knows no account yet; add one with lading accounts add NAME --base-url URL"
	default:
		if dym := suggest.DidYouMean(e.Name, e.Known, "%s"); dym != "" {
			msg += "; " + dym
		}
		return msg + "; the accounts are " + strings.Join(e.Known, ", ") + " (lading accounts list)"
	}
}

// Add adds a, checked, and makes it the default when asked or when it is
// the first account; it is saved by Save.
func (r *Registry) Add(a Account, makeDefault bool) error {
	if err := a.Check(); err != nil {
		return err
	}
	if _, ok := r.Accounts[a.Name]; ok {
		return fmt.Errorf("%w: %s (lading accounts remove %s first to replace it)", ErrAccountExists, a.Name, a.Name)
	}
	a.BaseURL = auth.NormalizeBaseURL(a.BaseURL)
	r.Accounts[a.Name] = a
	if makeDefault || len(r.Accounts) == 1 {
		r.Default = a.Name
	}
	return nil
}

// SetDefault makes the account called name the default; it is saved by
// Save.
func (r *Registry) SetDefault(name string) error {
	if _, err := r.Account(name); err != nil {
		return err
	}
	r.Default = name
	return nil
}

// Remove takes the account called name out (and out of being the
// default); it is saved by Save.
func (r *Registry) Remove(name string) (Account, error) {
	a, err := r.Account(name)
	if err != nil {
		return Account{}, err
	}
	delete(r.Accounts, name)
	if r.Default == name {
		r.Default = ""
	}
	return a, nil
}

// Save writes the registry, whole or not at all (mode 0600: it names the
// token files).
func (r *Registry) Save() error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return paths.WriteFile(r.path, append(b, '\n'), 0o600)
}
