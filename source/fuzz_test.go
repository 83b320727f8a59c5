package source

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzCSVSource feeds arbitrary bytes to the CSV source: it must not panic,
// every row must be as wide as the header, and lines must not go backwards.
func FuzzCSVSource(f *testing.F) {
	for _, seed := range []string{
		"a,b\n1,2\n",
		"a;b\r\n\"x\ny\";2\r\n",
		"\uFEFFsku\tqty\n\t\nA\t1\t9\n",
		"a,b\n1,\"open\n",
		"\xff\xfea\x00,\x00b\x00\n\x001\x00,\x002\x00\n\x00",
		"a|b\n\"x\"y|z\n",
	} {
		f.Add([]byte(seed), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, headerRow uint8) {
		s, err := newCSVSource("fuzz.csv", bytes.NewReader(data), Options{HeaderRow: int(headerRow%4) + 1})
		if err != nil {
			return
		}
		last := 0
		for {
			row, line, err := s.Next()
			if err == io.EOF {
				return
			}
			var re *RowError
			if err != nil && !errors.As(err, &re) {
				t.Fatalf("fatal error from a bytes reader: %v", err)
			}
			if row != nil && len(row) != len(s.Header()) {
				t.Fatalf("row width %d, header %d", len(row), len(s.Header()))
			}
			if line < last {
				t.Fatalf("line %d after %d", line, last)
			}
			last = line
		}
	})
}
