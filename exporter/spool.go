package exporter

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
)

// spoolRow is a row whose last columns are only known once every row has
// been read: Extra holds them by column name (a catalog's pricing tiers,
// found page by page).
type spoolRow struct {
	Cells []string          `json:"c"`
	Extra map[string]string `json:"x,omitempty"`
}

// spool keeps rows on disk, not in memory, until the columns are known,
// so that an export of any size holds only the names of the extra columns.
type spool struct {
	f     *os.File
	w     *bufio.Writer
	enc   *json.Encoder
	extra map[string]bool
	rows  int
}

func newSpool(dir string) (*spool, error) {
	f, err := os.CreateTemp(dir, ".export-spool-*")
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 256<<10)
	return &spool{f: f, w: w, enc: json.NewEncoder(w), extra: map[string]bool{}}, nil
}

func (s *spool) add(r spoolRow) error {
	for k := range r.Extra {
		s.extra[k] = true
	}
	s.rows++
	return s.enc.Encode(r)
}

// each reads the rows back, in the order they were added.
func (s *spool) each(fn func(spoolRow) error) error {
	if err := s.w.Flush(); err != nil {
		return err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	dec := json.NewDecoder(bufio.NewReaderSize(s.f, 256<<10))
	for {
		var r spoolRow
		err := dec.Decode(&r)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
}

// close removes the spool's file.
func (s *spool) close() {
	s.f.Close()
	os.Remove(s.f.Name())
}
