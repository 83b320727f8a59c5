// Command gen writes the files of testdata/malformed whose bytes matter
// more than their text (invalid UTF-8, NUL, CR-only and UTF-16 text, a
// last line cut off), the workbooks, and the files too large to write by
// hand (1 MB of "[", a lookup table of 200,000 entries). Run it from the
// repository's root:
//
//	go run ./testdata/malformed/gen
//
// It is deterministic: running it again rewrites the same bytes. The
// other files of testdata/malformed are written by hand; testdata/README.md
// says which is which, and e2e/malformed_test.go what each must do.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// header is the generic layout's header (samples/catalog.csv).
const header = "product_key,product_name,product_description,product_notes,tags,sku,description,weight,cost,upc,stock," +
	"option1_name,option1_value,option2_name,option2_value,option3_name,option3_value,tier:Retail,tier:Wholesale"

// good are rows of two valid products, a mug and a tee of two sizes: every
// file holds them, and they must be written whatever else the file holds.
var good = []string{
	"mug,Enamel Mug,,,kitchen,MUG-1,,0.3,2.5,,10,,,,,,,12,6",
	"tee,Linen Tee,,,apparel,TEE-S,,0.2,5,,4,Size,S,,,,,20,10",
	"tee,,,,,TEE-M,,0.2,5,,4,Size,M,,,,,20,10",
}

// capFirst is the valid first row of the cap, a product whose second row
// (cap(...)) the files break: none of the cap's variants may be written.
const capFirst = "cap,Wool Cap,,,,CAP-1,,0.1,3,,5,Size,S,,,,,15,8"

// capRow is the cap's second row with description desc.
func capRow(desc string) string {
	return "cap,,,,,CAP-2," + desc + ",0.1,3,,5,Size,M,,,,,15,8"
}

// bag is a valid product after the cap's broken row: reading goes on.
const bag = "bag,Tote Bag,,,,BAG-1,,0.4,6,,7,,,,,,,25,14"

// lines joins lines with end after each.
func lines(end string, ls ...string) string {
	return strings.Join(ls, end) + end
}

func main() {
	dir := flag.String("dir", "testdata/malformed", "directory to write the files into")
	catalogs := flag.String("catalogs", "testdata/catalogs", "directory of the real catalog exports to save as .xlsx")
	flag.Parse()
	files, err := generate(*catalogs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(*dir, f.name), f.data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}

// file is one generated file.
type file struct {
	name string
	data []byte
}

// generate makes every file.
func generate(catalogs string) ([]file, error) {
	files := textFiles()
	files = append(files, mappingFiles()...)
	books, err := workbooks(catalogs)
	if err != nil {
		return nil, err
	}
	return append(files, books...), nil
}

// textFiles are the CSV files whose bytes cannot be written by hand.
func textFiles() []file {
	all := append([]string{header}, good...)
	withCap := func(broken string) string {
		return lines("\n", append(all, capFirst, broken, bag)...)
	}
	goodText := lines("\n", all...)
	return []file{
		// A windows-1252 "é" in a file read as UTF-8.
		{"invalid-utf8.csv", []byte(withCap(capRow("Caf\xe9 au lait")))},
		// A NUL character inside a cell.
		{"nul-in-cell.csv", []byte(withCap(capRow("wool\x00blend")))},
		// The export stopped in mid-line: the cap's second row has 8 of
		// its 19 cells and no line ending.
		{"cut-off.csv", []byte(lines("\n", append(all, capFirst)...) + "cap,,,,,CAP-2,,0.1")},
		// Cut off in the first row of a product of one row, the hat.
		{"cut-off-lone.csv", []byte(goodText + "hat,Felt Hat,,,,HAT-1,,0.2,4")},
		// Old Mac line endings (Excel's "CSV (Macintosh)"), with a quoted
		// cell holding the delimiter and a line break.
		{"cr-only.csv", []byte(lines("\r", header,
			`mug,Enamel Mug,"Speckled, blue`+"\r"+`enamel",,kitchen,MUG-1,,0.3,2.5,,10,,,,,,,12,6`, good[1], good[2]))},
		{"crlf.csv", []byte(lines("\r\n", all...))},
		{"utf8-bom.csv", append([]byte("\ufeff"), goodText...)},
		{"utf16le-bom.csv", utf16(goodText, false, true)},
		{"utf16be-bom.csv", utf16(goodText, true, true)},
		{"utf16-no-bom.csv", utf16(goodText, false, false)},
	}
}

// utf16 encodes s (ASCII only) as UTF-16, big or little endian, with or
// without a byte order mark.
func utf16(s string, big, bom bool) []byte {
	var out []byte
	put := func(u uint16) {
		if big {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	if bom {
		put(0xFEFF)
	}
	for i := range len(s) {
		put(uint16(s[i]))
	}
	return out
}

// mappingFiles are the hostile mapping files too large or too regular to
// write by hand.
func mappingFiles() []file {
	// base is a mapping of the generic layout with extra lines under
	// variant, before the rest of the file.
	base := func(variant string) string {
		return "group:\n  key: product_key\nproduct:\n  name: product_name\n" +
			"options:\n  pairs:\n    - {name: option1_name, value: option1_value}\n" +
			"variant:\n  sku: sku\n" + variant
	}
	var b strings.Builder
	// A lookup table of 200,000 entries, one "key: value" a line: the
	// description of the variants of good.csv comes from it.
	b.WriteString("# A lookup table of 200,000 entries (testdata/malformed/gen).\n" +
		base("  description:\n    expr: lookup(\"descriptions\", sku, \"none\")\n") + "tables:\n  descriptions:\n")
	for i := range 200_000 {
		fmt.Fprintf(&b, "    S%06d: x\n", i)
	}
	b.WriteString("    MUG-1: Speckled enamel\n    TEE-S: Small linen tee\n")
	lookup := b.String()

	// Structure indented 122 columns deep.
	b.Reset()
	b.WriteString(base("") + "tables:\n  deep:\n")
	for d := range 60 {
		fmt.Fprintf(&b, "%sk%d:\n", strings.Repeat("  ", d+2), d)
	}
	b.WriteString(strings.Repeat("  ", 62) + "leaf: x\n")
	deep := b.String()

	// 2,100 skip rules: more than 2,000 lines besides lookup tables.
	b.Reset()
	b.WriteString(base("") + "skip:\n")
	for i := range 2100 {
		fmt.Fprintf(&b, "  - {when: 'sku == \"X%d\"', reason: rule %d}\n", i, i)
	}
	long := b.String()

	return []file{
		{"mapping-lookup-200k.yaml", []byte(lookup)},
		{"mapping-nested.yaml", []byte(base("") + "tables:\n  t: " + strings.Repeat("[", 1<<20) + "\n")},
		{"mapping-deep-indent.yaml", []byte(deep)},
		{"mapping-many-lines.yaml", []byte(long)},
	}
}
