package sourcetest

import (
	"testing"

	"github.com/xuri/excelize/v2"
)

// WriteBook writes rows of text cells to a new workbook at path, on its
// first sheet, rows numbered from 1 without gaps: a CSV export as a
// spreadsheet program saves it.
func WriteBook(t testing.TB, path string, rows [][]string) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, r := range rows {
		cell, err := excelize.CoordinatesToCellName(1, i+1)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}
