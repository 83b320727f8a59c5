// Package auth holds lading's side of the service's OAuth 2.0
// authorization-code login and the local store of permanent tokens.
//
// The service's tokens never expire, and a client may authenticate only once
// per account (each authentication creates a channel and a warehouse), so the
// store is keyed by base URL and refuses to overwrite a stored token unless
// asked to.
package auth

import (
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
)

// Credential is what lading remembers about one account's token.
type Credential struct {
	BaseURL   string    `json:"base_url"`
	Token     string    `json:"token"`
	ClientID  string    `json:"client_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// String never prints the token in full.
func (c Credential) String() string {
	return fmt.Sprintf("%s token %s", c.BaseURL, Mask(c.Token))
}

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

// Store is a JSON file of credentials, keyed by normalised base URL, written
// with mode 0600.
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
	return &Store{Path: filepath.Join(dir, "lading", "credentials.json")}, nil
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
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return fmt.Errorf("creating token store directory: %w", err)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.Path), ".credentials-*")
	if err != nil {
		return fmt.Errorf("writing token store: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("writing token store: %w", err)
	}
	// On disk before the rename: a crash must not leave an empty store, as
	// a lost token cannot be fetched again (one login per account).
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing token store: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), s.Path)
}

// Get returns the credential stored for baseURL.
func (s *Store) Get(baseURL string) (Credential, bool, error) {
	m, err := s.load()
	if err != nil {
		return Credential{}, false, err
	}
	c, ok := m[NormalizeBaseURL(baseURL)]
	return c, ok, nil
}

// ErrAlreadyStored is returned by Put when a token for the base URL exists
// and overwrite was not asked for.
var ErrAlreadyStored = errors.New("a token is already stored for this base URL")

// Put stores c. Unless overwrite, an existing token for the same base URL is
// kept and ErrAlreadyStored returned.
func (s *Store) Put(c Credential, overwrite bool) error {
	m, err := s.load()
	if err != nil {
		return err
	}
	c.BaseURL = NormalizeBaseURL(c.BaseURL)
	if _, ok := m[c.BaseURL]; ok && !overwrite {
		return ErrAlreadyStored
	}
	m[c.BaseURL] = c
	return s.save(m)
}

// Delete forgets the token of baseURL and reports whether one was stored.
func (s *Store) Delete(baseURL string) (bool, error) {
	m, err := s.load()
	if err != nil {
		return false, err
	}
	k := NormalizeBaseURL(baseURL)
	if _, ok := m[k]; !ok {
		return false, nil
	}
	delete(m, k)
	return true, s.save(m)
}

// List returns every stored credential, by base URL.
func (s *Store) List() ([]Credential, error) {
	m, err := s.load()
	if err != nil {
		return nil, err
	}
	return slices.SortedFunc(maps.Values(m), func(a, b Credential) int { return strings.Compare(a.BaseURL, b.BaseURL) }), nil
}
