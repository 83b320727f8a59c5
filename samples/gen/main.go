// Command gen writes samples/catalog.xlsx from samples/catalog.csv, so that
// both samples hold the same catalog:
//
//	go generate ./samples/...
//
// Weight, cost, stock and tier prices become number cells (as a merchant's
// spreadsheet would hold them); every other cell, UPCs with their leading
// zeros included, stays text.
package main

//go:generate go run . -in ../catalog.csv -out ../catalog.xlsx

import (
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

func main() {
	in := flag.String("in", "samples/catalog.csv", "CSV catalog to read")
	out := flag.String("out", "samples/catalog.xlsx", "XLSX workbook to write")
	flag.Parse()
	if err := convert(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// numericColumn reports whether a generic-layout column holds numbers.
func numericColumn(name string) bool {
	switch name {
	case "weight", "cost", "stock":
		return true
	}
	return strings.HasPrefix(name, "tier:")
}

// convert reads the CSV at in and writes its cells to sheet "Catalog" of a
// new workbook at out.
func convert(in, out string) error {
	recs, err := readCatalog(in)
	if err != nil {
		return err
	}
	const sheet = "Catalog"
	x, err := newWorkbook(sheet)
	if err != nil {
		return err
	}
	defer x.Close()
	if err := writeCells(x, sheet, in, recs); err != nil {
		return err
	}
	if err := styleHeader(x, sheet, len(recs[0])); err != nil {
		return err
	}
	return save(x, out)
}

// readCatalog is the records of the CSV at in, at least its header.
func readCatalog(in string) ([][]string, error) {
	f, err := os.Open(in)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty", in)
	}
	return recs, nil
}

// newWorkbook is an empty workbook whose one sheet is named sheet.
func newWorkbook(sheet string) (*excelize.File, error) {
	x := excelize.NewFile()
	if err := x.SetSheetName("Sheet1", sheet); err != nil {
		x.Close()
		return nil, err
	}
	// Fixed document dates keep the workbook the same from run to run.
	if err := x.SetDocProps(&excelize.DocProperties{
		Created: "2024-01-01T00:00:00Z", Modified: "2024-01-01T00:00:00Z", Creator: "lading samples/gen",
	}); err != nil {
		x.Close()
		return nil, err
	}
	return x, nil
}

// writeCells writes recs, read from in, to sheet, leaving empty cells out.
func writeCells(x *excelize.File, sheet, in string, recs [][]string) error {
	header := recs[0]
	for r, rec := range recs {
		for c, v := range rec {
			if v == "" {
				continue
			}
			cell, err := excelize.CoordinatesToCellName(c+1, r+1)
			if err != nil {
				return err
			}
			var value any = v
			if r > 0 && numericColumn(header[c]) {
				if value, err = number(in, r+1, header[c], v); err != nil {
					return err
				}
			}
			if err := x.SetCellValue(sheet, cell, value); err != nil {
				return err
			}
		}
	}
	return nil
}

// number is v, the cell of column at line of in, as a number; it must be
// written as the number reads back.
func number(in string, line int, column, v string) (float64, error) {
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: line %d, column %s: %q is not a number", in, line, column, v)
	}
	if strconv.FormatFloat(n, 'f', -1, 64) != v {
		return 0, fmt.Errorf("%s: line %d, column %s: write %q as %s so the XLSX cell reads back the same",
			in, line, column, v, strconv.FormatFloat(n, 'f', -1, 64))
	}
	return n, nil
}

// styleHeader makes the first columns cells of sheet's header row bold,
// and freezes the row above the rest.
func styleHeader(x *excelize.File, sheet string, columns int) error {
	bold, err := x.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	last, _ := excelize.CoordinatesToCellName(columns, 1)
	if err := x.SetCellStyle(sheet, "A1", last, bold); err != nil {
		return err
	}
	return x.SetPanes(sheet, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"})
}

// save writes x to out.
func save(x *excelize.File, out string) error {
	// Not SaveAs: it creates the file executable.
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if _, err := x.WriteTo(w); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
