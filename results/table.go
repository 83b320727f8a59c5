package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"slices"
)

// Table is a CSV results file read back whole: its header and its lines,
// each cell as the job gave it (Revive undoes Inert). lading ui shows it,
// and writes it again in another order or as XLSX (WriteTable).
type Table struct {
	Header []string
	Lines  [][]string
}

// ReadTable reads the CSV results file at path.
func ReadTable(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading the results file: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	t := &Table{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the results file %s: %w", path, err)
		}
		for i, c := range rec {
			rec[i] = Revive(c)
		}
		if t.Header == nil {
			t.Header = rec
			continue
		}
		t.Lines = append(t.Lines, rec)
	}
	return t, nil
}

// Column is the index of the column named name, or -1.
func (t *Table) Column(name string) int { return slices.Index(t.Header, name) }

// WriteTable writes t at path, CSV or XLSX as Create would (cells inert in
// CSV, row numbers as numbers in XLSX). The file appears, whole, only when
// every line is written.
func WriteTable(path string, t *Table) error {
	o, err := create(path)
	if err != nil {
		return err
	}
	for _, cells := range append([][]string{t.Header}, t.Lines...) {
		if err := o.sink.Write(cells); err != nil {
			o.drop()
			return o.wrap(err)
		}
	}
	return o.place()
}
