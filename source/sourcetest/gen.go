package sourcetest

import (
	"bufio"
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"

	"github.com/xuri/excelize/v2"
)

// GenericColumns are the columns of the generic catalog layout (one row per
// variant), as in samples/catalog.csv and templates/generic.yaml.
var GenericColumns = []string{
	"product_key", "product_name", "product_description", "product_notes", "tags",
	"sku", "description", "weight", "cost", "upc", "stock",
	"option1_name", "option1_value", "option2_name", "option2_value", "option3_name", "option3_value",
	"tier:Retail", "tier:Wholesale",
}

// genNumeric marks the GenericColumns written as numbers to XLSX.
var genNumeric = map[string]bool{"weight": true, "cost": true, "stock": true, "tier:Retail": true, "tier:Wholesale": true}

var (
	genColors = []string{"Red", "Blue", "Green", "Black", "White", "Grey", "Navy", "Olive"}
	genSizes  = []string{"S", "M", "L", "XL"}
	genNouns  = []string{"Tee", "Hoodie", "Cap", "Jacket", "Sock", "Scarf", "Tote", "Mug"}
	genAdjs   = []string{"Classic", "Organic", "Vintage", "Everyday", "Alpine", "Coastal", "Urban", "Studio"}
)

// GenerateCatalogCSV writes a synthetic catalog in the generic layout:
// products × variantsPer rows after the header. Product cells are given on
// each product's first row only; variants are Color × Size combinations
// (plus an Edition option beyond 32 per product), none when variantsPer is
// 1. The output is deterministic.
func GenerateCatalogCSV(w io.Writer, products, variantsPer int) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	cw := csv.NewWriter(bw)
	if err := cw.Write(GenericColumns); err != nil {
		return err
	}
	row := make([]string, len(GenericColumns))
	for p := range products {
		for v := range variantsPer {
			genRow(row, p, v, variantsPer)
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// GenerateCatalogXLSX writes the catalog of GenerateCatalogCSV to a new
// workbook at path (sheet "Catalog"), with excelize's StreamWriter. Weight,
// cost, stock and tier prices are number cells; the rest are text.
func GenerateCatalogXLSX(path string, products, variantsPer int) error {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Catalog"); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter("Catalog")
	if err != nil {
		return err
	}
	cells := make([]any, len(GenericColumns))
	for i, c := range GenericColumns {
		cells[i] = c
	}
	if err := sw.SetRow("A1", cells); err != nil {
		return err
	}
	row := make([]string, len(GenericColumns))
	r := 2
	for p := range products {
		for v := range variantsPer {
			genRow(row, p, v, variantsPer)
			if err := sw.SetRow("A"+strconv.Itoa(r), xlsxCells(cells, row)); err != nil {
				return err
			}
			r++
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.SaveAs(path)
}

// xlsxCells fills cells from row, turning numeric generic columns into
// float64 and dropping empty cells.
func xlsxCells(cells []any, row []string) []any {
	for i, v := range row {
		switch {
		case v == "":
			cells[i] = nil
		case genNumeric[GenericColumns[i]]:
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				cells[i] = v
			} else {
				cells[i] = n
			}
		default:
			cells[i] = v
		}
	}
	return cells
}

// genRow fills row with variant v of product p.
func genRow(row []string, p, v, variantsPer int) {
	clear(row)
	key := fmt.Sprintf("P%06d", p+1)
	row[0] = key
	if v == 0 {
		adj, noun := genAdjs[p%len(genAdjs)], genNouns[(p/len(genAdjs))%len(genNouns)]
		row[1] = fmt.Sprintf("%s %s %d", adj, noun, p+1)
		row[2] = fmt.Sprintf("The %s %s, made to last. Machine washable, \"true to size\".", adj, noun)
		if p%5 == 0 {
			row[3] = "Restocked every season;\nask the warehouse before reordering."
		}
		row[4] = genAdjs[p%len(genAdjs)] + "|" + genNouns[(p/len(genAdjs))%len(genNouns)]
	}
	var opts []string
	if variantsPer > 1 {
		color := genColors[(v/len(genSizes))%len(genColors)]
		size := genSizes[v%len(genSizes)]
		row[11], row[12], row[13], row[14] = "Color", color, "Size", size
		opts = append(opts, color, size)
		if variantsPer > len(genColors)*len(genSizes) {
			ed := strconv.Itoa(v/(len(genColors)*len(genSizes)) + 1)
			row[15], row[16] = "Edition", ed
			opts = append(opts, ed)
		}
	}
	sku := key
	desc := ""
	for i, o := range opts {
		sku += "-" + o
		if i > 0 {
			desc += " / "
		}
		desc += o
	}
	row[5] = sku
	row[6] = desc
	n := p*variantsPer + v
	row[7] = strconv.FormatFloat(0.2+float64(n%9)*0.05, 'f', 2, 64)
	row[7] = trimDecimal(row[7])
	cost := 4 + float64(p%40)/2
	row[8] = trimDecimal(strconv.FormatFloat(cost, 'f', 2, 64))
	row[9] = fmt.Sprintf("%012d", 40000000000+int64(n)*7)
	row[10] = strconv.Itoa((n * 13) % 120)
	row[17] = trimDecimal(strconv.FormatFloat(cost*2.5, 'f', 2, 64))
	row[18] = trimDecimal(strconv.FormatFloat(cost*1.6, 'f', 2, 64))
}

// trimDecimal drops trailing zeros (and a bare point) from a decimal, so
// the CSV and XLSX forms of a number read back the same.
func trimDecimal(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			for len(s) > i && (s[len(s)-1] == '0' || s[len(s)-1] == '.') {
				s = s[:len(s)-1]
			}
			break
		}
	}
	return s
}

// GenerateCatalogXLSXShared writes the catalog of GenerateCatalogCSV to a
// new workbook at path as Excel saves one: text cells refer to the shared
// strings, and the prices and costs have a style (number format 0.00). It
// writes the package itself, since excelize's StreamWriter writes inline
// strings only.
func GenerateCatalogXLSXShared(path string, products, variantsPer int) error {
	wb := Workbook{Sheets: []Sheet{{Name: "Catalog"}}, CellXfs: `<xf numFmtId="0"/><xf numFmtId="2" applyNumberFormat="1"/>`}
	var parts []Part
	for _, p := range wb.Parts() {
		if p.Name != "xl/worksheets/sheet1.xml" && p.Name != "xl/sharedStrings.xml" {
			parts = append(parts, p)
		}
	}
	var strs []string
	return writeParts(path, parts, []streamedPart{
		{"xl/worksheets/sheet1.xml", func(w io.Writer) (err error) {
			strs, err = writeSharedSheet(w, products, variantsPer)
			return err
		}},
		{"xl/sharedStrings.xml", func(w io.Writer) error {
			bw := bufio.NewWriterSize(w, 64<<10)
			fmt.Fprintf(bw, `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" uniqueCount="%d">`, len(strs))
			for _, s := range strs {
				bw.WriteString("<si><t>")
				xml.EscapeText(bw, []byte(s))
				bw.WriteString("</t></si>")
			}
			bw.WriteString("</sst>")
			return bw.Flush()
		}},
	})
}

// writeSharedSheet writes the worksheet of GenerateCatalogXLSXShared to w
// and returns its shared strings in order.
func writeSharedSheet(w io.Writer, products, variantsPer int) ([]string, error) {
	bw := bufio.NewWriterSize(w, 256<<10)
	bw.WriteString(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
	index := map[string]int{}
	var strs []string
	writeRow := func(r int, row []string) {
		fmt.Fprintf(bw, `<row r="%d">`, r)
		for i, v := range row {
			ref := colName(i+1) + strconv.Itoa(r)
			switch {
			case v == "":
			case r > 1 && genNumeric[GenericColumns[i]]:
				style := ""
				if GenericColumns[i] != "weight" && GenericColumns[i] != "stock" {
					style = ` s="1"`
				}
				fmt.Fprintf(bw, `<c r="%s"%s><v>%s</v></c>`, ref, style, v)
			default:
				n, ok := index[v]
				if !ok {
					n = len(strs)
					index[v] = n
					strs = append(strs, v)
				}
				fmt.Fprintf(bw, `<c r="%s" t="s"><v>%d</v></c>`, ref, n)
			}
		}
		bw.WriteString("</row>")
	}
	writeRow(1, GenericColumns)
	row := make([]string, len(GenericColumns))
	r := 2
	for p := range products {
		for v := range variantsPer {
			genRow(row, p, v, variantsPer)
			writeRow(r, row)
			r++
		}
	}
	bw.WriteString("</sheetData></worksheet>")
	return strs, bw.Flush()
}

// colName is the letters of the 1-based column n: 1 is A, 27 is AA.
func colName(n int) string {
	s := ""
	for ; n > 0; n = (n - 1) / 26 {
		s = string(rune('A'+(n-1)%26)) + s
	}
	return s
}
