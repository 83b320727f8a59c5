package results

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

// csvOf is what the CSV sink writes of lines.
func csvOf(t *testing.T, lines [][]string) string {
	t.Helper()
	var b bytes.Buffer
	s := newCSVSink(&b, 4096)
	for _, l := range lines {
		if err := s.Write(l); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.finish(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// encodingCSV is what encoding/csv writes of lines made valid and inert:
// what the CSV sink must write.
func encodingCSV(t *testing.T, lines [][]string) string {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	for _, l := range lines {
		cells := make([]string, len(l))
		for i, c := range l {
			cells[i] = Inert(text(c))
		}
		if err := w.Write(cells); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	return b.String()
}

// The CSV sink writes, byte for byte, what encoding/csv writes of the
// cells made valid UTF-8 and inert.
func TestCSVSinkIsEncodingCSV(t *testing.T) {
	t.Parallel()
	lines := [][]string{
		{"plain", "", "12", "SKU-000001", "a b", "to send"},
		{" lead", "trail ", "\tx", "=1+2", "+1", "-2", "@me", "'=quoted", "''+x", "'plain"},
		{"a,b", `say "hi"`, "two\nlines", "cr\rhere", "crlf\r\n", `\.`, `\`, `.\.`},
		{"é", "\u00a0nbsp", "\u0085nel", "x\x00y", "bad \xff byte", "日本"},
		{},
		{""},
		{"plain", "", "12", "SKU-000002", "a b", "to send"}, // cells repeating a line's
		{" lead", "trail ", "\tx", "=1+2", "+1", "-2", "@me", "'=quoted", "''+x", "'plain"},
	}
	if got, want := csvOf(t, lines), encodingCSV(t, lines); got != want {
		t.Errorf("sink wrote\n%q\nencoding/csv\n%q", got, want)
	}
}

// FuzzCSVSink: any cells (a line's, split at \x1f, twice) are written as
// encoding/csv writes them made valid and inert.
func FuzzCSVSink(f *testing.F) {
	for _, s := range []string{"a\x1fb", " x\x1f=1\x1f\"q\"", "\\.\x1f\xff\x1f\u00a0", "\r\n\x1f,\x1f'-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cells := strings.Split(s, "\x1f")
		lines := [][]string{cells, cells, {"after"}} // twice: a column repeating its cell
		if got, want := csvOf(t, lines), encodingCSV(t, lines); got != want {
			t.Errorf("sink wrote %q, encoding/csv %q", got, want)
		}
	})
}
