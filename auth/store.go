// Package auth holds lading's side of the service's OAuth 2.0
// authorization-code login and the local store of permanent tokens.
//
// The service's tokens never expire, and a client may authenticate only once
// per account (each authentication creates a channel and a warehouse), so the
// store refuses to overwrite a stored token unless asked to. It is keyed by
// base URL, or by account name for the accounts lading knows by name (many
// merchants' accounts may share one base URL).
package auth

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lading/paths"
)

// Credential is what lading remembers about one account's token.
type Credential struct {
	// Account is the name of the account the token opens ("" for the
	// token of a base URL).
	Account   string    `json:"account,omitempty"`
	BaseURL   string    `json:"base_url"`
	Token     string    `json:"token"`
	ClientID  string    `json:"client_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// String never prints the token in full.
func (c Credential) String() string {
	if c.Account != "" {
		return fmt.Sprintf("account %s (%s) token %s", c.Account, c.BaseURL, Mask(c.Token))
	}
	return fmt.Sprintf("%s token %s", c.BaseURL, Mask(c.Token))
}

// key is where c is kept in the store: its account's name, else its base
// URL. A name cannot be taken for a URL: URLs have a scheme and a colon,
// names have none (see AccountKey).
func (c Credential) key() string {
	if c.Account != "" {
		return AccountKey(c.Account)
	}
	return NormalizeBaseURL(c.BaseURL)
}

// AccountKey is the key of the token of the account called name.
func AccountKey(name string) string { return "account " + name }

// Mask shows enough of a token to tell two apart and never much of it: a
// token shorter than 16 characters not at all, a longer one an eighth at
// each end (at most 4 characters). The stars do not tell its length.
func Mask(token string) string {
	const stars = "********"
	r := []rune(token)
	switch {
	case len(r) == 0:
		return ""
	case len(r) < 16:
		return stars
	}
	n := min(len(r)/8, 4)
	return string(r[:n]) + stars + string(r[len(r)-n:])
}

// Store is a JSON file of credentials, keyed by normalised base URL or by
// account name, written with mode 0600.
type Store struct {
	Path string
}

// DefaultStore is the store in the user's config directory
// ($XDG_CONFIG_HOME/lading/credentials.json on Linux).
func DefaultStore() (*Store, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("finding the config directory for the token store: %w", err)
	}
	return StoreIn(dir), nil
}

// StoreIn is the store in the user's config directory dir
// ($XDG_CONFIG_HOME on Linux): dir/lading/credentials.json.
func StoreIn(dir string) *Store {
	return &Store{Path: filepath.Join(dir, "lading", "credentials.json")}
}

// NormalizeBaseURL makes equal URLs compare equal: no trailing slash.
func NormalizeBaseURL(u string) string {
	return strings.TrimRight(strings.TrimSpace(u), "/")
}

func (s *Store) load() (map[string]Credential, error) {
	m := map[string]Credential{}
	b, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading token store: %w", err)
	}
	if len(b) == 0 {
		return m, nil
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("token store %s is not valid JSON (%v): fix or remove the file", s.Path, err)
	}
	return m, nil
}

func (s *Store) save(m map[string]Credential) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := paths.WriteFile(s.Path, b, 0o600); err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	return nil
}

// Get returns the credential stored for baseURL.
func (s *Store) Get(baseURL string) (Credential, bool, error) {
	return s.get(NormalizeBaseURL(baseURL))
}

// GetAccount returns the credential stored for the account called name.
func (s *Store) GetAccount(name string) (Credential, bool, error) {
	return s.get(AccountKey(name))
}

func (s *Store) get(key string) (Credential, bool, error) {
	m, err := s.load()
	if err != nil {
		return Credential{}, false, err
	}
	c, ok := m[key]
	return c, ok, nil
}

// ErrAlreadyStored is returned by Put when a token for the base URL (or
// the account) exists and overwrite was not asked for.
var ErrAlreadyStored = errors.New("a token is already stored for this base URL")

// Put stores c, under its account's name when it has one, else under its
// base URL. Unless overwrite, an existing token there is kept and
// ErrAlreadyStored returned.
func (s *Store) Put(c Credential, overwrite bool) error {
	m, err := s.load()
	if err != nil {
		return err
	}
	c.BaseURL = NormalizeBaseURL(c.BaseURL)
	if _, ok := m[c.key()]; ok && !overwrite {
		return ErrAlreadyStored
	}
	m[c.key()] = c
	return s.save(m)
}

// Delete forgets the token of baseURL and reports whether one was stored.
func (s *Store) Delete(baseURL string) (bool, error) { return s.delete(NormalizeBaseURL(baseURL)) }

// DeleteAccount forgets the token of the account called name and reports
// whether one was stored.
func (s *Store) DeleteAccount(name string) (bool, error) { return s.delete(AccountKey(name)) }

func (s *Store) delete(key string) (bool, error) {
	m, err := s.load()
	if err != nil {
		return false, err
	}
	if _, ok := m[key]; !ok {
		return false, nil
	}
	delete(m, key)
	return true, s.save(m)
}

// List returns every stored credential, by base URL and account.
func (s *Store) List() ([]Credential, error) {
	m, err := s.load()
	if err != nil {
		return nil, err
	}
	return slices.SortedFunc(maps.Values(m), func(a, b Credential) int {
		return cmp.Or(strings.Compare(a.BaseURL, b.BaseURL), strings.Compare(a.Account, b.Account))
	}), nil
}
