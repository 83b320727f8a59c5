package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/xuri/excelize/v2"
)

func TestConvert(t *testing.T) {
	const head = "sku,weight,cost,stock,created_at,updated_on\n"
	kinds := []kind{text, number, money, integer, dateTime, date}
	tests := []struct {
		name, csv string
		want      [][]string // the cells as Excel shows them, after the header
		text      []bool     // which cells of the first row are text
	}{
		{"cells of their kinds", head + "SKU-1,0.25,1234.5,7,2016-02-08T22:57:11+00:00,2026-01-05 10:00:00\n",
			[][]string{{"SKU-1", "0.25", "1,234.50", "7", "2016-02-08 22:57:11", "2026-01-05"}},
			[]bool{true, false, false, false, false, false}},
		{"cells not of their kind are text", head + "007,heavy,n/a,-,soon,\n",
			[][]string{{"007", "heavy", "n/a", "-", "soon", ""}},
			[]bool{true, true, true, true, true, false}},
		{"header only", head, nil, nil},
		{"rows", head + "A,1,1,1,,\nB,2,2,2,,\n", [][]string{{"A", "1", "1.00", "1", "", ""}, {"B", "2", "2.00", "2", "", ""}},
			[]bool{true, false, false, false, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, out := writeCSV(t, tt.csv), filepath.Join(t.TempDir(), "out.xlsx")
			n, err := convert(in, out, kinds)
			if err != nil || n != len(tt.want) {
				t.Fatalf("convert = %d, %v; want %d rows", n, err, len(tt.want))
			}
			f, err := excelize.OpenFile(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rows, err := f.GetRows("Sheet1")
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) == 0 || rows[0][0] != "sku" {
				t.Fatalf("rows %q: want the header first", rows)
			}
			for i, w := range tt.want {
				if got := append(rows[i+1], make([]string, len(w)-len(rows[i+1]))...); !slices.Equal(got, w) {
					t.Errorf("row %d: %q, want %q", i+2, got, w)
				}
			}
			for c, isText := range tt.text {
				cell, _ := excelize.CoordinatesToCellName(c+1, 2)
				typ, err := f.GetCellType("Sheet1", cell)
				if err != nil {
					t.Fatal(err)
				}
				if gotText := typ == excelize.CellTypeInlineString || typ == excelize.CellTypeSharedString; gotText != isText {
					t.Errorf("%s: type %v; text %v, want %v", cell, typ, gotText, isText)
				}
			}
		})
	}
}

func TestConvertErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, in string
		kinds    []kind
	}{
		{"fewer kinds than columns", writeCSV(t, "a,b\n1,2\n"), []kind{text}},
		{"more kinds than columns", writeCSV(t, "a,b\n1,2\n"), []kind{text, text, text}},
		{"an empty file", writeCSV(t, ""), []kind{text}},
		{"no file", filepath.Join(dir, "missing.csv"), []kind{text}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, "out.xlsx")
			if _, err := convert(tt.in, out, tt.kinds); err == nil {
				t.Fatal("no error")
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("a workbook was written")
			}
		})
	}
}

func TestParseKinds(t *testing.T) {
	tests := []struct {
		in   string
		want []kind
		ok   bool
	}{
		{"text,integer, number,money,date,datetime", []kind{text, integer, number, money, date, dateTime}, true},
		{"", nil, false},
		{"text,float", nil, false},
		{"header", nil, false},
	}
	for _, tt := range tests {
		got, err := parseKinds(tt.in)
		if (err == nil) != tt.ok || !slices.Equal(got, tt.want) {
			t.Errorf("parseKinds(%q) = %v, %v; want %v (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func writeCSV(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.csv")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
