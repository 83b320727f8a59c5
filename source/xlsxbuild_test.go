package source

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/source/sourcetest"
)

// zipPart is one part of a hand-built XLSX package: head, then n times
// fill, then tail, deflated as it is written, so that a part of gigabytes
// costs a few megabytes. With declared set, the directory says the part
// unzips to declared bytes, whatever it holds.
type zipPart struct {
	name       string
	head, tail string
	fill       string
	n          int64
	declared   uint64
}

// workbookParts are the parts of a one-sheet workbook ("Products") around
// the sheet's rows (the XML inside sheetData) and the shared strings (the
// si elements), with one date style (cell style 1: numFmtId 14).
func workbookParts(rows, sst string) []zipPart {
	return bookParts([]testSheet{{name: "Products", rows: rows}}, "", `<xf numFmtId="0"/><xf numFmtId="14"/>`, sst)
}

// testSheet is one worksheet of a hand-built workbook: its name, its
// state ("" for visible, "hidden" or "veryHidden") and its rows (the XML
// inside sheetData).
type testSheet struct{ name, state, rows string }

// bookParts are the parts of a workbook of sheets (sheet i in
// xl/worksheets/sheet<i+1>.xml), with the styles part's numFmt elements
// numFmts and xf elements cellXfs, and the shared strings' si elements sst
// (see sourcetest.Workbook).
func bookParts(sheets []testSheet, numFmts, cellXfs, sst string) []zipPart {
	wb := sourcetest.Workbook{NumFmts: numFmts, CellXfs: cellXfs, Strings: sst}
	for _, sh := range sheets {
		wb.Sheets = append(wb.Sheets, sourcetest.Sheet{Name: sh.name, State: sh.state, Rows: sh.rows})
	}
	var parts []zipPart
	for _, p := range wb.Parts() {
		parts = append(parts, zipPart{name: p.Name, head: p.Text})
	}
	return parts
}

// withPart replaces the part of the same name in parts, or adds it.
func withPart(parts []zipPart, p zipPart) []zipPart {
	out := append([]zipPart(nil), parts...)
	for i := range out {
		if out[i].name == p.name {
			out[i] = p
			return out
		}
	}
	return append(out, p)
}

// sheetPart is the worksheet part with rows, a fill of n times fill
// between head rows and tail rows.
func sheetPart(headRows, fill string, n int64, tailRows string) zipPart {
	return zipPart{name: "xl/worksheets/sheet1.xml",
		head: `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + headRows,
		fill: fill, n: n, tail: tailRows + `</sheetData></worksheet>`}
}

// writeZip writes parts as a ZIP archive to name in a temporary directory.
func writeZip(t testing.TB, name string, parts []zipPart) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for _, part := range parts {
		if err := writeZipPart(zw, part); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeZipPart(zw *zip.Writer, part zipPart) error {
	if part.n == 0 && part.declared == 0 { // small: stored, quick to write
		w, err := zw.CreateHeader(&zip.FileHeader{Name: part.name, Method: zip.Store})
		if err == nil {
			_, err = io.WriteString(w, part.head+part.tail)
		}
		return err
	}
	data, size, crc, err := deflatePart(part)
	if err != nil {
		return err
	}
	if part.declared != 0 {
		size = part.declared
	}
	raw, err := zw.CreateRaw(&zip.FileHeader{Name: part.name, Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(len(data)), UncompressedSize64: size})
	if err != nil {
		return err
	}
	_, err = raw.Write(data)
	return err
}

// deflatePart returns the deflated content of part, its size and CRC-32.
// The fill is deflated once as a run of whole fills of about 1 MiB, and
// that run's blocks repeated: the blocks after a flush refer back only to
// the 32 KiB before them, which is fill in every copy. Gigabytes of fill so
// cost milliseconds. The CRC-32 is left 0 for parts over 256 MiB (a reader
// stops well before their end, where it is checked).
func deflatePart(part zipPart) (_ []byte, size uint64, crc uint32, _ error) {
	var out bytes.Buffer
	fw, err := flate.NewWriter(&out, flate.BestSpeed)
	if err != nil {
		return nil, 0, 0, err
	}
	sum := crc32.NewIEEE()
	w := io.MultiWriter(fw, sum)
	io.WriteString(w, part.head)
	if part.n > 0 {
		perChunk := min(max(1, (1<<20)/int64(len(part.fill))), part.n)
		chunk := strings.Repeat(part.fill, int(perChunk))
		full, rest := part.n/perChunk, part.n%perChunk
		io.WriteString(w, chunk) // this run refers back to the head
		if full > 1 {
			if err := fw.Flush(); err != nil {
				return nil, 0, 0, err
			}
			mark := out.Len()
			io.WriteString(w, chunk)
			if err := fw.Flush(); err != nil {
				return nil, 0, 0, err
			}
			run := bytes.Clone(out.Bytes()[mark:])
			for range full - 2 {
				out.Write(run)
				if part.n*int64(len(part.fill)) <= 256<<20 {
					io.WriteString(sum, chunk)
				}
			}
		}
		io.WriteString(w, strings.Repeat(part.fill, int(rest)))
	}
	io.WriteString(w, part.tail)
	if err := fw.Close(); err != nil {
		return nil, 0, 0, err
	}
	size = uint64(len(part.head)) + uint64(part.n)*uint64(len(part.fill)) + uint64(len(part.tail))
	if size > 256<<20 {
		return out.Bytes(), size, 0, nil
	}
	return out.Bytes(), size, sum.Sum32(), nil
}

// readToEnd opens path and reads it to the end, and returns the row
// errors and the first error that stops reading (nil when none did).
func readToEnd(path string, o Options) (rowErrs []*RowError, fatal error) {
	src, err := Open(path, o)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	for range 1 << 20 {
		_, _, err := src.Next()
		if err == io.EOF {
			return rowErrs, nil
		}
		if re, ok := err.(*RowError); ok {
			rowErrs = append(rowErrs, re)
		} else if err != nil {
			return rowErrs, err
		}
	}
	return rowErrs, nil
}

// emptyTempDir points TMPDIR at a new directory and returns a check that
// it is still empty.
func emptyTempDir(t *testing.T) func() {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return func() {
		t.Helper()
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}
