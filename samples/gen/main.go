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
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s: empty", in)
	}

	x := excelize.NewFile()
	defer x.Close()
	const sheet = "Catalog"
	if err := x.SetSheetName("Sheet1", sheet); err != nil {
		return err
	}
	// Fixed document dates keep the workbook the same from run to run.
	if err := x.SetDocProps(&excelize.DocProperties{
		Created: "2024-01-01T00:00:00Z", Modified: "2024-01-01T00:00:00Z", Creator: "lading samples/gen",
	}); err != nil {
		return err
	}
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
				n, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return fmt.Errorf("%s: line %d, column %s: %q is not a number", in, r+1, header[c], v)
				}
				if strconv.FormatFloat(n, 'f', -1, 64) != v {
					return fmt.Errorf("%s: line %d, column %s: write %q as %s so the XLSX cell reads back the same",
						in, r+1, header[c], v, strconv.FormatFloat(n, 'f', -1, 64))
				}
				value = n
			}
			if err := x.SetCellValue(sheet, cell, value); err != nil {
				return err
			}
		}
	}
	bold, err := x.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	last, _ := excelize.CoordinatesToCellName(len(header), 1)
	if err := x.SetCellStyle(sheet, "A1", last, bold); err != nil {
		return err
	}
	if err := x.SetPanes(sheet, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
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
