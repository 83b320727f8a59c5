package mapping

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// Hostile YAML is refused before the YAML parser, whose time and memory
// grow with the square of the nesting: 1 MB of "[" took gigabytes.
func TestYAMLLimits(t *testing.T) {
	t.Parallel()
	var blocks, tiers strings.Builder
	blocks.WriteString("a:\n")
	for i := 1; i <= 200; i++ {
		blocks.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	tiers.WriteString(minimal + "tiers:\n  columns:\n")
	for i := range 2500 {
		fmt.Fprintf(&tiers, "    T%d: {value: \"1\"}\n", i)
	}
	tests := []struct {
		name, yaml string
		line, col  int
		want       string
	}{
		{"nested [", "x: " + strings.Repeat("[", 100_000), 1, 36, "[ and { are nested more than 32 deep here"},
		{"nested {", "x: " + strings.Repeat("{a: ", 50_000), 1, 132, "[ and { are nested more than 32 deep here"},
		{"nested blocks", blocks.String(), 121, 121, "indented more than 120 columns"},
		{"nested lists", "x:\n" + strings.Repeat("- ", 100), 2, 121, `(or more than 60 "- " on a line)`},
		{"too many lines", tiers.String(), 2001, 1, "the mapping is too long: a mapping file may have at most 2000 lines or 256 KiB besides its lookup tables"},
		{"a long line", "x: \"" + strings.Repeat("y", 300<<10) + "\"\n", 1, 1, "at most 2000 lines or 256 KiB"},
		{"too large a file", minimal + "# " + strings.Repeat("x", 64<<20) + "\n", 0, 0, "a mapping file may be at most 64 MiB"},
		{"a Windows code page", minimal + "tables:\n  sizes:\n    Gr\xf6\xdfe: Size\n", 7, 7, "byte 0xF6 is not UTF-8: save the mapping file as UTF-8"},
		{"not UTF-8 after a letter that is", "# Größe\nx: \xa1\n", 2, 4, "byte 0xA1 is not UTF-8"},
		{"UTF-16", "\xff\xfe" + "x\x00:\x00 \x001\x00", 1, 1, "the file is UTF-16; save the mapping file as UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("m.yaml", []byte(tt.yaml))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T), want *Error", err, err)
			}
			if e.File != "m.yaml" || e.Line != tt.line || e.Column != tt.col || !strings.Contains(e.Msg, tt.want) {
				t.Errorf("error %q at %d:%d, want %d:%d and %q", err, e.Line, e.Column, tt.line, tt.col, tt.want)
			}
		})
	}
}

// lookupTable is a mapping with a table t of n entries k<i>: v<i>, written
// in turn plain, quoted and with a comment.
func lookupTable(n int) []byte {
	var b strings.Builder
	b.WriteString(minimal + "tables:\n  t:\n")
	for i := range n {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "    k%d: v%d\n", i, i)
		case 1:
			fmt.Fprintf(&b, "    \"k%d\": 'v%d'\n", i, i)
		default:
			fmt.Fprintf(&b, "    k%d: v%d   # the %dth\n", i, i, i)
		}
	}
	b.WriteString("variant:\n  sku: SKU\n")
	return []byte(b.String())
}

// A lookup table loads in time and memory in proportion to its entries
// (200,000 entries took 59 s and 838 MB).
func TestLargeLookupTable(t *testing.T) {
	const n = 200_000
	data := lookupTable(n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, err := Parse("m.yaml", data)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(m.Tables["t"]); got != n {
		t.Fatalf("%d entries, want %d", got, n)
	}
	for _, i := range []int{0, 1, 2, n - 1} {
		if k := fmt.Sprint("k", i); m.Tables["t"][k] != fmt.Sprint("v", i) {
			t.Errorf("t[%s] = %q", k, m.Tables["t"][k])
		}
	}
	if m.Variant.SKU == nil || m.Variant.SKU.Column != "SKU" || m.Variant.SKU.Pos != (Pos{200_008, 8}) {
		t.Errorf("variant.sku after the table: %+v", m.Variant.SKU)
	}
	// A few times the file (5 MB), not its square.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 40*uint64(len(data)) {
		t.Errorf("parsing %d bytes allocated %d MB", len(data), alloc>>20)
	}
}

func BenchmarkLookupTable200k(b *testing.B) {
	data := lookupTable(200_000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("m.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// Tables read on the side are what the YAML parser reads; the others are
// left to it.
func TestFastTablesAgreeWithYAML(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, tables string
		fast         bool // read on the side
	}{
		{"plain", "  t:\n    rouge: Red\n    bleu clair: Light blue\n", true},
		{"quoted", "  t:\n    \"a: b\": 'it''s # not a comment'\n    'c': \"d e\"\n", true},
		{"comments", "  # colours\n  t:   # French\n    rouge: Red # the red\n    # none\n    vert: \"Green\"  # the green\n\n  u:\n    a: b\n", true},
		{"nulls", "  t:\n    a:\n    b: ~\n    c: null\n    d: # nothing\n", true},
		{"scalars", "  t:\n    1: one\n    yes: oui\n    x: 0x1F\n    y: -5\n    z: 1.50\n    w: .inf\n    v: 2024-03-01\n    u: true\n", true},
		{"punctuation", "  t:\n    url: http://example.com/a#b\n    list: a, b\n    at: a@b\n    é: ü\n    p: 50%\n", true},
		{"crlf", "  t:\r\n    a: b\r\n    c: \"d\"\r\n", true},
		{"flow", "  t: {a: b, c: d}\n", false},
		{"anchor", "  t:\n    a: &x b\n    c: d\n", false},
		{"escape", "  t:\n    a: \"tab\\there\"\n", false},
		{"block scalar", "  t:\n    a: |\n      two\n      lines\n    b: c\n", false},
		{"continued", "  t:\n    a: one\n      two\n", false},
		{"mixed", "  t: {a: b}\n  u:\n    c: d\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(minimal + "tables:\n" + tt.tables + "variant:\n  sku: SKU\n")
			_, fast := fastTables("m.yaml", data)
			if (fast != nil) != tt.fast {
				t.Errorf("read on the side: %v, want %v", fast != nil, tt.fast)
			}
			got, err := Parse("m.yaml", data)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := parse("m.yaml", data, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Tables, want.Tables) || !reflect.DeepEqual(got.Variant, want.Variant) {
				t.Errorf("tables %q, the YAML parser reads %q", got.Tables, want.Tables)
			}
		})
	}
}

func TestFastTableDuplicateKey(t *testing.T) {
	t.Parallel()
	_, err := Parse("m.yaml", []byte(minimal+"tables:\n  t:\n    a: b\n    c: d\n    'a': e\n"))
	if err == nil || err.Error() != `m.yaml:9:5: tables.t: key "a" is given twice (lines 7 and 9); keep one` {
		t.Errorf("error %v", err)
	}
}
