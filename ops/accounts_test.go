package ops

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"lading/auth"
)

// Accounts added by name are saved (mode 0600), the first is the default
// until another is made it, and a removed one is no longer known.
func TestRegistry(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	reg, err := OpenRegistry(w.dirs)
	if err != nil || len(reg.Accounts) != 0 {
		t.Fatalf("a new registry: %v %v", reg, err)
	}
	for _, a := range []Account{{Name: "acme", BaseURL: "https://host/api2/"}, {Name: "globex", BaseURL: "https://host/api2", TokenFile: "/etc/g.token", Rate: 2}} {
		if err := reg.Add(a, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Add(Account{Name: "acme", BaseURL: "https://other"}, false); !errors.Is(err, ErrAccountExists) {
		t.Errorf("acme again: %v, want ErrAccountExists", err)
	}
	for _, bad := range []Account{{Name: "", BaseURL: "https://h"}, {Name: "a b", BaseURL: "https://h"}, {Name: ".hidden", BaseURL: "https://h"},
		{Name: "x", BaseURL: "host/api2"}, {Name: "y", BaseURL: "https://h", Rate: -1}} {
		if err := reg.Add(bad, false); err == nil {
			t.Errorf("%+v was added", bad)
		}
	}
	if err := reg.Save(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(reg.Path()); err != nil || runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("the registry file: %v %v, want mode 0600", fi.Mode(), err)
	}
	again, err := OpenRegistry(w.dirs)
	if err != nil {
		t.Fatal(err)
	}
	if again.Default != "acme" || again.Accounts["acme"].BaseURL != "https://host/api2" || again.Accounts["globex"].Rate != 2 || again.Accounts["globex"].Name != "globex" {
		t.Errorf("read back: %+v", again)
	}
	if err := again.Add(Account{Name: "initech", BaseURL: "https://h"}, true); err != nil || again.Default != "initech" {
		t.Errorf("--default: %v, default %q", err, again.Default)
	}
	if _, err := again.Remove("initech"); err != nil || again.Default != "" {
		t.Errorf("removing the default: %v, default %q", err, again.Default)
	}
	_, err = again.Account("acm")
	if err == nil || !strings.Contains(err.Error(), "did you mean acme?") {
		t.Errorf("an unknown account: %v", err)
	}
	os.WriteFile(reg.Path(), []byte("{"), 0o600)
	if _, err := OpenRegistry(w.dirs); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("a broken registry: %v", err)
	}
}

// An account's token comes from its token file, else from the store
// under its name; a token never shows in where it came from.
func TestAccountToken(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	store := w.dirs.Store()
	file := w.write("g.token", "  file-token-0123456789\n", 0)
	if tok, src, err := (Account{Name: "globex", TokenFile: file}).Token(store); err != nil || tok != "file-token-0123456789" || src != "file "+file {
		t.Errorf("from the file: %q %q %v", tok, src, err)
	}
	var nt *NoTokenError
	if _, _, err := (Account{Name: "acme"}).Token(store); !errors.As(err, &nt) || !strings.Contains(err.Error(), "lading auth login --account acme") {
		t.Errorf("no token: %v", err)
	}
	if err := store.Put(auth.Credential{Account: "acme", BaseURL: "https://h", Token: "stored-token-0123456789"}, false); err != nil {
		t.Fatal(err)
	}
	if tok, src, err := (Account{Name: "acme"}).Token(store); err != nil || tok != "stored-token-0123456789" || strings.Contains(src, tok) {
		t.Errorf("from the store: %q %q %v", tok, src, err)
	}
	empty := w.write("empty.token", "\n", 0)
	if _, _, err := (Account{Name: "x", TokenFile: empty}).Token(store); err == nil || !strings.Contains(err.Error(), "is empty") {
		t.Errorf("an empty token file: %v", err)
	}
	if Scope("https://h/", "a") == Scope("https://h", "b") || Scope("https://h/", "a") != Scope("https://h", "a") {
		t.Error("Scope does not tell tokens apart, or tells one base URL from itself")
	}
}

func TestUserDirs(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the XDG defaults are Linux's")
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		env          map[string]string
		config, data string
	}{
		{map[string]string{"HOME": "/home/u"}, "/home/u/.config", "/home/u/.local/share"},
		{map[string]string{"HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg", "XDG_DATA_HOME": "/var/lib"}, "/cfg", "/var/lib"},
		{map[string]string{"HOME": "/home/u", "XDG_DATA_HOME": "relative"}, "/home/u/.config", "/home/u/.local/share"},
	} {
		d, err := UserDirs(env(tc.env))
		if err != nil || d.Config != tc.config || d.Data != tc.data {
			t.Errorf("%v: %+v %v, want %s and %s", tc.env, d, err, tc.config, tc.data)
		}
		if got := d.StatePath("acme"); got != filepath.Join(tc.data, "lading", "accounts", "acme", "state.db") {
			t.Errorf("the state of acme: %s", got)
		}
	}
	if _, err := UserDirs(env(nil)); err == nil {
		t.Error("no HOME and no XDG folders: no error")
	}
}
