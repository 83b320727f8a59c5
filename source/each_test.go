package source_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/source"
)

// Each hands on good rows, rows with a complaint (cells or none), and
// stops at a cancelled context.
func TestEach(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "in.csv")
	os.WriteFile(path, []byte("sku,qty\nA,1\nB,2,extra\n\"C,3\nD,4\n"), 0o644)
	src, err := source.Open(path, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var got []string
	var seen []int
	n, err := source.Each(context.Background(), src, func(rows int) { seen = append(seen, rows) }, func(cells []string, line int, re *source.RowError) {
		s := strings.Join(cells, "|")
		if re != nil {
			s += " ! " + re.InColumn(src.Header())
		}
		got = append(got, s)
	})
	if err != nil || n != len(got) || len(seen) != 1 || seen[0] != n {
		t.Fatalf("Each: %d rows, %v, progress %v; rows %q", n, err, seen, got)
	}
	if got[0] != "A|1" || !strings.Contains(got[1], "B|2 ! ") {
		t.Errorf("rows %q", got)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var b strings.Builder
	b.WriteString("sku\n")
	for i := range 5000 {
		b.WriteString("S" + strings.Repeat("x", i%3) + "\n")
	}
	os.WriteFile(path, []byte(b.String()), 0o644)
	src2, err := source.Open(path, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src2.Close()
	if n, err := source.Each(ctx, src2, nil, func([]string, int, *source.RowError) {}); err == nil || n != 4096 {
		t.Errorf("a cancelled read: %d rows, %v; want it stopped at 4096", n, err)
	}
}
