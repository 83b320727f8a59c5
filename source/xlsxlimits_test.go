package source

import (
	"strings"
	"testing"
)

const (
	headerRow = `<row r="1"><c r="A1" t="inlineStr"><is><t>sku</t></is></c><c r="B1" t="inlineStr"><is><t>name</t></is></c></row>`
	dataRow   = `<row r="2"><c r="A2" t="inlineStr"><is><t>S1</t></is></c><c r="B2" t="s"><v>0</v></c></row>`
)

// Workbooks that unzip to far more than they weigh are refused with an
// error naming the file, the part and the limit, before memory or disk run
// out, and leave no temporary file behind. Each bomb is a few megabytes of
// gigabytes' worth of content, or a limit lowered to meet a smaller one.
func TestXLSXBombsAreRefused(t *testing.T) {
	base := workbookParts(headerRow+dataRow, `<si><t>Tee</t></si>`)
	tests := []struct {
		name   string
		parts  []zipPart
		limits Limits
		want   []string
	}{
		{
			name:  "gigabytes of whitespace in the sheet",
			parts: withPart(base, sheetPart(headerRow, " ", 3<<30, dataRow)),
			want:  []string{`sheet "Products", row 1 (part xl/worksheets/sheet1.xml): a cell value or a run of text or whitespace is longer than 1 MiB (the XLSX cell size limit)`, "raise the limit"},
		},
		{
			name:  "a cell of gigabytes",
			parts: withPart(base, sheetPart(headerRow+`<row r="2"><c r="A2" t="inlineStr"><is><t>`, "x", 2<<30, `</t></is></c></row>`)),
			want:  []string{`sheet "Products", row 2 (part xl/worksheets/sheet1.xml):`, "longer than 1 MiB (the XLSX cell size limit)"},
		},
		{
			name: "a cell made of many short runs",
			parts: withPart(base, sheetPart(headerRow+`<row r="2"><c r="A2" t="inlineStr"><is>`,
				`<r><t>0123456789abcdef</t></r>`, 1<<17, `</is></c></row>`)),
			want: []string{`row 2 (part xl/worksheets/sheet1.xml): a cell's text is longer than 1 MiB (the XLSX cell size limit)`},
		},
		{
			name: "a row of many large cells",
			parts: withPart(base, sheetPart(headerRow+`<row r="2">`,
				`<c t="inlineStr"><is><t>`+strings.Repeat("y", 600<<10)+`</t></is></c>`, 8, `</row>`)),
			want: []string{`row 2 (part xl/worksheets/sheet1.xml): a row's cells together are longer than 4 MiB (the XLSX cell size limit)`},
		},
		{
			name:  "a shared string of gigabytes",
			parts: withPart(base, zipPart{name: "xl/sharedStrings.xml", head: `<sst><si><t>`, fill: "z", n: 2 << 30, tail: `</t></si></sst>`}),
			want:  []string{"part xl/sharedStrings.xml: a cell value or a run of text or whitespace is longer than 1 MiB (the XLSX cell size limit)"},
		},
		{
			name:  "gigabytes of whitespace in the styles",
			parts: withPart(base, zipPart{name: "xl/styles.xml", head: `<styleSheet><cellXfs>`, fill: "\n", n: 60 << 20, tail: `</cellXfs></styleSheet>`}),
			want:  []string{"part xl/styles.xml: a cell value or a run of text or whitespace is longer than 1 MiB (the XLSX cell size limit)"},
		},
		{
			name:  "content types declared at 3 GiB",
			parts: withPart(base, zipPart{name: "[Content_Types].xml", head: `<Types/>`, declared: 3 << 30}),
			want:  []string{"part [Content_Types].xml of the workbook unzips to 3 GiB, more than the 64 MiB such a part ever needs"},
		},
		{
			name:  "styles declared at 3 GiB",
			parts: withPart(base, zipPart{name: "xl/styles.xml", head: `<styleSheet/>`, declared: 3 << 30}),
			want:  []string{"part xl/styles.xml of the workbook unzips to 3 GiB, more than the 64 MiB such a part ever needs"},
		},
		{
			name:  "a sheet declared at 5 GiB",
			parts: withPart(base, zipPart{name: "xl/worksheets/sheet1.xml", head: `<worksheet/>`, declared: 5 << 30}),
			want:  []string{"part xl/worksheets/sheet1.xml of the workbook unzips to 5 GiB, more than the 4 GiB a part may hold (the XLSX part size limit)", "raise the limit"},
		},
		{
			name:   "a sheet over a lowered part size limit",
			parts:  withPart(base, sheetPart(headerRow, dataRow, 40000, "")),
			limits: Limits{MaxPartSize: 1 << 20},
			want:   []string{"part xl/worksheets/sheet1.xml of the workbook unzips to 3.5 MiB, more than the 1 MiB a part may hold (the XLSX part size limit)"},
		},
		{
			name:   "a cell over a lowered cell size limit",
			parts:  withPart(base, sheetPart(headerRow+`<row r="2"><c r="A2"><v>`, "7", 5000, `</v></c></row>`)),
			limits: Limits{MaxCellSize: 4 << 10},
			want:   []string{"row 2 (part xl/worksheets/sheet1.xml): a cell value or a run of text or whitespace is longer than 4 KiB (the XLSX cell size limit)"},
		},
		{
			name:  "a part that unzips to more than the directory says",
			parts: withPart(base, sheetPart(headerRow, " ", 1<<20, dataRow+"  ")),
			want:  []string{"part xl/worksheets/sheet1.xml", "the workbook is damaged"},
		},
	}
	// The last case declares fewer bytes than its part holds.
	tests[len(tests)-1].parts[len(base)-1].declared = 1 << 10
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tempClean := emptyTempDir(t)
			p := writeZip(t, "bomb.xlsx", tt.parts)
			_, err := readToEnd(p, Options{Limits: tt.limits})
			if err == nil {
				t.Fatal("read without error")
			}
			if !strings.HasPrefix(err.Error(), p+": ") {
				t.Errorf("error does not start with the file name: %v", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nwant it to hold %q", err, w)
				}
			}
			tempClean()
		})
	}
}

// The bombs above are built by repeating deflated blocks; a workbook built
// that way reads whole when it is within the limits.
func TestXLSXRepeatedBlocksRead(t *testing.T) {
	t.Parallel()
	row := `<row><c t="inlineStr"><is><t>S</t></is></c><c t="s"><v>0</v></c></row>`
	p := writeZip(t, "big.xlsx", withPart(workbookParts("", `<si><t>Tee</t></si>`), sheetPart(headerRow, row, 40000, "")))
	rowErrs, err := readToEnd(p, Options{})
	if err != nil || len(rowErrs) > 0 {
		t.Fatalf("error %v, row errors %v", err, rowErrs)
	}
	src := openTestSource(t, p, Options{})
	rows := readAll(t, src)
	if len(rows) != 40000 || rows[39999].Line != 40001 || rows[39999].Cells[1] != "Tee" {
		t.Errorf("%d rows, last %+v", len(rows), rows[len(rows)-1])
	}
}
