package ops

import (
	"errors"
	"path/filepath"
	"runtime"

	"lading/auth"
)

// Dirs are where lading keeps a user's files: Config holds the accounts
// registry and the token store, Data each named account's state.
type Dirs struct{ Config, Data string }

// UserDirs finds the user's folders by the XDG base directory rules,
// reading the environment through getenv: $XDG_CONFIG_HOME, else
// ~/.config; $XDG_DATA_HOME, else ~/.local/share. On Windows the defaults
// are %AppData% and %LocalAppData%, on macOS ~/Library/Application
// Support. A relative XDG folder is ignored, as the rules say.
func UserDirs(getenv func(string) string) (Dirs, error) {
	xdg := func(name string) string {
		if v := getenv(name); filepath.IsAbs(v) {
			return v
		}
		return ""
	}
	d := Dirs{Config: xdg("XDG_CONFIG_HOME"), Data: xdg("XDG_DATA_HOME")}
	home := getenv("HOME")
	var config, data string
	switch runtime.GOOS {
	case "windows":
		config, data = getenv("AppData"), getenv("LocalAppData")
	case "darwin":
		if home != "" {
			config = filepath.Join(home, "Library", "Application Support")
			data = config
		}
	default:
		if home != "" {
			config, data = filepath.Join(home, ".config"), filepath.Join(home, ".local", "share")
		}
	}
	if d.Config == "" {
		d.Config = config
	}
	if d.Data == "" {
		d.Data = data
	}
	if d.Config == "" || d.Data == "" {
		return Dirs{}, errors.New("lading cannot tell where to keep its accounts and their state: set HOME (or XDG_CONFIG_HOME and XDG_DATA_HOME)")
	}
	return d, nil
}

// Store is the token store (mode 0600), in the config folder.
func (d Dirs) Store() *auth.Store { return auth.StoreIn(d.Config) }

// registryPath is the accounts registry, beside the token store.
func (d Dirs) registryPath() string { return filepath.Join(d.Config, "lading", "accounts.json") }

// StatePath is the state file of the account called name:
// DATA/lading/accounts/NAME/state.db. Each account has its own, so that
// nothing of one is ever read for another.
func (d Dirs) StatePath(name string) string {
	return filepath.Join(d.Data, "lading", "accounts", name, "state.db")
}
