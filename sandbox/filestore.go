package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// fileStore keeps the bytes of product files out of the database. Beside
// a file-backed database they are files in a folder of their own
// (DBPath + ".files", one file per product file, named by its id), so
// they outlive a restart as the records do. An in-memory sandbox keeps
// them in memory up to a bound (Options.MaxMemoryFileBytes, all files
// together) and beyond it in a temporary folder removed on Close, so that
// a benchmark uploading gigabytes does not hold them in memory.
type fileStore struct {
	mu sync.Mutex
	// dir holds the files written to disk; "" until an in-memory store
	// first spills.
	dir  string
	temp bool // dir is the in-memory store's temporary folder
	mem  map[int64][]byte
	// used counts the bytes held in mem, limit bounds them; limit < 0
	// means everything goes to dir.
	used, limit int64
}

// newFileStore is the store of a sandbox whose database is dbPath ("" for
// one in memory), holding at most memLimit bytes in memory.
func newFileStore(dbPath string, memLimit int64) (*fileStore, error) {
	if dbPath == "" {
		return &fileStore{mem: map[int64][]byte{}, limit: memLimit, temp: true}, nil
	}
	dir := dbPath + ".files"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sandbox: the folder of the product files: %w", err)
	}
	return &fileStore{dir: dir, limit: -1}, nil
}

// put stores the bytes of product file id.
func (s *fileStore) put(id int64, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limit >= 0 && s.used+int64(len(data)) <= s.limit {
		s.mem[id] = data
		s.used += int64(len(data))
		return nil
	}
	if s.dir == "" {
		dir, err := os.MkdirTemp("", "lading-sandbox-files-")
		if err != nil {
			return fmt.Errorf("sandbox: a folder for product files: %w", err)
		}
		s.dir = dir
	}
	tmp, err := os.CreateTemp(s.dir, ".upload-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.path(id))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("sandbox: storing product file %d: %w", id, err)
	}
	return nil
}

func (s *fileStore) path(id int64) string { return filepath.Join(s.dir, strconv.FormatInt(id, 10)) }

// get returns the bytes of product file id; fs.ErrNotExist when it has
// none.
func (s *fileStore) get(id int64) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.mem[id]; ok {
		return b, nil
	}
	if s.dir == "" {
		return nil, fs.ErrNotExist
	}
	return os.ReadFile(s.path(id))
}

// reset forgets every file.
func (s *fileStore) reset() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mem, s.used = map[int64][]byte{}, 0
	if s.dir == "" {
		return nil
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		errs = append(errs, os.Remove(filepath.Join(s.dir, e.Name())))
	}
	return errors.Join(errs...)
}

// close removes the temporary folder of an in-memory store.
func (s *fileStore) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mem = nil
	if s.temp && s.dir != "" {
		return os.RemoveAll(s.dir)
	}
	return nil
}
