package paths

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to path whole or not at all, with mode perm:
// into a temporary file beside it, synced to disk, then renamed over
// it. A crash leaves the old file or the new one, never an empty or a
// half-written one (a token store or an accounts registry that cannot be
// fetched again). The folder is created (mode 0700) when missing.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	err = tmp.Chmod(perm)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Replace puts the finished file tmp at path, in the same folder, in one
// step: the path holds the old file or the new one, never part of one.
// A regular file at path is first moved aside, under a hidden name, and
// removed once the new one is in place: renamed over an existing file,
// ext4 (auto_da_alloc, its default) writes the new file out before the
// rename returns, and the next commit to the disk by any program waits
// for it (a million-row results file: some 0.1 s for the rename, 0.1 s
// more for the state's next commit); renamed to a free name, it is
// written out in the background as any other. A crash between the two
// renames leaves no file at path and the old one under its hidden name.
func Replace(tmp, path string) error {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return os.Rename(tmp, path)
	}
	old := asideName(path)
	if old == "" || os.Rename(path, old) != nil {
		return os.Rename(tmp, path)
	}
	if err := os.Rename(tmp, path); err != nil {
		// Put the old file back: the new one stays at tmp for the
		// caller to remove.
		if rerr := os.Rename(old, path); rerr != nil {
			return fmt.Errorf("%w (the old file is at %s)", err, old)
		}
		return err
	}
	os.Remove(old)
	return nil
}

// asideName is a hidden name beside path that no file has, or "" when
// the first hundred tried are all taken.
func asideName(path string) string {
	dir, base := filepath.Split(path)
	for i := range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".%s-old-%d-%d", base, os.Getpid(), i))
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name
		}
	}
	return ""
}
