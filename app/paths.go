package app

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"lading/importer"
	"lading/mapping"
)

// namedPath is a file a command reads or writes, with how the user named
// it: "the input file", "--results".
type namedPath struct{ what, path string }

// checkOutputs refuses, as a usage error naming both paths, an output that
// is one of the inputs or another output: writing it would destroy what
// the command reads (the catalog, the mapping, the state) or what it just
// wrote. Then it checks that every output can be written, so that a bad
// path is found before the first request, not after the last.
func checkOutputs(inputs, outputs []namedPath) error {
	for i, out := range outputs {
		for _, other := range append(inputs[:len(inputs):len(inputs)], outputs[:i]...) {
			if sameFile(out.path, other.path) {
				return Usagef("%s %s is the same file as %s %s: lading would overwrite it; choose another file for %s",
					out.what, out.path, other.what, other.path, out.what)
			}
		}
	}
	for _, out := range outputs {
		if err := checkWritable(out); err != nil {
			return err
		}
	}
	return nil
}

// sameFile reports whether a and b name one file: the same path once
// absolute and with its links resolved, or (both existing) the same file
// on disk, which catches hard links and case-insensitive file systems.
func sameFile(a, b string) bool {
	if resolved(a) == resolved(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// resolved is p made absolute with its symbolic links resolved; for a file
// that does not exist yet, those of its directory.
func resolved(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = filepath.Clean(p)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(d, filepath.Base(abs))
	}
	return abs
}

// checkWritable checks that out can be written without writing it: an
// existing file is opened for writing without truncating it, and a new
// file is tried in its directory and removed (results files are written
// beside their final name and renamed, so the directory must take one).
func checkWritable(out namedPath) error {
	fi, err := os.Stat(out.path)
	switch {
	case err == nil && fi.IsDir():
		return Usagef("%s %s is a directory: give a file name, e.g. %s", out.what, out.path, filepath.Join(out.path, "results.csv"))
	case err == nil:
		f, err := os.OpenFile(out.path, os.O_WRONLY, 0)
		if err != nil {
			return Usagef("%s %s cannot be written: %v", out.what, out.path, reason(err))
		}
		f.Close()
	case !errors.Is(err, fs.ErrNotExist):
		return Usagef("%s %s cannot be written: %v", out.what, out.path, reason(err))
	}
	return tryCreateIn(out, filepath.Dir(out.path))
}

// tryCreateIn creates and removes a file in dir, for out.
func tryCreateIn(out namedPath, dir string) error {
	f, err := os.CreateTemp(dir, ".lading-check-*")
	if err != nil {
		return Usagef("%s %s: cannot create a file in %s: %v", out.what, out.path, dir, reason(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// checkStatePath checks that the state file can be opened or created: it
// is not a directory, and its directory exists or can be made (the state
// makes it) under a directory that takes new files.
func checkStatePath(st namedPath) error {
	if fi, err := os.Stat(st.path); err == nil {
		if fi.IsDir() {
			return Usagef("%s %s is a directory: give a file name, e.g. %s", st.what, st.path, filepath.Join(st.path, "state.db"))
		}
		return nil
	}
	dir := filepath.Dir(st.path)
	for {
		fi, err := os.Stat(dir)
		switch {
		case err == nil && !fi.IsDir():
			return Usagef("%s %s: %s is not a directory", st.what, st.path, dir)
		case err == nil:
			return tryCreateIn(st, dir)
		case !errors.Is(err, fs.ErrNotExist):
			return Usagef("%s %s: %v", st.what, st.path, reason(err))
		}
		up := filepath.Dir(dir)
		if up == dir {
			return tryCreateIn(st, dir)
		}
		dir = up
	}
}

// reason is err without the path a *fs.PathError repeats.
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkImportPaths refuses an import whose outputs (results, plan) are one
// of its inputs (the input, the file the mapping joins, the mapping, the
// state) or cannot be written, before anything is read or sent.
func checkImportPaths(c *cli.Context, input string, m *mapping.Mapping) error {
	dry := c.Bool("dry-run")
	inputs := []namedPath{{"the input file", input}}
	if m.Join != nil {
		inputs = append(inputs, namedPath{"the file the mapping joins", importer.JoinedFile(input, m.Join.File)})
	}
	if f := c.String("mapping"); f != "" {
		inputs = append(inputs, namedPath{"the --mapping file", f})
	}
	stateFile := namedPath{"the state file", c.String("state")}
	inputs = append(inputs, stateFile)
	var outputs []namedPath
	switch r := c.String("results"); {
	case r != "":
		outputs = append(outputs, namedPath{"--results", r})
	case !dry: // a dry run writes the results file only when it is named
		outputs = append(outputs, namedPath{"the results file", importer.DefaultResultsPath(input)})
	}
	if p := c.String("plan"); p != "" {
		outputs = append(outputs, namedPath{"--plan", p})
	}
	if err := checkOutputs(inputs, outputs); err != nil {
		return err
	}
	if dry { // a dry run does not open the state
		return nil
	}
	return checkStatePath(namedPath{"--state", stateFile.path})
}
