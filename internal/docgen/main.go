// Command docgen writes lading's command reference from its command
// definitions (app.New): a markdown page and a man page per command, with
// usage, description, flags and their defaults, examples and exit codes,
// and the table of exit codes in exit-codes.md. go generate ./... runs it
// from the repository's root (see main.go); a test fails while what it
// would write differs from what is in docs/.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"lading/app"
)

func main() {
	dir := flag.String("docs", "docs", "the documentation folder")
	flag.Parse()
	if err := generate(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "docgen:", err)
		os.Exit(1)
	}
}

// generated are the folders under docs/ that docgen writes whole.
var generatedDirs = []string{"reference", "man"}

// generate writes the reference under dir and removes the files of
// commands that are no more.
func generate(dir string) error {
	want, err := expected(dir)
	if err != nil {
		return err
	}
	for _, d := range generatedDirs {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if err := os.WriteFile(filepath.Join(dir, name), want[name], 0o644); err != nil {
			return err
		}
	}
	extra, err := unexpected(dir, want)
	for _, name := range extra {
		err = errors.Join(err, os.Remove(filepath.Join(dir, name)))
	}
	return err
}

// expected is every file docgen writes under dir, by path under it, with
// what it should hold.
func expected(dir string) (map[string][]byte, error) {
	pp := pages(app.New(app.Env{}))
	files, err := render(pp)
	if err != nil {
		return nil, err
	}
	text, err := os.ReadFile(filepath.Join(dir, exitCodesFile))
	if err != nil {
		return nil, err
	}
	if files[exitCodesFile], err = withExitTable(text, exitTable(pp)); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, exitCodesFile), err)
	}
	return files, nil
}

// unexpected are the files under dir's generated folders that docgen
// does not write.
func unexpected(dir string, want map[string][]byte) ([]string, error) {
	var extra []string
	for _, d := range generatedDirs {
		entries, err := os.ReadDir(filepath.Join(dir, d))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		for _, e := range entries {
			if name := d + "/" + e.Name(); want[name] == nil {
				extra = append(extra, name)
			}
		}
	}
	return extra, nil
}

// stale are the files under dir that differ from what docgen would
// write, are missing, or should not be there.
func stale(dir string) ([]string, error) {
	want, err := expected(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if have, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(have, want[name]) {
			out = append(out, name)
		}
	}
	extra, err := unexpected(dir, want)
	return append(out, extra...), err
}
