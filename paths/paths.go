// Package paths holds the rules for the files a job reads and writes: an
// input must be there, a file or a folder as asked (CheckInput,
// CheckFolder); an output must not be one of the inputs or another output
// (writing it would destroy what the job reads, or what it just wrote),
// and must be writable before the first request is sent, not found
// unwritable after the last. The command line, a jobs runner and a web
// page check a job's files through it alike; each names the files in its
// own words (Named.What: "--results", "the results file"). It also fills
// in the fields of a file name a run writes ({time}, {date}, {month}), and
// writes small files whole or not at all (WriteFile).
package paths

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Named is a file a job reads or writes, with how the person named it:
// "the input file", "--results". Sheet says an output is written as a
// sheet (a results file, an export), whose name says how: .xlsx or .csv.
type Named struct {
	What, Path string
	Sheet      bool
}

// SameFileError is an output that is one of the inputs, or another
// output.
type SameFileError struct{ Output, Other Named }

func (e *SameFileError) Error() string {
	return fmt.Sprintf("%s %s is the same file as %s %s: lading would overwrite it; choose another file for %s",
		e.Output.What, e.Output.Path, e.Other.What, e.Other.Path, e.Output.What)
}

// WriteError is a file that cannot be written or created where it is
// named.
type WriteError struct {
	File    Named
	Problem string // what is wrong, and what to give instead
}

func (e *WriteError) Error() string { return e.File.What + " " + e.File.Path + e.Problem }

// CheckOutputs refuses, with a *SameFileError, an output that is one of
// the inputs or another output. Then it checks that every output can be
// written, and that a sheet is named .xlsx or .csv (a *WriteError when
// not), so that a bad path is found before the job starts.
func CheckOutputs(inputs, outputs []Named) error {
	for i, out := range outputs {
		for _, other := range append(inputs[:len(inputs):len(inputs)], outputs[:i]...) {
			if Same(out.Path, other.Path) {
				return &SameFileError{Output: out, Other: other}
			}
		}
	}
	for _, out := range outputs {
		if err := checkWritable(out); err != nil {
			return err
		}
		if err := checkSheetName(out); err != nil {
			return err
		}
	}
	return nil
}

// IsXLSX says a sheet named path is written as XLSX: its name ends in
// .xlsx, in any case (else it ends in .csv: see CheckOutputs).
func IsXLSX(path string) bool { return strings.EqualFold(filepath.Ext(path), ".xlsx") }

// checkSheetName refuses a sheet whose name ends other than in .xlsx or
// .csv (in any case): written as CSV, as any name but .xlsx was, a
// report.xls or a report.tsv would not hold what its name says.
func checkSheetName(out Named) error {
	ext := filepath.Ext(out.Path)
	if !out.Sheet || IsXLSX(out.Path) || strings.EqualFold(ext, ".csv") {
		return nil
	}
	base := strings.TrimSuffix(filepath.Base(out.Path), ext)
	return &WriteError{out, fmt.Sprintf(": lading writes .xlsx (Excel) and .csv files only; name it %s.xlsx or %s.csv", base, base)}
}

// Same reports whether a and b name one file: the same path once
// absolute and with its links resolved, or (both existing) the same file
// on disk, which catches hard links and case-insensitive file systems.
func Same(a, b string) bool {
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
func checkWritable(out Named) error {
	fi, err := os.Stat(out.Path)
	switch {
	case err == nil && fi.IsDir():
		return &WriteError{out, fmt.Sprintf(" is a directory: give a file name, e.g. %s", filepath.Join(out.Path, "results.csv"))}
	case err == nil:
		f, err := os.OpenFile(out.Path, os.O_WRONLY, 0)
		if err != nil {
			return &WriteError{out, fmt.Sprintf(" cannot be written: %v", reason(err))}
		}
		f.Close()
	case !errors.Is(err, fs.ErrNotExist):
		return &WriteError{out, fmt.Sprintf(" cannot be written: %v", reason(err))}
	}
	return tryCreateIn(out, filepath.Dir(out.Path))
}

// tryCreateIn creates and removes a file in dir, for out.
func tryCreateIn(out Named, dir string) error {
	f, err := os.CreateTemp(dir, ".lading-check-*")
	if err != nil {
		return &WriteError{out, fmt.Sprintf(": cannot create a file in %s: %v", dir, reason(err))}
	}
	f.Close()
	return os.Remove(f.Name())
}

// CheckState checks that the state file st can be opened or created: it
// is not a directory, and its directory exists or can be made (the state
// makes it) under a directory that takes new files.
func CheckState(st Named) error {
	if fi, err := os.Stat(st.Path); err == nil {
		if fi.IsDir() {
			return &WriteError{st, fmt.Sprintf(" is a directory: give a file name, e.g. %s", filepath.Join(st.Path, "state.db"))}
		}
		return nil
	}
	dir := filepath.Dir(st.Path)
	for {
		fi, err := os.Stat(dir)
		switch {
		case err == nil && !fi.IsDir():
			return &WriteError{st, fmt.Sprintf(": %s is not a directory", dir)}
		case err == nil:
			return tryCreateIn(st, dir)
		case !errors.Is(err, fs.ErrNotExist):
			return &WriteError{st, fmt.Sprintf(": %v", reason(err))}
		}
		up := filepath.Dir(dir)
		if up == dir {
			return tryCreateIn(st, dir)
		}
		dir = up
	}
}

// ReadError is a file or folder a job reads that is not there, cannot be
// read, or is a folder where a file is asked, or the other way round.
type ReadError struct {
	File    Named
	Problem string // what is wrong
	Err     error  // the cause the system gave, if any: errors.Is(err, fs.ErrNotExist)
}

func (e *ReadError) Error() string { return e.File.What + " " + e.File.Path + e.Problem }
func (e *ReadError) Unwrap() error { return e.Err }

// CheckInput is nil when in names a file (or anything but a folder) that
// is there; otherwise a *ReadError.
func CheckInput(in Named) error { return checkRead(in, false) }

// CheckFolder is CheckInput for a folder.
func CheckFolder(in Named) error { return checkRead(in, true) }

func checkRead(in Named, folder bool) error {
	noun := "file"
	if folder {
		noun = "folder"
	}
	fi, err := os.Stat(in.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &ReadError{in, ": there is no such " + noun, err}
	case errors.Is(err, fs.ErrPermission):
		return &ReadError{in, ": lading may not read it (permission denied)", err}
	case err != nil:
		return &ReadError{in, ": " + reason(err).Error(), err}
	case fi.IsDir() && !folder:
		return &ReadError{in, " is a folder: give the file to read", nil}
	case !fi.IsDir() && folder:
		return &ReadError{in, ": not a folder", nil}
	}
	return nil
}

// reason is err without the path a *fs.PathError repeats.
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
