package app

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// versionInfo is which lading this is, as the Go toolchain recorded it in
// the binary: the module's version ("(devel)" for a build from a
// checkout), the commit and its time, and whether the checkout had
// changes.
type versionInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
}

func readVersion() versionInfo {
	v := versionInfo{Version: "(unknown)"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Version, v.Go = bi.Main.Version, bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// versionLine is the version as lading --version prints it: "(devel),
// commit 5f61d6c4a1b2 of 2026-03-01T10:00:00Z (modified), go1.26.8".
func versionLine() string {
	v := readVersion()
	s := v.Version
	if v.Commit != "" {
		s += fmt.Sprintf(", commit %.12s", v.Commit)
		if v.Time != "" {
			s += " of " + v.Time
		}
		if v.Modified {
			s += " (modified)"
		}
	}
	return s + ", " + v.Go
}

func versionCommand(b *builder) *cli.Command {
	o := &globalOptions{}
	return b.leaf(&cli.Command{
		Name:  "version",
		Usage: "print which lading this is (as lading --version does)",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return o.emit(b.env, readVersion(), func(w io.Writer) { fmt.Fprintf(w, "lading version %s\n", versionLine()) })
		},
	}, o, doc{examples: []example{{"which lading this is", "lading version"}, {"the same as JSON, for a script", "lading version --json"}}})
}
