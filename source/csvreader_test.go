package source

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// csvReaderCases are texts where encoding/csv's rules are easy to get
// wrong: line endings, quotes, the end of the text, long lines.
var csvReaderCases = []struct {
	name, text string
	comma      rune
}{
	{"plain", "a,b,c\n1,2,3\n", ','},
	{"no final line ending", "a,b\n1,2", ','},
	{"CRLF", "a,b\r\n1,2\r\n", ','},
	{"CR before the end", "a,b\n1,2\r", ','},
	{"CR alone inside a line", "a,b\r,c\n1\r\r\n", ','},
	{"empty lines skipped", "\n\r\na,b\n\n\n1,2\n\r\n", ','},
	{"empty cells", ",,\n,\n", ','},
	{"quoted", "\"a\",\"b,c\"\n\"1\"\"x\"\"\",2\n", ','},
	{"quoted over lines", "a,\"x\r\ny\nz\"\n1,2\n", ','},
	{"quoted empty", "\"\",\"\"\n", ','},
	{"quoted at the end without line ending", "a,\"b\"", ','},
	{"bare quote", "a,b\"c\n1,2\n", ','},
	{"text after a closing quote", "a,\"b\"c,d\n1,2\n", ','},
	{"quote not closed", "a,\"b\nc,d\n", ','},
	{"quote not closed, CR at the end", "a,\"b\n\r", ','},
	{"quote not closed on the last line", "a,\"b", ','},
	{"error then more rows", "x\"y,1\n\"a\"b\n2,3\n", ','},
	{"semicolons", "a;b;\"c;d\"\n1;2;3\n", ';'},
	{"tabs", "a\tb\n\"1\"\t2\n", '\t'},
	{"a delimiter of two bytes", "aéb\n\"1é\"é2\n\xc3é\n", 'é'},
	{"a delimiter of four bytes", "a😀b\n\"x\"😀y\n", '😀'},
	{"invalid UTF-8", "\xff,\xfe\n\"\xff\",x\n", ','},
	{"a line longer than the buffer", "a,b\n" + string(bytes.Repeat([]byte("x,"), 700)) + "\n", ','},
	{"a quoted cell longer than the buffer", "a,\"" + string(bytes.Repeat([]byte("y\n"), 700)) + "\"\n", ','},
	{"empty", "", ','},
	{"only line endings", "\n\r\n\r", ','},
}

func TestCSVReaderMatchesEncodingCSV(t *testing.T) {
	t.Parallel()
	for _, tc := range csvReaderCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, size := range []int{1, 7, csvBufferSize} {
				compareCSVReaders(t, []byte(tc.text), tc.comma, size)
			}
		})
	}
}

// A read error after some text comes after the records of that text's
// whole lines, as encoding/csv gives them (it gives what it read of the
// line the error cut with the error, which lading does not take).
func TestCSVReaderReadError(t *testing.T) {
	t.Parallel()
	boom := errors.New("disk gone")
	for _, text := range []string{"a,b\n1,2\n", "a,b\n1,2", "a,\"b\n"} {
		want := csv.NewReader(io.MultiReader(strings.NewReader(text), iotest.ErrReader(boom)))
		want.FieldsPerRecord = -1
		got := newCSVReader(io.MultiReader(strings.NewReader(text), iotest.ErrReader(boom)), ',')
		var wrecs, grecs [][]string
		var werr, gerr error
		for range 10 {
			var rec []string
			if rec, werr = want.Read(); werr != nil {
				break
			}
			wrecs = append(wrecs, rec)
		}
		for range 10 {
			var rec []string
			if rec, gerr = got.Read(); gerr != nil {
				break
			}
			grecs = append(grecs, slices.Clone(rec))
		}
		if !errors.Is(werr, boom) || !errors.Is(gerr, boom) || !slices.EqualFunc(wrecs, grecs, slices.Equal) {
			t.Errorf("%q: encoding/csv %q, %v; csvReader %q, %v", text, wrecs, werr, grecs, gerr)
		}
	}
}

// FuzzCSVReaderMatchesEncodingCSV reads arbitrary text with csvReader and
// with encoding/csv: the same records, errors, lines and offsets.
func FuzzCSVReaderMatchesEncodingCSV(f *testing.F) {
	for _, tc := range csvReaderCases {
		f.Add([]byte(tc.text), uint8(0), uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, delim, size uint8) {
		commas := []rune{',', ';', '\t', '|', 'é', '😀'}
		compareCSVReaders(t, data, commas[int(delim)%len(commas)], int(size)%32+1)
	})
}

// compareCSVReaders reads text with both readers, a buffer of size bytes
// for csvReader, and fails at the first difference.
func compareCSVReaders(t *testing.T, text []byte, comma rune, size int) {
	t.Helper()
	want := csv.NewReader(bytes.NewReader(text))
	want.Comma, want.FieldsPerRecord = comma, -1
	got := newCSVReader(iotest.DataErrReader(iotest.HalfReader(bytes.NewReader(text))), comma)
	got.buf = make([]byte, size)
	for n := 0; n <= len(text)+1; n++ {
		wrec, werr := want.Read()
		grec, gerr := got.Read()
		if werr == io.EOF || gerr == io.EOF {
			if werr != gerr {
				t.Fatalf("%q (comma %q, buffer %d), record %d: encoding/csv %q, %v; csvReader %q, %v", text, comma, size, n, wrec, werr, grec, gerr)
			}
			return
		}
		if !sameCSVError(werr, gerr) || werr == nil && !slices.Equal(wrec, grec) {
			t.Fatalf("%q (comma %q, buffer %d), record %d: encoding/csv %q, %v; csvReader %q, %v", text, comma, size, n, wrec, werr, grec, gerr)
		}
		if werr == nil {
			if line, _ := want.FieldPos(0); line != got.Line() {
				t.Fatalf("%q, record %d: line %d, want %d", text, n, got.Line(), line)
			}
		}
		if want.InputOffset() != got.InputOffset() {
			t.Fatalf("%q, record %d: offset %d, want %d", text, n, got.InputOffset(), want.InputOffset())
		}
	}
	t.Fatalf("%q: more records than bytes", text)
}

// sameCSVError reports whether a and b are both nil, or the same parse
// error.
func sameCSVError(a, b error) bool {
	var pa, pb *csv.ParseError
	if errors.As(a, &pa) && errors.As(b, &pb) {
		return *pa == *pb
	}
	return a == nil && b == nil
}

// BenchmarkCSVReader reads a Shopify export's shape: a product's first
// row, with quoted cells, and three rows of its variants, without quotes.
func BenchmarkCSVReader(b *testing.B) {
	product := "classic-tee-1,Classic Tee 1,\"<p>The classic tee, made to last.</p>\",Lading Goods,Tee,\"Classic, Tee\",TRUE,Color,Red,Size,S,,,SH000001-RED-S,200,shopify,0,deny,manual,10,12,TRUE,TRUE,050000000000,4,active\n"
	variant := "classic-tee-1,,,,,,,,Red,,M,,,SH000001-RED-M,250,shopify,13,deny,manual,10,12,TRUE,TRUE,050000000007,4,\n"
	text := bytes.Repeat([]byte(product+variant+variant+variant), 10000)
	b.Run("encoding-csv", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			r := csv.NewReader(bytes.NewReader(text))
			r.ReuseRecord, r.FieldsPerRecord = true, -1
			for _, err := r.Read(); err == nil; _, err = r.Read() {
			}
		}
	})
	b.Run("csvReader", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			r := newCSVReader(bytes.NewReader(text), ',')
			for _, err := r.Read(); err == nil; _, err = r.Read() {
			}
		}
	})
}
