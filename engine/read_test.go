package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/mapping"
	"lading/source"
)

type stockLine struct {
	Fate
	SKU string
	OK  bool
}

// Read makes every row a line with its row number, and settles the rows
// that cannot be sent: a cell the file reader refused, a value the
// mapping refused, one the job refused, a skip rule.
func TestReadSettlesEveryRowThatCannotBeSent(t *testing.T) {
	t.Parallel()
	m, err := mapping.Parse("m.yaml", []byte("stock:\n  sku: SKU\n  quantity: Qty\nskip:\n  - when: Qty == \"gone\"\n    reason: \"{SKU} is gone\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "stock.csv")
	body := "SKU,Qty\nA,4\nB,-1\nC,gone\nD,7,extra\nE,99\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := Read(context.Background(), m, path, source.Limits{}, nil,
		func(name string, header []string) (Section[mapping.StockRow], error) {
			return m.CompileStock(name, header)
		},
		func(l *stockLine, v *mapping.StockRow, ok bool) error {
			l.SKU, l.OK = v.SKU, ok
			if ok && v.Quantity == "99" {
				return errors.New("99 is too many")
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		row    int
		sku    string
		status Status
		msg    string
		ok     bool
	}{
		{2, "A", "", "", true},
		{3, "B", Invalid, "must be 0 or more", false},
		{4, "C", Skipped, "C is gone", false},
		{5, "D", Invalid, "column 3 holds \"extra\" without a header", false},
		{6, "E", Invalid, "99 is too many", true},
	}
	if in.File != path || len(in.Lines) != len(want) {
		t.Fatalf("file %q, %d lines", in.File, len(in.Lines))
	}
	for i, w := range want {
		l := in.Lines[i]
		if l.Row != w.row || l.SKU != w.sku || l.Action != w.status || !strings.Contains(l.Msg, w.msg) || l.OK != w.ok {
			t.Errorf("line %d: %+v, want %+v", i, l, w)
		}
	}
}
